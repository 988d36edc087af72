package explore_test

import (
	"testing"
	"time"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

func TestSmoke(t *testing.T) {
	for _, c := range []struct{ yaml string }{
		{"algorithm: chang-roberts\ntopology: ring:4\nvalues: id\n"},
		{"algorithm: echo\ntopology: complete:4\nvalues: id\n"},
		{"algorithm: extinction\ntopology: ring:4\nvalues: id\n"},
	} {
		s, err := scenario.Parse("x.yaml", []byte(c.yaml), nil)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := runner.ExploreSetup(s, runner.Exploring{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := explore.Explore(setup, explore.Options{MaxStates: 2_000_000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v in %v (%.0f/s)", s.Algorithm, *res, time.Since(start), res.Rate())
		if res.Counterexample != nil {
			for _, st := range res.Counterexample.Steps {
				t.Log(st)
			}
			t.Log(res.Counterexample.Report.Violations)
		}
	}
}
