package runner_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// An override that cannot apply is an *OverrideError naming its field,
// labelled as Label says.
func TestOverridesErrorNamesField(t *testing.T) {
	loss, topology, nodes := 2.0, "ring", 0
	for _, c := range []struct {
		o      runner.Overrides
		fields []string
		msg    string
	}{
		{runner.Overrides{Loss: &loss}, []string{"loss"}, "loss: 2 is outside [0, 1)"},
		{runner.Overrides{Loss: &loss, Label: func(f string) string { return "--" + f }}, []string{"loss"}, "--loss: 2 is outside [0, 1)"},
		{runner.Overrides{Topology: &topology, Nodes: &nodes}, []string{"topology", "nodes"}, `topology, nodes: topology "ring" (nodes=0): ring needs at least 3 nodes, got 0`},
	} {
		err := c.o.Apply(scenario.Default())
		var oe *runner.OverrideError
		if !errors.As(err, &oe) || !slices.Equal(oe.Fields, c.fields) || err.Error() != c.msg {
			t.Errorf("%v: want an OverrideError of %v saying %q", err, c.fields, c.msg)
		}
	}
}

// Overrides set only what they hold, and a valid one applies.
func TestOverridesApply(t *testing.T) {
	algo, seed := "echo", uint64(7)
	s := scenario.Default()
	var notes []string
	o := runner.Overrides{Algorithm: &algo, Seed: &seed, Note: func(n string) { notes = append(notes, n) }}
	if err := o.Apply(s); err != nil {
		t.Fatal(err)
	}
	if s.Algorithm != "echo" || s.Seed != 7 || s.Topology != scenario.Default().Topology {
		t.Errorf("got %s seed %d on %s", s.Algorithm, s.Seed, s.Topology)
	}
}
