package mobility

import (
	"math"
	"time"

	"github.com/electgo/elect/topo"
)

// node is what a window knows of one node, what looking at its pairs
// reads (one cache line): its path over the window [t0, t1], from p0 to p1
// (the stops are in Radio.pts), how far that goes, and its straight motion
// after t1, which the pairs' wake-ups are computed from.
type node struct {
	p0, p1 topo.Point    // positions at t0 and t1
	vel    topo.Point    // metres per nanosecond from t1 until `until`
	until  time.Duration // the first instant after t1 at which the node changes course (MaxInt64: never)
	travel float64       // the length of the path over the window, metres
}

// nodeLeg is where a node is in its track.
type nodeLeg struct {
	cur    int32 // its first leg not done with at t1
	velLeg int32 // the leg vel was computed from (-1: none), so that a long leg divides once
}

// Node flags of a window.
const (
	simple = 1 << iota // the path is p0 to p1 in a straight line over the whole window, or no move at all
	turns              // it changes course in the window (its motion after the window before ends in it), or jumps
)

// paths lays out every node's path over the window [t0, t1], as stops (a
// jump is two stops at one instant; the stops of a simple path, p0 at t0
// and p1 at t1, are left to stops), with its length, its position in the
// middle of the moving part of the window (mid: nothing moves before t1 -
// win), and its motion after t1; and finds where the next window starts.
//
// Positions at a window's end are kept as the next one's start (p1 becomes
// p0): a node's position at a cut is computed once.
func (r *Radio) paths(t0, t1 time.Duration) {
	tracks := r.plan.Tracks
	r.pts = r.pts[:0]
	first := time.Duration(math.MaxInt64)
	mid := t1 - r.win/2
	for v := range tracks {
		st, lg := &r.nodes[v], &r.legs[v]
		p0 := st.p1
		st.p0 = p0
		var flag uint8
		if st.until <= t1 {
			flag = turns
		}
		r.off[v] = int32(len(r.pts))
		legs := tracks[v].Legs
		k := int(lg.cur)
		if k < len(legs) {
			if l := &legs[k]; l.End > t1 && (l.Start < t0 || l.Start == t0 && l.From == p0) {
				// The common case: in the middle of a leg all window
				// long (what the loop below does with it, shortened).
				p1 := l.at(t1)
				st.p1, st.travel = p1, length(p0, p1)
				if lg.velLeg != int32(k) {
					st.moving(lg, legs, k, t1)
				}
				st.until = l.End
				// (No jump, and no farther than the fastest goes in a
				// window.)
				r.flags[v] = flag | simple
				// (The window is [t0, t0+win]: halfway.)
				r.mid[v] = topo.Point{X: 0.5 * (p0.X + p1.X), Y: 0.5 * (p0.Y + p1.Y)}
				first = min(first, t1)
				continue
			}
		}
		last := stop{t0, p0}
		r.pts = append(r.pts, last)
		path := 0.0
		add := func(s stop) {
			path += dist(last.p, s.p)
			r.pts = append(r.pts, s)
			last = s
		}
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
		st.p1, st.travel = last.p, path
		if path == 0 {
			r.pts = r.pts[:r.off[v]+1] // still: one stop is enough
		}
		r.mid[v] = pathAt(r.pts[r.off[v]:], mid)
		if n := len(r.pts) - int(r.off[v]); n == 1 || n == 2 && last.t == t1 {
			flag |= simple
			r.pts = r.pts[:r.off[v]]
		}
		st.moving(lg, legs, k, t1)
		r.flags[v] = r.flag(flag, st.travel)
		if k < len(legs) {
			first = min(first, max(t1, legs[k].Start))
		}
	}
	r.off[len(tracks)] = int32(len(r.pts))
	r.first = first
}

// length is dist(p, q) but for the last bit: a square root where the
// squares neither overflow nor underflow (so that it is 0 only when p is q),
// Hypot elsewhere. The skip test, the one reader of a path's length, has a
// margin far wider than that.
func length(p, q topo.Point) float64 {
	dx, dy := q.X-p.X, q.Y-p.Y
	if s := dx*dx + dy*dy; s > 1e-280 && s < 1e280 {
		return math.Sqrt(s)
	}
	return math.Hypot(dx, dy)
}

// stops is node v's path over the window [t0, t1].
func (r *Radio) stops(v int32, buf *[2]stop, t0, t1 time.Duration) []stop {
	if r.flags[v]&simple == 0 {
		return r.pts[r.off[v]:r.off[v+1]]
	}
	st := &r.nodes[v]
	buf[0] = stop{t0, st.p0}
	if st.travel == 0 {
		return buf[:1]
	}
	buf[1] = stop{t1, st.p1}
	return buf[:2]
}

// pathAt is the position at t on a path that starts at or before t.
func pathAt(l []stop, t time.Duration) topo.Point {
	k := 0
	for k+1 < len(l) && l[k+1].t <= t {
		k++
	}
	return along(l, k, t)
}

// flag adds to a node's flags that it jumped, if it travels farther than
// a node can go in a window.
func (r *Radio) flag(f uint8, travel float64) uint8 {
	if travel > r.w.tmax {
		f |= turns
	}
	return f
}

// moving records the node's motion after t1, where legs[k] is its first leg
// not done with: on that leg until it ends, or still until it starts.
func (st *node) moving(lg *nodeLeg, legs []Leg, k int, t1 time.Duration) {
	lg.cur = int32(k)
	switch {
	case k == len(legs):
		st.vel, lg.velLeg, st.until = topo.Point{}, -1, math.MaxInt64
	case legs[k].Start > t1:
		st.vel, lg.velLeg, st.until = topo.Point{}, -1, legs[k].Start
	default: // Start <= t1 < End
		if lg.velLeg != int32(k) {
			l := &legs[k]
			d := float64(l.End - l.Start)
			st.vel = topo.Point{X: (l.To.X - l.From.X) / d, Y: (l.To.Y - l.From.Y) / d}
			lg.velLeg = int32(k)
		}
		st.until = legs[k].End
	}
}
