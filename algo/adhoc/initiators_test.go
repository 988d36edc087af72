package adhoc_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// The algorithms whose start-up the upkeep's initiators govern.
var upkept = []string{"vkt", "park"}

// TestNonInitiatorAlone: a node no initiator can reach waits the timeout
// (plus its backoff), as a follower that lost its leader does, then elects
// itself, sending nothing; the initiator's component elects at once.
func TestNonInitiatorAlone(t *testing.T) {
	for _, name := range upkept {
		for _, c := range []struct {
			name, topology, initiators, jitter string
			alone                              algo.NodeID
		}{
			{"single node", "nodes 1\n", "none", "0s", 0},
			{"isolated node", "nodes 4\n0 1\n1 2\n", "0", "0s", 3},
			{"isolated node, jitter", "nodes 4\n0 1\n1 2\n", "0", "400ms", 3},
		} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "net.txt")
				if err := os.WriteFile(path, []byte(c.topology), 0o644); err != nil {
					t.Fatal(err)
				}
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Initiators = name, "file:"+path, c.initiators
				s.Params = map[string]string{"jitter": c.jitter}
				s.Delay = sim.DefaultDelay
				s.Duration = 20 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 10 * time.Second}
				l := &lone{node: c.alone}
				sum := runtest.Run(t, s, l)
				for _, f := range sum.Final {
					if f.ID == c.alone && (f.Leader != c.alone || f.State != algo.Norm.String()) {
						t.Errorf("the lone node: leader %d state %s, want Norm leading itself", f.Leader, f.State)
					}
				}
				jitter, _ := time.ParseDuration(c.jitter)
				from, to := 3*time.Second, 3*time.Second+jitter
				if len(l.led) != 1 || l.led[0] < from || l.led[0] > to {
					t.Errorf("the lone node took the lead at %v, want once in [%v, %v] (the timeout plus the backoff)", l.led, from, to)
				}
				if l.sent != 0 {
					t.Errorf("the lone node sent %d messages", l.sent)
				}
			})
		}
	}
}

// lone records when a node comes to lead itself, and what it sends.
type lone struct {
	node algo.NodeID
	led  []time.Duration
	sent int
}

func (l *lone) Observe(e *trace.Event) {
	switch {
	case e.Node != l.node:
	case e.Kind == trace.StatusChanged && e.Status.Leader == l.node:
		l.led = append(l.led, e.At)
	case e.Kind == trace.Sent:
		l.sent++
	}
}

// TestRestartStillElects: with initiators 0, a node that restarts after a
// crash has no leader and elects, as the document says; one that recovers
// its state resumes it, with no election and no Election sent.
func TestRestartStillElects(t *testing.T) {
	for _, name := range upkept {
		for _, kind := range []sim.ActionKind{sim.Restart, sim.Recover} {
			t.Run(name+"/"+kind.String(), func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Seed, s.Initiators = name, "grid:5x5", 2, "0"
				s.Duration = 30 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 15 * time.Second}
				s.Events = []sim.Action{
					{At: 5 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{7}},
					{At: 6 * time.Second, Kind: kind, Nodes: []algo.NodeID{7}},
				}
				a, err := algo.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				e := &elections{from: 6 * time.Second, node: 7, typ: algo.MsgType(slices.Index(a.Messages, "election"))}
				sum := runtest.Run(t, s, e)
				if elected := e.own > 0; elected != (kind == sim.Restart) {
					t.Errorf("after a %s node 7 started an election: %v", kind, elected)
				}
				if kind == sim.Recover && e.sent > 0 {
					t.Errorf("after a recovery node 7 sent %d Election messages", e.sent)
				}
				runtest.FollowBest(t, sum)
			})
		}
	}
}

// elections counts, from a time on, the Election messages a node sends and
// those of its own computations.
type elections struct {
	from      time.Duration
	node      algo.NodeID
	typ       algo.MsgType
	sent, own int
}

func (c *elections) Observe(e *trace.Event) {
	if e.Kind != trace.Sent || e.At < c.from || e.Node != c.node || e.Msg.Type != c.typ {
		return
	}
	c.sent++
	if e.Msg.Index.ID == c.node {
		c.own++
	}
}
