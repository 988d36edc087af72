package explore

import (
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Every state is judged by the checker itself, as a simulated run is, so
// that a counterexample is exactly what `elect check` rejects. Untimed, a
// state's checker would be costly to carry (a copy at every step), and
// there is no time for its bounds to pass: the checker then judges a run
// where it ends, and at every step only what does not need time (a panic,
// a leader taken without an election). So the explorer looks at each
// state with suspect, a quick test that holds wherever the checker could
// fail the state (and sometimes where it would not), and replays the
// path of a suspect state through the checker (confirm) for the verdict.
// Timed, each state carries its checker (world.mon), which judges it as the
// run goes, time bounds included.

// suspect says whether the checker might fail state w: at every step, a
// panic, or a leader with no election index (for an algorithm that is not
// spontaneous); where a run may end (end, quiescent), a count of messages
// outside the bound, or any component whose live nodes do not all
// follow, in Norm, the one node the checker expects.
func (x *explorer) suspect(w *world, end, quiescent bool) bool {
	s := w.s
	if w.panicked != nil {
		return true
	}
	if !s.Check.Spontaneous {
		for _, nd := range w.nodes {
			if nd.m != nil && nd.status.HasLeader() && nd.status.Index.IsZero() {
				return true
			}
		}
	}
	if !end {
		return s.Timed && x.overdue(w)
	}
	if x.bound != nil && (w.sent > uint64(x.bound.Hi) || quiescent && w.sent < uint64(x.bound.Lo)) {
		return true // the checker counts messages where the run ends
	}
	comp := w.components()
	for c := range comp.count {
		if twoLeaders, settled := x.look(w, comp, c); twoLeaders || !settled {
			return true
		}
	}
	return false
}

// look says of component c whether Norm nodes in it follow two leaders,
// and whether it is settled as the checker expects: every live node in
// Norm following its most valued node (initiator, for an algorithm that
// elects among them), or out of the checker's scope (no initiator in it,
// no election reached it, an algorithm that is not spontaneous).
func (x *explorer) look(w *world, comp comps, c int) (twoLeaders, settled bool) {
	s := w.s
	var best algo.Peer
	bestSet, inScope, leader, agree := false, s.Check.Spontaneous || s.Check.Expect == check.ExpectEveryComponent, algo.None, true
	for v, cv := range comp.of {
		if cv != c {
			continue
		}
		nd := w.nodes[v]
		if !nd.status.Index.IsZero() || x.initiator[v] {
			inScope = true
		}
		if !s.Check.AmongInitiators || x.initiator[v] {
			p := algo.Peer{ID: algo.NodeID(v), Value: s.Values[v]}
			if !bestSet || p.Better(best) {
				best, bestSet = p, true
			}
		}
		switch st := nd.status; {
		case st.State != algo.Norm || st.Leader == algo.None:
			agree = false
		case leader == algo.None:
			leader = st.Leader
		case st.Leader != leader:
			twoLeaders, agree = true, false
		}
	}
	return twoLeaders, !inScope || agree && bestSet && leader == best.ID
}

// overdue says whether, timed, a component may have broken a bound of the
// checker's by now: Norm nodes following different leaders longer than
// the stabilisation bound after its last change, or nodes not settled on
// the expected leader the liveness bound after it.
func (x *explorer) overdue(w *world) bool {
	s := w.s
	if w.now <= s.Check.Stabilization && w.now < s.Check.Liveness {
		return false // no bound has passed since the boot, nor since any change
	}
	comp := w.components()
	for c := range comp.count {
		var since time.Duration
		for v, cv := range comp.of {
			if cv == c {
				since = max(since, w.changed[v])
			}
		}
		quiet := w.now - since
		if quiet <= s.Check.Stabilization && quiet < s.Check.Liveness {
			continue
		}
		twoLeaders, settled := x.look(w, comp, c)
		if twoLeaders && quiet > s.Check.Stabilization || !settled && quiet >= s.Check.Liveness {
			return true
		}
	}
	return false
}

// components of the live nodes over the links up now.
type comps struct {
	of    []int // by node; -1 for a dead node
	count int
}

func (w *world) components() comps {
	c := comps{of: make([]int, w.n)}
	for v := range c.of {
		c.of[v] = -1
	}
	stack := make([]algo.NodeID, 0, w.n)
	for v := range algo.NodeID(w.n) {
		if c.of[v] >= 0 || w.nodes[v].m == nil {
			continue
		}
		c.of[v] = c.count
		stack = append(stack[:0], v)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, x := range w.s.Graph.Neighbors(u) {
				if c.of[x] < 0 && w.linked(u, x) {
					c.of[x] = c.count
					stack = append(stack, x)
				}
			}
		}
		c.count++
	}
	return c
}

// boundOf is the run's bound on transmissions, as the checker sums it
// (check.MessageBound.Sum) over the pieces of the network it starts with:
// the bound holds only where no fault strikes.
func boundOf(s *Setup, initiator []bool) *trace.MessageBound {
	mb := s.Check.MessageBound
	if mb == nil || s.Budget.Faulty() {
		return nil
	}
	comp, count := s.Graph.Components()
	pieces := make([]check.Piece, count)
	for v := range s.Graph.N() {
		p := &pieces[comp[v]]
		p.N++
		p.M += s.Graph.Degree(algo.NodeID(v)) // each link twice, halved below
		if s.Check.Spontaneous || initiator[v] {
			p.Starters++
		}
	}
	for i := range pieces {
		pieces[i].M /= 2
	}
	b, ok := mb.Sum(pieces)
	if !ok {
		return nil
	}
	return &b
}
