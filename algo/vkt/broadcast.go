package vkt

import "github.com/electgo/elect/algo"

// The broadcast medium (parameter medium=broadcast; package adhoc): seed
// 000's closing proposal, Election sent once by multicast so that one
// transmission reaches every node in range, Acks only to the parent.
//
// What replaces the empty Ack a non-parent sent is that neighbour's own
// Election: every node that joins a computation broadcasts its Election
// naming its parent (Peer.ID; None at the source). S starts as in
// unicast, every neighbour but the parent; a neighbour whose Election of
// the same computation names another parent is not a child and leaves S at
// once; one that names this node is a child, whose Ack settles it. S only
// shrinks, so a leaf (every neighbour but its parent named another parent)
// acks as in unicast, and an election waits exactly as long.
//
// The rest follows from it:
//
//   - Leader and Heartbeat go out as one broadcast each (adhoc.Config.Spread);
//     the copy the sender's own sender hears is a copy it has seen.
//   - Probe, Reply, Ack and the answers below are unicast. A probed node
//     that is not the prober's child answers with the empty Ack a
//     non-parent sent in unicast: the prober lost that node's Election.
//     A node that finished the computation answers a probe or an Election
//     of it with its Leader, so the latecomer ends there too.
//   - A neighbour that appears during an election is sent the Election
//     alone, marked Level 1: the receiver answers it as a probe, so that
//     two nodes of one computation that meet settle each other at once.
//
// Safety is unicast's: a node follows only a computation's result, the
// Leader a finished node answers with, or a better leader's heartbeat, and
// never a leader worse than itself; a neighbour leaves S with nothing said
// of its subtree only when it is provably not a child (its Election named
// another parent: a node's parent does not change within a computation) or
// on unicast's evidence (it went, or missed two probes). Liveness too:
// every member of S is settled by its Ack, its Election, an answer to a
// probe or two probe intervals of silence, each a message of unicast
// replaced by one carrying at least as much.
//
// Messages of one election on a connected network of n nodes and E links,
// with no loss, L of the nodes other than the source having one neighbour:
// unicast sends 3(2E-(n-1)) messages, one reception each; broadcast makes
// 3n-1-2L transmissions and 4E+n-1-2L receptions. A heartbeat: 2E-(n-1)
// messages against n-L' transmissions and 2E-L' receptions (L' the nodes
// of one neighbour other than the leader).
//
// Under loss the broadcast medium is a little ahead: over the chaos soak's
// 200 schedules in the simulator (5 nodes of a complete network; crashes,
// freezes and partitions in the first 7 s of 14) the nodes were without a
// leader 2.3%, 3.8% and 6.8% of the time at 5, 10 and 20% loss, against
// 2.6%, 4.3% and 7.5% with unicast; 0.2% for both without loss.

// onElectionBroadcast is onElection with the broadcast medium.
func (n *node) onElectionBroadcast(env algo.Env, m *algo.Message) {
	src := m.Index
	switch {
	case n.src.Less(src):
		n.join(env, src, m.From) // a higher computation (III-B1)
		return
	case src == n.src && n.delta:
		if m.Peer.ID != n.id {
			// It joined under another node: not a child. (Its parent
			// cannot change within the computation.)
			n.settle(env, m.From, algo.NoPeer)
		}
		if m.Level == 1 {
			n.answerProbe(env, m.From)
		}
	case !n.delta && n.up.Leader.ID != algo.None && (src == n.src || src.Less(n.src)):
		// A computation this node finished, or a lower one: its Leader
		// ends it at the sender.
		env.Send(m.From, algo.Message{Type: Leader, Index: n.src, Peer: n.up.Leader})
	}
}
