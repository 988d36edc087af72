package vkt_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// TestOneInitiatorExactCounts: with initiators=0, start-up is one election,
// node 0's, on every shape and under every delay model: 2E-(n-1) Election,
// Ack and Leader messages, no probe, and every node follows the most valued
// node. With the parameter ignored every node would elect at boot and the
// counts, and the computations seen, would be those of n elections.
func TestOneInitiatorExactCounts(t *testing.T) {
	for _, shape := range []string{"line:12", "grid:6x5", "geometric:100:250", "geometric:300:150", "layered:3", "ba:60:2"} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms", "exponential:3ms"} {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("%s/%s/seed%d", shape, delay, seed), func(t *testing.T) {
					s := scenario.Default()
					s.Algorithm, s.Topology, s.Seed = "vkt", shape, seed
					s.Params = map[string]string{"initiators": "0"}
					s.Delay, _ = sim.ParseDelay(delay)
					s.Values = sim.Values{Mode: sim.ValueRandom}
					s.Duration = 25 * time.Second
					s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
					connected(t, s)
					w := newWindow(0)
					sum := runtest.Run(t, s, w)
					want := 2*sum.Edges - (sum.Nodes - 1)
					for _, typ := range []string{"election", "ack", "leader"} {
						if w.sent[typ] != want {
							t.Errorf("%s: %d, want 2E-(n-1) = %d", typ, w.sent[typ], want)
						}
					}
					if w.sent["probe"] != 0 {
						t.Errorf("%d probes", w.sent["probe"])
					}
					if len(w.sources) != 1 || !w.sources[0] {
						t.Errorf("elections of %v, want node 0's only", w.sources)
					}
					if sum.Elections.Completed != 1 {
						t.Errorf("%d elections, want 1", sum.Elections.Completed)
					}
					runtest.FollowBest(t, sum)
				})
			}
		}
	}
}

// connected fails t unless s's network is one connected component.
func connected(t *testing.T, s *scenario.Scenario) {
	t.Helper()
	g, _, err := runner.Network(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, k := g.Components(); k != 1 {
		t.Fatalf("%s seed %d has %d components; pick a denser network", s.Topology, s.Seed, k)
	}
}

// edgeFile writes a topology file and returns its spec.
func edgeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "net.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file:" + path
}

// TestNonInitiatorAlone: a node no initiator can reach waits the timeout
// (plus its backoff), as a follower that lost its leader does, then elects
// itself; the initiator's component elects at once.
func TestNonInitiatorAlone(t *testing.T) {
	for _, c := range []struct {
		name, topology, initiators, jitter string
		alone                              algo.NodeID
	}{
		{"single node", "nodes 1\n", "none", "0s", 0},
		{"isolated node", "nodes 4\n0 1\n1 2\n", "0", "0s", 3},
		{"isolated node, jitter", "nodes 4\n0 1\n1 2\n", "0", "400ms", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scenario.Default()
			s.Algorithm, s.Topology = "vkt", edgeFile(t, c.topology)
			s.Params = map[string]string{"initiators": c.initiators, "jitter": c.jitter}
			s.Delay = sim.DefaultDelay
			s.Duration = 20 * time.Second
			s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 10 * time.Second}
			l := &leads{node: c.alone}
			sum := runtest.Run(t, s, l)
			for _, f := range sum.Final {
				if f.ID == c.alone && (f.Leader != c.alone || f.State != algo.Norm.String()) {
					t.Errorf("the lone node: leader %d state %s, want Norm leading itself", f.Leader, f.State)
				}
			}
			jitter, _ := time.ParseDuration(c.jitter)
			from, to := 3*time.Second, 3*time.Second+jitter
			if len(l.at) != 1 || l.at[0] < from || l.at[0] > to {
				t.Errorf("the lone node took the lead at %v, want once in [%v, %v] (the timeout plus the backoff)", l.at, from, to)
			}
			if l.sent != 0 {
				t.Errorf("the lone node sent %d messages", l.sent)
			}
		})
	}
}

// leads records when a node comes to lead itself, and what it sends.
type leads struct {
	node algo.NodeID
	at   []time.Duration
	sent int
}

func (l *leads) Observe(e *trace.Event) {
	switch {
	case e.Node != l.node:
	case e.Kind == trace.StatusChanged && e.Status.Leader == l.node:
		l.at = append(l.at, e.At)
	case e.Kind == trace.Sent:
		l.sent++
	}
}

// TestRestartStillElects: with initiators=0, a node that restarts after a
// crash has no leader and elects, as the document says; one that recovers
// its state resumes it, with no election.
func TestRestartStillElects(t *testing.T) {
	for _, kind := range []sim.ActionKind{sim.Restart, sim.Recover} {
		t.Run(kind.String(), func(t *testing.T) {
			s := scenario.Default()
			s.Algorithm, s.Topology, s.Seed = "vkt", "grid:5x5", 2
			s.Params = map[string]string{"initiators": "0"}
			s.Duration = 30 * time.Second
			s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 15 * time.Second}
			s.Events = []sim.Action{
				{At: 5 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{7}},
				{At: 6 * time.Second, Kind: kind, Nodes: []algo.NodeID{7}},
			}
			w := newWindow(6 * time.Second)
			sum := runtest.Run(t, s, w)
			if elected := w.sources[7]; elected != (kind == sim.Restart) {
				t.Errorf("after a %s node 7 elected: %v (elections of %v)", kind, elected, w.sources)
			}
			runtest.FollowBest(t, sum)
		})
	}
}
