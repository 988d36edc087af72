package cluster_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
)

// FromScript merges a script and overrides, the overrides winning, and
// names the override (FieldError) or the script's line at fault.
func TestFromScript(t *testing.T) {
	s, err := cluster.ParseScript("s.yaml", []byte("nodes: 3\nalgorithm: echo\ninitiators: \"2\"\nsteps: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	four := 4
	m, err := cluster.FromScript(s, cluster.Overrides{Nodes: &four})
	if err != nil {
		t.Fatal(err)
	}
	if m.Nodes != 4 || m.Algorithm != "echo" || m.Initiators != "2" || m.Script != s || len(m.Values) != 4 {
		t.Errorf("merged %+v", m.Config)
	}

	name := func(field string) string { return "-" + strings.ToLower(field) }
	for _, c := range []struct {
		over       cluster.Overrides
		field, msg string
	}{
		{cluster.Overrides{Nodes: new(int)}, "Nodes", "-nodes 0: want 1 to 200"},
		{cluster.Overrides{Topology: ptr("nope")}, "Topology", "-topology: "},
		{cluster.Overrides{Values: ptr("1,2")}, "Values", `-values "1,2": want id, random, or 5`},
		{cluster.Overrides{Elect: "9", Within: time.Second}, "Elect", `-elect "9": want a node id from 0 to 4`},
		{cluster.Overrides{Elect: "0"}, "Within", "-within 0s: want a positive duration"},
		{cluster.Overrides{CrashOn: []string{"x"}}, "CrashOn", `-crashon "x": want NODE=TYPE`},
	} {
		c.over.Name = name
		_, err := cluster.FromScript(nil, c.over)
		var fe *cluster.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("%+v: %v, want %s: %q...", c.over, err, c.field, c.msg)
		}
	}

	// What New refuses is blamed on the override or the script's line.
	m, err = cluster.FromScript(nil, cluster.Overrides{Algorithm: ptr("bully"), Initiators: ptr("0"), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Blame(m.Check()); err == nil || !strings.HasPrefix(err.Error(), `-initiators "0": bully`) {
		t.Errorf("bully -initiators 0: %v", err)
	}
	s, _ = cluster.ParseScript("s.yaml", []byte("algorithm: bully\ninitiators: \"0\"\nsteps: []\n"))
	if m, err = cluster.FromScript(s, cluster.Overrides{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Blame(m.Check()); err == nil || !strings.HasPrefix(err.Error(), "s.yaml:2:13: initiators: bully") {
		t.Errorf("a script's bully initiators 0: %v", err)
	}

	// Elect makes the control process's script, and is refused with one.
	m, err = cluster.FromScript(nil, cluster.Overrides{Elect: "1", Within: time.Second})
	if err != nil || m.Script == nil || len(m.Script.Steps) != 2 || !m.ControlElects {
		t.Errorf("Elect 1: %v, %+v", err, m)
	}
	if _, err := cluster.FromScript(s, cluster.Overrides{Elect: "1", Within: time.Second}); err == nil {
		t.Error("Elect with a script: no error")
	}
}

func ptr[T any](v T) *T { return &v }
