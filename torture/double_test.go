package torture

// This file holds a test double: a small flooding election for dynamic
// networks, registered twice. "test-careful" orders its computations by index
// and keeps the checker's specification under crashes, restarts, partitions
// and heals; "test-forgetful" is the same code with the index comparison left
// out, so that a leader's value outlives the leader. The tests show that the
// checker, run through runner.Run on written scenarios, tells the two apart.

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// doubleFlood is the only message type: Flood<index, best>, in Message.Index
// and Message.Peer.
const doubleFlood algo.MsgType = 0

func init() {
	for _, forgetful := range []bool{false, true} {
		name, summary := "test-careful", "test double: flood the most valued node within the highest computation <num, id>; a lost neighbour starts a new one"
		if forgetful {
			name, summary = "test-forgetful", "test double with a bug: like test-careful, but takes any better node from any computation, so dead leaders come back"
		}
		algo.Register(&algo.Algorithm{
			Name:     name,
			Summary:  summary,
			Source:   "torture/double_test.go",
			Messages: []string{doubleFlood: "flood"},
			// No timers, no retransmission: the links must be reliable and
			// FIFO (a node's floods of one computation arrive in order, and
			// a flood of an old computation never overtakes a newer one).
			Model: algo.Model{Spontaneous: true, FIFO: true, Crash: true, Partition: true},
			// forget=true is the bug as a parameter, for a campaign that
			// fixes it (Config.Params).
			Params: []algo.Param{{Name: "forget", Default: "false", Doc: "take any better node from any computation (the bug)", Check: func(s string) error {
				if s != "true" && s != "false" {
					return fmt.Errorf("%q: want true or false", s)
				}
				return nil
			}}},
			Build: func(p algo.Params, _ int) (func(algo.NodeID) algo.Machine, error) {
				forget := forgetful || p["forget"] == "true"
				return func(algo.NodeID) algo.Machine { return &doubleNode{forgetful: forget} }, nil
			},
		})
	}
}

// doubleNode is one node of the double.
//
// A computation is named by its index <num, id>: the node id started it, with
// num above every num that node had seen. Within a computation, best is the
// most valued node whose owner took part in it, so best only ever names nodes
// that were alive and connected when the computation reached them.
//
// Why a lost neighbour starts a computation: when a node crashes or a link is
// cut, its value may sit in the best of the current computation on the other
// side. Every live node that knew that computation and borders the loss hears
// NeighborDown and starts a computation with a higher num (the sim drops
// what was in flight on a link that went down), which reaches the whole
// component and supersedes the old one. Joining it resets best to the
// joiner's own value, so the lost value is forgotten.
type doubleNode struct {
	forgetful bool // the bug: ignore indices, keep any better best

	index   algo.Index // the computation this node takes part in
	maxNum  uint32     // the highest num seen, so a new computation beats all known ones
	best    algo.Peer  // the most valued node of this computation known here
	started bool
}

// self is this node as a Peer.
func (n *doubleNode) self(env algo.Env) algo.Peer {
	return algo.Peer{ID: env.ID(), Value: env.Value()}
}

// seen raises maxNum to include idx.
func (n *doubleNode) seen(idx algo.Index) {
	n.maxNum = max(n.maxNum, idx.Num)
}

// elect starts a new computation led by this node and floods it.
func (n *doubleNode) elect(env algo.Env) {
	n.maxNum++
	n.index = algo.Index{Num: n.maxNum, ID: env.ID()}
	n.best = n.self(env)
	n.flood(env, algo.None)
}

// flood sends the node's index and best to every neighbour but except.
func (n *doubleNode) flood(env algo.Env, except algo.NodeID) {
	for _, u := range env.Neighbors() {
		if u != except {
			n.send(env, u)
		}
	}
}

func (n *doubleNode) send(env algo.Env, to algo.NodeID) {
	env.Send(to, algo.Message{Type: doubleFlood, Index: n.index, Peer: n.best})
}

func (n *doubleNode) Start(env algo.Env)   { n.started = true; n.elect(env) }
func (n *doubleNode) Restart(env algo.Env) { *n = doubleNode{forgetful: n.forgetful}; n.Start(env) }
func (n *doubleNode) Elect(env algo.Env)   { n.elect(env) }

// Save keeps the index, so that a recovered node's new computation is
// numbered above the ones it took part in before its crash.
func (n *doubleNode) Save() []byte {
	b := binary.BigEndian.AppendUint32(nil, n.maxNum)
	b = binary.BigEndian.AppendUint32(b, n.index.Num)
	return binary.BigEndian.AppendUint32(b, uint32(n.index.ID))
}

// Recover treats the recovery as a merge: a new computation, above the
// saved ones.
func (n *doubleNode) Recover(env algo.Env, saved []byte) error {
	if len(saved) != 12 {
		return fmt.Errorf("saved state of %d bytes, want 12", len(saved))
	}
	*n = doubleNode{forgetful: n.forgetful}
	n.maxNum = binary.BigEndian.Uint32(saved)
	n.seen(algo.Index{Num: binary.BigEndian.Uint32(saved[4:])})
	n.Start(env)
	return nil
}

func (n *doubleNode) Receive(env algo.Env, m *algo.Message) {
	if m.Type != doubleFlood {
		return
	}
	n.seen(m.Index)
	if n.forgetful {
		// The bug: whatever computation the flood belongs to, a better
		// node is taken, and a node that lost its leader never hears that
		// its neighbours' best is stale.
		if m.Peer.Better(n.best) {
			n.best = m.Peer
			if n.index.Less(m.Index) {
				n.index = m.Index
			}
			n.flood(env, m.From)
		}
		return
	}
	switch {
	case n.index.Less(m.Index):
		// A newer computation: join it. Its best names only nodes that took
		// part in it; the old best may name a node since lost.
		n.index = m.Index
		n.best = n.self(env).Max(m.Peer)
		// The sender gets it back too when this node is better: it has to
		// learn this node's value.
		n.flood(env, algo.None)
	case m.Index == n.index:
		// The same computation: keep the better best. The sender needs no
		// answer: whenever this node's best improved it flooded it, so the
		// sender has it or will get it.
		if m.Peer.Better(n.best) {
			n.best = m.Peer
			n.flood(env, m.From)
		}
	default:
		// An older computation: it will be overtaken where it goes. The
		// sender hears this one from this node's flood (or NeighborUp), so
		// nothing to do.
	}
}

func (n *doubleNode) Timer(algo.Env, algo.Timer) {}

// NeighborUp tells the new neighbour where this node stands: the lower of the
// two joins the higher computation, so components merge without a new one.
func (n *doubleNode) NeighborUp(env algo.Env, id algo.NodeID) { n.send(env, id) }

// NeighborDown starts a computation that forgets whatever the lost
// neighbour contributed (see doubleNode).
func (n *doubleNode) NeighborDown(env algo.Env, _ algo.NodeID) { n.elect(env) }

func (n *doubleNode) Status() algo.Status {
	if !n.started {
		return algo.Status{Leader: algo.None}
	}
	return algo.Status{Leader: n.best.ID, State: algo.Norm, Index: n.index}
}

// runDouble parses a scenario written in YAML, sets its algorithm and runs it.
func runDouble(t *testing.T, name, algorithm, yaml string) *metrics.Summary {
	t.Helper()
	s, err := scenario.Parse(name, []byte(yaml), nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s.Algorithm = algorithm
	s.Params = nil
	sum, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatalf("%s with %s: %v", name, algorithm, err)
	}
	return sum
}

// violations lists a summary's violations, one a line, for failure messages.
func violations(sum *metrics.Summary) string {
	var b strings.Builder
	for _, v := range sum.Violations {
		fmt.Fprintf(&b, "\n  %.0fms %s: %s (nodes %v)", v.AtMS, v.Property, v.Reason, v.Nodes)
	}
	return b.String()
}

// carefulScenarios are run by TestCarefulKeepsSpec. The checker's bounds are
// short (a component must agree 2s and elect 4s after its last change) and
// events come 10s apart, so that liveness is checked between the faults, not
// only at the end; each run ends well after its last event.
var carefulScenarios = []struct{ name, yaml string }{
	{"line-id", `
topology: line:5
values: id
duration: 20s
check: {stabilization: 2s, liveness: 4s}
`},
	{"ring-random", `
topology: ring:8
values: random
seed: 7
duration: 20s
check: {stabilization: 2s, liveness: 4s}
`},
	{"grid-random-slow-links", `
topology: grid:3x3
values: random
seed: 3
delay: uniform:1ms:50ms
duration: 20s
check: {stabilization: 2s, liveness: 4s}
`},
	{"line-leader-crash-restart", `
topology: line:5
values: id
delay: uniform:1ms:50ms
duration: 40s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 10s
    crash: leader
  - at: 20s
    restart: 4
`},
	{"grid-leader-crash-recover", `
topology: grid:3x3
values: random
seed: 11
delay: uniform:1ms:20ms
duration: 50s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 10s
    crash: leader
  - at: 20s
    crash: leader
  - at: 30s
    recover: 0-8
`},
	{"ring-partition-heal", `
topology: ring:8
values: id
delay: uniform:1ms:50ms
duration: 40s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 10s
    partition:
      low: 0-3
      high: 4-7
  - at: 20s
    heal: true
`},
	{"grid-partition-crash-heal", `
topology: grid:3x3
values: random
seed: 5
delay: uniform:1ms:30ms
duration: 50s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 10s
    partition:
      top: 0-2
  - at: 20s
    crash: leader
  - at: 30s
    heal: true
  - at: 40s
    restart: 0-8
`},
	{"line-links-and-elect", `
topology: line:6
values: random
seed: 2
delay: uniform:1ms:50ms
duration: 50s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 10s
    link_down: [2, 3]
  - at: 20s
    elect: 0
  - at: 30s
    link_up: [2, 3]
  - at: 40s
    crash: [1, 4]
`},
}

func TestCarefulKeepsSpec(t *testing.T) {
	for _, sc := range carefulScenarios {
		t.Run(sc.name, func(t *testing.T) {
			sum := runDouble(t, sc.name, "test-careful", sc.yaml)
			if sum.ViolationCount != 0 {
				t.Errorf("%d violations:%s", sum.ViolationCount, violations(sum))
			}
			// Zero unchecked components: the checker did look at the final
			// state of every component, and found each following its most
			// valued live node.
			if sum.Unchecked != 0 || sum.Unreached != 0 {
				t.Errorf("%d components unchecked, %d unreached at %.0fms", sum.Unchecked, sum.Unreached, sum.EndMS)
			}
		})
	}
}

// forgetfulScenario breaks test-forgetful. Node 3 leads the line 0-1-2-3. When
// it crashes, node 2 loses a neighbour and starts a new computation with
// itself as best; node 1 still holds 3 from the first computation and,
// comparing bests only, ignores node 2's flood as worse. Nodes 0 and 1 follow
// the dead node 3 for ever, node 2 follows itself. test-careful's node 1
// joins node 2's higher computation, resets its best and passes 2 on.
const forgetfulScenario = `
topology: line:4
values: id
delay: uniform:1ms:50ms
duration: 20s
check: {stabilization: 2s, liveness: 4s}
events:
  - at: 2s
    crash: leader
`

func TestForgetfulBreaks(t *testing.T) {
	careful := runDouble(t, "forgetful", "test-careful", forgetfulScenario)
	if careful.ViolationCount != 0 || careful.Unchecked != 0 {
		t.Errorf("test-careful: %d violations, %d unchecked components:%s", careful.ViolationCount, careful.Unchecked, violations(careful))
	}
	forgetful := runDouble(t, "forgetful", "test-forgetful", forgetfulScenario)
	if forgetful.ViolationCount == 0 {
		t.Fatalf("test-forgetful kept the specification; final state %+v", forgetful.Final)
	}
	t.Logf("test-forgetful, %d violations:%s", forgetful.ViolationCount, violations(forgetful))
}
