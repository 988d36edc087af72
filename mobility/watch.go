package mobility

import (
	"math"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// watch decides which pairs a window solves. The windowed search it
// replaces (kept in watch_test.go as its oracle) solved, in every window,
// every pair with a moving node whose distance at the window's start was
// within what both nodes travel in the window of R (the skip test,
// mayChange): a pair outside that cannot change in the window. The watch
// solves those of them that, by the nodes' straight motions, may come
// within a hair of R in the window (the band: nearR), or of which a node
// changes course in it. The others are pairs whose solve would find
// nothing: their distance stays farther from R than rounding reaches. So
// the changes are the same, bit for bit, as the solves are.
//
// Nor does the watch keep the state of a pair: it is within() of the
// positions at the window's start. A solve ends on the sign at the
// window's end, from the positions there, which start the next window; and
// a pair that is not solved stays farther from R than rounding reaches,
// where within is exact.
//
// A pair is looked at (look) in a window when
//   - a node of it changes course, a leg starting or ending or a jump
//     (turn): that node looks at every node of its own and the eight
//     adjacent cells (farther, if it jumped farther than a cell's side);
//   - a node enters a cell (enter): it looks at the nodes of the cells that
//     have become adjacent;
//   - it wakes up: when it was last looked at, the two straight motions
//     brought its distance within the band before either node would turn
//     (wakeAt), in this window.
//
// A node is in the cell of its position in the middle of the window (the
// middle of the part that moves), and cells have a side of R, the band and
// what the fastest node travels in a window: so a pair whose distance is
// within the band at some instant of the window is one of nodes in the same
// or adjacent cells (unless a node jumped). A pair that comes near thus
// becomes adjacent before, as one of its nodes enters a cell, and is looked
// at then; from then on until either node turns, its wake-ups take it.
//
// The rules of who looks at whom (scan.go) see to it that a pair is looked
// at once in a window, but for one case: a pair asleep until a wake-up
// that moves cells apart and back is looked at again as it becomes
// adjacent, and has two wake-ups then, computed alike. The window takes a
// pair's wake-ups once (step), and its sort drops any change found twice.
type watch struct {
	g   cells
	cal calendar
	due []span  // the wake-ups taken for the window
	byA []int32 // scratch of their sort: per node a, where its wake-ups (a, b) start
	bs  []int32 // their second nodes, by first

	tmax     float64 // a node that travels farther in a window has jumped
	band     float64 // metres either side of R
	ro2, ri2 float64 // the band: squared distances from (R-band)² to (R+band)²; ri2 < 0 when R <= band
	n        uint32  // the window's number, from 1

	near    []int32  // scratch of enter
	turned  []uint32 // per node, in how many windows it has turned
	turning []int32  // the nodes that turn in the window, ascending
	reachK  []int64  // per node that turns, how many cells around it it looks at (MaxInt64: all)
}

// init prepares the watch over the nodes at pos, at time 0, and returns the
// links then. Every node turns in the first window, which looks at every
// pair of nodes in adjacent cells. eps is the rounding allowed for
// positions, in metres.
func (w *watch) init(r *Radio, pos []topo.Point, tmax, eps float64) []topo.Edge {
	n := len(pos)
	w.tmax = tmax
	// The band: four times the rounding allowed for, so that the motions'
	// float arithmetic, the roots' and the positions' all stay well
	// inside it.
	w.band = 4 * eps
	w.ro2 = (r.r + w.band) * (r.r + w.band)
	w.ri2 = -1
	if r.r > w.band {
		w.ri2 = (r.r - w.band) * (r.r - w.band)
	}
	w.turned, w.reachK = make([]uint32, n), make([]int64, n)
	w.byA = make([]int32, n+1)
	w.cal.reset(r.win)
	w.g.reset(n, (r.r+w.band+tmax+2*eps)*(1+1e-6))
	for v, p := range pos {
		x, y := w.g.coords(p)
		w.g.put(int32(v), w.g.get(x, y), x, y)
	}
	var edges []topo.Edge
	pair := func(u, v int32) {
		if a, b := min(u, v), max(u, v); r.within(pos[a], pos[b]) {
			edges = append(edges, topo.Edge{A: algo.NodeID(a), B: algo.NodeID(b)})
		}
	}
	w.nearPairs(pair)
	return edges
}

// nearPairs calls pair for each pair of nodes in the same or adjacent cells,
// once: a node with the nodes after it in its cell, then with those of four
// of its cell's neighbours, one of each opposite two.
func (w *watch) nearPairs(pair func(u, v int32)) {
	for c := range w.g.list {
		cl := &w.g.list[c]
		for i, u := range cl.nodes {
			for _, v := range cl.nodes[i+1:] {
				pair(u, v)
			}
			for _, k := range [...]int{5, 6, 7, 8} { // (+1, 0), (-1, +1), (0, +1), (+1, +1)
				if o := cl.nb[k]; o >= 0 {
					for _, v := range w.g.list[o].nodes {
						pair(u, v)
					}
				}
			}
		}
	}
}

// step finds the changes of the window [t0, t1] into r.evs, once the nodes'
// paths are laid out. The pairs are looked at in no particular order: a
// pair's changes are its own, and the window's changes are sorted
// afterwards.
func (w *watch) step(r *Radio, t0, t1 time.Duration) {
	w.n++
	// The wake-ups first, so that those put below go to later windows.
	w.due = w.cal.take(t1, w.due[:0])

	// Nodes that enter a cell look at the cells that have become
	// adjacent, one after the other, each seeing the others where they
	// are then: a pair that becomes adjacent does so as one of its nodes
	// moves, and that node sees the other. A node that turns looks at all
	// its neighbours below instead, and is left to that.
	w.turning = w.turning[:0]
	for v := range r.nodes {
		turning := r.flags[v]&turns != 0
		if turning {
			w.turning = append(w.turning, int32(v))
			w.turned[v]++
		}
		if x, y := w.g.coords(r.mid[v]); x != w.g.at[v].x || y != w.g.at[v].y {
			w.g.move(int32(v), x, y, w.n)
			if !turning && w.n > 1 {
				w.enter(r, int32(v), t0, t1)
			}
		}
	}
	longest := -1.0 // what the farthest going node travels, once a node has jumped
	for _, v := range w.turning {
		w.reachK[v] = 1
		if st := &r.nodes[v]; st.travel > w.tmax {
			if longest < 0 {
				for u := range r.nodes {
					longest = max(longest, r.nodes[u].travel)
				}
			}
			// It jumped: the nodes it may come near in the window
			// are those within R, the band and both travels of it at
			// t0, where the other is within its travel of where its
			// cell has it. Around its own cell, as far as the cell of
			// where it is at t0 and that far from there.
			d := (r.r + w.band + st.travel + 2*longest + 2*r.margin) * (1 + 1e-6)
			x, y := w.g.coords(st.p0)
			at := &w.g.at[v]
			off := float64(max(x-at.x, at.x-x, y-at.y, at.y-y))
			k := off + math.Ceil(d/w.g.side) + 1
			if (2*k+1)*(2*k+1) > float64(len(w.g.list)) {
				w.reachK[v] = math.MaxInt64
			} else {
				w.reachK[v] = int64(k)
			}
		}
	}
	if w.n == 1 {
		w.first(r, t0, t1)
	} else {
		for _, v := range w.turning {
			w.turn(r, v, t0, t1)
		}
	}
	// A pair may have two wake-ups at once, from two looks with the same
	// motions (see watch): looked at once here, it schedules one. The
	// wake-ups go by their first node (a counting sort), and a node's few
	// are told apart by their second.
	first := w.byA[:len(r.nodes)+1]
	clear(first)
	m := 0
	for _, sp := range w.due {
		for _, e := range w.cal.wakeups(sp) {
			// (Stale if a node has turned since: looked at then.)
			if w.turned[e.a] == e.ta && w.turned[e.b] == e.tb {
				first[e.a+1]++
				m++
			}
		}
	}
	for v := 1; v < len(first); v++ {
		first[v] += first[v-1]
	}
	w.bs = slices.Grow(w.bs[:0], m)[:m]
	for _, sp := range w.due {
		for _, e := range w.cal.wakeups(sp) {
			if w.turned[e.a] == e.ta && w.turned[e.b] == e.tb {
				w.bs[first[e.a]] = e.b
				first[e.a]++
			}
		}
	}
	w.cal.release(w.due)
	// first[a] is now where a's end.
	from := int32(0)
	for a, to := range first[:len(r.nodes)] {
		bs := w.bs[from:to]
		for i, b := range bs {
			if !slices.Contains(bs[:i], b) {
				// Due now, mostly: solved if it passes the skip test.
				w.look(r, int32(a), b, t0, t1)
			}
		}
		from = to
	}
}

// first looks at every pair in the first window: those of each node that
// jumps, as it turns, and every other pair of nodes in adjacent cells once
// (nearPairs); straight if neither turns.
func (w *watch) first(r *Radio, t0, t1 time.Duration) {
	for _, v := range w.turning {
		if w.reachK[v] > 1 {
			w.turn(r, v, t0, t1)
		}
	}
	pair := func(u, v int32) {
		fu, fv := r.flags[u], r.flags[v]
		switch {
		case fu&turns != 0 && w.reachK[u] > 1 || fv&turns != 0 && w.reachK[v] > 1:
			// looked at as the jumper turned
		case (fu|fv)&turns != 0:
			w.look(r, u, v, t0, t1)
		case !w.apart(&r.nodes[u], &r.nodes[v]):
			w.lookStraight(r, u, v, &r.nodes[u], t0, t1)
		}
	}
	w.nearPairs(pair)
}
