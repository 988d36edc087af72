package check

import (
	"slices"

	"github.com/electgo/elect/algo"
)

// recompute brings the components up to date with the changes of the
// instant that just ended. The components that changed are born again: they
// get since = the change's time, fresh deadlines and a review. A lone link
// change is applied to the components in place (relink, incremental.go);
// anything else rebuilds every changed component (rebuild). Both give the
// same components, counts, births and reviews.
func (m *Monitor) recompute() {
	m.dirty = false
	var fresh []int32
	if m.links == 1 && !m.nodeChanged && !m.fullRebuild {
		for _, v := range m.touched {
			m.rec(v).touched = false
		}
		m.touched = m.touched[:0]
		fresh = m.relink(m.link)
	} else {
		fresh = m.rebuild()
	}
	m.links, m.nodeChanged = 0, false
	for _, c := range fresh {
		m.schedule(c)
		m.review(c)
	}
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
func (m *Monitor) rebuild() []int32 {
	m.pass++
	slices.Sort(m.touched)
	type span struct {
		c          int32
		start, end int
	}
	var fresh []span
	members := m.memberBuf[:0]
	for _, s := range m.touched {
		m.rec(s).touched = false
		if !m.rec(s).alive {
			continue
		}
		if c := m.rec(s).comp; c >= 0 && m.comps[c].pass == m.pass {
			continue // already placed in this pass
		}
		c := m.newComp()
		cs := &m.comps[c]
		cs.since = m.changeAt
		cs.best = algo.NoPeer
		start := len(members)
		m.place(s, c)
		members = append(members, s)
		for i := start; i < len(members); i++ {
			for _, u := range m.adj[m.at(members[i])] {
				if !m.rec(u).alive {
					continue
				}
				if cu := m.rec(u).comp; cu >= 0 && m.comps[cu].pass == m.pass {
					continue
				}
				m.place(u, c)
				members = append(members, u)
			}
		}
		fresh = append(fresh, span{c, start, len(members)})
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

// schedule sets the stabilisation and liveness deadlines of a component
// born (or born again) at cs.since.
func (m *Monitor) schedule(c int32) {
	cs := &m.comps[c]
	m.due.push(deadline{at: cs.since + m.cfg.Stabilization, born: cs.born, comp: c, gen: cs.gen})
	m.due.push(deadline{at: cs.since + m.cfg.Liveness, born: cs.born, comp: c, gen: cs.gen, liveness: true})
}

// place moves live node v into the new component c: it carries over an open
// election of v's old component, withdraws v's status from the old
// component's tally and marks the old component for dissolution.
func (m *Monitor) place(v algo.NodeID, c int32) {
	cs := &m.comps[c]
	if old := m.rec(v).comp; old >= 0 {
		os := &m.comps[old]
		if os.electOpen && (!cs.electOpen || os.electStart < cs.electStart) {
			cs.electOpen, cs.electStart = true, os.electStart
		}
		m.contribute(old, v, m.rec(v).status, -1)
		m.dissolve(old)
	}
	m.rec(v).comp = c
	cs.size++
	if p := (algo.Peer{ID: v, Value: m.rec(v).value}); p.Better(cs.best) {
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
