// Package runtest runs a scenario in the simulator from a Go test and judges
// it, for elect's own algorithms and for an author's (docs/algorithms.md,
// "Testing from Go"): the test builds a scenario.Scenario (scenario.Parse on
// the file format, or scenario.Default with fields set), Run simulates it
// with the checker and fails the test on an error, a violation of the
// specification or a component left unjudged, and returns the run's
// metrics.Summary, the same as elect sim --json prints, for the test to
// assert on (message counts, elections, the final statuses). FollowBest
// fails every live node not in Norm following the most valued one, Leaders
// counts the followers of each leader, Network and Connected build the
// scenario's graph (its n and m for a message bound), and Load reads one of
// elect's shipped scenarios (scenarios/NAME). A user's algorithm is found
// only if the test imports its package, as main does.
//
// Example: runner/runtest/example_test.go.
//
// A driver for tests: it must not import cli (docs/architecture.md).
package runtest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Run runs s with the observers and fails t if the run errs, breaks the
// specification, or ends before some component could be judged.
func Run(t testing.TB, s *scenario.Scenario, obs ...trace.Observer) *metrics.Summary {
	t.Helper()
	sum, err := runner.Run(s, runner.Options{Observers: obs})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ViolationCount > 0 {
		t.Fatalf("%s on %s seed %d: %d violations, first: %+v", s.Algorithm, s.Topology, s.Seed, sum.ViolationCount, sum.Violations[0])
	}
	if sum.Unchecked > 0 {
		t.Fatalf("%s on %s seed %d: %d components not judged: make the run longer", s.Algorithm, s.Topology, s.Seed, sum.Unchecked)
	}
	return sum
}

// Load reads one of the repository's shipped scenarios (scenarios/NAME).
func Load(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	s, err := scenario.Load(filepath.Join(filepath.Dir(here), "..", "..", "scenarios", name), scenario.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Leaders counts the live nodes following each leader at the end.
func Leaders(sum *metrics.Summary) map[algo.NodeID]int {
	out := map[algo.NodeID]int{}
	for _, f := range sum.Final {
		if f.Alive {
			out[f.Leader]++
		}
	}
	return out
}

// FollowBest returns the most valued live node at the end, and fails t for
// every live node that is not in Norm following it.
func FollowBest(t testing.TB, sum *metrics.Summary) algo.NodeID {
	t.Helper()
	b := algo.NoPeer
	for _, f := range sum.Final {
		if f.Alive {
			b = b.Max(algo.Peer{ID: f.ID, Value: f.Value})
		}
	}
	for _, f := range sum.Final {
		if f.Alive && (f.Leader != b.ID || f.State != algo.Norm.String()) {
			t.Errorf("node %d: leader %d state %s, want Norm following %d", f.ID, f.Leader, f.State, b.ID)
		}
	}
	return b.ID
}

// Network builds s's network, failing t if it cannot.
func Network(t testing.TB, s *scenario.Scenario) *topo.Graph {
	t.Helper()
	g, _, err := runner.Network(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Connected builds s's network and fails t unless it is one connected
// component (for tests whose counts assume every node is reached).
func Connected(t testing.TB, s *scenario.Scenario) *topo.Graph {
	t.Helper()
	g := Network(t, s)
	if _, k := g.Components(); k != 1 {
		t.Fatalf("%s seed %d has %d components; pick a denser network", s.Topology, s.Seed, k)
	}
	return g
}

// OneInitiator runs body once per case of the one-initiator start-up tests
// of vkt and park: on assorted connected shapes, under each delay model,
// two seeds each, a scenario in which only node 0 elects at boot (its
// initiators).
func OneInitiator(t *testing.T, algorithm string, body func(t *testing.T, s *scenario.Scenario)) {
	for _, shape := range []string{"line:12", "grid:6x5", "geometric:100:250", "geometric:300:150", "layered:3", "ba:60:2"} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms", "exponential:3ms"} {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("%s/%s/seed%d", shape, delay, seed), func(t *testing.T) {
					s := scenario.Default()
					s.Algorithm, s.Topology, s.Seed, s.Initiators = algorithm, shape, seed, "0"
					var err error
					if s.Delay, err = sim.ParseDelay(delay); err != nil {
						t.Fatal(err)
					}
					s.Values = sim.Values{Mode: sim.ValueRandom}
					s.Duration = 25 * time.Second
					s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
					body(t, s)
				})
			}
		}
	}
}
