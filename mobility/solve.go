package mobility

import (
	"math"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// The solve of a pair over a window: its arithmetic is the one the radio
// has always had, so that its changes stay the same, bit for bit; what
// changed around it is which pairs get solved (watch.go).

// solveSimple is solve for a pair whose nodes both go straight from p0 to
// p1 over the whole window, or stay: one piece, [t0, t1]. It computes what
// solve computes for such paths, the same way, and has piece emit straight
// into evs.
func (r *Radio) solveSimple(a, b int32, na, nb *node, in bool, t0, t1 time.Duration) {
	n, pair := len(r.evs), r.pair
	r.pair = r.evs
	r.piece(t0, t1, t0, na.p0, nb.p0, na.p1, nb.p1, in, a, b)
	r.evs, r.pair = r.pair, pair
	// Changes and changes back within one nanosecond cancel.
	if len(r.evs) == n+2 && r.evs[n].At == r.evs[n+1].At {
		r.evs = r.evs[:n]
	}
}

// solve walks the pair a < b, whose paths are la and lb, through the window
// from its state in, appends its changes to evs and returns its state at t1.
func (r *Radio) solve(a, b int32, la, lb []stop, in bool, t0, t1 time.Duration) bool {
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
		sq := math.Sqrt(nonNeg(B*B - 4*A*C))
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
	if off := math.Ceil(nonNeg(u) * float64(next-t)); off < float64(next-t) {
		at = t + time.Duration(off)
	}
	at = max(at, t0+1) // t0 itself belongs to the window before: a jump there is reported just after
	r.pair = append(r.pair, Change{At: at, A: algo.NodeID(a), B: algo.NodeID(b), Up: up})
}

// nonNeg is math.Max(x, 0) as the two uses above need it, without the call:
// it keeps a -0 (Max makes it +0), whose square root and product are -0,
// and those give the same instant and the same root as +0 there (a
// Copysign, a Ceil then a comparison and a conversion to an integer).
func nonNeg(x float64) float64 {
	if x < 0 {
		return 0
	}
	return x
}
