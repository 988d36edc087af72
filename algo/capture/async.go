package capture

import (
	"math/bits"

	"github.com/electgo/elect/algo"
)

// Message types of capture-async, with the slides' names.
const (
	Capture    algo.MsgType = iota // capture(level_j, id_j): Level, Peer the candidate
	Ack                            // ack: Peer the sender if it is in N0, else NoPeer (see below)
	Nack                           // nack
	Check                          // check(k): Peer the owner k to eliminate
	Eliminate                      // eliminate(level_j, id_j): Level, Peer the candidate
	Eliminated                     // eliminated
	Leader                         // leader: Peer the leader, from the winner to every other node
)

// AsyncMessages are the message names of capture-async.
var AsyncMessages = []string{"capture", "ack", "nack", "check", "eliminate", "eliminated", "leader"}

// asyncNode holds the variables of A_Elect_Leader_C.
//
// Where the slides have to be read, this implementation reads them so:
//
//  1. "nil" compares below every identity: (level, nil) < (level', id').
//  2. A candidate is its own prospective owner as well as its owner: the
//     initial action sets p_owner_id_i := id_i beside owner_id_i := id_i,
//     so that a candidate tried by a capture compares (level_i, id_i), its
//     own level and identity, with the capturer's. Without it two
//     candidates of the same level trying each other both give up (each
//     sees (level, nil) < (level, id_j)) and nobody wins.
//  3. A candidate captured directly (the "if candidate_i" branch) takes the
//     capturer as its owner (owner_id_i := id_j) as well as its prospective
//     owner: a later capture then checks with the real owner, and no two
//     candidates ever own the same node (the invariant of Theorem 5.3).
//  4. A node outside N0 that nobody has captured has no owner to check
//     (owner_id_i = nil): it is captured at once (owner_id_i := id_j, ack).
//  5. The initial action also sets p_owned_id_i := id_j, as the ack action
//     does: the eliminated action sends its capture to p_owned_id_i.
//  6. An ack reaching a node that is no longer a candidate changes nothing:
//     it lost its candidacy while the capture was under way, and must not
//     go on capturing (or win).
//  7. When S is empty after an ack the candidate has captured all n-1
//     other nodes: it is the winner. It names the most valued candidate it
//     heard of in the acks (every other node has acked it once) and sends
//     leader to every other node.
type asyncNode struct {
	cfg       *config
	n0        bool      // n_i in N0: it started as a candidate
	candidate bool      // candidate_i
	targets   targets   // tried_i^j
	owner     algo.Peer // owner_id_i
	level     int32     // level_i
	owns      int       // owns_i
	pOwner    algo.Peer // p_owner_id_i
	pOwned    algo.NodeID
	best      algo.Peer // the most valued candidate heard of in acks (and itself)
	leader    algo.Peer
	st        algo.Status
}

func (c *config) newAsync(id algo.NodeID) algo.Machine {
	a := c.asyncs.New()
	*a = asyncNode{cfg: c, owner: algo.NoPeer, pOwner: algo.NoPeer, pOwned: algo.None,
		best: algo.NoPeer, leader: algo.NoPeer, st: decided(algo.NoPeer)}
	return a
}

func (a *asyncNode) Status() algo.Status { return a.st }

// Start: the nodes of N0 act.
func (a *asyncNode) Start(env algo.Env) {
}

// Elect is the action for n_i in N0 (msg_i = nil), for a node that has
// taken no part yet.
func (a *asyncNode) Elect(env algo.Env) {
	if a.n0 || a.owner.ID != algo.None || a.leader.ID != algo.None {
		return
	}
	me := self(env)
	a.n0, a.candidate = true, true // candidate_i := true
	a.owner, a.pOwner = me, me     // owner_id_i := id_i (and p_owner_id_i, reading 2)
	a.best = me
	a.st = algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 1, ID: me.ID}}
	a.next(env)
}

// next captures a node of S, or wins if S is empty.
func (a *asyncNode) next(env algo.Env) {
	if a.targets.left(env) == 0 {
		a.win(env)
		return
	}
	j := a.targets.next(env, a.cfg.random) // tried_i^j := true
	a.pOwned = j                           // p_owned_id_i := id_j
	env.Send(j, algo.Message{Type: Capture, Level: a.level, Peer: self(env)})
}

// win: the candidate has captured every other node (reading 7).
func (a *asyncNode) win(env algo.Env) {
	a.candidate = false
	a.leader = a.best
	for _, u := range env.Neighbors() {
		env.Send(u, algo.Message{Type: Leader, Peer: a.leader})
	}
	a.st = decided(a.leader)
}

// less is (level_a, a) < (level_b, b).
func less(la int32, a algo.Peer, lb int32, b algo.Peer) bool {
	if la != lb {
		return la < lb
	}
	return b.Better(a)
}

func (a *asyncNode) wait(env algo.Env) {
	if a.st.State != algo.Norm {
		a.st = algo.Status{Leader: algo.None, State: algo.Wait, Index: algo.Index{Num: 1, ID: a.pOwner.ID}}
	}
}

func (a *asyncNode) Receive(env algo.Env, m *algo.Message) {
	switch m.Type {
	case Capture:
		a.onCapture(env, m)
	case Ack:
		a.onAck(env, m)
	case Nack:
		// msg_i = nack: if candidate_i then candidate_i := false.
		if a.candidate {
			a.candidate = false
			a.wait(env)
		}
	case Check:
		// msg_i = check(j): if candidate_i, eliminate(level_i, id_i) to n_j.
		if a.candidate {
			env.Send(m.Peer.ID, algo.Message{Type: Eliminate, Level: a.level, Peer: self(env)})
		}
	case Eliminate:
		a.onEliminate(env, m)
	case Eliminated:
		// msg_i = eliminated: if candidate_i, capture(level_i, id_i) to
		// the node of p_owned_id_i again.
		if a.candidate {
			env.Send(a.pOwned, algo.Message{Type: Capture, Level: a.level, Peer: self(env)})
		}
	case Leader:
		a.candidate = false
		a.leader = m.Peer
		a.st = decided(a.leader)
	}
}

// onCapture: msg_i = capture(level_j, id_j) from n_j.
func (a *asyncNode) onCapture(env algo.Env, m *algo.Message) {
	j := m.Peer
	switch {
	case a.pOwner.ID == j.ID:
		// The capturer has eliminated the owner: it owns the node now.
		a.owner = j
		a.ack(env, j.ID)
	case less(a.level, a.pOwner, m.Level, j):
		a.level = m.Level
		switch {
		case a.candidate:
			a.candidate = false
			a.pOwner, a.owner = j, j // reading 3
			a.ack(env, j.ID)
		case a.owner.ID == algo.None:
			a.pOwner, a.owner = j, j // reading 4
			a.ack(env, j.ID)
		default:
			a.pOwner = j
			env.Send(j.ID, algo.Message{Type: Check, Peer: a.owner}) // check(k), owner_id_i = id_k
		}
		a.wait(env)
	default:
		env.Send(j.ID, algo.Message{Type: Nack})
	}
}

// ack answers a capture; the ack names the sender if it is a candidate of
// N0, so that the winner learns every candidate (reading 7).
func (a *asyncNode) ack(env algo.Env, to algo.NodeID) {
	p := algo.NoPeer
	if a.n0 {
		p = self(env)
	}
	env.Send(to, algo.Message{Type: Ack, Peer: p})
}

// onAck: msg_i = ack. owns_i := owns_i + 1; level_i := floor(log2(owns_i +
// 1)); then capture a node of S, if any (reading 6: only a candidate).
func (a *asyncNode) onAck(env algo.Env, m *algo.Message) {
	if !a.candidate {
		return
	}
	a.owns++
	a.level = int32(bits.Len(uint(a.owns+1)) - 1)
	a.best = a.best.Max(m.Peer)
	a.next(env)
}

// onEliminate: msg_i = eliminate(level_j, id_j) from n_j.
func (a *asyncNode) onEliminate(env algo.Env, m *algo.Message) {
	switch {
	case !a.candidate:
		env.Send(m.From, algo.Message{Type: Eliminated})
	case less(a.level, self(env), m.Level, m.Peer):
		a.candidate = false
		a.wait(env)
		env.Send(m.From, algo.Message{Type: Eliminated})
	default:
		env.Send(m.From, algo.Message{Type: Nack})
	}
}

func (a *asyncNode) Timer(algo.Env, algo.Timer) {}

func (a *asyncNode) Save() []byte { return saveLeader(a.leader) }

// Restart: a node back with no state takes no part.
func (a *asyncNode) Restart(algo.Env) {}

func (a *asyncNode) Recover(_ algo.Env, saved []byte) error {
	l, err := loadLeader(saved)
	if err == nil {
		a.leader, a.st = l, decided(l)
	}
	return err
}

func (a *asyncNode) NeighborUp(algo.Env, algo.NodeID)   {}
func (a *asyncNode) NeighborDown(algo.Env, algo.NodeID) {}
