package check

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// TestAdjacency: random link changes on a network shared at time 0, with
// degrees that swing from none to hundreds (so that lists move between
// rooms of every size and rooms left are reused), keep every node's list
// that of a model, whether the records are arranged or not. A node beyond
// the network, added later, starts with a list of its own, empty.
func TestAdjacency(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 2 + rng.IntN(300)
		model := make([]map[algo.NodeID]bool, n+1)
		var edges []topo.Edge
		for v := range model {
			model[v] = map[algo.NodeID]bool{}
		}
		for range rng.IntN(4 * n) {
			a, b := algo.NodeID(rng.IntN(n)), algo.NodeID(rng.IntN(n))
			if a != b && !model[a][b] {
				model[a][b], model[b][a] = true, true
				edges = append(edges, topo.Edge{A: a, B: b})
			}
		}
		var rank []int32
		if seed%2 == 1 {
			rank = make([]int32, n+1)
			for v, r := range rng.Perm(n + 1) {
				rank[v] = int32(r)
			}
		}
		m := New(Config{Stabilization: time.Second, Liveness: 2 * time.Second, Spontaneous: true, Network: topo.New(n, edges)})
		if rank != nil {
			m.Arrange(rank)
		}
		for v := range n {
			m.Observe(&trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None})
		}
		at := time.Millisecond
		m.Observe(&trace.Event{At: at, Kind: trace.NodeAdded, Node: algo.NodeID(n), Peer: algo.None})
		n++
		// A hub whose degree rises and falls, and random pairs.
		hub := algo.NodeID(rng.IntN(n))
		for step := range 20 * n {
			a, b := algo.NodeID(rng.IntN(n)), algo.NodeID(rng.IntN(n))
			if step%(2*n) < n && rng.IntN(2) == 0 {
				a = hub
			}
			if a == b {
				continue
			}
			up := !model[a][b]
			if step%(2*n) >= n && a == hub {
				up = false
			}
			if rng.IntN(50) == 0 {
				up = !up // one that changes nothing
			}
			kind := trace.LinkDown
			if up {
				kind = trace.LinkUp
				model[a][b], model[b][a] = true, true
			} else {
				delete(model[a], b)
				delete(model[b], a)
			}
			at += time.Millisecond
			m.Observe(&trace.Event{At: at, Kind: kind, Node: a, Peer: b})
			if step%97 == 0 || step == 20*n-1 {
				for v := range algo.NodeID(n) {
					want := make([]algo.NodeID, 0, len(model[v]))
					for u := range model[v] {
						want = append(want, u)
					}
					slices.Sort(want)
					if got := m.linksOf(v); !slices.Equal(got, want) {
						t.Fatalf("seed %d step %d: links of %d are %v, want %v", seed, step, v, got, want)
					}
				}
			}
		}
	}
}
