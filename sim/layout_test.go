package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// The layout is a permutation; networks whose ids are scattered are laid
// out breadth first, and those whose ids are already local keep them.
func TestLayout(t *testing.T) {
	build := func(spec string) *topo.Graph {
		s, err := topo.Parse(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// scatter renumbers g at random and drops its positions, as a graph
	// file with arbitrary ids would come.
	scatter := func(g *topo.Graph) *topo.Graph {
		perm := rand.New(rand.NewPCG(3, 4)).Perm(g.N())
		var edges []topo.Edge
		for _, e := range g.Edges() {
			edges = append(edges, topo.Edge{A: algo.NodeID(perm[e.A]), B: algo.NodeID(perm[e.B])})
		}
		return topo.New(g.N(), edges)
	}
	geo := build("geometric:3000:d10")
	for _, c := range []struct {
		name      string
		g         *topo.Graph
		idOrder   bool
		maxSpread float64
	}{
		{"ring", build("ring:3000"), true, 3},
		{"grid", build("grid:50x60"), true, 60},
		{"scattered geometric", scatter(geo), false, 150},
		{"geometric with positions", geo, false, 150},
	} {
		order := layout(c.g)
		place := make([]int32, len(order))
		for k, v := range order {
			place[v] = int32(k)
		}
		sorted := slices.Clone(order)
		slices.Sort(sorted)
		for i, v := range sorted {
			if v != algo.NodeID(i) {
				t.Fatalf("%s: the layout is not a permutation (%d at %d)", c.name, v, i)
			}
		}
		if got := slices.IsSorted(order); got != c.idOrder {
			t.Errorf("%s: id order kept %v, want %v", c.name, got, c.idOrder)
		}
		if s := spread(c.g, place); s > c.maxSpread {
			t.Errorf("%s: links span %.0f places on average, want at most %.0f (ids: %.0f)", c.name, s, c.maxSpread, spread(c.g, nil))
		}
	}
}
