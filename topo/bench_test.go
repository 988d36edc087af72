package topo

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGeometric1M builds geometric:1000000:1.8, about ten neighbours a
// node, the simulator's largest networks.
func BenchmarkGeometric1M(b *testing.B) {
	s, err := Parse("geometric:1000000:1.8", 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var edges int
	for i := 0; b.Loop(); i++ {
		g, err := s.Build(rand.New(rand.NewPCG(uint64(i), 1)), "")
		if err != nil {
			b.Fatal(err)
		}
		edges = g.M()
	}
	b.ReportMetric(float64(edges), "edges")
}
