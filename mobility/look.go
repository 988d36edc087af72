package mobility

import "time"

// look solves the pair of u and v over the window if it passes the skip
// test, and schedules its wake-up, if it may come near R before either node
// turns.
func (w *watch) look(r *Radio, u, v int32, t0, t1 time.Duration) {
	a, b := min(u, v), max(u, v)
	na, nb := &r.nodes[a], &r.nodes[b]
	if (na.travel != 0 || nb.travel != 0) && r.mayChange(na, nb) {
		in := r.within(na.p0, nb.p0)
		if r.flags[a]&r.flags[b]&simple != 0 {
			r.solveSimple(a, b, na, nb, in, t0, t1)
		} else {
			var ba, bb [2]stop
			r.solve(a, b, r.stops(a, &ba, t0, t1), r.stops(b, &bb, t0, t1), in, t0, t1)
		}
	}
	if at := w.wakeAt(na, nb, t1); at < min(na.until, nb.until) {
		w.cal.put(wakeup{a: a, b: b, ta: w.turned[a], tb: w.turned[b]}, at)
	}
}

// lookStraight is look for a pair of nodes that do not turn in the window,
// v and u, where sv is v's: both go straight at their speed after the
// window before, from t0 until they turn, so that one computation tells
// whether the pair may come near R in the window (and is solved) or only
// later (a wake-up), or not before either turns.
func (w *watch) lookStraight(r *Radio, v, u int32, sv *node, t0, t1 time.Duration) {
	su := &r.nodes[u]
	if still(sv, su) {
		return // neither moves until one turns
	}
	lin := min(sv.until, su.until)
	at := w.nearR(su.p0.X-sv.p0.X, su.p0.Y-sv.p0.Y, su.vel.X-sv.vel.X, su.vel.Y-sv.vel.Y, t0, lin)
	switch a, b := min(u, v), max(u, v); {
	case at <= t1:
		w.look(r, a, b, t0, t1)
	case at < lin:
		w.cal.put(wakeup{a: a, b: b, ta: w.turned[a], tb: w.turned[b]}, at)
	}
}

// mayChange is the skip test of a pair with a moving node: whether its
// distance at t0 is within what both nodes travel in the window of R.
func (r *Radio) mayChange(na, nb *node) bool {
	d := na.travel + nb.travel + r.margin
	dx, dy := nb.p0.X-na.p0.X, nb.p0.Y-na.p0.Y
	d2 := dx*dx + dy*dy
	if hi := r.r + d; d2 > hi*hi {
		return false // too far apart to meet in this window
	}
	if lo := r.r - d; lo > 0 && d2 < lo*lo {
		return false // too close to part in this window
	}
	return true
}

// apart reports the common case of lookStraight at once: the pair of nodes
// a and b is outside the band at t0 and not coming closer, so that neither
// the window nor a wake-up has anything to do with it.
func (w *watch) apart(a, b *node) bool {
	dx, dy := b.p0.X-a.p0.X, b.p0.Y-a.p0.Y
	return dx*dx+dy*dy > w.ro2 && dx*(b.vel.X-a.vel.X)+dy*(b.vel.Y-a.vel.Y) >= 0
}
