// Package franklin is Franklin's election on a bidirectional ring (W. R.
// Franklin, "On an improved algorithm for decentralized extrema finding in
// circular configurations of processors", Communications of the ACM 25(5),
// 1982), written against elect's public API only: it registers itself as
// algorithm "franklin" and runs through every tool of elect from a program
// that imports it.
//
// # The algorithm
//
// The nodes sit on a ring and each can send to both of its ring neighbours.
// They work in rounds r = 0, 1, 2, ...; in each round a node is active or
// passive, and every node starts active. An active node sends its number
// (its identity: value and id) both ways round the ring. A passive node
// only relays: what comes from one side it passes on to the other. So an
// active node receives, from each side, the number of the nearest active
// node on that side, and compares the three (Peer.Better: the higher
// value, then the higher id):
//
//   - if its own number is the best, it stays active and starts round r+1;
//   - if a neighbour's number is better, it turns passive for good;
//   - if the numbers it receives are its own, its messages went all the way
//     round: it is the only active node left, so the most valued one, and
//     it is the leader.
//
// Two neighbouring active nodes cannot both stay active, so each round
// leaves at most half of the active nodes active: after at most ⌈log₂ n⌉
// rounds one is left, and one more round tells it so. Every round costs
// exactly 2n messages (each link carries one number each way), so an
// election costs at most 2n(⌈log₂ n⌉+1) number messages.
//
// The leader then sends a leader message once round the ring (n messages,
// the last one back to the leader), and every node it passes follows it
// (state algo.Norm, Status().Leader the leader).
//
// An active node may receive a number of round r+1 from one side before the
// number of round r from the other (its neighbour on the first side finished
// round r first). It keeps such early numbers in order, per side, and reads
// them in the round they belong to; if it turns passive, it relays them.
// Links must be FIFO (Model.FIFO), so that the numbers of one side arrive in
// round order.
//
// # What elect adds
//
// Initiation is the driver's: Start only boots the node (no message) and
// the driver calls Elect on each initiator at time 0. By default every node
// initiates (Model.Initiators "all"). A node that hears a number before its
// own Elect is woken by it, as the literature does for non-initiators: it
// becomes active in round 0, sends its own number both ways, and then reads
// the one it received. So every node takes part in round 0 whoever
// initiated, the count above does not change, and the most valued node is
// elected with any set of initiators.
//
// Every election has a number (Index.Num): an Elect on a node in normal
// operation starts election number+1, and a node that hears of a higher
// number leaves whatever it was doing and joins it; messages of a lower
// number are dropped.
// A node's Status().Index is <election, its own id> until it follows the
// leader (every node is active in round 0), then <election, leader>.
//
// Messages, and the fields each uses:
//
//   - number: Index <election, sender>; Peer the identity of the active
//     node that sent it; Level the round r.
//   - leader: Index <election, leader>; Peer the leader.
//
// The machine asks Env.Neighbors at every input (neighbours[0] is side 0,
// neighbours[1] side 1) and passes a message on to the neighbour it did not
// come from, so that any numbering of the ring works. It assumes a static,
// reliable ring: it tolerates no loss, crash or topology change.
package franklin

import (
	"fmt"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

// Message types.
const (
	Number algo.MsgType = iota // Index <election, sender>; Peer the active node; Level the round
	Leader                     // Index <election, leader>; Peer the leader
)

// MessageNames are the names of the message types, indexed by type.
var MessageNames = []string{"number", "leader"}

// config is shared by the machines of one run.
type config struct {
	nodes algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.id, n.leader = id, algo.NoPeer
	return n
}

// number is a number message kept for a later round: the round and the
// identity it carries.
type number struct {
	round int32
	peer  algo.Peer
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
	// active: the node competes in round; queue holds, per side, the
	// numbers received and not yet read, in order of arrival.
	active bool
	round  int32
	queue  [2][]number
	state  algo.State
	leader algo.Peer
}

func (n *node) Status() algo.Status {
	idx := algo.Index{}
	if n.election > 0 {
		idx = algo.Index{Num: n.election, ID: n.id}
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
		return fmt.Errorf("franklin: %w", err)
	}
	*n = node{id: n.id, state: algo.Norm, joined: true}
	n.election, n.leader = st.Num, st.Leader
	return nil
}

// Elect starts a new election, unless the node already takes part in one
// (which will elect the most valued node).
func (n *node) Elect(env algo.Env) {
	if n.state != algo.Norm {
		return
	}
	n.join(env, n.election+1)
}

// join enters election e as an active node of round 0 and sends its number.
func (n *node) join(env algo.Env, e uint32) {
	n.election, n.joined = e, true
	n.me = algo.Peer{ID: n.id, Value: env.Value()}
	n.active, n.round, n.state = true, 0, algo.Elect
	n.queue[0], n.queue[1] = n.queue[0][:0], n.queue[1][:0]
	n.send(env)
}

// send sends the node's number of the current round both ways.
func (n *node) send(env algo.Env) {
	nb := env.Neighbors()
	if len(nb) != 2 {
		env.Report(fmt.Sprintf("franklin: node %d has %d neighbours, not the 2 of a ring: no number sent", n.id, len(nb)))
		return
	}
	m := algo.Message{Type: Number, Index: algo.Index{Num: n.election, ID: n.id}, Peer: n.me, Level: n.round}
	env.Send(nb[0], m)
	env.Send(nb[1], m)
}

// side returns the side a message from from came by, or -1.
func side(env algo.Env, from algo.NodeID) int {
	nb := env.Neighbors()
	switch {
	case len(nb) == 2 && nb[0] == from:
		return 0
	case len(nb) == 2 && nb[1] == from:
		return 1
	}
	env.Report(fmt.Sprintf("franklin: a message from %d, whose neighbours %v are not a ring's", from, nb))
	return -1
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	switch {
	case m.Index.Num < n.election:
		return // an earlier election
	case m.Index.Num > n.election:
		n.joined = false
	}
	if !n.joined {
		if m.Type == Number {
			n.join(env, m.Index.Num) // woken: active in round 0
		} else {
			// A leader message that no number preceded (it cannot
			// happen on a FIFO ring where every node took part):
			// follow it without competing.
			n.election, n.joined, n.active = m.Index.Num, true, false
		}
	}
	s := side(env, m.From)
	if s < 0 {
		return
	}
	switch m.Type {
	case Number:
		if !n.active {
			n.relay(env, s, m.Level, m.Peer)
			return
		}
		n.queue[s] = append(n.queue[s], number{m.Level, m.Peer})
		n.compare(env)
	case Leader:
		if m.Peer.ID == n.id {
			return // the announcement is back
		}
		n.active, n.state, n.leader = false, algo.Norm, m.Peer
		n.to(env, 1-s, algo.Message{Type: Leader, Index: m.Index, Peer: m.Peer})
	}
}

// compare runs the rounds whose numbers from both sides have arrived.
func (n *node) compare(env algo.Env) {
	for n.active {
		for s := range n.queue {
			// Numbers of rounds before this one cannot come (FIFO links);
			// drop them rather than stall if they do.
			for len(n.queue[s]) > 0 && n.queue[s][0].round < n.round {
				n.queue[s] = n.queue[s][1:]
			}
		}
		if len(n.queue[0]) == 0 || len(n.queue[1]) == 0 ||
			n.queue[0][0].round != n.round || n.queue[1][0].round != n.round {
			return // waiting for a number of this round
		}
		a, b := n.queue[0][0].peer, n.queue[1][0].peer
		n.queue[0], n.queue[1] = n.queue[0][1:], n.queue[1][1:]
		switch {
		case a.ID == n.id || b.ID == n.id:
			// Its own number came round: it is the only active node.
			n.win(env)
		case n.me.Better(a) && n.me.Better(b):
			n.round++
			n.send(env)
		default:
			n.active, n.state = false, algo.Wait
			for s := range n.queue {
				for _, x := range n.queue[s] {
					n.relay(env, s, x.round, x.peer)
				}
				n.queue[s] = n.queue[s][:0]
			}
		}
	}
}

// relay passes a number that came by side s on to the other side.
func (n *node) relay(env algo.Env, s int, round int32, p algo.Peer) {
	n.to(env, 1-s, algo.Message{Type: Number, Index: algo.Index{Num: n.election, ID: p.ID}, Peer: p, Level: round})
}

// to sends m to the neighbour on side s.
func (n *node) to(env algo.Env, s int, m algo.Message) {
	nb := env.Neighbors()
	if len(nb) != 2 {
		env.Report(fmt.Sprintf("franklin: node %d has %d neighbours, not the 2 of a ring: a %s is lost", n.id, len(nb), MessageNames[m.Type]))
		return
	}
	env.Send(nb[s], m)
}

// win makes the node the leader and sends the announcement round the ring.
func (n *node) win(env algo.Env) {
	n.active, n.state, n.leader = false, algo.Norm, n.me
	n.queue[0], n.queue[1] = n.queue[0][:0], n.queue[1][:0]
	n.to(env, 0, algo.Message{Type: Leader, Index: algo.Index{Num: n.election, ID: n.id}, Peer: n.me})
}

func (n *node) Timer(algo.Env, algo.Timer)         {}
func (n *node) NeighborUp(algo.Env, algo.NodeID)   {}
func (n *node) NeighborDown(algo.Env, algo.NodeID) {}
