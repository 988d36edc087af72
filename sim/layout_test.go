package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// The layout is a permutation; networks whose ids are scattered are laid
// out breadth first, and those whose ids are already local keep them.
func TestLayout(t *testing.T) {
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
	geo := specGraph(t, "geometric:3000:d10")
	for _, c := range []struct {
		name      string
		g         *topo.Graph
		idOrder   bool
		maxSpread float64
	}{
		{"ring", specGraph(t, "ring:3000"), true, 3},
		{"grid", specGraph(t, "grid:50x60"), true, 60},
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

// arrangeSpy records what an emitter tells an Arranger, and when.
type arrangeSpy struct {
	rank   []int32
	calls  int
	events int
	early  bool // Arrange came before any event
}

func (s *arrangeSpy) Observe(*trace.Event) { s.events++ }
func (s *arrangeSpy) Arrange(rank []int32) {
	s.calls++
	s.rank = rank
	s.early = s.events == 0
}

// Observers that can keep per-node state in the engine's layout are told it
// once, before the first event, on a network large enough to gain from it
// whose layout is not id order; on a small one they are not told.
func TestArrangeObservers(t *testing.T) {
	a, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	ring := func(n int) *topo.Graph {
		perm := rand.New(rand.NewPCG(5, 6)).Perm(n)
		var edges []topo.Edge
		for i := range n {
			edges = append(edges, topo.Edge{A: algo.NodeID(perm[i]), B: algo.NodeID(perm[(i+1)%n])})
		}
		return topo.New(n, edges)
	}
	for _, c := range []struct {
		n    int
		told bool
	}{{arrangeMin + 10, true}, {1000, false}} {
		spy := &arrangeSpy{}
		e, err := New(Config{Algorithm: a, Graph: ring(c.n), Delay: DefaultDelay,
			Initiators: []algo.NodeID{0}, Observers: []trace.Observer{spy}})
		if err != nil {
			t.Fatal(err)
		}
		e.Run()
		if !c.told {
			if spy.calls != 0 {
				t.Errorf("%d nodes: told the layout, below arrangeMin", c.n)
			}
			continue
		}
		if spy.calls != 1 || !spy.early || len(spy.rank) != c.n {
			t.Fatalf("%d nodes: Arrange called %d times, before the first event %v, rank of %d", c.n, spy.calls, spy.early, len(spy.rank))
		}
		for v, k := range spy.rank {
			if e.nodes[k].id != algo.NodeID(v) {
				t.Fatalf("rank[%d] = %d, where the engine keeps node %d", v, k, e.nodes[k].id)
			}
		}
	}
}
