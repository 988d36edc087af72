package bully_test

import (
	"testing"

	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// Every order of events of 3 nodes with a crash and a restart, timed (the
// delays 1 to 5 ms below the 100-ms answer timeout, as the model assumes):
// no split. elect explore found one in 13 steps: the most valued node
// restarts and wins again while a less valued one, whose Election to it was
// lost in the crash, also declares itself; a third node took that stale
// Coordinator after the better one's and followed it for good.
func TestExploreCrashAndRestart(t *testing.T) {
	s, err := scenario.Parse("bully.yaml", []byte(`
algorithm: bully
topology: complete:3
values: id
duration: 2s
check: {stabilization: 1s, liveness: 1500ms}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := runner.ExploreSetup(s, runner.Exploring{Budget: explore.Budget{Crashes: 1, Restarts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Explore(setup, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cx := res.Counterexample; cx != nil {
		t.Fatalf("a counterexample of %d steps: %v\n%v", len(cx.Steps), cx.Report.Violations, cx.Steps)
	}
	if !res.Complete {
		t.Fatalf("stopped by %s after %d states", res.Limit, res.Distinct)
	}
}
