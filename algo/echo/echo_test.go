package echo_test

import (
	"fmt"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// shapes are the topology families of the issue, at sizes that keep the
// suite fast. Random families appear with several seeds below.
var shapes = []string{
	"line:1", "line:2", "line:17", "ring:3", "ring:24", "star:15", "grid:1x1", "grid:6x4",
	"complete:12", "tree:40", "geometric:150:150", "geometric:60:90:300x200", "gnp:50:0.08",
	"ba:60:2", "layered:1", "layered:4",
}

var delays = []string{"constant:1ms", "uniform:100us:5ms", "exponential:2ms"}

func newScenario(t *testing.T, alg, topology, delay string, seed uint64, params map[string]string) *scenario.Scenario {
	t.Helper()
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Params = alg, topology, seed, params
	d, err := sim.ParseDelay(delay)
	if err != nil {
		t.Fatal(err)
	}
	s.Delay = d
	s.Values = sim.Values{Mode: sim.ValueID}
	// Random graphs have pieces that the initiators cannot reach.
	s.Unelected = scenario.Uninitiated
	return s
}

// component returns the nodes and edges of v's connected component.
func component(g *topo.Graph, v algo.NodeID) (nodes, edges int) {
	comp, _ := g.Components()
	for u := 0; u < g.N(); u++ {
		if comp[u] != comp[v] {
			continue
		}
		nodes++
		edges += g.Degree(algo.NodeID(u))
	}
	return nodes, edges / 2
}

// TestEchoExactCounts: a single-initiator echo sends exactly 2E explorer and
// echo messages over the E edges of the initiator's component, and n-1 info
// messages down the tree to the other n-1 nodes of that component.
func TestEchoExactCounts(t *testing.T) {
	for _, shape := range shapes {
		for _, delay := range delays {
			for seed := uint64(1); seed <= 3; seed++ {
				name := fmt.Sprintf("%s/%s/seed%d", shape, delay, seed)
				t.Run(name, func(t *testing.T) {
					s := newScenario(t, "echo", shape, delay, seed, nil)
					if seed == 2 {
						s.Values = sim.Values{Mode: sim.ValueRandom}
					}
					g := runtest.Network(t, s)
					initiator := algo.NodeID(int(seed*7) % g.N())
					s.Initiators = fmt.Sprint(initiator)
					sum := runtest.Run(t, s)
					n, e := component(g, initiator)
					by := sum.Messages.ByType
					if got := by["explorer"] + by["echo"]; got != uint64(2*e) {
						t.Errorf("explorer+echo = %d+%d = %d, want 2E = %d", by["explorer"], by["echo"], got, 2*e)
					}
					if by["echo"] != uint64(n-1) {
						t.Errorf("echo = %d, want one per tree edge, %d", by["echo"], n-1)
					}
					if by["info"] != uint64(n-1) {
						t.Errorf("info = %d, want n-1 = %d", by["info"], n-1)
					}
					want := 1
					if n == 1 {
						want = 0 // a lone initiator decides within one input
					}
					if sum.Elections.Completed != want {
						t.Errorf("%d elections completed, want %d", sum.Elections.Completed, want)
					}
					checkLeaders(t, sum, g)
				})
			}
		}
	}
}

// checkLeaders asserts, beyond the checker, that every node that an election
// reached follows the most valued node of its component.
func checkLeaders(t *testing.T, sum *metrics.Summary, g *topo.Graph) {
	t.Helper()
	for _, comp := range sum.Components {
		best := algo.NoPeer
		for _, v := range comp {
			if p := (algo.Peer{ID: v, Value: sum.Final[v].Value}); p.Better(best) {
				best = p
			}
		}
		reached := false
		for _, v := range comp {
			if sum.Final[v].Leader != algo.None {
				reached = true
			}
		}
		if !reached {
			continue
		}
		for _, v := range comp {
			if f := sum.Final[v]; f.Leader != best.ID || f.State != "Norm" {
				t.Fatalf("node %d: leader %d state %s, want %d in Norm", v, f.Leader, f.State, best.ID)
			}
		}
	}
}

// TestEchoVirtualTree: on the virtual tree the wave uses only tree edges:
// n-1 explorers, n-1 echoes, n-1 infos on a connected graph.
func TestEchoVirtualTree(t *testing.T) {
	for _, shape := range []string{"line:9", "ring:12", "grid:5x5", "complete:8", "layered:3", "ba:40:3", "tree:30"} {
		for _, delay := range delays {
			t.Run(shape+"/"+delay, func(t *testing.T) {
				s := newScenario(t, "echo", shape, delay, 4, map[string]string{"tree": "virtual", "wave_at": "2s"})
				s.Initiators = "2"
				sum := runtest.Run(t, s)
				n := uint64(sum.Nodes)
				by := sum.Messages.ByType
				if by["explorer"] != n-1 || by["echo"] != n-1 || by["info"] != n-1 {
					t.Errorf("explorer %d echo %d info %d, want %d each", by["explorer"], by["echo"], by["info"], n-1)
				}
				if by["connect"] == 0 {
					t.Errorf("no connect message: the tree was not built")
				}
			})
		}
	}
}

// TestVirtualTreeRechoosesParent: when the link to its parent breaks, a node
// picks the neighbour nearest the root as its new parent, and the wave that
// follows still reaches every node over the repaired tree.
func TestVirtualTreeRechoosesParent(t *testing.T) {
	// grid:3x3 rooted at 0; node 4 (centre) first hangs below 1 (the lower id
	// at level 1); cutting 1-4 must move it below 3.
	s := newScenario(t, "echo", "grid:3x3", "constant:1ms", 1, map[string]string{"tree": "virtual", "wave_at": "1s"})
	s.Events = []sim.Action{{At: 500 * 1e6, Kind: sim.LinkDown, Link: topo.Edge{A: 1, B: 4}}}
	sum := runtest.Run(t, s)
	by := sum.Messages.ByType
	if by["explorer"] != 8 || by["echo"] != 8 || by["info"] != 8 {
		t.Errorf("explorer %d echo %d info %d, want 8 each", by["explorer"], by["echo"], by["info"])
	}
	for _, f := range sum.Final {
		if f.Leader != 8 {
			t.Fatalf("node %d follows %d, want 8", f.ID, f.Leader)
		}
	}
}

// TestExtinctionEveryNodeInitiates: with every node initiating, each
// component elects its most valued node and the wave that completes is that of
// the component's highest initiator.
func TestExtinctionEveryNodeInitiates(t *testing.T) {
	for _, shape := range shapes {
		for _, delay := range delays {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("%s/%s/seed%d", shape, delay, seed), func(t *testing.T) {
					s := newScenario(t, "extinction", shape, delay, seed, nil)
					if seed != 1 {
						s.Values = sim.Values{Mode: sim.ValueRandom}
					}
					g := runtest.Network(t, s)
					sum := runtest.Run(t, s)
					checkLeaders(t, sum, g)
					if sum.Unreached != 0 {
						t.Errorf("%d components unreached with every node initiating", sum.Unreached)
					}
					// An isolated node elects itself within one input: there
					// is no election episode to see.
					multi := 0
					for _, c := range sum.Components {
						if len(c) > 1 {
							multi++
						}
					}
					if sum.Elections.Completed != multi {
						t.Errorf("%d elections for %d components of two nodes or more", sum.Elections.Completed, multi)
					}
				})
			}
		}
	}
}

// TestExtinctionSomeInitiators: only the listed nodes start; the highest
// initiator's wave wins and the info wave reaches every node of its
// component.
func TestExtinctionSomeInitiators(t *testing.T) {
	s := newScenario(t, "extinction", "grid:8x8", "uniform:1ms:9ms", 7, nil)
	s.Initiators = "3,17,40-42"
	s.Values = sim.Values{Mode: sim.ValueRandom}
	sum := runtest.Run(t, s)
	if got := sum.Messages.ByType["info"]; got != 63 {
		t.Errorf("info = %d, want 63 (down the winning tree)", got)
	}
}

// TestElectEventStartsNewWave: an elect event after a completed wave starts
// a higher wave that every node adopts; the result is the same leader.
func TestElectEventStartsNewWave(t *testing.T) {
	s := newScenario(t, "echo", "ring:10", "constant:1ms", 1, nil)
	s.Events = []sim.Action{{At: 1e9, Kind: sim.ElectAt, Nodes: []algo.NodeID{5}}}
	sum := runtest.Run(t, s)
	if sum.Elections.Completed != 2 {
		t.Errorf("%d elections, want 2", sum.Elections.Completed)
	}
	if by := sum.Messages.ByType; by["explorer"]+by["echo"] != 2*2*10 || by["info"] != 2*9 {
		t.Errorf("messages %v, want two full waves", by)
	}
}

// TestMessageNames pins the document's names: they are part of the trace and
// JSON interfaces.
func TestMessageNames(t *testing.T) {
	want := []string{"explorer", "echo", "info", "connect"}
	for i, n := range want {
		if echo.MessageNames[i] != n {
			t.Errorf("type %d is %q, want %q", i, echo.MessageNames[i], n)
		}
	}
}
