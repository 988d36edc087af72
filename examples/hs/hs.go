// Package hs is Hirschberg and Sinclair's election on a bidirectional ring
// (D. S. Hirschberg and J. B. Sinclair, "Decentralized extrema-finding in
// circular configurations of processors", Communications of the ACM 23(11),
// 1980), written against elect's public API only: it registers itself as
// algorithm "hs" and runs through every tool of elect (sim, bench, fuzz,
// check, viz, node) from a program that imports it.
//
// # The algorithm
//
// The nodes sit on a ring and each can send to both of its ring neighbours.
// A candidate works in phases k = 0, 1, 2, ...: in phase k it sends a probe
// carrying its identity both ways round the ring, to travel 2^k hops. A node
// that a probe reaches compares the identity with its own (Peer.Better: the
// higher value, then the higher id). A worse identity is swallowed: the probe
// goes no further. A better one goes on until it has made its 2^k hops; the
// node where it stops sends a reply back along the same path to the
// candidate. A candidate whose two probes both come back as replies knows
// that it beats every node within 2^k hops on either side, and starts phase
// k+1. A candidate that gets only one reply, or none, goes no further; its
// probes died at a better node. In the phase where 2^k reaches the ring's
// size, the best candidate's probe goes all the way round and comes back to
// it as a probe: it has passed every node, so this candidate is the most
// valued node, and it is the leader.
//
// Only a node that is the best within 2^(k-1) hops on both sides starts
// phase k ≥ 1, so at most n/(2^(k-1)+1) candidates do, and each causes at
// most 4·2^k probes and replies (2^k hops out and 2^k back, both ways):
// fewer than 8n messages in phase k, at most 4n in phase 0. The last phase
// is the first with 2^k ≥ n, k = ⌈log₂ n⌉, so there are 1+⌈log₂ n⌉ phases
// and at most 8n(1+⌈log₂ n⌉) probes and replies in all (Hirschberg and
// Sinclair's 8n + 8⌈n log n⌉).
//
// The leader then sends a leader message once round the ring (n messages,
// the last one back to the leader), and every node it passes follows it
// (state algo.Norm, Status().Leader the leader).
//
// # What elect adds
//
// Initiation is the driver's: Start only boots the node (no message) and
// the driver calls Elect on each initiator at time 0. By default every node
// initiates (Model.Initiators "all"), as in the paper. A node that a probe
// reaches before its own Elect joins the election then: a worse identity
// makes it a candidate (it swallows the probe and starts phase 0, since it
// may be the best node), a better one makes it a relay that never competes.
// Either way the most valued node ends up a candidate and wins, and the
// bound above still holds, because the candidates are still at most n.
//
// Every election has a number (Index.Num): an Elect on a node in normal
// operation starts election number+1, and a node that hears of a higher
// number leaves whatever it was doing and joins it; messages of a lower
// number are dropped. This lets an operator (or a scenario's elect event)
// elect again after the first election.
// A node's Status().Index is <election, its own id> while it competes,
// <election, candidate> while it relays for the candidate whose message
// brought it in, and <election, leader> once it follows the leader.
//
// Messages, with the names of the textbook presentations (Attiya and
// Welch, Lynch), and the fields each uses:
//
//   - probe: Index <election, candidate>; Peer the candidate's identity;
//     Level the hops it still has to travel after the node that receives
//     it (2^k - 1 when the candidate sends it).
//   - reply: Index and Peer as in the probe it answers.
//   - leader: Index <election, leader>; Peer the leader.
//
// The machine keeps no neighbour list: it asks Env.Neighbors at every input
// and passes a message on to the neighbour it did not come from, so that
// any numbering of the ring works. It assumes FIFO links (Model.FIFO) so
// that the leader message never overtakes a probe of its election, and a
// static, reliable ring: it tolerates no loss, crash or topology change.
package hs

import (
	"fmt"
	"math"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

// Message types.
const (
	Probe  algo.MsgType = iota // Index <election, candidate>; Peer the candidate; Level hops still to go
	Reply                      // Index <election, candidate>; Peer the candidate
	Leader                     // Index <election, leader>; Peer the leader
)

// MessageNames are the names of the message types, indexed by type.
var MessageNames = []string{"probe", "reply", "leader"}

// config is shared by the machines of one run.
type config struct {
	nodes algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.id, n.leader = id, algo.NoPeer
	return n
}

// node is one node's state.
type node struct {
	id algo.NodeID
	// election is the number of the election the node knows of (Index.Num);
	// joined says it has taken part in it.
	election uint32
	joined   bool
	// me is the node's identity, read when it joins an election so that
	// every comparison of one election uses the same value.
	me algo.Peer
	// candidate: the node competes; phase is its phase k and replies the
	// replies of that phase it has received. by is the candidate whose
	// computation the node takes part in: itself, or for a relay the
	// candidate whose message brought it in (Status().Index.ID).
	candidate bool
	by        algo.NodeID
	phase     uint32
	replies   int
	state     algo.State
	leader    algo.Peer
}

func (n *node) Status() algo.Status {
	idx := algo.Index{}
	if n.election > 0 {
		idx = algo.Index{Num: n.election, ID: n.by}
		if n.state == algo.Norm && n.leader.ID != algo.None {
			idx.ID = n.leader.ID
		}
	}
	return algo.Status{Leader: n.leader.ID, State: n.state, Index: idx}
}

// Start boots the node: it sends nothing until the driver's Elect or a
// message of an election.
func (n *node) Start(algo.Env) {}

// Restart boots the node again with nothing remembered: a new node.
func (n *node) Restart(algo.Env) {
	*n = node{id: n.id, leader: algo.NoPeer}
}

// Save keeps the election number and the leader, in the encoding elect's
// ad hoc algorithms share (adhoc.Saved).
func (n *node) Save() []byte {
	return adhoc.Saved{Leader: n.leader, Num: n.election}.Bytes()
}

// Recover restores what Save kept; an election that was under way is lost
// with its messages, so the node comes back in normal operation.
func (n *node) Recover(_ algo.Env, saved []byte) error {
	st, err := adhoc.ReadSaved(saved)
	if err != nil {
		return fmt.Errorf("hs: %w", err)
	}
	*n = node{id: n.id, state: algo.Norm, joined: true, by: n.id}
	n.election, n.leader = st.Num, st.Leader
	return nil
}

// Elect starts a new election with this node as a candidate, unless the
// node already takes part in one (which will elect the most valued node).
func (n *node) Elect(env algo.Env) {
	if n.state != algo.Norm {
		return
	}
	n.join(env, n.election+1, n.id)
	n.compete(env)
}

// join enters election e, not yet as a candidate, brought in by by.
func (n *node) join(env algo.Env, e uint32, by algo.NodeID) {
	n.election, n.joined, n.by = e, true, by
	n.me = algo.Peer{ID: n.id, Value: env.Value()}
	n.candidate, n.phase, n.replies = false, 0, 0
	n.state = algo.Wait
}

// compete makes the node a candidate in phase 0.
func (n *node) compete(env algo.Env) {
	n.candidate, n.state, n.by = true, algo.Elect, n.id
	n.probe(env)
}

// probe sends the probes of the current phase both ways.
func (n *node) probe(env algo.Env) {
	nb := env.Neighbors()
	if len(nb) != 2 {
		env.Report(fmt.Sprintf("hs: node %d has %d neighbours, not the 2 of a ring: no probe sent", n.id, len(nb)))
		return
	}
	m := algo.Message{Type: Probe, Index: algo.Index{Num: n.election, ID: n.id}, Peer: n.me, Level: reach(n.phase) - 1}
	env.Send(nb[0], m)
	env.Send(nb[1], m)
}

// reach is how far the probes of phase k travel: 2^k hops (capped where
// int32 ends, far beyond any ring elect can build).
func reach(k uint32) int32 {
	if k >= 31 {
		return math.MaxInt32
	}
	return 1 << k
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	switch {
	case m.Index.Num < n.election:
		return // an earlier election
	case m.Index.Num > n.election:
		n.joined = false
	}
	if !n.joined {
		n.join(env, m.Index.Num, m.Peer.ID)
		if m.Type == Probe && n.me.Better(m.Peer) {
			// Woken by a worse identity: this node may be the best one.
			n.compete(env)
			return // the probe is swallowed
		}
	}
	switch m.Type {
	case Probe:
		switch {
		case m.Peer.ID == n.id:
			// The probe went all the way round: every node is worse.
			if n.candidate {
				n.win(env, m.From)
			}
		case m.Peer.Better(n.me):
			if m.Level > 0 {
				onward(env, m.From, algo.Message{Type: Probe, Index: m.Index, Peer: m.Peer, Level: m.Level - 1})
			} else {
				env.Send(m.From, algo.Message{Type: Reply, Index: m.Index, Peer: m.Peer})
			}
		}
		// A worse identity is swallowed.
	case Reply:
		if m.Peer.ID != n.id {
			onward(env, m.From, algo.Message{Type: Reply, Index: m.Index, Peer: m.Peer})
			return
		}
		if !n.candidate {
			return
		}
		if n.replies++; n.replies == 2 {
			n.phase, n.replies = n.phase+1, 0
			n.probe(env)
		}
	case Leader:
		if m.Peer.ID == n.id {
			return // the announcement is back
		}
		n.candidate, n.state, n.leader = false, algo.Norm, m.Peer
		onward(env, m.From, algo.Message{Type: Leader, Index: m.Index, Peer: m.Peer})
	}
}

// win makes the node the leader and sends the announcement round the ring,
// on in the direction of the probe that came back from from.
func (n *node) win(env algo.Env, from algo.NodeID) {
	n.candidate, n.state, n.leader = false, algo.Norm, n.me
	onward(env, from, algo.Message{Type: Leader, Index: algo.Index{Num: n.election, ID: n.id}, Peer: n.me})
}

// onward sends m to the ring neighbour that is not from.
func onward(env algo.Env, from algo.NodeID, m algo.Message) {
	nb := env.Neighbors()
	switch {
	case len(nb) == 2 && nb[0] == from:
		env.Send(nb[1], m)
	case len(nb) == 2 && nb[1] == from:
		env.Send(nb[0], m)
	default:
		env.Report(fmt.Sprintf("hs: a %s from %d cannot go on: neighbours %v are not a ring's", MessageNames[m.Type], from, nb))
	}
}

func (n *node) Timer(algo.Env, algo.Timer)         {}
func (n *node) NeighborUp(algo.Env, algo.NodeID)   {}
func (n *node) NeighborDown(algo.Env, algo.NodeID) {}
