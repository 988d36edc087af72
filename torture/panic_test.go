package torture

import (
	"strings"
	"testing"

	_ "github.com/electgo/elect/internal/broken"
)

// A panic in an algorithm is a failure of the campaign, with the scenario
// shrunk like any other, not the end of the campaign.
func TestPanicIsAFailure(t *testing.T) {
	rep, err := Run(Config{Algorithm: "test-broken-panic", Runs: 5, Seed: 1, ShrinkBudget: 50})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != 5 || len(rep.Failures) == 0 || rep.ByProperty["panic"] != len(rep.Failures) {
		t.Fatalf("%d runs, %d failures, by property %v: want every failure a panic", rep.Runs, len(rep.Failures), rep.ByProperty)
	}
	s, sum := rep.Failures[0].Smallest()
	v := sum.Violations[0]
	for _, want := range []string{"panicked in Receive of flood from ", "assignment to entry in nil map", "internal/broken.(*node).Receive (broken.go:"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason %q: want %q (the call, the panic and where it happened)", v.Reason, want)
		}
	}
	if n := size(s); n < 2 || n > 3 || sum.Nodes != n {
		t.Errorf("shrunk to %d nodes (summary: %d), want 2 or 3: the smallest network that delivers a flood", n, sum.Nodes)
	}
	// The scenario written reproduces the panic.
	if again, err := run(s); err != nil || again.ViolationCount != 1 || again.Violations[0].Reason != v.Reason {
		t.Errorf("the shrunk scenario again: %v, %+v; want the same panic", err, again)
	}
}
