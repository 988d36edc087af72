package capture

import (
	"time"

	"github.com/electgo/elect/algo"
)

// Message types of capture-sync.
const (
	SyncCapture algo.MsgType = iota // Peer: the candidate trying to capture
	SyncAck                         // Peer: the node captured
	SyncLeader                      // Peer: the leader, from the winner to every other node
)

// SyncMessages are the message names of capture-sync.
var SyncMessages = []string{"capture", "ack", "leader"}

// syncNode is one node of S_Elect_Leader_C.
//
// Pulses: a candidate sends its k-th set of captures, 2^(k-1) of them, at
// pulse 2(k-1); a node answers at the next (odd) pulse with one ack, to the
// most valued candidate that tried it in that pulse, if that candidate is
// more valued than the node's owner (a candidate owns itself; a node nobody
// has captured has no owner); the others hear nothing. At pulse 2k the
// candidate counts its acks: one missing means a failure, and it stops
// being a candidate (the slides: "caso contrário, ele desiste"). Capturing
// a candidate ends its candidacy. A candidate that has captured all its n-1
// neighbours is the winner: it sends leader to each of them and every node
// decides one pulse later. With n nodes, b = ceil(log2 n) sets cover the
// n-1 neighbours, and the election ends at pulse 2b+1.
type syncNode struct {
	cfg       *config
	candidate bool
	owner     algo.Peer // owner_id: itself while a candidate
	targets   targets
	round     int64     // the pulse at which the candidate next counts acks and sends
	batch     int       // the size of the next set of captures
	sent      int       // captures sent at the last round
	acks      int       // acks received this pulse
	tried     algo.Peer // the most valued candidate trying to capture it this pulse
	leader    algo.Peer
	st        algo.Status
}

func (c *config) newSync(id algo.NodeID) algo.Machine {
	s := c.syncs.New()
	*s = syncNode{cfg: c, owner: algo.NoPeer, tried: algo.NoPeer, leader: algo.NoPeer, st: decided(algo.NoPeer)}
	return s
}

func (s *syncNode) Status() algo.Status { return s.st }

func (s *syncNode) Start(env algo.Env) {
}

// Elect makes the node a candidate if it has taken no part yet: it sends
// its first capture in the middle of the current pulse (pulse 0 for the
// candidates of N0).
func (s *syncNode) Elect(env algo.Env) {
	if s.candidate || s.owner.ID != algo.None || s.leader.ID != algo.None {
		return
	}
	s.candidate, s.owner, s.batch = true, self(env), 1
	d, k := midPulse(env)
	s.round = k + k%2 // rounds are even pulses, so that captures are answered at odd ones
	d += time.Duration(s.round-k) * algo.PulseLength
	s.st = algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 1, ID: env.ID()}}
	env.SetTimer(tick, d)
}

// Receive gathers the pulse's messages; they are handled in the middle of
// the pulse, when all have arrived.
func (s *syncNode) Receive(env algo.Env, m *algo.Message) {
	switch m.Type {
	case SyncCapture:
		s.tried = s.tried.Max(m.Peer)
	case SyncAck:
		s.acks++
	case SyncLeader:
		s.leader = m.Peer
	default:
		return
	}
	d, _ := midPulse(env)
	env.SetTimer(tick, d)
}

func (s *syncNode) Timer(env algo.Env, _ algo.Timer) {
	_, k := midPulse(env)
	k-- // the pulse whose middle this is
	// A node is captured by the best candidate trying it, if that one
	// beats its owner.
	if s.tried.ID != algo.None {
		if s.tried.Better(s.owner) {
			s.owner = s.tried
			env.Send(s.tried.ID, algo.Message{Type: SyncAck, Peer: self(env)})
			if s.candidate {
				s.candidate = false
			}
			s.st = algo.Status{Leader: algo.None, State: algo.Wait, Index: algo.Index{Num: 1, ID: s.owner.ID}}
		}
		s.tried = algo.NoPeer
	}
	if s.leader.ID != algo.None && s.st.State != algo.Norm {
		s.st = decided(s.leader)
		s.candidate = false
	}
	if s.candidate && k == s.round {
		s.act(env)
	}
	s.acks = 0
	if s.candidate {
		env.SetTimer(tick, time.Duration(s.round-k)*algo.PulseLength)
	}
}

// act is a candidate's round: count the acks of the last set, then send
// the next, or win.
func (s *syncNode) act(env algo.Env) {
	if s.acks < s.sent {
		s.candidate = false // a capture failed: it gives up
		s.st = algo.Status{Leader: algo.None, State: algo.Wait, Index: algo.Index{Num: 1, ID: env.ID()}}
		return
	}
	if s.targets.left(env) == 0 {
		// It has captured every other node: it is the leader.
		s.candidate = false
		s.leader = self(env)
		for _, u := range env.Neighbors() {
			env.Send(u, algo.Message{Type: SyncLeader, Peer: s.leader})
		}
		s.st = decided(s.leader)
		return
	}
	me := self(env)
	s.sent = min(s.batch, s.targets.left(env))
	for range s.sent {
		env.Send(s.targets.next(env, s.cfg.random), algo.Message{Type: SyncCapture, Peer: me})
	}
	s.batch *= 2
	s.round += 2
}

func (s *syncNode) Save() []byte { return saveLeader(s.leader) }

// Restart: a node back with no state takes no part.
func (s *syncNode) Restart(algo.Env) {}

func (s *syncNode) Recover(_ algo.Env, saved []byte) error {
	l, err := loadLeader(saved)
	if err == nil {
		s.leader, s.st = l, decided(l)
	}
	return err
}

func (s *syncNode) NeighborUp(algo.Env, algo.NodeID)   {}
func (s *syncNode) NeighborDown(algo.Env, algo.NodeID) {}
