package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
)

func init() {
	algo.Register(&algo.Algorithm{
		Name: "test-bench-panic", Summary: "test only: building its nodes panics", Source: "none",
		Messages: []string{"never"}, Model: algo.Model{Spontaneous: true},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) { panic("the test algorithm panics") },
	})
}

// A run that cannot run (a ring of one node) or that panics does not stop
// the sweep: the others complete, and each failure names its run.
func TestRunAllFailures(t *testing.T) {
	ring, err := ParseTopology("ring:{n}@1,5", nil)
	if err != nil {
		t.Fatal(err)
	}
	sw := &Sweep{Experiments: []string{"start"}, Algorithms: []string{"vkt", "test-bench-panic"}, Topologies: []Topology{ring},
		Seeds: []uint64{1}, Delay: sim.DefaultDelay}
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	calls, errCalls := 0, 0
	results, failed := sw.RunAll(runs, 2, func(r *Result, err error) {
		calls++
		if (r == nil) == (err == nil) {
			t.Errorf("done(%v, %v): want a result or an error", r, err)
		}
		if err != nil {
			errCalls++
		}
	})
	if calls != len(runs) || errCalls != 3 {
		t.Errorf("done called %d times, %d with an error; want %d and 3", calls, errCalls, len(runs))
	}
	if len(results) != 1 || results[0].Index != 1 || results[0].Elections == 0 {
		t.Fatalf("results %+v, want run 1 (vkt on ring:5) alone", results)
	}
	want := []string{
		`run 0 (start vkt ring:1 seed 1): topology "ring:1": ring needs at least 3 nodes`,
		`run 2 (start test-bench-panic ring:1 seed 1): topology "ring:1": ring needs at least 3 nodes`,
		`run 3 (start test-bench-panic ring:5 seed 1): panic: the test algorithm panics`,
	}
	if len(failed) != len(want) {
		t.Fatalf("failures %v, want %d", failed, len(want))
	}
	for i, f := range failed {
		if !strings.HasPrefix(f.Error(), want[i]) {
			t.Errorf("failure %d: %q, want %q", i, f, want[i])
		}
		if panicked := strings.Contains(f.Error(), ": panic: "); panicked != (f.Stack != nil) {
			t.Errorf("failure %d: stack %d bytes", i, len(f.Stack))
		}
	}
	if !strings.Contains(string(failed[2].Stack), "degenerate_test.go") {
		t.Errorf("the stack does not show where the run panicked:\n%s", failed[2].Stack)
	}
}

// A parameter goes to the algorithms that declare it: one that none
// declares is refused with each algorithm's list, and a value one of them
// refuses is refused.
func TestSweepParams(t *testing.T) {
	for _, c := range []struct {
		algos  []string
		params map[string]string
		want   string // "" for none
	}{
		{[]string{"vkt"}, map[string]string{"heartbeat": "500ms"}, ""},
		{[]string{"vkt", "echo"}, map[string]string{"heartbeat": "500ms", "tree": "graph"}, ""},
		{[]string{"vkt"}, map[string]string{"colour": "red"}, `parameter colour=red: vkt has no parameter "colour" (it has: heartbeat, timeout, `},
		{[]string{"vkt", "echo"}, map[string]string{"colour": "red"}, `parameter colour=red: vkt has no parameter "colour" (it has: heartbeat, `},
		{[]string{"vkt", "echo"}, map[string]string{"colour": "red"}, `; echo has no parameter "colour" (it has: `},
		{[]string{"vkt", "test-bench-panic"}, map[string]string{"colour": "red"}, `; test-bench-panic has no parameter "colour" (it has: none)`},
		{[]string{"vkt", "echo"}, map[string]string{"heartbeat": "soon"}, `parameter heartbeat=soon: vkt parameter heartbeat: invalid duration "soon"`},
	} {
		sw := tinySweep(t)
		sw.Algorithms, sw.Params = c.algos, c.params
		_, err := sw.Runs()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v %v: %v, want %q", c.algos, c.params, err, c.want)
		}
	}
}

// Sweeps that cannot measure anything are refused before they run: a
// topology with no template or with {n} and no sizes, a duration that ends
// before the experiment measures.
func TestSweepRefused(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"@5", `topology "@5": no template before its sizes`},
		{"", `topology "": no template`},
		{"ring:{n}", `topology "ring:{n}" has no sizes for its {n} (give them after @, like ring:{n}@8..64*2, or with --sizes)`},
	} {
		if _, err := ParseTopology(c.spec, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.spec, err, c.want)
		}
	}
	if top, err := ParseTopology("ring:{n}", []int{5}); err != nil || len(top.Sizes) != 1 {
		t.Errorf("ring:{n} with --sizes 5: %+v, %v", top, err)
	}
	sw := tinySweep(t)
	sw.Duration = 5 * time.Second
	if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "experiment crash measures from 5s on: a run of 5s ends before") {
		t.Errorf("crash for 5s: %v", err)
	}
	sw.Experiments = []string{"start"}
	if _, err := sw.Runs(); err != nil {
		t.Errorf("start for 5s: %v", err)
	}
}
