package capture

import "github.com/electgo/elect/algo"

// Message types of all-to-all.
const (
	Identity algo.MsgType = iota // Peer: the candidate sending its identity
)

// AllToAllMessages are the message names of all-to-all.
var AllToAllMessages = []string{"identity"}

// allToAll is one node of the synchronous version: "no pulso s = 0, todo
// candidato envia sua identificação para todos os outros nós; no pulso
// s = 1, todo nó recebeu a identificação dos outros candidatos e pode
// decidir sobre o líder".
//
// A candidate acts in the middle of pulse 0 (or, after an elect event, of
// the pulse it is in); every node decides in the middle of the pulse in
// which identities reach it. The leader is the most valued identity heard,
// its own if it is a candidate, and the leader it had: since every node
// hears the same identities in the same pulse, every node decides alike,
// also after a late candidate.
type allToAll struct {
	cfg       *config
	candidate bool      // it has yet to send its identity
	sent      bool      // it has sent it
	heard     algo.Peer // the most valued identity received this pulse
	leader    algo.Peer
	st        algo.Status
}

func (c *config) newAllToAll(id algo.NodeID) algo.Machine {
	a := c.allToAlls.New()
	*a = allToAll{cfg: c, heard: algo.NoPeer, leader: algo.NoPeer, st: decided(algo.NoPeer)}
	return a
}

func (a *allToAll) Status() algo.Status { return a.st }

// Start: a node of N0 is a candidate.
func (a *allToAll) Start(env algo.Env) {
}

// Elect makes the node a candidate, if it has not sent its identity yet.
func (a *allToAll) Elect(env algo.Env) {
	if a.sent || a.candidate {
		return
	}
	a.candidate = true
	a.st = algo.Status{Leader: a.leader.ID, State: algo.Elect, Index: algo.Index{Num: 1, ID: env.ID()}}
	d, _ := midPulse(env)
	env.SetTimer(tick, d)
}

func (a *allToAll) Receive(env algo.Env, m *algo.Message) {
	if m.Type != Identity {
		return
	}
	a.heard = a.heard.Max(m.Peer)
	d, _ := midPulse(env)
	env.SetTimer(tick, d)
}

// Timer: pulse 0 sends, pulse 1 decides.
func (a *allToAll) Timer(env algo.Env, _ algo.Timer) {
	if a.candidate {
		a.candidate, a.sent = false, true
		me := self(env)
		for _, u := range env.Neighbors() {
			env.Send(u, algo.Message{Type: Identity, Peer: me})
		}
		a.heard = a.heard.Max(me)
		env.SetTimer(tick, algo.PulseLength)
		return
	}
	if a.heard.ID == algo.None {
		return
	}
	a.leader = a.leader.Max(a.heard)
	a.heard = algo.NoPeer
	a.st = decided(a.leader)
}

func (a *allToAll) Save() []byte { return saveLeader(a.leader) }

// Restart: a node back with no state takes no part.
func (a *allToAll) Restart(algo.Env) {}

func (a *allToAll) Recover(_ algo.Env, saved []byte) error {
	l, err := loadLeader(saved)
	if err == nil {
		a.leader, a.st = l, decided(l)
		a.sent = true
	}
	return err
}

func (a *allToAll) NeighborUp(algo.Env, algo.NodeID)   {}
func (a *allToAll) NeighborDown(algo.Env, algo.NodeID) {}
