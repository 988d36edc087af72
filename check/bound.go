package check

import (
	"fmt"

	"github.com/electgo/elect/trace"
)

// MessageBound is an algorithm's message complexity, for Config: Formula as
// its document writes it, and Of the bound of one connected piece of n
// nodes and m links where k initiators start (algo.Bound, with the run's
// parameters and delays bound in); ok false where none holds.
type MessageBound struct {
	Formula string
	Of      func(n, m, k int) (lo, hi int, ok bool)
}

// Messages judges the count of messages the run sent (transmissions)
// against Config.MessageBound, once the run has ended: more than its
// maximum is a violation ("messages"), and so is less than its minimum in a
// run that ended with no event left. The bound is the sum of those of the
// run's pieces that hold an initiator (each elects on its own), as the
// Monitor knows them at the end: in a fault-free run, the pieces of the
// network it started with. The driver counts the messages, not the
// Monitor, which does not read message traffic.
func (m *Monitor) Messages(sent uint64) {
	m.sent = sent
	if m.cfg.MessageBound == nil || !m.ended || m.aborted {
		return
	}
	b, ok := m.bound()
	if !ok {
		return
	}
	m.bounded = &b
	switch {
	case sent > uint64(b.Hi):
		m.report(Violation{At: m.endAt, Property: "messages",
			Reason: fmt.Sprintf("%d messages sent, more than one election may send: at most %d (%s)", sent, b.Hi, b.Formula)})
	case m.quiescent && sent < uint64(b.Lo):
		m.report(Violation{At: m.endAt, Property: "messages",
			Reason: fmt.Sprintf("%d messages sent, fewer than one election sends: at least %d (%s)", sent, b.Lo, b.Formula)})
	}
}

// bound sums Config.MessageBound over the components that hold an
// initiator (every one for a spontaneous algorithm, all of whose nodes
// start): one pass over the nodes for the links of each.
func (m *Monitor) bound() (trace.MessageBound, bool) {
	starters := func(cs *compState) int32 {
		if m.cfg.Spontaneous {
			return cs.size
		}
		return cs.initiated
	}
	links := make([]int, len(m.comps)) // ends of links, by component
	for i := range m.nodes {
		if c := m.nodes[i].comp; c >= 0 && starters(&m.comps[c]) > 0 {
			links[c] += len(m.linksOf(m.nodes[i].id))
		}
	}
	var pieces []Piece
	for c := range m.comps {
		cs := &m.comps[c]
		if cs.size == 0 || cs.dissolving {
			continue
		}
		pieces = append(pieces, Piece{N: int(cs.size), M: links[c] / 2, Starters: int(starters(cs))})
	}
	return m.cfg.MessageBound.Sum(pieces)
}

// Piece is a connected piece of a network, for MessageBound.Sum: its
// nodes, links and the nodes that start an election in it.
type Piece struct{ N, M, Starters int }

// Sum is the bound of a network of pieces: the sum of those of the pieces
// where an election starts (each elects on its own); ok false where one
// has none.
func (b *MessageBound) Sum(pieces []Piece) (trace.MessageBound, bool) {
	sum := trace.MessageBound{Formula: b.Formula}
	for _, p := range pieces {
		if p.Starters == 0 {
			continue
		}
		lo, hi, ok := b.Of(p.N, p.M, p.Starters)
		if !ok {
			return sum, false
		}
		sum.Lo += lo
		sum.Hi += hi
	}
	return sum, true
}
