package mobility

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// Radio is the range model: two nodes of a Plan are neighbours while their
// distance is at most the range R. It hands out the links at time 0 (Graph)
// and then, lazily and in time order, every pair coming into range or going
// out of it (Next).
//
// # Exactness
//
// Crossing times are solved, not sampled. While both nodes of a pair move in
// straight lines at constant speed, the squared distance minus R² is a
// quadratic in time; the pair's time is cut into such pieces at every leg
// start and end of either node (and at window bounds, below). The sign of
// that quadratic is evaluated once at each cut, from the positions there, and
// the same value ends one piece and starts the next (positions at a window's
// end are kept as the next window's start), so the state of a pair at a cut
// is never computed twice in two ways: a pair changes state only where that
// sign changes (the piece's one root there) or where it dips below zero and
// comes back inside a piece (both roots, from the closest approach). The
// state held for a pair (Graph's, then its last change) is what a window
// starts from, never recomputed; a pair that a window passes over is one
// whose distance stays farther from R than rounding can reach, so its state
// cannot have changed. Hence no change is lost or doubled, and a pair's
// changes alternate, up and down.
//
// # Rounding
//
// Changes carry whole nanoseconds: a crossing at the real instant t is
// reported at ceil(t), the first nanosecond at which the pair is in its new
// state (for a crossing exactly on a nanosecond, the pair is still at
// distance R then). Positions are those of Track.At. A pair whose state
// would change and change back within one nanosecond yields nothing, and so
// does a touch (distance R reached at one instant only, or, as rounding
// makes it, for less than a nanosecond), with one exception: a touch from
// outside exactly at a cut (which is a whole nanosecond) is in range at that
// nanosecond, and yields an up then and a down one nanosecond later. A jump
// (a zero-length leg, or a leg starting away from where its node was)
// changes the state at its own instant; a jump at the very start of a window
// is reported one nanosecond later.
//
// # Cost
//
// Changes are found window by window, each window of time short enough that
// no node moves more than about R/4 in it. In a window, only nodes that move
// look for partners, in a grid of cells of side R plus twice the largest
// distance travelled in the window (a counting sort into flat arrays,
// rebuilt in place), and a pair whose distance at the window's start differs
// from R by more than what both nodes travel in the window is passed over
// without solving. A window costs O(n) plus O(moving nodes × local density).
type Radio struct {
	plan   *Plan
	r2     float64 // R²
	r      float64
	margin float64 // slack added to the skip test against rounding, metres
	win    time.Duration
	graph  *topo.Graph

	t0   time.Duration   // every change up to t0 has been found
	done bool            // no node moves after t0
	pos  []topo.Point    // positions at t0
	end  []topo.Point    // positions at the end of the window being built
	cur  []int32         // per node, its first leg not done with at t0
	nbr  [][]algo.NodeID // per node, its neighbours at t0, ascending

	// Scratch of one window, reused from window to window.
	off    []int32   // node v's path in the window is pts[off[v]:off[v+1]]
	pts    []stop    //
	travel []float64 // per node, the length of its path in the window
	movers []int32   // the nodes that move in the window, ascending
	grid   grid
	marks  []uint32 // marks[u] == mark: u is a neighbour of the node being paired
	mark   uint32
	pair   []Change // one pair's changes in the window

	evs  []Change // the window's changes, in order
	next int      // evs[next] is the next change to hand out
}

// stop is a point of a node's path: its position at t. A node moves in a
// straight line at constant speed between consecutive stops; two stops at
// the same instant are a jump; after its last stop it stays.
type stop struct {
	t time.Duration
	p topo.Point
}

// Window bounds: a window is chosen so that the fastest node covers a
// quarter of the range in it, but never shorter than minWindow (very fast
// nodes then simply make cells larger) nor longer than maxWindow.
const (
	minWindow = time.Millisecond
	maxWindow = 24 * time.Hour
)

// NewRadio prepares the range model of a plan with range rangeM metres. It
// refuses a range that is not a positive finite number, a plan without
// nodes, and a plan whose tracks are not well formed (finite positions, legs
// with Start <= End, in time order, not overlapping).
func NewRadio(p *Plan, rangeM float64) (*Radio, error) {
	if !(rangeM > 0) || math.IsInf(rangeM, 0) {
		return nil, fmt.Errorf("radio range %g m: want a positive number", rangeM)
	}
	if p == nil || len(p.Tracks) == 0 {
		return nil, errors.New("radio: the plan has no nodes")
	}
	if len(p.Tracks) > math.MaxInt32 {
		return nil, fmt.Errorf("radio: %d nodes are too many", len(p.Tracks))
	}
	vmax := 0.0
	for v := range p.Tracks {
		tr := &p.Tracks[v]
		if !finite(tr.Start) {
			return nil, fmt.Errorf("radio: node %d starts at %v", v, tr.Start)
		}
		for i, l := range tr.Legs {
			switch {
			case !finite(l.From) || !finite(l.To):
				return nil, fmt.Errorf("radio: node %d leg %d goes from %v to %v", v, i, l.From, l.To)
			case l.End < l.Start:
				return nil, fmt.Errorf("radio: node %d leg %d ends at %v, before it starts at %v", v, i, l.End, l.Start)
			case i > 0 && l.Start < tr.Legs[i-1].End:
				return nil, fmt.Errorf("radio: node %d leg %d starts at %v, before leg %d ends at %v", v, i, l.Start, i-1, tr.Legs[i-1].End)
			}
			if l.End > l.Start {
				vmax = math.Max(vmax, l.Speed())
			}
		}
	}
	n := len(p.Tracks)
	r := &Radio{
		plan:   p,
		r:      rangeM,
		r2:     rangeM * rangeM,
		margin: 1e-6 * (1 + rangeM),
		win:    maxWindow,
		pos:    p.Positions(0),
		end:    make([]topo.Point, n),
		cur:    make([]int32, n),
		nbr:    make([][]algo.NodeID, n),
		off:    make([]int32, n+1),
		travel: make([]float64, n),
		marks:  make([]uint32, n),
	}
	if vmax > 0 {
		w := rangeM / (4 * vmax) * float64(time.Second)
		r.win = time.Duration(math.Max(float64(minWindow), math.Min(float64(maxWindow), w)))
	}
	for v := range p.Tracks {
		legs := p.Tracks[v].Legs
		k, _ := slices.BinarySearchFunc(legs, time.Duration(0), func(l Leg, t time.Duration) int {
			if l.End < t {
				return -1
			}
			return 1
		})
		r.cur[v] = int32(k) // the first leg that ends at 0 or later
	}
	r.graph = r.initial()
	return r, nil
}

func finite(p topo.Point) bool {
	return !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0)
}

// initial finds the links at time 0, fills the neighbour lists and builds
// the graph.
func (r *Radio) initial() *topo.Graph {
	g := &r.grid
	g.build(r.pos, nil, r.r)
	var edges []topo.Edge
	for i, p := range r.pos {
		g.around(p, func(near []slot) {
			for _, q := range near {
				if int(q.id) > i && r.within(p, q.p) {
					edges = append(edges, topo.Edge{A: algo.NodeID(i), B: algo.NodeID(q.id)})
				}
			}
		})
	}
	gr := topo.New(len(r.pos), edges)
	for v := range r.nbr {
		r.nbr[v] = slices.Clone(gr.Neighbors(algo.NodeID(v)))
	}
	gr.Pos = slices.Clone(r.pos)
	gr.Width, gr.Height = r.plan.Width, r.plan.Height
	return gr
}

// within reports whether a node at q is in range of one at p: the single
// test every state of a pair comes from. p is the lower id's position.
func (r *Radio) within(p, q topo.Point) bool {
	dx, dy := q.X-p.X, q.Y-p.Y
	return dx*dx+dy*dy <= r.r2
}

// Graph is the links at time 0, with Pos the positions at time 0 and the
// plan's area. It is built once; don't modify it.
func (r *Radio) Graph() *topo.Graph { return r.graph }

// Plan is the movement the radio follows.
func (r *Radio) Plan() *Plan { return r.plan }

// Positions returns every node's position at a time (Plan.Positions).
func (r *Radio) Positions(at time.Duration) []topo.Point { return r.plan.Positions(at) }

// Next returns the next change of the links, in order of (At, A, B); false
// once no node moves any more. A pair's changes alternate, up and down,
// starting from its state in Graph.
func (r *Radio) Next() (Change, bool) {
	for r.next == len(r.evs) {
		if r.done || !r.window() {
			return Change{}, false
		}
	}
	c := r.evs[r.next]
	r.next++
	return c, true
}

// window finds the changes of the next window of time into evs; false when
// no node moves after t0.
func (r *Radio) window() bool {
	tracks := r.plan.Tracks
	t0 := r.t0
	// Nothing moves before the earliest leg still to come: start the window
	// where that leg starts.
	first, any := time.Duration(math.MaxInt64), false
	for v := range tracks {
		if k := int(r.cur[v]); k < len(tracks[v].Legs) {
			first, any = min(first, max(t0, tracks[v].Legs[k].Start)), true
		}
	}
	if !any {
		r.done = true
		r.evs, r.next = r.evs[:0], 0
		return false
	}
	t1 := time.Duration(math.MaxInt64)
	if first < math.MaxInt64-r.win {
		t1 = first + r.win
	}

	// Each node's path over [t0, t1], and how far it goes.
	r.pts, r.movers = r.pts[:0], r.movers[:0]
	longest := 0.0
	for v := range tracks {
		r.off[v] = int32(len(r.pts))
		last := stop{t0, r.pos[v]}
		r.pts = append(r.pts, last)
		path := 0.0
		add := func(s stop) {
			path += dist(last.p, s.p)
			r.pts = append(r.pts, s)
			last = s
		}
		legs := tracks[v].Legs
		k := int(r.cur[v])
		for ; k < len(legs) && legs[k].Start <= t1; k++ {
			l := &legs[k]
			if l.Start > last.t {
				add(stop{l.Start, last.p}) // paused until the leg starts
			}
			if l.Start >= t0 && l.From != last.p {
				add(stop{last.t, l.From}) // a jump to where the leg starts
			}
			if l.End > t1 {
				add(stop{t1, l.at(t1)})
				break // the leg goes on in the next window
			}
			if l.End > last.t || l.To != last.p {
				add(stop{l.End, l.To})
			}
		}
		r.cur[v] = int32(k)
		r.end[v] = last.p
		r.travel[v] = path
		if path > 0 {
			r.movers = append(r.movers, int32(v))
			longest = math.Max(longest, path)
		} else {
			r.pts = r.pts[:r.off[v]+1] // still: one stop is enough
		}
	}
	r.off[len(tracks)] = int32(len(r.pts))

	r.evs, r.next = r.evs[:0], 0
	if len(r.movers) > 0 {
		r.pairs(t0, t1, longest)
		// (At, A, B) is unique in a window: a pair's changes within one
		// nanosecond cancel.
		slices.SortFunc(r.evs, func(a, b Change) int {
			if c := cmp.Compare(a.At, b.At); c != 0 {
				return c
			}
			if c := cmp.Compare(a.A, b.A); c != 0 {
				return c
			}
			return cmp.Compare(a.B, b.B)
		})
	}
	r.pos, r.end = r.end, r.pos
	r.t0 = t1
	return true
}

// pairs solves, over the window [t0, t1], every pair with a moving node that
// can change state in it.
//
// Each pair of nodes in the same or adjacent cells is looked at once: with
// the nodes of a cell, then those of the cell to its right and of the three
// below it. (Looking from each moving node at the nine cells around it saw
// every pair of moving nodes twice.) The order in which pairs are solved
// does not matter: the window's changes are sorted afterwards, and a pair's
// state is read (from the neighbour lists, which hold the states at t0
// until the pair itself is solved, through marks) and changed by that pair
// alone.
func (r *Radio) pairs(t0, t1 time.Duration, longest float64) {
	// A pair within range at some instant of the window is within
	// R + (both paths) <= R + 2*longest of each other at t0.
	g := &r.grid
	g.build(r.pos, r.travel, r.r+2*longest+r.margin)
	for y := range g.ny {
		for x := range g.nx {
			c := y*g.nx + x
			cell := g.slots[g.start[c]:g.start[c+1]]
			if len(cell) == 0 {
				continue
			}
			right := g.slots[g.start[c+1]:g.start[c+1]] // the cell to the right, if any
			if x+1 < g.nx {
				right = g.slots[g.start[c+1]:g.start[c+2]]
			}
			var below []slot // the cells below: left, under and right
			if y+1 < g.ny {
				b := c + g.nx
				below = g.slots[g.start[b+max(x-1, 0)-x]:g.start[b+min(x+1, g.nx-1)-x+1]]
			}
			for k := range cell {
				p := &cell[k]
				// p's neighbours at t0, marked: the pairs of p solved
				// below are solved nowhere else in this window, so the
				// marks stay true.
				r.mark++
				if r.mark == 0 {
					clear(r.marks)
					r.mark = 1
				}
				for _, u := range r.nbr[p.id] {
					r.marks[u] = r.mark
				}
				r.near(p, cell[k+1:], t0, t1)
				r.near(p, right, t0, t1)
				r.near(p, below, t0, t1)
			}
		}
	}
}

// near solves the pairs of p with each of qs that can change state in the
// window [t0, t1].
func (r *Radio) near(p *slot, qs []slot, t0, t1 time.Duration) {
	for k := range qs {
		q := &qs[k]
		if p.travel == 0 && q.travel == 0 {
			continue // neither moves
		}
		d := p.travel + q.travel + r.margin
		dx, dy := q.p.X-p.p.X, q.p.Y-p.p.Y
		d2 := dx*dx + dy*dy
		if hi := r.r + d; d2 > hi*hi {
			continue // too far apart to meet in this window
		}
		if lo := r.r - d; lo > 0 && d2 < lo*lo {
			continue // too close to part in this window
		}
		in := r.marks[q.id] == r.mark
		a, b := min(p.id, q.id), max(p.id, q.id)
		if r.solve(a, b, in, t0, t1) != in {
			r.toggle(a, b, !in)
		}
	}
}

// toggle records a and b as neighbours (up) or not.
func (r *Radio) toggle(a, b int32, up bool) {
	set := func(v, u int32) {
		l := r.nbr[v]
		k, found := slices.BinarySearch(l, algo.NodeID(u))
		switch {
		case up && !found:
			r.nbr[v] = slices.Insert(l, k, algo.NodeID(u))
		case !up && found:
			r.nbr[v] = slices.Delete(l, k, k+1)
		}
	}
	set(a, b)
	set(b, a)
}

// solve walks the pair a < b through the window from its state in, appends
// its changes to evs and returns its state at t1.
func (r *Radio) solve(a, b int32, in bool, t0, t1 time.Duration) bool {
	la := r.pts[r.off[a]:r.off[a+1]]
	lb := r.pts[r.off[b]:r.off[b+1]]
	ka, kb := 0, 0
	pa, pb := la[0].p, lb[0].p
	t := t0
	s := in
	r.pair = r.pair[:0]
	for {
		jumped := false
		for ka+1 < len(la) && la[ka+1].t == t {
			ka++
			pa, jumped = la[ka].p, true
		}
		for kb+1 < len(lb) && lb[kb+1].t == t {
			kb++
			pb, jumped = lb[kb].p, true
		}
		if jumped {
			if now := r.within(pa, pb); now != s {
				s = now
				r.emit(t, t, 0, t0, a, b, s)
			}
		}
		next := t1
		if ka+1 < len(la) {
			next = min(next, la[ka+1].t)
		}
		if kb+1 < len(lb) {
			next = min(next, lb[kb+1].t)
		}
		if next <= t {
			break
		}
		qa, qb := along(la, ka, next), along(lb, kb, next)
		s = r.piece(t, next, t0, pa, pb, qa, qb, s, a, b)
		pa, pb, t = qa, qb, next
		if ka+1 < len(la) && la[ka+1].t == next {
			ka++
		}
		if kb+1 < len(lb) && lb[kb+1].t == next {
			kb++
		}
	}
	// Changes and changes back within one nanosecond cancel.
	out := r.pair[:0]
	for _, c := range r.pair {
		if k := len(out); k > 0 && out[k-1].At == c.At {
			out = out[:k-1]
			continue
		}
		out = append(out, c)
	}
	r.evs = append(r.evs, out...)
	return s
}

// along is the position at t of a node whose path is l and which is between
// stops k and k+1 (or stays at its last stop).
func along(l []stop, k int, t time.Duration) topo.Point {
	if k+1 >= len(l) {
		return l[k].p
	}
	if l[k+1].t == t {
		return l[k+1].p
	}
	p, q := l[k], l[k+1]
	f := float64(t-p.t) / float64(q.t-p.t)
	return topo.Point{X: p.p.X + f*(q.p.X-p.p.X), Y: p.p.Y + f*(q.p.Y-p.p.Y)}
}

// piece finds the changes of a pair over [t, next], during which both nodes
// go straight: a from pa to qa, b from pb to qb. s is the pair's state at t;
// piece returns its state at next, which is that of the positions at next.
func (r *Radio) piece(t, next, t0 time.Duration, pa, pb, qa, qb topo.Point, s bool, a, b int32) bool {
	dx, dy := pb.X-pa.X, pb.Y-pa.Y // b relative to a at t
	ex, ey := qb.X-qa.X, qb.Y-qa.Y // at next
	sNext := ex*ex+ey*ey <= r.r2
	// f(u) = |d + u·v|² - R², u in [0, 1] across the piece.
	vx, vy := (qb.X-pb.X)-(qa.X-pa.X), (qb.Y-pb.Y)-(qa.Y-pa.Y)
	A := vx*vx + vy*vy
	B := 2 * (dx*vx + dy*vy)
	C := dx*dx + dy*dy - r.r2
	if A == 0 {
		if sNext != s {
			r.emit(t, next, 0, t0, a, b, sNext)
		}
		return sNext
	}
	roots := func() (float64, float64) {
		sq := math.Sqrt(math.Max(B*B-4*A*C, 0))
		q := -0.5 * (B + math.Copysign(sq, B))
		if q == 0 {
			return 0, 0
		}
		u1, u2 := q/A, C/q
		if u1 > u2 {
			u1, u2 = u2, u1
		}
		return u1, u2
	}
	switch {
	case !s && sNext: // comes into range: the first root
		u1, _ := roots()
		r.emit(t, next, u1, t0, a, b, true)
	case s && !sNext: // goes out of range: the second root
		_, u2 := roots()
		r.emit(t, next, u2, t0, a, b, false)
	case !s && !sNext: // out at both ends: in and out again if it dips in between
		// f(u) = A·(u-um)² + fmin, with fmin from the distance at the
		// closest approach itself, better conditioned than the
		// discriminant near a touch.
		if um := -B / (2 * A); um > 0 && um < 1 {
			mx, my := dx+um*vx, dy+um*vy
			if fmin := mx*mx + my*my - r.r2; fmin < 0 {
				h := math.Sqrt(-fmin / A)
				r.emit(t, next, um-h, t0, a, b, true)
				r.emit(t, next, um+h, t0, a, b, false)
			}
		}
	}
	// In at both ends: f is convex, so in all along.
	return sNext
}

// emit records the pair's change at the fraction u of [t, next], rounded up
// to the nanosecond and kept inside (t0, next].
func (r *Radio) emit(t, next time.Duration, u float64, t0 time.Duration, a, b int32, up bool) {
	at := next
	if off := math.Ceil(math.Max(0, u) * float64(next-t)); off < float64(next-t) {
		at = t + time.Duration(off)
	}
	at = max(at, t0+1) // t0 itself belongs to the window before: a jump there is reported just after
	r.pair = append(r.pair, Change{At: at, A: algo.NodeID(a), B: algo.NodeID(b), Up: up})
}

// grid buckets positions into square cells (a counting sort into flat
// arrays, rebuilt in place), so that two points at most side apart lie in
// the same or in adjacent cells.
type grid struct {
	minX, minY float64
	side       float64
	nx, ny     int
	start      []int32 // cell c holds slots[start[c]:start[c+1]]
	slots      []slot
}

// slot is a node in a cell, with what the search for pairs reads of it.
type slot struct {
	p      topo.Point
	travel float64
	id     int32
}

// build fills the grid with the nodes at pos, each with its travel (none
// when travel is nil).
func (g *grid) build(pos []topo.Point, travel []float64, side float64) {
	n := len(pos)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pos {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	// A hair over side, so that rounding in the division cannot put two
	// points side apart two cells apart; and no more cells than a few per
	// point.
	side = side * (1 + 1e-6)
	maxCells := float64(2*n + 16)
	w, h := maxX-minX, maxY-minY
	for {
		fx, fy := math.Floor(w/side)+1, math.Floor(h/side)+1
		if fx*fy <= maxCells {
			g.nx, g.ny = int(fx), int(fy)
			break
		}
		side *= math.Max(1.1, math.Sqrt(fx*fy/maxCells))
	}
	g.minX, g.minY, g.side = minX, minY, side
	ncell := g.nx * g.ny
	g.start = slices.Grow(g.start[:0], ncell+1)[:ncell+1]
	clear(g.start)
	g.slots = slices.Grow(g.slots[:0], n)[:n]
	for _, p := range pos {
		g.start[g.cell(p)]++
	}
	sum := int32(0)
	for c := range ncell {
		sum += g.start[c]
		g.start[c] = sum // the end of cell c, for now
	}
	g.start[ncell] = sum
	for i := n - 1; i >= 0; i-- {
		c := g.cell(pos[i])
		g.start[c]--
		s := slot{p: pos[i], id: int32(i)}
		if travel != nil {
			s.travel = travel[i]
		}
		g.slots[g.start[c]] = s
	}
}

func (g *grid) xy(p topo.Point) (int, int) {
	x := min(int((p.X-g.minX)/g.side), g.nx-1)
	y := min(int((p.Y-g.minY)/g.side), g.ny-1)
	return max(x, 0), max(y, 0)
}

func (g *grid) cell(p topo.Point) int {
	x, y := g.xy(p)
	return y*g.nx + x
}

// around calls f with the nodes of the cell of p and of its eight
// neighbours, a row of up to three cells at a time.
func (g *grid) around(p topo.Point, f func(near []slot)) {
	x, y := g.xy(p)
	x0, x1 := max(x-1, 0), min(x+1, g.nx-1)
	for row := max(y-1, 0); row <= min(y+1, g.ny-1); row++ {
		c := row * g.nx
		f(g.slots[g.start[c+x0]:g.start[c+x1+1]])
	}
}
