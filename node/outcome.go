package node

import (
	"context"
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// Outcome is how an election a node was asked to start ended, as the ring
// document's control process is told of it: the leader the node follows
// afterwards and what the algorithm reported on the way (a failure naming
// its phase, a checksum failure naming the joker).
type Outcome struct {
	Leader        algo.NodeID
	ElectionIndex uint64
	// Reports are the algorithm's reports made since the election was
	// asked for, oldest first.
	Reports []Report
	// Took is the time from the request to the node's following a leader.
	Took time.Duration
}

// ElectAndWait asks the node to start an election (Elect) and waits until
// the node has left normal operation and come back to it with a leader,
// which it returns with the reports made meanwhile. It returns an error
// naming the node's last status if ctx ends first (give it a deadline: an
// election that fails for good never ends), or if Run returns.
func (n *Node) ElectAndWait(ctx context.Context) (Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	statuses := n.Subscribe(ctx)
	before := n.Status()
	var seen uint64
	if rs := n.Reports(); len(rs) > 0 {
		seen = rs[len(rs)-1].Seq
	}
	start := time.Now()
	n.Elect()
	left := false // the node has left Norm since the request
	last := before
	for {
		select {
		case <-ctx.Done():
			return Outcome{}, fmt.Errorf("node %d: no outcome of the election within %v: %s, leader %d: %w",
				n.cfg.ID, time.Since(start).Round(time.Millisecond), last.State, last.Leader, ctx.Err())
		case st, ok := <-statuses:
			if !ok {
				return Outcome{}, fmt.Errorf("node %d stopped before its election ended", n.cfg.ID)
			}
			last = st
			if st.State != algo.Norm || st.ElectionIndex > before.ElectionIndex {
				left = true
			}
			if !left || !st.HasLeader() {
				continue
			}
			out := Outcome{Leader: st.Leader, ElectionIndex: st.ElectionIndex, Took: time.Since(start)}
			for _, r := range n.Reports() {
				if r.Seq > seen {
					out.Reports = append(out.Reports, r)
				}
			}
			return out, nil
		}
	}
}
