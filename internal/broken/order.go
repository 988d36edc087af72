package broken

import "github.com/electgo/elect/algo"

// The order doubles: a flood of every node's identity on any network,
// whose nodes know how many nodes there are (Build's n). The initiator
// (node 0 unless a run names others) sends its identity to its
// neighbours; a node passes every identity on the first time it hears of
// it, and one that was not asked joins on its first message, passing that
// message on and then sending its own identity to every neighbour. A node
// follows, in Norm, the most valued node it has heard of, and once it has
// heard of every node, and met every neighbour (had its own identity from
// it), its choice is final: it has nothing left to learn, and ignores
// whatever comes after (it neither takes it up nor passes it on).
// "test-order" is correct whatever the order of arrival, FIFO or not.
//
// "test-broken-order" counts the identities it has heard of and finishes
// at n-1, the others, forgetting that its own is counted too if it comes
// back. Then it may finish one identity short, and the one it lacks is the
// last to arrive, often the most valued node's when that node is far: it
// follows the wrong node for good. Its own identity comes back only round
// a cycle of four links or more (a relay skips the node it came from and
// the one before, so a triangle sends nothing back), and only when the
// identity went three links round it faster than one straight: node X's
// identity reaches its neighbour W by way of two others (X -> A -> B -> W)
// before X's own message to W, and W, passing it on, sends it back to X.
// With the simulator's default delays, 1 to 5 ms a link, three links take
// less than one with a chance of about a quarter of a percent, so ordinary
// runs pass: none of 200 seeds failed on ring:8, grid:4x4, complete:8,
// geometric:30:d4 or the default geometric:50:250, 1 of 200 on gnp:12:0.4;
// elect fuzz fails 3 to 8 runs in 1000 (seeds 1 to 4), its exponential
// delays on random networks with cycles. Exploring grid:2x2 (a square, the
// initiator 0 opposite node 3, the most valued with --values id) finds it
// in 20 steps, among some 20,000 states.
const (
	Order       = "test-order"
	BrokenOrder = "test-broken-order"
)

// identity is the order doubles' one message type: Peer names the node
// heard of, with its value; a relay's Peers, the node it came from.
const identity algo.MsgType = 0

func init() {
	for _, name := range []string{Order, BrokenOrder} {
		buggy := name == BrokenOrder
		algo.Register(&algo.Algorithm{
			Name:     name,
			Summary:  "test double: flood every identity, final once every node is heard of (" + name + ")",
			Source:   "internal/broken",
			Messages: []string{identity: "identity"},
			Model:    algo.Model{Asynchronous: true},
			Build: func(_ algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
				return func(algo.NodeID) algo.Machine { return &orderNode{n: n, buggy: buggy} }, nil
			},
		})
	}
}

type orderNode struct {
	n      int
	buggy  bool
	self   algo.Peer
	best   algo.Peer // the most valued node heard of, itself included
	heard  []bool    // by node: heard of it
	count  int       // nodes heard of
	met    []bool    // by node: a neighbour that sent its own identity
	joined bool      // sent its own identity
	final  bool      // heard of every node (or believes so): ignores the rest
}

func (o *orderNode) Start(env algo.Env) {
	o.self = algo.Peer{ID: env.ID(), Value: env.Value()}
	o.best, o.heard, o.met, o.count, o.joined, o.final = o.self, make([]bool, o.n), make([]bool, o.n), 0, false, false
	if !o.buggy {
		o.hear(o.self) // the bug is to leave this out: its own identity is counted when it comes back
	}
}

func (o *orderNode) Restart(env algo.Env)                 { o.Start(env) }
func (o *orderNode) Recover(env algo.Env, _ []byte) error { o.Start(env); return nil }
func (o *orderNode) Save() []byte                         { return nil }
func (o *orderNode) Timer(algo.Env, algo.Timer)           {}
func (o *orderNode) NeighborUp(algo.Env, algo.NodeID)     {}
func (o *orderNode) NeighborDown(algo.Env, algo.NodeID)   {}

// Elect sends the node's own identity to every neighbour, once.
func (o *orderNode) Elect(env algo.Env) {
	if o.joined {
		return
	}
	o.joined = true
	for _, v := range env.Neighbors() {
		env.Send(v, algo.Message{Type: identity, Peer: o.self})
	}
	o.settle(env)
}

func (o *orderNode) Receive(env algo.Env, m *algo.Message) {
	if o.final {
		return // heard of every node: nothing left to learn
	}
	p := m.Peer
	if p.ID < 0 || int(p.ID) >= o.n {
		return
	}
	if p.ID == m.From {
		o.met[p.ID] = true
	}
	if !o.heard[p.ID] {
		o.hear(p)
		// Passed on to every neighbour but the one it came from and the
		// one before (a split horizon of two links, which spares a
		// triangle the echo); the message names the one it came from.
		before := algo.None
		if len(m.Peers) == 1 {
			before = m.Peers[0].ID
		}
		via := []algo.Peer{{ID: m.From}}
		for _, v := range env.Neighbors() {
			if v != m.From && v != before {
				env.Send(v, algo.Message{Type: identity, Peer: p, Peers: via})
			}
		}
	}
	o.Elect(env) // a node that was not asked joins on its first message, once it has passed it on
	o.settle(env)
}

// hear takes up node p.
func (o *orderNode) hear(p algo.Peer) {
	o.heard[p.ID] = true
	o.count++
	if p.Better(o.best) {
		o.best = p
	}
}

// settle makes the choice final once every node is heard of, n of them,
// itself included, and every neighbour has sent its own identity.
// test-broken-order wants n-1: it counts the others, and forgets that its
// own identity is counted too when it comes back.
func (o *orderNode) settle(env algo.Env) {
	want := o.n
	if o.buggy {
		want = o.n - 1
	}
	if o.count < want {
		return
	}
	for _, v := range env.Neighbors() {
		if !o.met[v] {
			return
		}
	}
	o.final = true
}

func (o *orderNode) Status() algo.Status {
	if !o.joined {
		return algo.Status{Leader: algo.None, State: algo.Norm}
	}
	return algo.Status{Leader: o.best.ID, State: algo.Norm, Index: algo.Index{Num: 1, ID: o.best.ID}}
}
