package runner_test

import (
	"testing"

	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// BenchmarkRunEcho1M is `elect sim --algo echo --topology
// geometric:1000000:1.8` without the printing: topology, engine, checker,
// counters and summary.
func BenchmarkRunEcho1M(b *testing.B) {
	s := scenario.Default()
	s.Algorithm, s.Params, s.Topology = "echo", nil, "geometric:1000000:1.8"
	for i := 0; i < b.N; i++ {
		sum, err := runner.Run(s, runner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if sum.ViolationCount != 0 {
			b.Fatal(sum.Violations)
		}
	}
}
