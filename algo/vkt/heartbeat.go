package vkt

import "github.com/electgo/elect/algo"

// onHeartbeat: heartbeats are the upkeep's (adhoc.Leadership), in normal
// operation; during an election they are ignored, as it ends with a leader
// of its own.
func (n *node) onHeartbeat(env algo.Env, m *algo.Message) {
	if !n.delta && n.up.Heartbeat(env, n.self(env), m) {
		n.Elect(env)
	}
}

// probe asks every node still owing an Ack whether it is there, after
// giving up on those that did not answer the previous probe (lost
// children).
func (n *node) probe(env algo.Env) {
	if !n.delta || n.acked {
		return
	}
	for i := 0; i < len(n.pending); {
		if n.pending[i].probed {
			n.settle(env, n.pending[i].id, algo.NoPeer) // may finish the node
			if !n.delta || n.acked {
				return
			}
			continue
		}
		n.pending[i].probed = true
		env.Send(n.pending[i].id, algo.Message{Type: Probe, Index: n.src})
		i++
	}
	env.SetTimer(timerProbe, n.cfg.probe)
}

// onProbe answers a probe of this node's computation. A node that still
// owes the prober its Ack (its parent, the subtree not done) replies that
// it is there. One that owes nothing any more (it acked the parent, or the
// prober is not its parent and was answered at once) sends that Ack again:
// the prober would not probe had the Ack arrived, so it was lost, and on
// lossy links (UDP, as the document runs) waiting for the election
// timeout instead costs a whole new election. An Ack the prober already
// has settles nothing (settle finds nobody), so the answer is harmless
// when the probe merely crossed the Ack.
//
// With the broadcast medium a node that finished the computation answers
// with its Leader: the prober waits in it still (its Leader was lost).
func (n *node) onProbe(env algo.Env, m *algo.Message) {
	switch {
	case m.Index != n.src:
	case n.delta:
		n.answerProbe(env, m.From)
	case n.cfg.up.Broadcast && n.up.Leader.ID != algo.None:
		env.Send(m.From, algo.Message{Type: Leader, Index: n.src, Peer: n.up.Leader})
	}
}

// answerProbe answers a probe from y of the computation this node is in.
func (n *node) answerProbe(env algo.Env, y algo.NodeID) {
	switch {
	case y == n.parent && n.acked:
		env.Send(y, algo.Message{Type: Ack, Index: n.src, Peer: n.max})
	case y != n.parent:
		env.Send(y, algo.Message{Type: Ack, Index: n.src, Peer: algo.NoPeer})
	default:
		env.Send(y, algo.Message{Type: Reply, Index: n.src})
	}
}

func (n *node) onReply(m *algo.Message) {
	if m.Index != n.src {
		return
	}
	if i, found := n.find(m.From); found {
		n.pending[i].probed = false
	}
}
