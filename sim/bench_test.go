package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

func benchGraph(b *testing.B, spec string) *topo.Graph {
	s, err := topo.Parse(spec, 0)
	if err != nil {
		b.Fatal(err)
	}
	g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkEchoGeometric1M is the target: the echo wave on a million
// nodes with about ten neighbours each.
func BenchmarkEchoGeometric1M(b *testing.B) {
	g := benchGraph(b, "geometric:1000000:1.8")
	a, _ := algo.Lookup("echo")
	b.ResetTimer()
	var msgs uint64
	for i := 0; i < b.N; i++ {
		e, err := sim.New(sim.Config{Algorithm: a, Graph: g, Seed: 1, Delay: sim.DefaultDelay})
		if err != nil {
			b.Fatal(err)
		}
		r := e.Run()
		msgs = r.Stats.Events
	}
	b.ReportMetric(float64(msgs), "events")
	b.ReportMetric(float64(msgs)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
