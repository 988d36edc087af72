package check

import (
	"math"
	"slices"

	"github.com/electgo/elect/algo"
)

// Incremental maintenance of the components, for an instant whose only
// change is one link going up or down: the common case under mobility, where
// every pair comes into or goes out of range at its own time. Rebuilding the
// changed component would cost a search of all of it for every such change;
// here a change costs about what it touches:
//
//   - a link up inside a component, or down with a path left between its
//     ends, changes no membership;
//   - a link up between two components moves the smaller into the larger;
//   - a link down that splits a component moves the smaller side out, found
//     by two searches, one from each end, that take turns.
//
// Either way the components of the link's ends are then born again exactly
// as rebuild would build them (rebirth), their members taking up the values
// they wait with under Config.ValueAtElection (takeValues), so that nothing
// observable depends on which way was taken; the differential tests check
// it.

// linkChange is a link that went up or down.
type linkChange struct {
	a, b algo.NodeID
	up   bool
}

// relink applies the lone link change l of the instant to the components and
// returns the components that changed, in the order in which rebuild would
// give them birth: that of the lower end's component first.
func (m *Monitor) relink(l linkChange) []int32 {
	a, b := min(l.a, l.b), max(l.a, l.b)
	ca, cb := m.compOf(a), m.compOf(b) // -1 for a dead end
	switch {
	case l.up && ca >= 0 && cb >= 0 && ca != cb:
		m.merge(ca, cb, a, b)
	case !l.up && ca >= 0 && ca == cb && a != b:
		m.split(ca, a, b)
	}
	fresh := m.freshBuf[:0]
	for _, v := range [2]algo.NodeID{a, b} {
		if c := m.compOf(v); c >= 0 && !slices.Contains(fresh, c) {
			m.takeValues(c, v)
			m.rebirth(c)
			fresh = append(fresh, c)
		}
	}
	m.freshBuf = fresh
	return fresh
}

// takeValues gives the members of component c, which holds start and is
// about to be born again, the values they wait with (Config.ValueAtElection),
// as rebuild does when it places them, and finds its most valued node
// again: a search of all of c, when a member waits.
func (m *Monitor) takeValues(c int32, start algo.NodeID) {
	if m.comps[c].waiting == 0 {
		return
	}
	m.comps[c].best = m.bestOf(c, start)
	m.recount(c)
}

// rebirth makes c what rebuild makes of a component with the same members.
// What its members bring is kept: their number, counts and tally, the most
// valued of them, an open election (rebuild carries it over). Everything
// about its past goes: its deadlines (with its generation), its liveness,
// the violations it reported, a pending review (its birth review replaces
// it). Like a rebuilt component, it is born now, after every other, and its
// bounds run from the change.
func (m *Monitor) rebirth(c int32) {
	old := m.comps[c]
	m.births++
	m.comps[c] = compState{
		gen:   old.gen + 1,
		pass:  old.pass, // only a rebuild reads it, against a newer pass
		born:  m.births,
		since: m.changeAt,

		size:       old.size,
		best:       old.best,
		notSettled: old.notSettled,
		electing:   old.electing,
		distinct:   old.distinct,
		correct:    old.correct,
		touched:    old.touched,
		initiated:  old.initiated,
		waiting:    old.waiting,
		leaderSum:  old.leaderSum,
		electOpen:  old.electOpen,
		electStart: old.electStart,
	}
}

// merge joins components ca and cb, which the link up a-b connects, by moving
// the smaller into the larger and freeing it.
func (m *Monitor) merge(ca, cb int32, a, b algo.NodeID) {
	into, from, start := ca, cb, b
	if m.comps[cb].size > m.comps[ca].size {
		into, from, start = cb, ca, a
	}
	is, fs := &m.comps[into], &m.comps[from]
	// A rebuilt component carries over the earliest open election of its
	// members' components.
	if fs.electOpen && (!is.electOpen || fs.electStart < is.electStart) {
		is.electOpen, is.electStart = true, fs.electStart
	}
	is.best = is.best.Max(fs.best)
	// A search of from that relabels as it goes: the new label is its mark.
	queue := append(m.memberBuf[:0], start)
	m.move(start, from, into)
	for i := 0; i < len(queue); i++ {
		for _, u := range m.linksOf(queue[i]) {
			if m.rec(u).comp == from {
				m.move(u, from, into)
				queue = append(queue, u)
			}
		}
	}
	m.memberBuf = queue[:0]
	m.recount(into)
	m.freeComponent(from)
}

// split finds out whether a and b, in component c, are still connected now
// that the link between them is down, by two breadth-first searches, one
// from each end, that take turns expanding a node. If they meet, c is whole:
// in a dense network a short detour is the rule, found in a few steps. If
// one runs out first, it has found all of its side of c, no larger than the
// other (whose search has expanded at least as many nodes): that side moves
// to a new component. Either way the cost is about twice the smaller side,
// not the size of c. A common neighbour of a and b (joined) tells it at once.
func (m *Monitor) split(c int32, a, b algo.NodeID) {
	side, rest := m.apart(c, a, b)
	if side == nil {
		return
	}
	n := m.newComp()
	cs, ns := &m.comps[c], &m.comps[n] // newComp may move m.comps
	// Both parts carry over c's open election, as rebuilt they would.
	ns.electOpen, ns.electStart = cs.electOpen, cs.electStart
	ns.best = algo.NoPeer
	for _, v := range side {
		m.move(v, c, n)
		ns.best = ns.best.Max(m.peer(v))
	}
	m.recount(n)
	if cs.best.ID != algo.None && m.rec(cs.best.ID).comp != c {
		// c's most valued node left: only a search of all of c can tell
		// which is next. (With none, AmongInitiators, none can have left.)
		cs.best = m.bestOf(c, rest)
	}
	m.recount(c)
}

// apart tells whether a and b, in component c, are no longer connected, as
// split describes: if so it returns the side found whole (in a search
// buffer: good until the next search) and a node of the other side, and
// nil if they are still connected.
func (m *Monitor) apart(c int32, a, b algo.NodeID) ([]algo.NodeID, algo.NodeID) {
	if m.joined(c, a, b) {
		return nil, 0
	}
	sa, sb := m.stamps()
	qa := append(m.memberBuf[:0], a)
	qb := append(m.otherBuf[:0], b)
	m.rec(a).seen, m.rec(b).seen = sa, sb
	var side []algo.NodeID // the side found whole, if any
	rest := b              // a node of the other side
	met := false
	for i := 0; ; i++ {
		if i == len(qa) {
			side = qa
			break
		}
		if qa, met = m.expand(c, qa, qa[i], sa, sb); met {
			break
		}
		if i == len(qb) {
			side, rest = qb, a
			break
		}
		if qb, met = m.expand(c, qb, qb[i], sb, sa); met {
			break
		}
	}
	m.memberBuf, m.otherBuf = qa[:0], qb[:0]
	return side, rest
}

// inPlace tells whether the link changes of the instant (more than one,
// with no other change) leave every component's members as they are: no
// link up joins two components, and the ends of every link down in a
// component are still connected, on the lists as the instant leaves them.
// Then the components are those of the last recompute (any path a link
// that went down was on has a detour), and rebuild would only give birth
// again to those holding an end (reborn). When a link down did split a
// component, the searches that found it (no more than twice the smaller
// side) come on top of the rebuild that follows.
func (m *Monitor) inPlace() bool {
	for _, l := range m.changes {
		ca, cb := m.compOf(l.a), m.compOf(l.b)
		switch {
		case l.up && ca >= 0 && cb >= 0 && ca != cb:
			return false
		case !l.up && ca >= 0 && ca == cb && l.a != l.b:
			if side, _ := m.apart(ca, l.a, l.b); side != nil {
				return false
			}
		}
	}
	return true
}

// reborn gives birth again to the components that hold a node touched at
// this instant, in the order rebuild would: that of their smallest touched
// node, and returns them.
func (m *Monitor) reborn() []int32 {
	slices.Sort(m.touched)
	fresh := m.freshBuf[:0]
	before := m.births
	for _, v := range m.touched {
		n := m.rec(v)
		n.touched = false
		if c := n.comp; c >= 0 && m.comps[c].born <= before {
			m.takeValues(c, v)
			m.rebirth(c)
			fresh = append(fresh, c)
		}
	}
	m.touched = m.touched[:0]
	m.freshBuf = fresh
	return fresh
}

// joined tells whether a and b, in component c, have a common neighbour in
// c, which keeps them connected: the rule when a link between nearby nodes
// goes down in a dense network. Their lists were just read (the link was
// deleted from both), so this costs the record of the neighbour found, where
// the searches of split would read those of all of a's neighbours and then
// of b's.
func (m *Monitor) joined(c int32, a, b algo.NodeID) bool {
	la, lb := m.linksOf(a), m.linksOf(b)
	i, j := 0, 0
	for i < len(la) && j < len(lb) {
		x, y := la[i], lb[j]
		if x == y && m.compOf(x) == c {
			return true
		}
		if x <= y {
			i++
		}
		if y <= x {
			j++
		}
	}
	return false
}

// expand adds to the search stamped own, queue q, the neighbours of v in
// component c that it has not reached yet, and tells whether v neighbours a
// node of the search stamped other.
func (m *Monitor) expand(c int32, q []algo.NodeID, v algo.NodeID, own, other uint32) ([]algo.NodeID, bool) {
	for _, u := range m.linksOf(v) {
		n := m.rec(u)
		if n.comp != c {
			continue // a dead node: a live neighbour is in c
		}
		switch n.seen {
		case other:
			return q, true
		case own:
		default:
			n.seen = own
			q = append(q, u)
		}
	}
	return q, false
}

// bestOf returns the most valued node of component c, which holds start, by
// a search of all of c. As c changes, its members take up the values they
// wait with (Config.ValueAtElection) on the way.
func (m *Monitor) bestOf(c int32, start algo.NodeID) algo.Peer {
	s, _ := m.stamps()
	best := algo.NoPeer
	q := append(m.memberBuf[:0], start)
	m.rec(start).seen = s
	for i := 0; i < len(q); i++ {
		v := q[i]
		m.takeValue(m.rec(v))
		best = best.Max(m.peer(v))
		for _, u := range m.linksOf(v) {
			if n := m.rec(u); n.comp == c && n.seen != s {
				n.seen = s
				q = append(q, u)
			}
		}
	}
	m.memberBuf = q[:0]
	m.comps[c].waiting = 0
	return best
}

// move moves live node v from component from to component to, with its
// contribution to their counts.
func (m *Monitor) move(v algo.NodeID, from, to int32) {
	n := m.rec(v)
	s := n.status
	m.contribute(from, v, s, -1)
	m.comps[from].size--
	m.setComp(v, to)
	m.comps[to].size++
	m.contribute(to, v, s, +1)
}

// recount sets how many members of c follow its most valued node, after
// members moved or that node changed (contribute counts them against the
// best of the moment): the tally knows it.
func (m *Monitor) recount(c int32) {
	cs := &m.comps[c]
	cs.correct = m.tally[tallyKey(c, cs.best.ID)]
}

// stamps returns two marks (nodeState.seen) that no node carries.
func (m *Monitor) stamps() (uint32, uint32) {
	if m.stamp > math.MaxUint32-2 {
		for i := range m.nodes {
			m.nodes[i].seen = 0
		}
		m.stamp = 0
	}
	m.stamp += 2
	return m.stamp - 1, m.stamp
}

func (m *Monitor) peer(v algo.NodeID) algo.Peer { return m.peerOf(v, m.rec(v)) }

// peerOf is node v (record n) as a contender for its component's leader:
// itself, or no one when only initiators may lead (Config.AmongInitiators)
// and it is none.
func (m *Monitor) peerOf(v algo.NodeID, n *nodeState) algo.Peer {
	if m.cfg.AmongInitiators && !n.initiated {
		return algo.NoPeer
	}
	return algo.Peer{ID: v, Value: n.value}
}
