package vkt

import (
	"slices"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

// Elect starts an election from this node (III-A4): a computation numbered
// above every one it has seen, so that it wins over them.
func (n *node) Elect(env algo.Env) {
	n.num++
	n.join(env, algo.Index{Num: n.num, ID: n.id}, algo.None)
}

// join makes this node part of computation src, entered from parent (None at
// the source): δ := 1, P := parent, S := N - {P}, Election to S.
func (n *node) join(env algo.Env, src algo.Index, parent algo.NodeID) {
	n.delta, n.src, n.parent, n.acked = true, src, parent, false
	n.num = max(n.num, src.Num)
	n.max = n.self(env)
	nbrs := env.Neighbors()
	if cap(n.pending) < len(nbrs) {
		n.pending = n.cfg.sList(len(nbrs))
	}
	n.pending = n.pending[:0]
	n.up.Stop(env)
	for _, u := range nbrs {
		if u != parent {
			n.pending = append(n.pending, awaited{id: u})
			if !n.cfg.up.Broadcast {
				env.Send(u, algo.Message{Type: Election, Index: src})
			}
		}
	}
	if n.cfg.up.Broadcast && len(n.pending) > 0 {
		// One transmission, naming the parent: a neighbour already in
		// src learns from it that this node is not its child.
		algo.Broadcast(env, algo.Message{Type: Election, Index: src, Peer: algo.Peer{ID: parent}})
	}
	env.SetTimer(adhoc.TimerTimeout, n.cfg.electionTimeout)
	if len(n.pending) > 0 {
		env.SetTimer(timerProbe, n.cfg.probe)
	}
	n.finish(env)
}

func (n *node) onElection(env algo.Env, m *algo.Message) {
	src := m.Index
	if n.cfg.up.Broadcast {
		n.onElectionBroadcast(env, m)
		return
	}
	switch {
	case n.src.Less(src):
		// A higher computation: join it, abandoning a lower one (III-B1).
		n.join(env, src, m.From)
	case src == n.src:
		// The same computation from a node that is not the parent: the
		// edge is not part of the tree.
		env.Send(m.From, algo.Message{Type: Ack, Index: src, Peer: algo.NoPeer})
	case !n.delta && n.up.Leader.ID != algo.None:
		// A lower computation reaching a node in normal operation: tell
		// it the leader, which ends it.
		env.Send(m.From, algo.Message{Type: Leader, Index: n.src, Peer: n.up.Leader})
	}
}

func (n *node) onAck(env algo.Env, m *algo.Message) {
	if !n.delta || m.Index != n.src {
		return // an Ack of an abandoned or finished computation
	}
	n.settle(env, m.From, m.Peer)
}

// settle records that id owes no Ack any more, with the most valued node of
// its subtree (NoPeer when it is not a child or was lost), and goes on if it
// was the last.
func (n *node) settle(env algo.Env, id algo.NodeID, best algo.Peer) {
	i, found := n.find(id)
	if !found {
		return
	}
	n.pending = slices.Delete(n.pending, i, i+1)
	n.max = n.max.Max(best)
	n.finish(env)
}

// finish runs when S may have emptied: the subtree's Ack goes to the parent,
// or, at the source, the leader is decided and announced.
func (n *node) finish(env algo.Env) {
	if len(n.pending) > 0 || n.acked {
		return
	}
	n.acked = true
	env.StopTimer(timerProbe)
	if n.parent != algo.None {
		env.Send(n.parent, algo.Message{Type: Ack, Index: n.src, Peer: n.max})
		return
	}
	n.announce(env, n.max, algo.None)
}

// announce adopts lid as the leader of computation src and floods it to the
// neighbours, except the one it came from.
func (n *node) announce(env algo.Env, lid algo.Peer, from algo.NodeID) {
	n.cfg.up.Spread(env, algo.Message{Type: Leader, Index: n.src, Peer: lid}, from)
	n.follow(env, lid)
}

// onLeader adopts the result of the node's computation, or of a higher one
// it did not take part in, and passes it on; copies already seen die here.
func (n *node) onLeader(env algo.Env, m *algo.Message) {
	if m.Index.Less(n.src) || m.Index == n.src && !n.delta {
		return
	}
	n.src = m.Index
	n.num = max(n.num, m.Index.Num)
	n.announce(env, m.Peer, m.From)
}
