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
// nodes with about ten neighbours each, under constant and random delays.
func BenchmarkEchoGeometric1M(b *testing.B) {
	g := benchGraph(b, "geometric:1000000:1.8")
	for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms"} {
		b.Run(delay, func(b *testing.B) { benchEcho(b, g, delay) })
	}
}

func benchEcho(b *testing.B, g *topo.Graph, delay string) {
	a, _ := algo.Lookup("echo")
	d, err := sim.ParseDelay(delay)
	if err != nil {
		b.Fatal(err)
	}
	var events uint64
	for i := 0; i < b.N; i++ {
		e, err := sim.New(sim.Config{Algorithm: a, Graph: g, Seed: 1, Delay: d})
		if err != nil {
			b.Fatal(err)
		}
		events = e.Run().Stats.Events
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
