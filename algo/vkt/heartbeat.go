package vkt

import "github.com/electgo/elect/algo"

// beat sends the leader's next heartbeat and schedules the one after.
func (n *node) beat(env algo.Env) {
	n.seq++
	n.lid.Value = env.Value() // the leader's own value may have changed
	hb := algo.Message{Type: Heartbeat, Peer: n.lid, Index: algo.Index{Num: n.seq, ID: n.id}}
	for _, u := range env.Neighbors() {
		env.Send(u, hb)
	}
	env.SetTimer(timerBeat, n.cfg.heartbeat)
}

// onHeartbeat forwards each new heartbeat of the node's leader once, and
// adopts the leader of a heartbeat that names a better one: a merge of
// partitions, settled with no election (III-B3). Heartbeats are ignored
// during an election, which ends with a leader of its own.
func (n *node) onHeartbeat(env algo.Env, m *algo.Message) {
	if n.delta {
		return
	}
	hb := m.Peer
	switch {
	case hb.ID == n.lid.ID:
		if m.Index.Num <= n.seq {
			return // a copy already forwarded
		}
		n.lid = hb // its value may have changed
	case hb.Better(n.lid):
		if n.lid.ID == n.id {
			env.StopTimer(timerBeat) // a better leader: this one steps down
		}
		n.lid = hb
	default:
		return // a worse leader's heartbeat: its side will adopt ours
	}
	if n.self(env).Better(n.lid) {
		n.Elect(env) // the leader is now worth less than this node: see follow
		return
	}
	if n.lid.ID == n.id {
		return // this node's own heartbeat, come back
	}
	n.seq = m.Index.Num
	env.SetTimer(timerTimeout, n.cfg.timeout+n.backoff(env))
	for _, u := range env.Neighbors() {
		if u != m.From {
			env.Send(u, algo.Message{Type: Heartbeat, Peer: hb, Index: m.Index})
		}
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
		if n.probed[i] {
			n.settle(env, n.pending[i], algo.NoPeer) // may finish the node
			if !n.delta || n.acked {
				return
			}
			continue
		}
		n.probed[i] = true
		env.Send(n.pending[i], algo.Message{Type: Probe, Index: n.src})
		i++
	}
	env.SetTimer(timerProbe, n.cfg.probe)
}

func (n *node) onReply(m *algo.Message) {
	if m.Index != n.src {
		return
	}
	for i, u := range n.pending {
		if u == m.From {
			n.probed[i] = false
			return
		}
	}
}
