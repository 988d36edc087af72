package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// TestNodeSize: a node record fills one cache line, no more.
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(node{}); s != 64 {
		t.Errorf("node is %d bytes, want 64", s)
	}
}

// Lists that grow move out, into places other lists left or onto the end of
// the arrays: after thousands of random link changes every list still holds
// exactly its neighbours, in order, with their records and since counts,
// and no two lists' places overlap.
func TestListsMoveOutAndReuse(t *testing.T) {
	a, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	e, err := New(Config{Algorithm: a, Graph: topo.New(n, nil), Delay: Delay{Kind: Uniform, A: 1, B: 5}})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]map[algo.NodeID]uint64, n) // neighbour -> since
	for v := range want {
		want[v] = map[algo.NodeID]uint64{}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for step := range 20_000 {
		v, u := algo.NodeID(rng.IntN(n)), algo.NodeID(rng.IntN(n))
		if v == u {
			continue
		}
		if _, up := want[v][u]; up {
			e.disconnect(v, u)
			delete(want[v], u)
			delete(want[u], v)
		} else {
			e.connect(v, u)
			want[v][u], want[u][v] = e.changes, e.changes
		}
		if step%97 != 0 {
			continue
		}
		used := make([]int, len(e.nbrs)) // which node's room covers each place
		for k := range e.nodes {
			nd := &e.nodes[k]
			for i := nd.off; i < nd.off+nd.room; i++ {
				if used[i] != 0 {
					t.Fatalf("step %d: nodes %d and %d share place %d", step, used[i]-1, nd.id, i)
				}
				used[i] = int(nd.id) + 1
			}
			got := e.nbrsOf(nd)
			if len(got) != len(want[nd.id]) || !slices.IsSorted(got) {
				t.Fatalf("step %d: node %d lists %v, want the %d of %v, ascending", step, nd.id, got, len(want[nd.id]), want[nd.id])
			}
			for i, u := range got {
				since, ok := want[nd.id][u]
				j := int(nd.off) + i
				if !ok || e.links[j] != e.slot[u] || e.since[j] != since || e.lasts[j] != 0 {
					t.Fatalf("step %d: node %d's entry %d: %d (record %d, since %d), want since %d", step, nd.id, i, u, e.links[j], e.since[j], since)
				}
			}
		}
	}
	if len(e.spare) == 0 {
		t.Errorf("no list ever left a place behind: the test did not exercise reuse")
	}
}
