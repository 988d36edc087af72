package ring

import (
	"github.com/electgo/elect/algo"
)

// Chang and Roberts ("chang-roberts"): on a unidirectional ring, where each
// node sends only to its successor (the next id modulo n), every node
// initiates at boot by sending its identity in an election message. A node
// passes on an identity better than its own (Peer.Better) and swallows a
// worse one (it has sent its own already); a node that has not taken part
// in the round yet replaces a worse identity with its own. The node whose
// own identity comes back is the leader: it sends an elected message round
// the ring, which every node adopts and passes on until it reaches the
// leader again.
//
// Messages: election (Index.Num the round, Peer the candidate) and elected
// (Index.Num the round, Peer the leader). With identities decreasing along
// the ring, the node at position k's message travels until it reaches the
// most valued node: n(n+1)/2 election messages; increasing, every message
// but the best's dies at the next node: 2n-1; over random orders the mean
// is n*H_n. The announcement adds n. An elect event starts a new round
// (Index.Num one higher), in which the nodes that have not sent their own
// identity yet do so when the round reaches them.

// Chang and Roberts' message types.
const (
	CRElection algo.MsgType = iota // Index.Num the round; Peer the candidate
	CRElected                      // Index.Num the round; Peer the leader
)

// CRMessageNames are the names of Chang and Roberts' messages.
var CRMessageNames = []string{"election", "elected"}

type crConfig struct {
	n     int
	nodes algo.Slab[crNode]
}

func (c *crConfig) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.n, n.id, n.leader = c.n, id, algo.NoPeer
	return n
}

type crNode struct {
	n           int
	id          algo.NodeID
	round       uint32
	participant bool
	state       algo.State
	leader      algo.Peer
}

func (n *crNode) succ() algo.NodeID { return algo.NodeID((int(n.id) + 1) % n.n) }

func (n *crNode) Status() algo.Status {
	idx := algo.Index{}
	if n.round > 0 {
		idx = algo.Index{Num: n.round, ID: n.leader.ID}
		if n.state != algo.Norm {
			idx.ID = n.id
		}
	}
	return algo.Status{Leader: n.leader.ID, State: n.state, Index: idx}
}

// Start boots the node; the initiators (every node by default) begin with
// the driver's Elect.
func (n *crNode) Start(algo.Env) {}

// Restart is a start.
func (n *crNode) Restart(env algo.Env) { n.Elect(env) }

// Recover is a start: the ring elects again.
func (n *crNode) Recover(env algo.Env, _ []byte) error { n.Elect(env); return nil }

// Save keeps nothing.
func (n *crNode) Save() []byte { return nil }

// Elect starts a new round with this node's identity.
func (n *crNode) Elect(env algo.Env) {
	n.round++
	n.send(env)
}

func (n *crNode) self(env algo.Env) algo.Peer { return algo.Peer{ID: n.id, Value: env.Value()} }

func (n *crNode) send(env algo.Env) {
	n.participant, n.state = true, algo.Elect
	env.Send(n.succ(), algo.Message{Type: CRElection, Index: algo.Index{Num: n.round, ID: n.id}, Peer: n.self(env)})
}

func (n *crNode) Receive(env algo.Env, m *algo.Message) {
	if m.Index.Num < n.round {
		return // an earlier round
	}
	if m.Index.Num > n.round {
		n.round, n.participant = m.Index.Num, false
	}
	me := n.self(env)
	switch m.Type {
	case CRElection:
		switch {
		case m.Peer.ID == n.id:
			// Its own identity came back: it is the leader.
			n.state, n.leader, n.participant = algo.Norm, me, false
			env.Send(n.succ(), algo.Message{Type: CRElected, Index: algo.Index{Num: n.round, ID: n.id}, Peer: me})
		case m.Peer.Better(me):
			n.participant = true
			if n.state == algo.Norm {
				n.state = algo.Wait
			}
			env.Send(n.succ(), algo.Message{Type: CRElection, Index: m.Index, Peer: m.Peer})
		case !n.participant:
			n.send(env)
		}
	case CRElected:
		if m.Peer.ID == n.id {
			return // the announcement is back
		}
		n.state, n.leader, n.participant = algo.Norm, m.Peer, false
		env.Send(n.succ(), algo.Message{Type: CRElected, Index: m.Index, Peer: m.Peer})
	}
}

func (n *crNode) Timer(algo.Env, algo.Timer)         {}
func (n *crNode) NeighborUp(algo.Env, algo.NodeID)   {}
func (n *crNode) NeighborDown(algo.Env, algo.NodeID) {}
