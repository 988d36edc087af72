package echo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// edgeMarks behaves as a list of (seen, child) pairs kept beside the edge
// list, under random inserts, removals, marks and clears, on lists from
// empty to 200 edges (more than three words).
func TestEdgeMarksAsAList(t *testing.T) {
	type pair struct{ seen, child bool }
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		// A node starts with its network's edges, as many as 150, and no
		// mark: no word made beyond the first.
		var m edgeMarks
		ref := make([]pair, rng.IntN(150))
		for step := range 2000 {
			n := len(ref)
			switch op := rng.IntN(10); {
			case op < 4 && n < 200:
				i := rng.IntN(n + 1)
				m.insert(i, n)
				ref = slices.Insert(ref, i, pair{})
			case op < 7 && n > 0:
				i := rng.IntN(n)
				m.remove(i, n)
				ref = slices.Delete(ref, i, i+1)
			case op < 9 && n > 0:
				i, child := rng.IntN(n), rng.IntN(2) == 0
				m.set(i, n, child)
				ref[i].seen = true
				ref[i].child = ref[i].child || child
			case op == 9 && rng.IntN(20) == 0:
				m.clear()
				clear(ref)
			}
			for i, want := range ref {
				if s, c := m.get(i); s != want.seen || c != want.child {
					t.Fatalf("round %d step %d: edge %d of %d is (%v, %v), want %+v", round, step, i, len(ref), s, c, want)
				}
			}
			// Bits beyond the list stay clear: an edge inserted there is blank.
			for i := len(ref); i < len(ref)+3 && (m.more != nil || i < 64); i++ {
				if i/64 > 0 && (m.more == nil || 2*(i/64-1) >= len(*m.more)) {
					break
				}
				if s, c := m.get(i); s || c {
					t.Fatalf("round %d step %d: edge %d beyond the %d is marked", round, step, i, len(ref))
				}
			}
		}
	}
}
