package node

import (
	"context"

	"github.com/electgo/elect/algo"
)

// Status returns the node's current status. It is safe to call from any
// goroutine, before, during and after Run.
func (n *Node) Status() Status { return n.pub.current() }

// Leader returns the leader this node follows, and whether it has one (it is
// in normal operation with a leader).
func (n *Node) Leader() (algo.NodeID, bool) {
	st := n.Status()
	return st.Leader, st.HasLeader()
}

// Subscribe returns a channel that receives the node's current status at
// once and then every change (leader, state, election index, value,
// neighbours). A subscriber more than 64 changes behind loses the oldest it
// has not read, never the newest. The channel is closed when ctx ends or Run
// returns.
func (n *Node) Subscribe(ctx context.Context) <-chan Status { return n.pub.subscribe(ctx) }

// SetValue changes this node's desirability. Leadership follows the value
// the way the algorithm prescribes: for vkt and park, a follower now worth
// more than its leader starts an election at the leader's next heartbeat,
// and a leader's heartbeats carry its new value.
func (n *Node) SetValue(v int64) {
	n.do(func() {
		n.value = v
		if n.booted {
			n.after()
		}
	})
}

// Elect asks the node to start an election now (an operator's or an
// application's trigger), or as soon as it boots if it has not yet.
func (n *Node) Elect() {
	n.do(func() {
		if !n.booted {
			n.electAtBoot = true
			return
		}
		if n.sync != nil {
			n.later(func() { n.m.Elect(n.env()); n.after() })
			return
		}
		n.m.Elect(n.env())
		n.after()
	})
}

// do runs f on the node's goroutine; it does nothing once Run has returned
// and waits for Run to start.
func (n *Node) do(f func()) {
	select {
	case n.calls <- f:
	case <-n.done:
	}
}
