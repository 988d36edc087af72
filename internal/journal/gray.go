package journal

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/trace"
)

// Gray is the gray failures a driver of real nodes has set, node by node:
// what each node's POST /gray must hold (node.Gray), kept from the gray
// events the driver journals (trace.Cut, Uncut, ClockRate, ClockJumped,
// Slowed), so that a node started again gets its state back. A cut
// direction from -> to is the receiver's: node to drops what from sends
// (node.Gray.CutFrom), the convention of the simulator, where a cut
// direction drops what arrives.
type Gray map[algo.NodeID]*node.Gray

// Apply folds gray event e into the state. It returns the node whose state
// e changes and the request that sets it: the node's whole state, with
// ClockJump set for a jump (applied once, and not kept).
func (g Gray) Apply(e *trace.Event) (algo.NodeID, node.Gray) {
	v := e.Node
	if e.Kind == trace.Cut || e.Kind == trace.Uncut {
		v = e.Peer
	}
	st := g[v]
	if st == nil {
		st = &node.Gray{}
		g[v] = st
	}
	req := node.Gray{}
	switch e.Kind {
	case trace.Cut:
		if !slices.Contains(st.CutFrom, e.Node) {
			st.CutFrom = append(st.CutFrom, e.Node)
			slices.Sort(st.CutFrom)
		}
	case trace.Uncut:
		st.CutFrom = slices.DeleteFunc(st.CutFrom, func(u algo.NodeID) bool { return u == e.Node })
	case trace.ClockRate:
		st.ClockRate = float64(e.Value) / 1e6
		if e.Value == trace.PPM(1) {
			st.ClockRate = 0 // true time
		}
	case trace.ClockJumped:
		req.ClockJump = time.Duration(e.Value)
	case trace.Slowed:
		st.Slow = time.Duration(e.Value)
	}
	req.CutFrom, req.ClockRate, req.Slow = slices.Clone(st.CutFrom), st.ClockRate, st.Slow
	return v, req
}

// Of is node v's state, to set again on a node started anew (no jump: a
// jump happened once); the zero Gray when it has none.
func (g Gray) Of(v algo.NodeID) (node.Gray, bool) {
	st := g[v]
	if st == nil || len(st.CutFrom) == 0 && st.ClockRate == 0 && st.Slow == 0 {
		return node.Gray{}, false
	}
	return node.Gray{CutFrom: slices.Clone(st.CutFrom), ClockRate: st.ClockRate, Slow: st.Slow}, true
}
