package ring_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/ring"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// run runs s through runtest.Run, and also wants every component reached.
func run(t *testing.T, s *scenario.Scenario) *metrics.Summary {
	t.Helper()
	sum := runtest.Run(t, s)
	if sum.Unreached > 0 {
		t.Fatalf("%s seed %d: %d components unreached", s.Topology, s.Seed, sum.Unreached)
	}
	return sum
}

func ringScenario(n int, seed uint64, events ...sim.Action) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Params = "ring", fmt.Sprintf("ring:%d", n), seed, nil
	s.Duration = 0 // the ring elects once: runs end quiescent
	s.Events = events
	return s
}

func reports(sum *metrics.Summary) string {
	var out []string
	for _, r := range sum.Reports {
		out = append(out, fmt.Sprintf("%d: %s", r.Node, r.Text))
	}
	return strings.Join(out, "\n")
}

func crashOn(v algo.NodeID, msg string) sim.Action {
	return sim.Action{Kind: sim.CrashOn, Nodes: []algo.NodeID{v}, Message: msg}
}

func joker(v algo.NodeID) sim.Action {
	return sim.Action{Kind: sim.Corrupt, Nodes: []algo.NodeID{v}}
}

// TestNormal: one gather and one confirm round, n messages each, one report
// of success, the most valued node elected.
func TestNormal(t *testing.T) {
	for _, n := range []int{3, 8, 25, 100} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%d/%d", n, seed), func(t *testing.T) {
				sum := run(t, ringScenario(n, seed))
				by := sum.Messages.ByType
				if by["gather"] != uint64(n) || by["confirm"] != uint64(n) || sum.Messages.Total != uint64(2*n) {
					t.Errorf("messages %v, want %d gather and %d confirm", by, n, n)
				}
				b := runtest.FollowBest(t, sum)
				want := fmt.Sprintf("0: election <1,0> confirmed: leader %d(v=%d)", b, sum.Final[b].Value)
				if got := reports(sum); got != want {
					t.Errorf("reports:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
}

// TestCommanderParam: another commander starts the election, named by the
// deprecated parameter commander, which still names the initiator.
func TestCommanderParam(t *testing.T) {
	s := ringScenario(9, 4)
	s.Params = map[string]string{"commander": "5"}
	sum := run(t, s)
	runtest.FollowBest(t, sum)
	if len(sum.Reports) != 1 || sum.Reports[0].Node != 5 {
		t.Errorf("reports %v, want one, from 5", sum.Reports)
	}
	s.Params = map[string]string{"commander": "9"}
	if _, err := runner.Run(s, runner.Options{}); err == nil {
		t.Error("commander 9 on ring:9 accepted")
	}
}

// explicit values: node v gets vals[v].
func explicit(vals ...int64) sim.Values {
	m := map[algo.NodeID]int64{}
	for v, x := range vals {
		m[algo.NodeID(v)] = x
	}
	return sim.Values{Explicit: m}
}

// TestDeadNode: a node that dies when the gather or the confirm reaches it
// stalls the round; the commander's timeout reports the failure naming the
// phase, and the election restarted in line mode (both directions,
// reflected at the dead node) elects the most valued live node.
func TestDeadNode(t *testing.T) {
	for _, phase := range []string{"gather", "confirm"} {
		for _, dead := range []algo.NodeID{1, 3, 5, 7} {
			t.Run(fmt.Sprintf("%s/%d", phase, dead), func(t *testing.T) {
				s := ringScenario(8, 2, crashOn(dead, phase))
				// The dead node is the most valued: the election must not
				// end with it.
				s.Values = explicit(10, 20, 30, 40, 50, 60, 70, 80)
				s.Values.Explicit[dead] = 1000
				sum := run(t, s)
				if b := runtest.FollowBest(t, sum); b == dead {
					t.Fatalf("the dead node %d leads", dead)
				}
				if sum.Final[dead].Alive {
					t.Fatalf("node %d did not die", dead)
				}
				rs := reports(sum)
				if len(sum.Reports) != 2 || !strings.HasPrefix(sum.Reports[0].Text, "failure during "+phase+": ") ||
					!strings.Contains(sum.Reports[1].Text, "confirmed") {
					t.Errorf("reports:\n%s", rs)
				}
				// The line-mode election: each live node but the
				// commander gets the gather once out and once back (the
				// ends reflect it), and so with the confirm.
				if phase == "gather" {
					// first round: hops up to the dead node.
					want := uint64(dead) + 2*6
					if by := sum.Messages.ByType; by["gather"] != want || by["confirm"] != 2*6 {
						t.Errorf("messages %v, want %d gather and 12 confirm", by, want)
					}
				}
			})
		}
	}
}

// TestJoker: a node that alters every payload it sends is caught by the
// checksum: the commander reports the mismatch and the node where it first
// failed, then elects in line mode with the joker excluded as a relay; the
// joker is still a candidate (here the most valued) and follows the leader.
func TestJoker(t *testing.T) {
	for _, j := range []algo.NodeID{1, 4, 7} {
		t.Run(fmt.Sprint(j), func(t *testing.T) {
			s := ringScenario(8, 2, joker(j))
			s.Values = explicit(10, 20, 30, 40, 50, 60, 70, 80)
			s.Values.Explicit[j] = 1000
			sum := run(t, s)
			if b := runtest.FollowBest(t, sum); b != j {
				t.Errorf("leader %d, want the joker %d", b, j)
			}
			spot := (j + 1) % 8
			want := fmt.Sprintf("0: gather: payload checksum mismatch in election <1,0>: altered by node %d (detected at node %d)\n"+
				"0: election <2,0> confirmed: leader %d(v=1000)", j, spot, j)
			if got := reports(sum); got != want {
				t.Errorf("reports:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestJokerCommander: a commander that alters its own payload cannot be
// bypassed: the mismatch is reported and tolerated.
func TestJokerCommander(t *testing.T) {
	s := ringScenario(6, 3, joker(0))
	s.Events[0].At = time.Millisecond / 2 // after the first gather left
	sum := run(t, s)
	runtest.FollowBest(t, sum)
	rs := reports(sum)
	if !strings.Contains(rs, "confirm: payload checksum mismatch in election <1,0>: altered by node 0 (detected at node 1)") ||
		!strings.Contains(rs, "tolerated") || !strings.Contains(rs, "confirmed") {
		t.Errorf("reports:\n%s", rs)
	}
}

// TestDeterminism: a run is a function of its scenario.
func TestDeterminism(t *testing.T) {
	s := ringScenario(12, 7, crashOn(4, "confirm"), joker(9))
	a, b := run(t, s), run(t, s.Clone())
	if a.TraceHash != b.TraceHash || reports(a) != reports(b) {
		t.Errorf("two runs differ: %s vs %s", a.TraceHash, b.TraceHash)
	}
}

// TestRandomFaults: random rings, values, delays, a dead node in either
// phase and a joker, any of them absent; the checker finds nothing and the
// most valued live node leads.
func TestRandomFaults(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			n := 3 + int(seed*7)%30
			var ev []sim.Action
			if seed%3 != 0 {
				ev = append(ev, crashOn(algo.NodeID(int(seed*5)%n), []string{"gather", "confirm"}[seed%2]))
			}
			if seed%4 != 0 {
				j := algo.NodeID(1 + int(seed*11)%(n-1))
				ev = append(ev, joker(j))
			}
			s := ringScenario(n, seed, ev...)
			s.Delay = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: time.Duration(2+seed%9) * time.Millisecond}
			runtest.FollowBest(t, run(t, s))
		})
	}
}

// TestDeadNodeAndJoker: every combination of one dead node (either phase)
// and one joker, on rings where line mode takes messages through the joker
// out and back (an alteration that never cancels): every run ends, the
// checker finds nothing and the most valued live node leads; the reports
// name the joker and, when the dead node stalled a round, its phase.
func TestDeadNodeAndJoker(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		for _, phase := range []string{"gather", "confirm"} {
			for dead := range algo.NodeID(n) {
				for j := range algo.NodeID(n) {
					for _, vals := range []string{"up", "down"} {
						t.Run(fmt.Sprintf("%d/%s/%d/%d/%s", n, phase, dead, j, vals), func(t *testing.T) {
							s := ringScenario(n, uint64(n)+uint64(dead)*7+uint64(j), crashOn(dead, phase), joker(j))
							s.Delay = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 3 * time.Millisecond}
							if vals == "down" {
								s.Values = sim.Values{Explicit: map[algo.NodeID]int64{}}
								for v := range algo.NodeID(n) {
									s.Values.Explicit[v] = int64(n) - int64(v)
								}
							}
							sum := run(t, s)
							runtest.FollowBest(t, sum)
							rs := reports(sum)
							if j != dead && j != 0 && !strings.Contains(rs, fmt.Sprintf("altered by node %d ", j)) {
								t.Errorf("the joker is not named:\n%s", rs)
							}
						})
					}
				}
			}
		}
	}
}
