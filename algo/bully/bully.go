// Package bully is Garcia-Molina's bully election on a complete network
// with crash failures and timeouts (named in 003_995b7edf0113a8b5.txt).
//
// A node holds an election by sending election to every node more valued
// than itself (Peer.Better); if none answers within answer_timeout it wins
// and sends coordinator to every node. A node that receives an election from
// a less valued node sends answer back and holds an election of its own,
// unless it is holding one already or follows a live coordinator more valued
// than itself (the asker asked that coordinator too); the coordinator itself
// answers and sends coordinator to the asker (its own election would win at
// once). A
// node that received an answer waits coordinator_timeout for the
// coordinator and holds a new election if none comes.
//
// Elections start at boot, on a restart or recovery (a node that comes back
// bullies its way to the top if it is the most valued), when the node hears
// that its coordinator's link went down (NeighborDown: the simulator reports
// a crash at once), on an elect event, and on a coordinator message from a
// node less valued than the receiver (which then bullies it). A coordinator
// message from a node less valued than the live leader a node follows is
// stale (a better node has won since, and told its sender too) and is
// ignored: taken, it split the network for good (elect explore found it).
//
// The documents' bully knows every node's priority; here a priority is the
// node's (value, id), and a node learns the values from the identity every
// message carries (Peer). A node whose value it does not know yet counts as
// possibly more valued: the first election of a node goes to everyone.
//
// Messages: election, answer and coordinator, each with Peer the sender's
// identity (the coordinator's, for coordinator) and Index the sender's
// election <num, id> (the winner's, for coordinator).
//
// Cost: the worst case is the coordinator's crash, which every one of the m
// nodes left hears of at once: each holds an election, m(m-1)/2 election and
// as many answer messages, and the new coordinator's m-1 announcements plus
// at most one reply to each election it receives: Theta(n^2). With the
// coordinator alive and every value known, the least valued node's election
// costs n-1 elections, n-1 answers and one coordinator. Links must not fail apart
// from crashes (no partitions, no lost messages): the bully needs every
// node to reach every other.
//
// It imports algo and nothing above it: no simulator, judge or driver
// (docs/architecture.md).
package bully

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// Message types.
const (
	Election    algo.MsgType = iota // Peer the sender, Index its election
	Answer                          // Peer the sender
	Coordinator                     // Peer the coordinator, Index its election
)

// MessageNames are the algorithm's names, indexed by type.
var MessageNames = []string{"election", "answer", "coordinator"}

const (
	timerAnswer algo.Timer = iota // answers that do not come: win
	timerCoord                    // a coordinator that does not come: elect again
)

type config struct {
	n             int
	answerTimeout time.Duration
	coordTimeout  time.Duration
	nodes         algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.cfg, n.id, n.leader = c, id, algo.NoPeer
	return n
}

type node struct {
	cfg    *config
	id     algo.NodeID
	num    uint32
	idx    algo.Index
	state  algo.State // Norm; Elect: awaiting answers; Wait: answered, awaiting the coordinator
	leader algo.Peer
	// value[v] is v's value, learned from its messages when known[v].
	value []int64
	known []bool
}

func (n *node) Status() algo.Status {
	return algo.Status{Leader: n.leader.ID, State: n.state, Index: n.idx}
}

func (n *node) self(env algo.Env) algo.Peer { return algo.Peer{ID: n.id, Value: env.Value()} }

func (n *node) learn(p algo.Peer) {
	if n.value == nil {
		n.value, n.known = make([]int64, n.cfg.n), make([]bool, n.cfg.n)
	}
	if int(p.ID) >= 0 && int(p.ID) < n.cfg.n {
		n.value[p.ID], n.known[p.ID] = p.Value, true
	}
}

// above reports whether v may be more valued than this node.
func (n *node) above(env algo.Env, v algo.NodeID) bool {
	if n.value == nil || !n.known[v] {
		return true
	}
	return algo.Peer{ID: v, Value: n.value[v]}.Better(n.self(env))
}

func (n *node) Start(env algo.Env)   { n.Elect(env) }
func (n *node) Restart(env algo.Env) { n.Elect(env) }

// Recover is a restart: the saved state would name a coordinator that may
// be gone, and an election finds out.
func (n *node) Recover(env algo.Env, _ []byte) error { n.Elect(env); return nil }

func (n *node) Save() []byte { return nil }

// Elect holds an election.
func (n *node) Elect(env algo.Env) {
	n.num++
	n.idx = algo.Index{Num: n.num, ID: n.id}
	n.state = algo.Elect
	env.StopTimer(timerCoord)
	me := n.self(env)
	sent := false
	for _, v := range env.Neighbors() {
		if n.above(env, v) {
			env.Send(v, algo.Message{Type: Election, Index: n.idx, Peer: me})
			sent = true
		}
	}
	if !sent {
		n.win(env)
		return
	}
	env.SetTimer(timerAnswer, n.cfg.answerTimeout)
}

// win makes this node the coordinator and tells everyone.
func (n *node) win(env algo.Env) {
	env.StopTimer(timerAnswer)
	env.StopTimer(timerCoord)
	me := n.self(env)
	n.state, n.leader = algo.Norm, me
	for _, v := range env.Neighbors() {
		env.Send(v, algo.Message{Type: Coordinator, Index: n.idx, Peer: me})
	}
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	n.learn(m.Peer)
	me := n.self(env)
	switch m.Type {
	case Election:
		if !m.Peer.Better(me) {
			env.Send(m.From, algo.Message{Type: Answer, Index: m.Index, Peer: me})
			switch {
			case n.state == algo.Norm && n.leader.ID == n.id:
				env.Send(m.From, algo.Message{Type: Coordinator, Index: n.idx, Peer: me})
			case n.state == algo.Norm && !(n.leader.Better(me) && live(env, n.leader.ID)):
				n.Elect(env)
			}
		}
	case Answer:
		if n.state == algo.Elect && m.Index == n.idx && m.Peer.Better(me) {
			n.state = algo.Wait
			env.StopTimer(timerAnswer)
			env.SetTimer(timerCoord, n.cfg.coordTimeout)
		}
	case Coordinator:
		if n.state == algo.Norm && n.leader.Better(m.Peer) && live(env, n.leader.ID) {
			// A stale coordinator: its election was won since by a more
			// valued node, which this node follows and which told the
			// sender too. Taken, it would split the network for good
			// (bully has no heartbeat to mend it): found by elect explore.
			return
		}
		if m.Peer.Better(me) {
			env.StopTimer(timerAnswer)
			env.StopTimer(timerCoord)
			n.state, n.leader = algo.Norm, m.Peer
			n.num = max(n.num, m.Index.Num)
			n.idx = m.Index
			return
		}
		if n.state == algo.Norm {
			n.Elect(env) // a less valued coordinator: bully it
		}
	}
}

func live(env algo.Env, v algo.NodeID) bool {
	_, ok := slices.BinarySearch(env.Neighbors(), v)
	return ok
}

func (n *node) Timer(env algo.Env, t algo.Timer) {
	switch t {
	case timerAnswer:
		if n.state == algo.Elect {
			n.win(env)
		}
	case timerCoord:
		if n.state == algo.Wait {
			n.Elect(env)
		}
	}
}

// NeighborDown: the coordinator is gone: elect.
func (n *node) NeighborDown(env algo.Env, id algo.NodeID) {
	if n.state == algo.Norm && id == n.leader.ID {
		n.Elect(env)
	}
}

// NeighborUp changes nothing: the node that came up holds an election.
func (n *node) NeighborUp(algo.Env, algo.NodeID) {}
