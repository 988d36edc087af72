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
	_, sum := rep.Failures[0].Smallest()
	if v := sum.Violations[0]; !strings.Contains(v.Reason, "assignment to entry in nil map") || !strings.Contains(v.Reason, "internal/broken/broken.go") {
		t.Errorf("reason %q: want the panic and where it happened", v.Reason)
	}
	if s, _ := rep.Failures[0].Smallest(); size(s) > 3 {
		t.Errorf("shrunk to %d nodes, want at most 3", size(s))
	}
}
