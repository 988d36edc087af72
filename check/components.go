package check

import (
	"cmp"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// recompute brings the components up to date with the changes of the
// instant that just ended. The components that changed are born again: they
// get since = the change's time, fresh deadlines and a review. A lone link
// change is applied to the components in place (relink, incremental.go), and
// so are several that change no component's members (inPlace, reborn: on a
// large moving network, link changes at one instant are common); anything
// else rebuilds every changed component (rebuild). All give the same
// components, counts, births and reviews.
func (m *Monitor) recompute() {
	var fresh []int32
	switch {
	case m.nodeChanged || m.fullRebuild:
		m.listLink()
		m.dirty = false
		fresh = m.rebuild()
	case len(m.changes) == 1:
		// Nothing is listed in touched (linkChanged).
		m.dirty, m.linkHeld = false, false
		fresh = m.relink(m.changes[0])
	case m.inPlace():
		m.dirty = false
		fresh = m.reborn()
	default:
		m.dirty = false
		fresh = m.rebuild()
	}
	m.changes, m.nodeChanged = m.changes[:0], false
	for _, c := range fresh {
		m.schedule(c)
		m.review(c)
	}
	m.reviewPending()
}

// reviewPending reviews the components whose statuses changed while a
// recompute (or a value change, settleValues) was pending, if they are
// still what they were.
func (m *Monitor) reviewPending() {
	for _, r := range m.reviewLater {
		if cs := &m.comps[r.c]; cs.gen == r.gen && cs.size > 0 {
			cs.reviewDue = false
			m.review(r.c)
		}
	}
	m.reviewLater = m.reviewLater[:0]
}

// rebuild rebuilds the components that changed and returns them, in birth
// order. Only components holding a touched node are rebuilt: a component
// none of whose nodes saw a link change, a crash or a restart is exactly what
// it was. Every changed component contains a touched live node (both ends of
// a changed link are touched, and so are the neighbours of a node that
// crashed), so a search from each touched node finds them all; every old
// component a search enters is dissolved. Components are born in the order
// of their smallest touched node.
//
// When every node is touched (the first recompute of a run) and the records
// are arranged in the emitter's layout, the searches start from the records
// in their own order, which a million-node run sweeps through memory in a
// fraction of the time that ids in scattered order take, and the
// components found are then born in the order of their smallest node, as
// the searches from touched nodes in id order would have made them.
func (m *Monitor) rebuild() []int32 {
	m.pass++
	members := m.memberBuf[:0]
	var fresh []span
	if m.rank != nil && len(m.touched) == len(m.nodes) {
		for i := range m.nodes {
			n := &m.nodes[i]
			n.touched = false
			if n.alive && !m.placedNow(n) {
				fresh, members = m.search(n.id, fresh, members)
			}
		}
		m.bornBySmallest(fresh)
	} else {
		slices.Sort(m.touched)
		for _, s := range m.touched {
			n := m.rec(s)
			n.touched = false
			if n.alive && !m.placedNow(n) {
				fresh, members = m.search(s, fresh, members)
			}
		}
	}
	m.touched = m.touched[:0]
	for _, c := range m.dissolving {
		m.freeComponent(c)
	}
	m.dissolving = m.dissolving[:0]
	// Counting needs each component's best node, known only once it is whole.
	for _, f := range fresh {
		for _, v := range members[f.start:f.end] {
			m.contribute(f.c, v, m.rec(v).status, +1)
		}
	}
	m.memberBuf = members[:0]
	born := m.freshBuf[:0]
	for _, f := range fresh {
		born = append(born, f.c)
	}
	m.freshBuf = born
	return born
}

// span is a component found by a rebuild: its members are
// members[start:end].
type span struct {
	c          int32
	start, end int
	least      algo.NodeID // the smallest member
}

// placedNow says the node is already in a component of this pass.
func (m *Monitor) placedNow(n *nodeState) bool {
	return n.comp >= 0 && m.comps[n.comp].pass == m.pass
}

// search makes a new component of the live nodes connected to s, in
// breadth-first order, appending them to members and the component to
// fresh.
func (m *Monitor) search(s algo.NodeID, fresh []span, members []algo.NodeID) ([]span, []algo.NodeID) {
	c := m.newComp()
	cs := &m.comps[c]
	cs.since = m.changeAt
	cs.best = algo.NoPeer
	start := len(members)
	m.place(s, c)
	members = append(members, s)
	least := s
	for i := start; i < len(members); i++ {
		for _, u := range m.linksOf(members[i]) {
			if n := m.rec(u); !n.alive || m.placedNow(n) {
				continue
			}
			m.place(u, c)
			members = append(members, u)
			least = min(least, u)
		}
	}
	return append(fresh, span{c, start, len(members), least}), members
}

// bornBySmallest sorts the components just found by their smallest member
// and deals out their births (given in the order they were found) in that
// order.
func (m *Monitor) bornBySmallest(fresh []span) {
	births := make([]uint64, len(fresh))
	for i, f := range fresh {
		births[i] = m.comps[f.c].born
	}
	slices.SortFunc(fresh, func(a, b span) int { return cmp.Compare(a.least, b.least) })
	for i, f := range fresh {
		m.comps[f.c].born = births[i]
	}
}

// schedule sets the stabilisation and liveness deadlines of a component
// born (or born again) at cs.since.
//
// Under mobility the components that hold most nodes are born again at
// nearly every link change, and nearly all of their deadlines die unjudged.
// So a component slot keeps at most one deadline of each kind in the queue
// (queued): one already queued, no later than the new one, stands for it,
// and when it comes due it finds its component born again since (another
// birth order) and goes back in the queue at the component's current
// deadline (pending). Deadlines are still judged in the order of before,
// exactly those of the components' current births: a deadline in the
// queue is never later than the current one of its slot, so that none is
// passed over. Only a birth whose deadline comes before the one queued
// (events going back in time) queues another, the old one then being
// dropped when it comes due. With fullRebuild every birth queues its own,
// the way the lazy one is compared with.
func (m *Monitor) schedule(c int32) {
	cs := &m.comps[c]
	for k, bound := range [2]time.Duration{m.cfg.Stabilization, m.cfg.Liveness} {
		d := deadline{at: cs.since + bound, born: cs.born, comp: c, gen: cs.gen, liveness: k == 1}
		if !m.fullRebuild {
			q := &m.queued[c][k]
			if q.born != 0 && !d.before(deadline{at: q.at, born: q.born, liveness: d.liveness}) {
				continue
			}
			*q = queuedDue{at: d.at, born: d.born}
		}
		m.due.push(d)
	}
}

// queuedDue is the deadline of one kind that the queue holds for a
// component slot (born 0: none), see schedule.
type queuedDue struct {
	at   time.Duration
	born uint64
}

// pending takes deadline d, just out of the queue, and tells whether it is
// its component's current one, to be judged. One that a later birth
// replaced goes back in the queue at the current deadline (see schedule).
func (m *Monitor) pending(d deadline) bool {
	cs := &m.comps[d.comp]
	if m.fullRebuild {
		return cs.gen == d.gen && cs.size > 0
	}
	k := 0
	if d.liveness {
		k = 1
	}
	q := &m.queued[d.comp][k]
	if q.born != d.born {
		return false // replaced by an earlier one (events back in time)
	}
	*q = queuedDue{}
	switch {
	case cs.size == 0: // a free slot: its next birth queues its own
		return false
	case cs.born == d.born:
		return true
	}
	bound := m.cfg.Stabilization
	if d.liveness {
		bound = m.cfg.Liveness
	}
	d.at, d.born, d.gen = cs.since+bound, cs.born, cs.gen
	*q = queuedDue{at: d.at, born: d.born}
	m.due.push(d)
	return false
}

// place moves live node v into the new component c: it carries over an open
// election of v's old component, withdraws v's status from the old
// component's tally and marks the old component for dissolution.
func (m *Monitor) place(v algo.NodeID, c int32) {
	cs := &m.comps[c]
	n := m.rec(v)
	if old := n.comp; old >= 0 {
		os := &m.comps[old]
		if os.electOpen && (!cs.electOpen || os.electStart < cs.electStart) {
			cs.electOpen, cs.electStart = true, os.electStart
		}
		m.contribute(old, v, n.status, -1)
		m.dissolve(old)
	}
	m.takeValue(n) // its component changes: a value it waits with counts now
	m.setComp(v, c)
	cs.size++
	if p := m.peerOf(v, n); p.Better(cs.best) {
		cs.best = p
	}
}

// dissolve marks component c to be freed at the end of the recompute.
func (m *Monitor) dissolve(c int32) {
	if cs := &m.comps[c]; !cs.dissolving {
		cs.dissolving = true
		m.dissolving = append(m.dissolving, c)
	}
}

func (m *Monitor) newComp() int32 {
	var c int32
	if k := len(m.freeComp); k > 0 {
		c = m.freeComp[k-1]
		m.freeComp = m.freeComp[:k-1]
	} else {
		c = int32(len(m.comps))
		m.comps = append(m.comps, compState{})
		m.queued = append(m.queued, [2]queuedDue{})
	}
	m.births++
	m.comps[c] = compState{gen: m.comps[c].gen + 1, pass: m.pass, born: m.births}
	return c
}

// freeComponent retires c; its pending deadlines die with its generation.
func (m *Monitor) freeComponent(c int32) {
	m.comps[c] = compState{gen: m.comps[c].gen + 1}
	m.freeComp = append(m.freeComp, c)
}
