package broken

import "github.com/electgo/elect/algo"

// The ring doubles: Chang and Roberts' election on a unidirectional ring,
// which declares its message complexity (at most n(n+1)/2 + n), correct
// as "test-ring-cr" and with one bug as "test-broken-chatty": a node
// passes on every identity it hears, where it should swallow those worse
// than its own. It still elects the right node, every node agrees, and no
// rule of the election's safety or liveness breaks: only the count of its
// messages, n^2 + n, betrays it.
const (
	crElection algo.MsgType = iota
	crElected
)

// CR and Chatty are the names of the ring doubles; ChattyBoot is Chatty
// made spontaneous (every node starts in Start, no initiator is asked),
// whose bound is held with every node counted as starting.
const (
	CR         = "test-ring-cr"
	Chatty     = "test-broken-chatty"
	ChattyBoot = "test-broken-chatty-boot"
)

func init() {
	for _, name := range []string{CR, Chatty, ChattyBoot} {
		chatty, boot := name != CR, name == ChattyBoot
		algo.Register(&algo.Algorithm{
			Name:     name,
			Summary:  "test double: Chang and Roberts on a ring (" + name + ")",
			Source:   "internal/broken",
			Messages: []string{crElection: "election", crElected: "elected"},
			Model:    algo.Model{Topology: "ring", Initiators: "all", FIFO: true, Spontaneous: boot, Asynchronous: true},
			MessageBound: &algo.Bound{
				Formula: "from 2n to n(n+1)/2 + n",
				Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
					return 2 * c.N, c.N*(c.N+1)/2 + c.N, c.Initiators > 0
				},
			},
			Build: func(_ algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
				return func(id algo.NodeID) algo.Machine {
					return &crNode{next: (id + 1) % algo.NodeID(n), chatty: chatty, boot: boot}
				}, nil
			},
		})
	}
}

type crNode struct {
	self         algo.Peer
	heard        algo.Peer   // the most valued identity heard, its own included
	next         algo.NodeID // the successor on the ring
	chatty       bool
	boot         bool // starts in Start: spontaneous
	participated bool
	leader       algo.NodeID
	done         bool
}

func (c *crNode) Start(env algo.Env) {
	c.self, c.leader = algo.Peer{ID: env.ID(), Value: env.Value()}, algo.None
	c.heard = c.self
	if c.boot {
		c.Elect(env)
	}
}
func (c *crNode) Restart(env algo.Env)                 { c.Start(env) }
func (c *crNode) Recover(env algo.Env, _ []byte) error { c.Start(env); return nil }
func (c *crNode) Save() []byte                         { return nil }
func (c *crNode) Timer(algo.Env, algo.Timer)           {}
func (c *crNode) NeighborUp(algo.Env, algo.NodeID)     {}
func (c *crNode) NeighborDown(algo.Env, algo.NodeID)   {}
func (c *crNode) send(env algo.Env, t algo.MsgType, p algo.Peer) {
	env.Send(c.next, algo.Message{Type: t, Peer: p})
}

func (c *crNode) Elect(env algo.Env) {
	if !c.participated {
		c.participated = true
		c.send(env, crElection, c.self)
	}
}

func (c *crNode) Receive(env algo.Env, m *algo.Message) {
	if m.Type == crElected {
		c.leader, c.done = m.Peer.ID, true
		if m.Peer.ID != c.self.ID {
			c.send(env, crElected, m.Peer)
		}
		return
	}
	if m.Peer.Better(c.heard) {
		c.heard = m.Peer
	}
	switch {
	case m.Peer.ID == c.self.ID:
		// My identity came round: I am the most valued, unless I heard of
		// a better one (only chatty passes worse identities round).
		if c.heard == c.self && !c.done {
			c.send(env, crElected, c.self)
		}
	case m.Peer.Better(c.self) || c.chatty: // the bug: worse identities go on too
		c.participated = true
		c.send(env, crElection, m.Peer)
		if c.chatty && !m.Peer.Better(c.self) {
			c.Elect(env)
		}
	default:
		c.Elect(env) // swallow it; start with my own if I have not
	}
}

func (c *crNode) Status() algo.Status {
	if !c.done {
		if c.participated {
			return algo.Status{Leader: algo.None, State: algo.Elect}
		}
		return algo.Status{Leader: algo.None, State: algo.Norm}
	}
	return algo.Status{Leader: c.leader, State: algo.Norm, Index: algo.Index{Num: 1, ID: c.leader}}
}
