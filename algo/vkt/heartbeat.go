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

func (n *node) onReply(m *algo.Message) {
	if m.Index != n.src {
		return
	}
	if i, found := n.find(m.From); found {
		n.pending[i].probed = false
	}
}
