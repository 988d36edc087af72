package torture

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// realAlgorithms are the registered algorithms but the test doubles.
func realAlgorithms(t *testing.T) []*algo.Algorithm {
	var out []*algo.Algorithm
	for _, name := range algo.Names() {
		a, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "test-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// TestGenerateDeterministic: run i of a seed is the same scenario every
// time, so a failure is reproduced from its seed and run number.
func TestGenerateDeterministic(t *testing.T) {
	for _, a := range realAlgorithms(t) {
		for i := range 30 {
			f := Tolerated(a.Model)
			x, err1 := scenario.Format(Scenario(a, f, Limits{MaxNodes: 20}, 7, i))
			y, err2 := scenario.Format(Scenario(a, f, Limits{MaxNodes: 20}, 7, i))
			if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
				t.Fatalf("%s run %d: two draws differ (%v, %v):\n%s\n%s", a.Name, i, err1, err2, x, y)
			}
		}
	}
}

// TestGeneratedScenariosRun: every generated scenario, in and outside the
// model of every algorithm, is one the simulator runs (Run stops at the
// first it refuses), and its file form reads back.
func TestGeneratedScenariosRun(t *testing.T) {
	for _, a := range realAlgorithms(t) {
		for _, outside := range []bool{false, true} {
			if _, err := Run(Config{Algorithm: a.Name, Runs: 60, Seed: 11, Outside: outside, ShrinkBudget: -1}); err != nil {
				t.Errorf("%s (outside %v): %v", a.Name, outside, err)
			}
			for i := range 20 {
				s := Scenario(a, Tolerated(a.Model), Limits{MaxNodes: 20}, 11, i)
				b, err := scenario.Format(s)
				if err != nil {
					t.Fatalf("%s run %d: %v", a.Name, i, err)
				}
				if _, err := scenario.Parse("generated.yaml", b, nil); err != nil {
					t.Fatalf("%s run %d: %v\n%s", a.Name, i, err, b)
				}
			}
		}
	}
}

// TestInModel: a scenario drawn inside an algorithm's model holds only the
// faults the model declares; outside it, only the others.
func TestInModel(t *testing.T) {
	for _, a := range realAlgorithms(t) {
		for _, outside := range []bool{false, true} {
			f := Tolerated(a.Model)
			if outside {
				f = Untolerated(a.Model)
			}
			for i := range 200 {
				s := Scenario(a, f, Limits{MaxNodes: 20}, 3, i)
				if s.Loss > 0 && !f.Loss || s.Mobility != "" && !f.Mobility {
					t.Fatalf("%s run %d (faults %s): loss %g, mobility %q", a.Name, i, f, s.Loss, s.Mobility)
				}
				if a.Model.BoundedDelay && !f.Late {
					if limit := shortest(a, s.Params) / 4; s.Delay.Kind == sim.Exponential || s.Delay.A > limit || s.Delay.B > limit {
						t.Fatalf("%s run %d: delay %v, beyond a quarter of its shortest timeout (%v)", a.Name, i, s.Delay, limit)
					}
				}
				for _, act := range s.Events {
					bad := false
					switch act.Kind {
					case sim.Crash, sim.Restart, sim.Recover:
						bad = !f.Crash
					case sim.Partition, sim.Heal, sim.LinkDown, sim.LinkUp:
						bad = !f.Partition
					case sim.CrashOn, sim.Corrupt:
						bad = !f.Jokers
					}
					if bad {
						t.Fatalf("%s run %d (faults %s): %v event", a.Name, i, f, act.Kind)
					}
				}
			}
		}
	}
}

// TestShrink: a failure that needs a partition and at least four nodes
// shrinks to four nodes and that one event, from twenty nodes and a dozen
// events.
func TestShrink(t *testing.T) {
	a, _ := algo.Lookup("vkt")
	var big *scenario.Scenario
	for i := range 500 {
		s := Scenario(a, Tolerated(a.Model), Limits{MaxNodes: 24}, 5, i)
		if size(s) >= 16 && len(s.Events) >= 6 && s.Mobility == "" && slices.ContainsFunc(s.Events, func(x sim.Action) bool { return x.Kind == sim.Partition }) {
			big = s
			break
		}
	}
	if big == nil {
		t.Fatal("no large scenario with a partition among 500 draws")
	}
	fails := func(s *scenario.Scenario) bool {
		return size(s) >= 4 && slices.ContainsFunc(s.Events, func(x sim.Action) bool { return x.Kind == sim.Partition })
	}
	small, tries := Shrink(big, fails, 500)
	if size(small) > 5 || len(small.Events) != 1 || small.Events[0].Kind != sim.Partition || small.Loss != 0 || small.Params != nil {
		b, _ := scenario.Format(small)
		t.Errorf("shrunk in %d tries from %d nodes and %d events to\n%s", tries, size(big), len(big.Events), b)
	}
	if !fails(small) {
		t.Error("the shrunk scenario no longer fails")
	}
}

// TestCatchesForgetful: the fuzzer catches the test double that forgets to
// compare computation indices and shrinks what it finds to at most 6
// nodes, which still fail; the careful twin passes the same runs.
func TestCatchesForgetful(t *testing.T) {
	careful, err := Run(Config{Algorithm: "test-careful", Runs: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(careful.Failures) != 0 {
		b, _ := careful.Failures[0].File()
		t.Fatalf("test-careful failed %d of 300 runs; the first:\n%s", len(careful.Failures), b)
	}
	forgetful, err := Run(Config{Algorithm: "test-forgetful", Runs: 300, Seed: 1, ShrinkBudget: 400})
	if err != nil {
		t.Fatal(err)
	}
	if len(forgetful.Failures) == 0 {
		t.Fatal("the fuzzer did not catch test-forgetful in 300 runs")
	}
	for i, f := range forgetful.Failures[:min(5, len(forgetful.Failures))] {
		b, _ := f.File()
		if sum := f.ShrunkSummary; sum == nil || sum.ViolationCount == 0 || sum.Nodes != size(f.Shrunk) {
			t.Errorf("failure %d: the shrunk scenario's summary is not its failing run: %+v", i, sum)
		}
		if n := size(f.Shrunk); n > 6 || !Fails(f.Shrunk) {
			t.Errorf("failure %d (run %d) shrunk to %d nodes (still failing: %v):\n%s", i, f.Run, n, Fails(f.Shrunk), b)
		}
		if i == 0 {
			t.Logf("run %d shrunk in %d runs to:\n%s", f.Run, f.ShrinkRuns, b)
		}
	}
	t.Logf("test-forgetful failed %d of 300 runs", len(forgetful.Failures))
}

// A campaign's fixed parameters go into every run, over what the generator
// draws, and stay in the shrunk scenarios: test-careful with its bug
// switched on fails as test-forgetful does, and every failure it writes
// still names the parameter. A parameter the algorithm refuses is an error.
func TestFixedParams(t *testing.T) {
	rep, err := Run(Config{Algorithm: "test-careful", Runs: 300, Seed: 1, ShrinkBudget: 200, Params: map[string]string{"forget": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) == 0 {
		t.Fatal("with forget=true fixed, no run failed: the parameter did not reach the runs")
	}
	for _, f := range rep.Failures[:min(3, len(rep.Failures))] {
		if f.Scenario.Params["forget"] != "true" || f.Shrunk.Params["forget"] != "true" || !Fails(f.Shrunk) {
			t.Errorf("run %d: params %v, shrunk to %v (still failing: %v); want forget=true kept", f.Run, f.Scenario.Params, f.Shrunk.Params, Fails(f.Shrunk))
		}
	}
	if _, err := Run(Config{Algorithm: "test-careful", Runs: 1, Params: map[string]string{"forget": "maybe"}}); err == nil || !strings.Contains(err.Error(), "forget") {
		t.Errorf("a refused parameter: %v, want an error naming it", err)
	}
}

// TestInModelCampaign is the short campaign CI runs: 150 runs of every
// algorithm inside its model, with no failure (docs/BENCHMARKS.md has the
// 10,000-run ones).
func TestInModelCampaign(t *testing.T) {
	for _, a := range realAlgorithms(t) {
		rep, err := Run(Config{Algorithm: a.Name, Runs: 150, Seed: 2026})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Failures {
			b, _ := f.File()
			t.Errorf("%s run %d fails in its model:\n%s", a.Name, f.Run, b)
		}
	}
}

// TestRegressions runs the scenarios the fuzzer found (testdata/, each
// saying what it showed and what changed): none may fail again.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression scenarios (%v)", err)
	}
	for _, f := range files {
		s, err := scenario.Load(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := runner.Run(s, runner.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if sum.ViolationCount > 0 {
			t.Errorf("%s: %d violations: %+v", f, sum.ViolationCount, sum.Violations)
		}
	}
}
