package node

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

// SuitsRuntime names the first assumption of a model that a real network
// does not give, whoever wrote the algorithm, and accepts the rest.
func TestSuitsRuntime(t *testing.T) {
	ok := algo.Model{Spontaneous: true, Loss: true, Crash: true, FIFO: true, Partition: true, Mobility: true}
	for _, c := range []struct {
		change func(*algo.Model)
		want   string // "" for accepted
	}{
		{func(*algo.Model) {}, ""},
		{func(m *algo.Model) { m.Topology = "ring" }, "assumes a fixed ring network (Model.Topology)"},
		{func(m *algo.Model) { m.Synchronous = true }, "synchronous pulses (Model.Synchronous)"},
		{func(m *algo.Model) { m.Spontaneous = false }, "initiator starts an election (Model.Spontaneous is false)"},
		{func(m *algo.Model) { m.Loss = false }, ""}, // over reliable links
		{func(m *algo.Model) { m.Crash = false }, "does not survive crashes (Model.Crash is false)"},
	} {
		m := ok
		c.change(&m)
		err := SuitsRuntime(&algo.Algorithm{Name: "mine", Model: m})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v refused: %v", m, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), "algorithm mine ") || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %v, want an error holding %q", m, err, c.want)
		}
	}
}

// A single node takes what an emulation refuses: an algorithm that is not
// spontaneous (its initiators, POST /elect), does not survive crashes or
// needs a fixed network (Config.Size; New checks the network).
func TestSuitsNode(t *testing.T) {
	for _, m := range []algo.Model{{Crash: true}, {Spontaneous: true}, {}, {Topology: "ring"}} {
		if err := SuitsNode(&algo.Algorithm{Name: "mine", Model: m}); err != nil {
			t.Errorf("%+v refused: %v", m, err)
		}
	}
	for _, m := range []algo.Model{{Synchronous: true}} {
		if SuitsNode(&algo.Algorithm{Name: "mine", Model: m}) == nil {
			t.Errorf("%+v accepted", m)
		}
	}
}
