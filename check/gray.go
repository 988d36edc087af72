package check

import (
	"fmt"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/ids"
	"github.com/electgo/elect/topo"
)

// grayLinks are the links with a direction cut (trace.Cut). The
// specification holds nodes to agree only across links that carry both
// ways: a node that is not heard by its leader is no more bound to it
// than one across a partition, so two leaders either side of a cut are no
// violation. A link with a direction cut is therefore down for the
// Monitor until both directions carry again, and what the network says of
// it meanwhile (LinkUp, LinkDown) is kept for then. Nor is a component
// that holds an end of a cut link (halfLinked) held to agree or to settle
// while the cut lasts: its nodes may rightly follow a leader they still
// hear across it. What still binds it is fencing: two leaders it follows
// never share an election index. Every cut and uncut is a change of the
// components of both ends, whose bounds then run again: once the last cut
// ends, they must agree and settle.
type grayLinks struct {
	cut map[[2]algo.NodeID]bool // the directions cut, from -> to
	up  map[topo.Edge]bool      // of the links with a direction cut: in the network
}

func edgeOf(a, b algo.NodeID) topo.Edge {
	if a > b {
		a, b = b, a
	}
	return topo.Edge{A: a, B: b}
}

// cutsOf counts the directions of link e that are cut.
func (g *grayLinks) cutsOf(e topo.Edge) int {
	n := 0
	if g.cut[[2]algo.NodeID{e.A, e.B}] {
		n++
	}
	if g.cut[[2]algo.NodeID{e.B, e.A}] {
		n++
	}
	return n
}

// hidden says link e has a direction cut: its LinkUp and LinkDown are only
// noted (networkSays), not applied.
func (g *grayLinks) hidden(e topo.Edge) bool {
	_, ok := g.up[e]
	return ok
}

// networkSays notes the network's word on a hidden link.
func (g *grayLinks) networkSays(e topo.Edge, up bool) { g.up[e] = up }

// cutDir cuts direction from -> to: the first cut of a link takes it down.
func (m *Monitor) cutDir(from, to algo.NodeID) {
	g := &m.gray
	if g.cut == nil {
		g.cut, g.up = map[[2]algo.NodeID]bool{}, map[topo.Edge]bool{}
	}
	dir := [2]algo.NodeID{from, to}
	if g.cut[dir] {
		return
	}
	g.cut[dir] = true
	m.touch(from)
	m.touch(to)
	e := edgeOf(from, to)
	if g.hidden(e) {
		return
	}
	_, up := ids.Find(m.linksOf(from), to)
	g.up[e] = up
	if up {
		m.linkDown(e.A, e.B)
	}
}

// uncutDir lets direction from -> to carry again: the link is back once
// neither direction is cut and the network has it.
func (m *Monitor) uncutDir(from, to algo.NodeID) {
	g := &m.gray
	dir := [2]algo.NodeID{from, to}
	if !g.cut[dir] {
		return
	}
	delete(g.cut, dir)
	m.touch(from)
	m.touch(to)
	e := edgeOf(from, to)
	if g.cutsOf(e) > 0 {
		return
	}
	up := g.up[e]
	delete(g.up, e)
	if up {
		m.linkUp(e.A, e.B)
	}
}

// halfLinked says component c holds an end of a link cut one way (see
// grayLinks): it is not held to liveness while the cut lasts.
func (m *Monitor) halfLinked(c int32) bool {
	for dir := range m.gray.cut {
		if m.compOf(dir[0]) == c || m.compOf(dir[1]) == c {
			return true
		}
	}
	return false
}

// fencing holds half-linked component c, whose nodes need not agree while
// the cut lasts, to what still binds it: no two leaders it follows in Norm
// share an election index (the fencing token that tells one election's
// leader from another's).
func (m *Monitor) fencing(c int32) {
	cs := &m.comps[c]
	byIndex := map[algo.Index]algo.NodeID{}
	first := map[algo.Index]algo.NodeID{}
	for _, v := range m.members(c) {
		st := m.rec(v).status
		if st.State != algo.Norm || !st.HasLeader() || st.Index.IsZero() {
			continue
		}
		l, ok := byIndex[st.Index]
		if !ok {
			byIndex[st.Index], first[st.Index] = st.Leader, v
			continue
		}
		if l != st.Leader {
			cs.reportedS = true
			if !m.full() {
				m.report(Violation{At: m.now, Property: "fencing", Nodes: []algo.NodeID{first[st.Index], v},
					Reason: fmt.Sprintf("two leaders under one election index %v: node %d follows %d, node %d follows %d, while a link of the component is cut one way", st.Index, first[st.Index], l, v, st.Leader)})
			}
			return
		}
	}
}
