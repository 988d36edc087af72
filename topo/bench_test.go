package topo

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// BenchmarkEdgeList reads a file:PATH edge list of a geometric graph of
// 100,000 nodes, about ten neighbours each, its ids shuffled as in any
// user's file (500,000 lines).
func BenchmarkEdgeList(b *testing.B) {
	s, err := Parse("geometric:100000:d10", 0)
	if err != nil {
		b.Fatal(err)
	}
	g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
	if err != nil {
		b.Fatal(err)
	}
	perm := rand.New(rand.NewPCG(3, 4)).Perm(g.N())
	var text bytes.Buffer
	fmt.Fprintf(&text, "nodes %d\n", g.N())
	for _, e := range g.Edges() {
		fmt.Fprintf(&text, "%d %d\n", perm[e.A], perm[e.B])
	}
	path := filepath.Join(b.TempDir(), "g.txt")
	if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		if _, err := readEdgeFile(path, ""); err != nil {
			b.Fatal(err)
		}
	}
}
