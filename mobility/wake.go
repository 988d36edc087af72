package mobility

import (
	"math"
	"time"
)

// wakeAt is when the pair of na and nb, whose window ends at t1, must be
// looked at again: the first instant at which, by both straight motions
// after t1, its distance may be within the band around R, or at which
// either node changes course (MaxInt64: never). t1 means the next window.
func (w *watch) wakeAt(na, nb *node, t1 time.Duration) time.Duration {
	lin := min(na.until, nb.until)
	if still(na, nb) {
		return lin // no solve until one moves
	}
	return w.nearR(nb.p1.X-na.p1.X, nb.p1.Y-na.p1.Y, nb.vel.X-na.vel.X, nb.vel.Y-na.vel.Y, t1, lin)
}

// still reports whether neither node moves after the window.
func still(na, nb *node) bool {
	return na.vel == nb.vel && na.vel.X == 0 && na.vel.Y == 0
}

// nearR is the first instant from t on at which a pair at (dx, dy) from
// each other at t, going apart at (vx, vy) metres per nanosecond, may be
// within the band around R: t if it is now, lin if not before lin.
//
// The band is wide against rounding: a pair that stays outside it is one
// whose solve would find nothing, as the skip test of the window before
// assumes. The roots are taken in the forms that do not cancel, and made a
// hair early.
func (w *watch) nearR(dx, dy, vx, vy float64, t, lin time.Duration) time.Duration {
	c := dx*dx + dy*dy
	b := 2 * (dx*vx + dy*vy)
	if c > w.ro2 && b >= 0 {
		return lin // outside, and not coming closer
	}
	if c <= w.ro2 && c >= w.ri2 {
		return t // in the band (rounding may flip the state of a pair that stays there)
	}
	a := vx*vx + vy*vy
	if a == 0 {
		return lin // the distance stays
	}
	var u float64 // nanoseconds after t
	if c > w.ro2 {
		// Outside: the first root of |d + v·u|² = (R+band)², if it
		// comes that close.
		k := c - w.ro2
		disc := b*b - 4*a*k
		if disc < 0 {
			return lin
		}
		u = k / (-0.5 * (b - math.Sqrt(disc)))
	} else {
		// Inside: the second root of |d + v·u|² = (R-band)².
		k := c - w.ri2
		sq := math.Sqrt(b*b - 4*a*k)
		if b <= 0 {
			u = (sq - b) / (2 * a)
		} else {
			u = 2 * k / (-b - sq)
		}
	}
	u = u*(1-1e-9) - 2
	if !(u < float64(lin-t)) {
		return lin
	}
	if u <= 0 {
		return t
	}
	return t + time.Duration(u)
}
