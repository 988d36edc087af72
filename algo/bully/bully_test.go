package bully_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/bully"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// sent counts messages by type from a time on.
type sent struct {
	from time.Duration
	by   [3]int
}

func (s *sent) Observe(e *trace.Event) {
	if e.Kind == trace.Sent && e.At >= s.from {
		s.by[e.Msg.Type]++
	}
}

func bullyScenario(n int, seed uint64) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Params = "bully", fmt.Sprintf("complete:%d", n), seed, nil
	s.Duration = 0
	return s
}

// TestElectAtLowest: once every node knows every value (after the elections
// at boot), the least valued node's election with the coordinator alive
// costs n-1 election and n-1 answer messages and the coordinator's one
// reply: the others defer to the live coordinator. (The worst case is the
// coordinator's crash, TestCoordinatorCrash.)
func TestElectAtLowest(t *testing.T) {
	for _, n := range []int{2, 5, 12, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := bullyScenario(n, 1)
			s.Values = sim.Values{Mode: sim.ValueID}
			s.Delay = sim.DefaultDelay
			at := 5 * time.Second
			s.Events = []sim.Action{{At: at, Kind: sim.ElectAt, Nodes: []algo.NodeID{0}}}
			w := &sent{from: at}
			sum := runtest.Run(t, s, w)
			if b := runtest.FollowBest(t, sum); b != algo.NodeID(n-1) {
				t.Errorf("leader %d", b)
			}
			if w.by != [3]int{n - 1, n - 1, 1} {
				t.Errorf("election, answer, coordinator = %v, want [%d %d 1]", w.by, n-1, n-1)
			}
		})
	}
}

// TestCoordinatorCrash: every node hears of the crash at once and holds an
// election: with m nodes left, m(m-1)/2 elections and as many answers, and
// the new coordinator's m-1 announcements plus one reply to each election
// it receives (with constant delays all of them arrive after it won):
// Theta(n^2).
func TestCoordinatorCrash(t *testing.T) {
	for _, n := range []int{3, 8, 20} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := bullyScenario(n, 2)
			s.Delay = sim.DefaultDelay
			at := 5 * time.Second
			s.Events = []sim.Action{{At: at, Kind: sim.Crash, Leader: true}}
			w := &sent{from: at}
			sum := runtest.Run(t, s, w)
			runtest.FollowBest(t, sum)
			t.Logf("election, answer, coordinator = %v", w.by)
			m := n - 1
			half := m * (m - 1) / 2
			if w.by != [3]int{half, half, 2 * (m - 1)} {
				t.Errorf("election, answer, coordinator = %v, want [%d %d %d]", w.by, half, half, 2*(m-1))
			}
			if tot := w.by[0] + w.by[1] + w.by[2]; tot > n*n {
				t.Errorf("%d messages, more than n^2", tot)
			}
		})
	}
}

// TestRestartBullies: the most valued node crashes, another takes over; it
// comes back and bullies its way to the top.
func TestRestartBullies(t *testing.T) {
	s := bullyScenario(10, 3)
	s.Values = sim.Values{Mode: sim.ValueID}
	s.Events = []sim.Action{
		{At: 2 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{9}},
		{At: 4 * time.Second, Kind: sim.Restart, Nodes: []algo.NodeID{9}},
		{At: 6 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{9, 8}},
		{At: 8 * time.Second, Kind: sim.Recover, Nodes: []algo.NodeID{8}},
	}
	sum := runtest.Run(t, s)
	if b := runtest.FollowBest(t, sum); b != 8 {
		t.Errorf("leader %d, want 8", b)
	}
	if sum.Elections.Completed < 4 {
		t.Errorf("%d elections completed, want at least 4", sum.Elections.Completed)
	}
}

// TestDeterminism: a run is a function of its scenario.
func TestDeterminism(t *testing.T) {
	s := bullyScenario(15, 9)
	s.Duration = 20 * time.Second
	s.Events = sim.RandomTimeline(rand.New(rand.NewPCG(9, 1)), runtest.Network(t, s), 10*time.Second)
	s.Events = crashesOnly(s.Events)
	a, b := runtest.Run(t, s), runtest.Run(t, s.Clone())
	if a.TraceHash != b.TraceHash {
		t.Errorf("two runs differ")
	}
}

// crashesOnly keeps the crashes, restarts and recoveries of a timeline: the
// bully assumes links that do not fail.
func crashesOnly(ev []sim.Action) []sim.Action {
	var out []sim.Action
	for _, a := range ev {
		switch a.Kind {
		case sim.Crash, sim.Restart, sim.Recover:
			out = append(out, a)
		}
	}
	return out
}

// TestRandomCrashes: random crash, restart and recovery schedules under
// random delays; the checker finds nothing.
func TestRandomCrashes(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 5))
			s := bullyScenario(3+rng.IntN(25), seed)
			s.Delay = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: time.Duration(2+rng.IntN(15)) * time.Millisecond}
			s.Events = crashesOnly(sim.RandomTimeline(rng, runtest.Network(t, s), 30*time.Second))
			s.Duration = 60 * time.Second
			s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
			runtest.Run(t, s)
		})
	}
}
