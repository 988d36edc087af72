// Package broken registers test doubles of an election algorithm: one
// correct flood and several copies of it, each with one bug that the
// checker, elect fuzz and the conformance kit must catch. Only tests import
// it; it is the checker's own test that no broken algorithm passes
// silently.
//
// The correct one, "flood", is initiated (not spontaneous): an initiator
// starts a computation <num, id> above every one it knows and floods the
// most valued node it knows; a node that hears a higher computation joins
// it, one that hears a better node of its computation takes it up, and each
// passes what changed to all its neighbours. A node follows, in Norm, the
// best node of the highest computation it knows, so on a static, reliable
// network every node of an initiator's component ends following its most
// valued node.
//
// It imports algo only, as any algorithm does (docs/architecture.md).
package broken

import (
	"fmt"
	"math/rand/v2"

	"github.com/electgo/elect/algo"
)

// Flood is the only message type: Index the computation, Peer its best.
const Flood algo.MsgType = 0

// Bug is what a double gets wrong.
type Bug int

// The doubles, each registered as "test-broken-" + its name.
const (
	None        Bug = iota // "flood": correct
	Least                  // elects the least valued node
	NoIndex                // elects the right node and never sets an index
	Stuck                  // joins the election and never leaves it (Wait)
	TwoLeaders             // every node follows itself
	Random                 // sends in an order drawn from the global random source
	PanicParam             // parameter fanout panics on a malformed value
	Panic                  // panics when a node hears of a computation it did not start
	ElectLeader            // an initiator stays in Elect naming a leader
	Undeclared             // sends a message type that Messages does not name
	Hypercube              // needs a network no tool of elect makes
	Build                  // its Build panics: it builds no node
)

// Names are the registered names of the doubles, by Bug.
var Names = []string{None: "test-flood", Least: "test-broken-least", NoIndex: "test-broken-noindex", Stuck: "test-broken-stuck",
	TwoLeaders: "test-broken-two-leaders", Random: "test-broken-random", PanicParam: "test-broken-param", Panic: "test-broken-panic",
	ElectLeader: "test-broken-elect-leader", Undeclared: "test-broken-undeclared",
	Hypercube: "test-broken-hypercube", Build: "test-broken-build"}

func init() {
	for b, name := range Names {
		bug := Bug(b)
		a := &algo.Algorithm{
			Name:     name,
			Summary:  "test double: flood the most valued node from the initiators (" + name + ")",
			Source:   "internal/broken",
			Messages: []string{Flood: "flood"},
			Model:    algo.Model{FIFO: true, Asynchronous: true}, // no timer, no time: explored untimed
			Build: func(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
				if bug == Build {
					panic("test-broken-build builds no node")
				}
				if bug == PanicParam {
					// The bug: no check, and a conversion that cannot fail.
					fanout := map[string]int{"all": 0, "1": 1}[p["fanout"]]
					_ = []int{0, 1}[fanout+len(p["fanout"])/2]
				}
				return func(algo.NodeID) algo.Machine { return &node{bug: bug} }, nil
			},
		}
		if bug == Hypercube {
			a.Model.Topology = "hypercube"
		}
		if bug == PanicParam {
			a.Params = []algo.Param{{Name: "fanout", Default: "all", Doc: "how many neighbours a flood goes to"}}
		} else {
			a.Params = []algo.Param{{Name: "fanout", Default: "all", Doc: "how many neighbours a flood goes to: all", Check: checkFanout}}
		}
		algo.Register(a)
	}
}

func checkFanout(s string) error {
	if s != "all" {
		return fmt.Errorf("%q: only all is supported", s)
	}
	return nil
}

type node struct {
	bug  Bug
	id   algo.NodeID
	idx  algo.Index
	best algo.Peer
	busy bool // took part in a computation
}

func (n *node) better(p, q algo.Peer) bool {
	if n.bug == Least {
		return q.Better(p)
	}
	return p.Better(q)
}

func (n *node) Start(env algo.Env)   { n.id, n.best = env.ID(), algo.NoPeer }
func (n *node) Restart(env algo.Env) { n.Start(env) }

func (n *node) Recover(env algo.Env, saved []byte) error {
	if len(saved) != 0 {
		return fmt.Errorf("saved state has %d bytes, want 0", len(saved))
	}
	n.Start(env)
	return nil
}

func (n *node) Save() []byte { return []byte{} }

func (n *node) Elect(env algo.Env) {
	n.idx = algo.Index{Num: n.idx.Num + 1, ID: env.ID()}
	n.best = algo.Peer{ID: env.ID(), Value: env.Value()}
	n.busy = true
	n.flood(env)
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	if n.bug == Panic && m.Index.ID != n.id {
		var heard map[algo.NodeID]bool
		heard[m.Index.ID] = true // the bug: a map never made
	}
	switch {
	case n.idx.Less(m.Index):
		n.idx, n.best, n.busy = m.Index, algo.Peer{ID: env.ID(), Value: env.Value()}, true
		if n.better(m.Peer, n.best) {
			n.best = m.Peer
		}
	case m.Index == n.idx && n.better(m.Peer, n.best):
		n.best = m.Peer
	default:
		return
	}
	n.flood(env)
}

func (n *node) flood(env algo.Env) {
	nbrs := env.Neighbors()
	order := make([]int, len(nbrs))
	for i := range order {
		order[i] = i
	}
	if n.bug == Random {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	typ := Flood
	if n.bug == Undeclared {
		typ++
	}
	for _, i := range order {
		env.Send(nbrs[i], algo.Message{Type: typ, Index: n.idx, Peer: n.best})
	}
}

func (n *node) Timer(algo.Env, algo.Timer)         {}
func (n *node) NeighborUp(algo.Env, algo.NodeID)   {}
func (n *node) NeighborDown(algo.Env, algo.NodeID) {}

func (n *node) Status() algo.Status {
	if !n.busy {
		return algo.Status{Leader: algo.None, State: algo.Norm}
	}
	s := algo.Status{Leader: n.best.ID, State: algo.Norm, Index: n.idx}
	switch n.bug {
	case NoIndex:
		s.Index = algo.Index{}
	case Stuck:
		s.State, s.Leader = algo.Wait, algo.None
	case ElectLeader:
		if n.idx.ID == n.id {
			s.State = algo.Elect
		}
	case TwoLeaders:
		if n.id%2 == 1 {
			s.Leader = n.id // odd nodes follow themselves
		}
	}
	return s
}
