package vkt_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/vkt"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// window counts the messages each node sends, by type, from a time on.
type window struct {
	from time.Duration
	sent map[string]int
	by   map[algo.NodeID]map[string]int
	last map[string]time.Duration // time of the last message of each type
	// sources are the nodes whose computations Election messages carried.
	sources map[algo.NodeID]bool
}

func newWindow(from time.Duration) *window {
	return &window{from: from, sent: map[string]int{}, by: map[algo.NodeID]map[string]int{}, last: map[string]time.Duration{}, sources: map[algo.NodeID]bool{}}
}

func (w *window) Observe(e *trace.Event) {
	if e.Kind != trace.Sent || e.At < w.from {
		return
	}
	name := []string{"election", "ack", "leader", "probe", "reply", "heartbeat"}[e.Msg.Type]
	w.sent[name]++
	if w.by[e.Node] == nil {
		w.by[e.Node] = map[string]int{}
	}
	w.by[e.Node][name]++
	w.last[name] = e.At
	if e.Msg.Type == vkt.Election {
		w.sources[e.Msg.Index.ID] = true
	}
}

// TestStaticElectionExactCounts: one election over a settled, connected
// network (an elect event after the start-up election) costs exactly one
// Election over every edge but the tree edges' second direction, one Ack for
// each Election, and one Leader likewise: 2E-(n-1) of each.
func TestStaticElectionExactCounts(t *testing.T) {
	for _, shape := range []string{"line:2", "line:12", "ring:9", "star:10", "grid:5x4", "complete:8", "tree:30", "layered:3", "ba:40:2"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", shape, seed), func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Params, s.Topology, s.Seed = "vkt", nil, shape, seed
				s.Values = sim.Values{Mode: sim.ValueRandom}
				s.Duration = 40 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
				at := 5 * time.Second
				s.Events = []sim.Action{{At: at, Kind: sim.ElectAt, Nodes: []algo.NodeID{1}}}
				w := newWindow(at)
				oneElectionCounts(t, w, runtest.Run(t, s, w))
			})
		}
	}
}

// oneElectionCounts checks that w saw exactly one election's traffic:
// 2E-(n-1) Election, Ack and Leader messages, and no probe.
func oneElectionCounts(t *testing.T, w *window, sum *metrics.Summary) {
	t.Helper()
	want := 2*sum.Edges - (sum.Nodes - 1)
	for _, typ := range []string{"election", "ack", "leader"} {
		if w.sent[typ] != want {
			t.Errorf("%s: %d, want 2E-(n-1) = %d", typ, w.sent[typ], want)
		}
	}
	if w.sent["probe"] != 0 {
		t.Errorf("%d probes", w.sent["probe"])
	}
}

// TestExperiment2LeaderCrash: after the leader crashes, the most valued
// surviving node leads; the election ends a timeout plus a few network
// crossings after the last heartbeat.
func TestExperiment2LeaderCrash(t *testing.T) {
	s := runtest.Load(t, "vkt-2-leader-crash.yaml")
	w := newWindow(0)
	sum := runtest.Run(t, s, w)
	if l := runtest.Leaders(sum); len(l) != 1 || l[43] != 44 {
		t.Fatalf("leaders %v, want all 44 survivors following 43", l)
	}
	if sum.Elections.Completed != 2 {
		t.Errorf("%d elections, want the start-up one and one after the crash", sum.Elections.Completed)
	}
}

// TestExperiment3Partition: the local network that keeps the leader starts
// no election; the two others each elect their own best node.
func TestExperiment3Partition(t *testing.T) {
	s := runtest.Load(t, "vkt-3-partition.yaml")
	w := newWindow(10 * time.Second)
	sum := runtest.Run(t, s, w)
	for v := algo.NodeID(30); v <= 44; v++ {
		if n := w.by[v]["election"]; n > 0 {
			t.Errorf("node %d, on the leader's side, sent %d election messages after the partition", v, n)
		}
	}
	if l := runtest.Leaders(sum); len(l) != 3 || l[14] != 15 || l[29] != 15 || l[44] != 15 {
		t.Errorf("leaders %v, want 14, 29 and 44 for 15 nodes each", l)
	}
}

// TestExperiment4Merge: after the heal, heartbeats carry the best leader
// across and no election message is sent at all.
func TestExperiment4Merge(t *testing.T) {
	s := runtest.Load(t, "vkt-4-merge.yaml")
	w := newWindow(30 * time.Second)
	sum := runtest.Run(t, s, w)
	if w.sent["election"] != 0 || w.sent["ack"] != 0 || w.sent["leader"] != 0 {
		t.Errorf("after the heal: %v, want no election traffic", w.sent)
	}
	if l := runtest.Leaders(sum); len(l) != 1 || l[44] != 45 {
		t.Errorf("leaders %v, want all 45 following 44", l)
	}
}

// TestAllStartAtOnce: every node starting at the same instant elects the
// most valued node of each component, on every family, under every delay
// model, with and without the start-up jitter.
func TestAllStartAtOnce(t *testing.T) {
	for _, shape := range []string{"line:20", "ring:16", "grid:6x6", "complete:12", "tree:50", "geometric:120:130", "gnp:60:0.08", "ba:80:2", "layered:4"} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms", "exponential:3ms"} {
			for _, jitter := range []string{"0s", "200ms"} {
				t.Run(shape+"/"+delay+"/jitter"+jitter, func(t *testing.T) {
					s := scenario.Default()
					s.Algorithm, s.Topology, s.Seed = "vkt", shape, 3
					s.Params = map[string]string{"jitter": jitter}
					s.Delay, _ = sim.ParseDelay(delay)
					s.Values = sim.Values{Mode: sim.ValueRandom}
					s.Duration = 25 * time.Second
					s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
					runtest.Run(t, s)
				})
			}
		}
	}
}

// TestRecoveryIsAMerge: a node that crashes and recovers its state while
// the leader lives rejoins with no election at all.
func TestRecoveryIsAMerge(t *testing.T) {
	s := runtest.Load(t, "vkt-1-all-start.yaml")
	s.Duration = 50 * time.Second
	s.Events = []sim.Action{
		{At: 5 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{7}},
		{At: 6 * time.Second, Kind: sim.Recover, Nodes: []algo.NodeID{7}},
	}
	w := newWindow(5 * time.Second)
	sum := runtest.Run(t, s, w)
	if w.sent["election"] != 0 {
		t.Errorf("%d election messages after a recovery", w.sent["election"])
	}
	if l := runtest.Leaders(sum); l[44] != 45 {
		t.Errorf("leaders %v", l)
	}
}

// TestRestartOfTheBest: the most valued node restarts with no state; the
// network answers its election with the current leader, it sees that it is
// better and starts a higher election, which it wins.
func TestRestartOfTheBest(t *testing.T) {
	s := runtest.Load(t, "vkt-1-all-start.yaml")
	s.Duration = 60 * time.Second
	s.Events = []sim.Action{
		{At: 5 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{44}},
		{At: 15 * time.Second, Kind: sim.Restart, Nodes: []algo.NodeID{44}},
	}
	sum := runtest.Run(t, s)
	if l := runtest.Leaders(sum); l[44] != 45 {
		t.Errorf("leaders %v, want all 45 following 44 again", l)
	}
}

// TestRandomFaults drives vkt through random schedules of crashes,
// restarts, recoveries, partitions, heals and link failures under random
// delays; the checker must find nothing.
func TestRandomFaults(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 12
	}
	// 1082 and 1247 once ended with a component following a leader less
	// valued than one of its nodes, which had taken it up from a heartbeat.
	list := []uint64{1082, 1247}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		list = append(list, seed)
	}
	for _, seed := range list {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			n := 20 + rng.IntN(100)
			s := scenario.Default()
			s.Algorithm, s.Params, s.Seed = "vkt", nil, seed
			s.Topology = fmt.Sprintf("geometric:%d:%d", n, 200+rng.IntN(200))
			s.Values = sim.Values{Mode: sim.ValueRandom}
			s.Delay = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: time.Duration(2+rng.IntN(20)) * time.Millisecond}
			if rng.IntN(2) == 0 {
				s.Params = map[string]string{"jitter": "300ms"}
			}
			g := runtest.Network(t, s)
			s.Events = sim.RandomTimeline(rng, g, 30*time.Second)
			s.Duration = 80 * time.Second
			s.Check = scenario.Check{Stabilization: 8 * time.Second, Liveness: 30 * time.Second}
			runtest.Run(t, s)
		})
	}
}

// air counts, from a time on, the transmissions (Sent) and receptions
// (Delivered) of each type, and keeps the nodes' degrees from the links
// announced at the start.
type air struct {
	from        time.Duration
	sent, heard map[string]int
	deg         map[algo.NodeID]int
}

func (a *air) Observe(e *trace.Event) {
	if e.Kind == trace.LinkUp && e.At == 0 {
		a.deg[e.Node]++
		a.deg[e.Peer]++
	}
	if e.At < a.from {
		return
	}
	switch e.Kind {
	case trace.Sent:
		a.sent[vkt.MessageNames[e.Msg.Type]]++
	case trace.Delivered:
		a.heard[vkt.MessageNames[e.Msg.Type]]++
	}
}

// TestBroadcastElectionExactCounts: with the broadcast medium one election
// over a settled network is one Election and one Leader transmission from
// every node that has a neighbour besides its parent, and one Ack from
// every node but the source: n-L, n-1 and n-L transmissions, heard
// 2E-L, n-1 and 2E-L times (L the nodes but the source with a single
// neighbour); unicast's 3(2E-(n-1)) messages.
func TestBroadcastElectionExactCounts(t *testing.T) {
	for _, shape := range []string{"line:2", "line:12", "ring:9", "star:10", "grid:5x4", "complete:8", "tree:30", "layered:3", "ba:40:2"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", shape, seed), func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Seed = "vkt", shape, seed
				s.Params = map[string]string{"medium": "broadcast"}
				s.Values = sim.Values{Mode: sim.ValueRandom}
				s.Duration = 40 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
				at := 5 * time.Second
				const source = 1
				s.Events = []sim.Action{{At: at, Kind: sim.ElectAt, Nodes: []algo.NodeID{source}}}
				a := &air{from: at, sent: map[string]int{}, heard: map[string]int{}, deg: map[algo.NodeID]int{}}
				sum := runtest.Run(t, s, a)
				n, e, l := sum.Nodes, sum.Edges, 0
				for v, d := range a.deg {
					if d == 1 && v != source {
						l++
					}
				}
				for _, c := range []struct {
					typ         string
					sent, heard int
				}{{"election", n - l, 2*e - l}, {"ack", n - 1, n - 1}, {"leader", n - l, 2*e - l}, {"probe", 0, 0}} {
					if a.sent[c.typ] != c.sent || a.heard[c.typ] != c.heard {
						t.Errorf("%s: %d transmissions heard %d times, want %d and %d (n %d, E %d, L %d)", c.typ, a.sent[c.typ], a.heard[c.typ], c.sent, c.heard, n, e, l)
					}
				}
			})
		}
	}
}
