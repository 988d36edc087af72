package mobility

import (
	"math"
	"slices"
	"time"
)

// enter has v, which has just moved to another cell and does not turn,
// look at the nodes of the cells that have become adjacent to it, except
// those that turn (they look at v themselves if they are adjacent to it
// once every node has moved) and those that have seen v as they moved.
func (w *watch) enter(r *Radio, v int32, t0, t1 time.Duration) {
	at, from, sv := w.g.at[v], w.g.prev[v], &r.nodes[v]
	for k, c := range w.g.list[at.c].nb {
		cx, cy := at.x+int64(k%3)-1, at.y+int64(k/3)-1
		if c < 0 || adjacentCells(cx, cy, from[0], from[1]) {
			continue // no node there, or adjacent before too
		}
		// The nodes not apart from v first, without a branch on each
		// (about half are), then those looked at.
		nodes := w.g.list[c].nodes
		near := slices.Grow(w.near[:0], len(nodes))[:len(nodes)]
		m := 0
		for _, u := range nodes {
			near[m] = u
			m += b2i(!w.apart(sv, &r.nodes[u]))
		}
		w.near = near
		for _, u := range near[:m] {
			if u == v || r.flags[u]&turns != 0 {
				continue
			}
			// u moved before v in this window and saw v where v
			// was then: in a cell that became adjacent to u.
			if w.g.moved[u] == w.n && u < v {
				if ua, up := &w.g.at[u], &w.g.prev[u]; adjacentCells(from[0], from[1], ua.x, ua.y) && !adjacentCells(from[0], from[1], up[0], up[1]) {
					continue
				}
			}
			w.lookStraight(r, v, u, sv, t0, t1)
		}
	}
}

// turn has v, which changes course in the window, look at every node in
// the cells around it (reachK of them each way), but those that turn too,
// have a lower id and look at v themselves.
func (w *watch) turn(r *Radio, v int32, t0, t1 time.Duration) {
	at := w.g.at[v]
	visit := func(nodes []int32) {
		for _, u := range nodes {
			if u == v || u < v && w.scans(r, u) && w.sees(u, v) {
				continue // u looks at v itself
			}
			w.look(r, v, u, t0, t1)
		}
	}
	k := w.reachK[v]
	switch {
	case k == 1:
		for _, c := range w.g.list[at.c].nb {
			if c >= 0 {
				visit(w.g.list[c].nodes)
			}
		}
	case k == math.MaxInt64:
		for c := range w.g.list {
			visit(w.g.list[c].nodes)
		}
	default:
		for y := at.y - k; y <= at.y+k; y++ {
			for x := at.x - k; x <= at.x+k; x++ {
				if c, ok := w.g.index[[2]int64{x, y}]; ok {
					visit(w.g.list[c].nodes)
				}
			}
		}
	}
}

// sees reports whether u, which turns, looks at the cell of v.
func (w *watch) sees(u, v int32) bool {
	ua, va, k := &w.g.at[u], &w.g.at[v], w.reachK[u]
	return ua.x-va.x <= k && va.x-ua.x <= k && ua.y-va.y <= k && va.y-ua.y <= k
}

// scans reports whether u looks at its neighbours in this window: it turns
// (in the first window, where first looks at the others' pairs, only if it
// jumped).
func (w *watch) scans(r *Radio, u int32) bool {
	return r.flags[u]&turns != 0 && (w.n > 1 || w.reachK[u] > 1)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
