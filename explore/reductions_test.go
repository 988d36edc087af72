package explore_test

import (
	"fmt"
	"testing"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// setupOf is the explorer's setup of a scenario written inline.
func setupOf(t testing.TB, yaml string, how runner.Exploring) *explore.Setup {
	t.Helper()
	s, err := scenario.Parse("test.yaml", []byte(yaml), nil)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := runner.ExploreSetup(s, how)
	if err != nil {
		t.Fatal(err)
	}
	return setup
}

// Every reduction can be switched off, and the verdict stays: with state
// caching off the search is a tree of every path (more states, the same
// verdict and the same shortest counterexample's length); with sleep sets
// and caching both off, too.
func TestReductionsKeepTheVerdict(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		how        runner.Exploring
		broken     bool
	}{
		{"chang-roberts ring:3", "algorithm: chang-roberts\ntopology: ring:3\nvalues: id\n", runner.Exploring{}, false},
		{"echo line:3", "algorithm: echo\ntopology: line:3\nvalues: id\n", runner.Exploring{}, false},
		{"capture-async complete:3", "algorithm: capture-async\ntopology: complete:3\nvalues: id\n", runner.Exploring{}, false},
		{"chang-roberts ring:3 reordered", "algorithm: chang-roberts\ntopology: ring:3\nvalues: id\n", runner.Exploring{Reorder: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			setup := setupOf(t, c.yaml, c.how)
			var first *explore.Result
			for _, opt := range []explore.Options{{}, {NoFingerprints: true}, {NoFingerprints: true, NoSleepSets: true}} {
				opt.MaxStates = 2_000_000
				res, err := explore.Explore(setup, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Counterexample != nil; got != c.broken {
					t.Fatalf("%+v: counterexample %v, want %v", opt, got, c.broken)
				}
				if !c.broken && !res.Complete {
					t.Fatalf("%+v: stopped by %s after %d states", opt, res.Limit, res.Distinct)
				}
				if first == nil {
					first = res
					continue
				}
				if res.Distinct < first.Distinct {
					t.Errorf("%+v: %d states without caching, fewer than the %d distinct ones", opt, res.Distinct, first.Distinct)
				}
				if c.broken && len(res.Counterexample.Steps) != len(first.Counterexample.Steps) {
					t.Errorf("%+v: a counterexample of %d steps, %d with every reduction: breadth first, both are shortest",
						opt, len(res.Counterexample.Steps), len(first.Counterexample.Steps))
				}
			}
		})
	}
}

// Rotations of a ring give the same verdict as every arrangement, on n
// times fewer: clean for Chang and Roberts on ring:4 (6 of 24 explored),
// and broken under reordering with and without symmetry.
func TestSymmetryKeepsTheVerdict(t *testing.T) {
	for _, reorder := range []bool{false, true} {
		setup := setupOf(t, "algorithm: chang-roberts\ntopology: ring:4\nvalues: id\n", runner.Exploring{Reorder: reorder})
		sym, err := explore.Arrangements(setup, explore.Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		all, err := explore.Arrangements(setup, explore.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		if !sym.Symmetric || all.Symmetric || sym.Total != 24 {
			t.Fatalf("symmetric %v and %v of %d arrangements", sym.Symmetric, all.Symmetric, sym.Total)
		}
		if (sym.Counterexample() != nil) != reorder || (all.Counterexample() != nil) != reorder {
			t.Fatalf("reorder %v: counterexamples %v with symmetry, %v without", reorder, sym.Counterexample() != nil, all.Counterexample() != nil)
		}
		if !reorder {
			if !sym.Complete() || !all.Complete() || len(sym.Explored) != 6 || sym.Skipped != 18 || len(all.Explored) != 24 {
				t.Errorf("explored %d (skipped %d) with symmetry, %d without; want 6 (18) and 24, all complete",
					len(sym.Explored), sym.Skipped, len(all.Explored))
			}
			var a, b int64
			for _, r := range sym.Explored {
				a += r.Distinct
			}
			for _, r := range all.Explored {
				b += r.Distinct
			}
			if 4*a != b {
				t.Errorf("%d states with symmetry, %d without: want a quarter", a, b)
			}
		}
	}
}

// The search is the same whatever the number of workers: the same states
// met in the same order, the same counterexample.
func TestWorkersGiveTheSameSearch(t *testing.T) {
	for _, c := range []struct {
		yaml string
		how  runner.Exploring
	}{
		{"algorithm: extinction\ntopology: complete:3\nvalues: id\n", runner.Exploring{}},
		{"algorithm: chang-roberts\ntopology: ring:3\nvalues: id\n", runner.Exploring{Reorder: true}},
		{"algorithm: vkt\ntopology: line:3\nvalues: id\nduration: 3s\ncheck: {stabilization: 1s, liveness: 1500ms}\nparams: {heartbeat: 200ms, timeout: 600ms, probe: 200ms, election_timeout: 1s}\n",
			runner.Exploring{Budget: explore.Budget{Crashes: 1}}},
		// vkt cuts its lists from its configuration's chunk: workers must
		// not cut it at once (go test -race sees it if they do).
		{"algorithm: vkt\ntopology: line:4\nvalues: id\nduration: 3s\ncheck: {stabilization: 1s, liveness: 1500ms}\nparams: {heartbeat: 200ms, timeout: 600ms, probe: 200ms, election_timeout: 1s}\n",
			runner.Exploring{}},
	} {
		setup := setupOf(t, c.yaml, c.how)
		var first *explore.Result
		for _, w := range []int{1, 2, 7} {
			res, err := explore.Explore(setup, explore.Options{Workers: w, MaxStates: 20_000})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res
				continue
			}
			if res.States != first.States || res.Distinct != first.Distinct || res.Pruned != first.Pruned || res.Depth != first.Depth {
				t.Errorf("%s with %d workers: %d/%d states, %d pruned, depth %d; with one: %d/%d, %d, %d", setup.Algorithm.Name, w,
					res.States, res.Distinct, res.Pruned, res.Depth, first.States, first.Distinct, first.Pruned, first.Depth)
			}
			if (res.Counterexample == nil) != (first.Counterexample == nil) ||
				res.Counterexample != nil && fmt.Sprint(res.Counterexample.Steps) != fmt.Sprint(first.Counterexample.Steps) {
				t.Errorf("%s with %d workers: a different counterexample", setup.Algorithm.Name, w)
			}
		}
	}
}
