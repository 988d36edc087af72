package torture

import (
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
)

// TestGeneratedInitiators: the generator names the nodes of vkt and park
// that start an election at boot as it names every algorithm's, with the
// scenario's initiators, not the deprecated parameter initiators it wrote
// before; the set reaches the machines, and the runs are the ones drawn
// before (the parameter's run, the same trace).
func TestGeneratedInitiators(t *testing.T) {
	for _, name := range []string{"vkt", "park"} {
		a, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 12 {
			s := Scenario(a, Tolerated(a.Model), Limits{MaxNodes: 20}, 7, i)
			if _, given := s.Params["initiators"]; given || s.Initiators == "" {
				t.Fatalf("%s run %d: initiators %q, params %v; want the initiators and no parameter", name, i, s.Initiators, s.Params)
			}
			p, err := runner.Params(s, a)
			if err != nil || p["initiators"] != s.Initiators {
				t.Fatalf("%s run %d: the machines read initiators %q (%v), want %q", name, i, p["initiators"], err, s.Initiators)
			}
			sum, err := run(s)
			if err != nil {
				t.Fatal(err)
			}
			old := s.Clone()
			old.Params, old.Initiators = map[string]string{"initiators": s.Initiators}, ""
			was, err := run(old)
			if err != nil {
				t.Fatal(err)
			}
			if sum.TraceHash != was.TraceHash {
				t.Errorf("%s run %d: trace %s, the deprecated parameter's %s", name, i, sum.TraceHash, was.TraceHash)
			}
		}
	}
}

// TestFixedInitiatorsParameter: a campaign's fixed parameter that names
// the initiators (deprecated: vkt's initiators, echo's initiator) names
// every run's; the generator's draws give way to it rather than disagree
// with it, which no run survived ("initiators "5" and vkt parameter
// initiators="0" disagree").
func TestFixedInitiatorsParameter(t *testing.T) {
	for _, c := range []struct{ algorithm, param, value string }{
		{"vkt", "initiators", "0"},
		{"park", "initiators", "none"},
		{"echo", "initiator", "0"},
	} {
		rep, err := Run(Config{Algorithm: c.algorithm, Runs: 8, Seed: 3, ShrinkBudget: -1, Params: map[string]string{c.param: c.value}})
		if err != nil {
			t.Errorf("%s, %s=%s fixed: %v", c.algorithm, c.param, c.value, err)
		} else if rep.Runs != 8 {
			t.Errorf("%s, %s=%s fixed: %d runs, want 8", c.algorithm, c.param, c.value, rep.Runs)
		}
	}
}
