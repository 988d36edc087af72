package mobility

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

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
// no node moves more than about R/4 in it; a window's changes are those of
// the pairs solved in it, sorted. Which pairs a window solves is the watch
// (watch.go): a pair is solved in the windows in which, by the two nodes'
// straight motions, its distance may come within a hair of R, or in which
// either node changes course; each pair sleeps until such a window, on a
// calendar, and a grid of cells that follows the nodes (a node moves to
// another cell only as it crosses into it) finds the pairs that come near.
// A window costs O(n) for the nodes' paths, plus about one pair woken a
// link change, plus one look at each neighbour of a node that starts,
// stops or turns, and at each node of the cells a node enters.
type Radio struct {
	plan   *Plan
	r2     float64 // R²
	r      float64
	margin float64 // slack added to the skip test against rounding, metres
	win    time.Duration
	graph  *topo.Graph

	t0    time.Duration // every change up to t0 has been found
	first time.Duration // the earliest leg start at or after t0: the next window starts moving there
	done  bool          // no node moves after t0

	// Per node: its path in the current window and its motion after it.
	nodes []node
	legs  []nodeLeg
	flags []uint8      // simple, turns
	mid   []topo.Point // positions in the middle of the window, which place the nodes in cells
	off   []int32      // node v's path in the window is pts[off[v]:off[v+1]]
	pts   []stop

	// The pairs watched, and when each wakes (watch.go).
	w watch

	pair []Change // one pair's changes in the window
	evs  []Change // the window's changes, in order
	sort sorter   // scratch of the sort of evs
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
	vmax, extent := 0.0, 0.0
	for v := range p.Tracks {
		tr := &p.Tracks[v]
		if !finite(tr.Start) {
			return nil, fmt.Errorf("radio: node %d starts at %v", v, tr.Start)
		}
		extent = math.Max(extent, magnitude(tr.Start))
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
			extent = math.Max(extent, math.Max(magnitude(l.From), magnitude(l.To)))
		}
	}
	n := len(p.Tracks)
	r := &Radio{
		plan:   p,
		r:      rangeM,
		r2:     rangeM * rangeM,
		margin: 1e-6 * (1 + rangeM),
		win:    maxWindow,
		nodes:  make([]node, n),
		legs:   make([]nodeLeg, n),
		flags:  make([]uint8, n),
		mid:    make([]topo.Point, n),
		off:    make([]int32, n+1),
	}
	if vmax > 0 {
		w := rangeM / (4 * vmax) * float64(time.Second)
		r.win = time.Duration(math.Max(float64(minWindow), math.Min(float64(maxWindow), w)))
	}
	pos := p.Positions(0)
	r.first = math.MaxInt64
	for v := range p.Tracks {
		legs := p.Tracks[v].Legs
		k, _ := slices.BinarySearchFunc(legs, time.Duration(0), func(l Leg, t time.Duration) int {
			if l.End < t {
				return -1
			}
			return 1
		})
		r.legs[v] = nodeLeg{cur: int32(k), velLeg: -1} // the first leg that ends at 0 or later
		r.nodes[v].p1 = pos[v]                         // the first window starts where its predecessor would have ended
		// Its motion from 0 on; one that ends at 0 (a jump then) has it
		// turn in the first window.
		if k == len(legs) || legs[k].End > 0 {
			r.nodes[v].moving(&r.legs[v], legs, k, 0)
		}
		if k < len(legs) {
			r.first = min(r.first, max(0, legs[k].Start))
		}
	}
	r.done = r.first == math.MaxInt64
	// Rounding: what the skip test allows for, and a billionth of the
	// farthest coordinate for positions interpolated far from the origin.
	eps := r.margin + 1e-9*extent
	// Without a jump, a node goes at most vmax·win in a window.
	tmax := vmax * r.win.Seconds() * (1 + 1e-9)
	edges := r.w.init(r, pos, tmax, eps)
	gr := topo.New(n, edges)
	gr.Pos = pos
	gr.Width, gr.Height = p.Width, p.Height
	r.graph = gr
	return r, nil
}

func finite(p topo.Point) bool {
	return !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0)
}

func magnitude(p topo.Point) float64 { return math.Max(math.Abs(p.X), math.Abs(p.Y)) }

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
	r.evs, r.next = r.evs[:0], 0
	if r.first == math.MaxInt64 {
		r.done = true
		return false
	}
	// Nothing moves before the earliest leg still to come: the window
	// ends a window's length after it.
	t0, t1 := r.t0, time.Duration(math.MaxInt64)
	if r.first < math.MaxInt64-r.win {
		t1 = r.first + r.win
	}
	r.paths(t0, t1)
	r.w.step(r, t0, t1)
	r.evs = sortChanges(r.evs, len(r.nodes), t0, t1, &r.sort)
	r.t0 = t1
	return true
}
