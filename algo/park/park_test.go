package park_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/park"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// sent counts messages by type name from a time on.
type sent struct {
	from  time.Duration
	by    map[string]int
	heard map[string]int      // receptions by type
	node  map[algo.NodeID]int // election messages by sender
}

func newSent(from time.Duration) *sent {
	return &sent{from: from, by: map[string]int{}, heard: map[string]int{}, node: map[algo.NodeID]int{}}
}

func (s *sent) Observe(e *trace.Event) {
	if e.At < s.from {
		return
	}
	name := []string{"election", "ack", "leader", "heartbeat"}[e.Msg.Type]
	if e.Kind == trace.Delivered {
		s.heard[name]++
	}
	if e.Kind != trace.Sent {
		return
	}
	s.by[name]++
	if name == "election" {
		s.node[e.Node]++
	}
}

// distances are the hop counts from v in g.
func distances(g *topo.Graph, v algo.NodeID) []int {
	d := make([]int, g.N())
	for i := range d {
		d[i] = -1
	}
	d[v] = 0
	q := []algo.NodeID{v}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, w := range g.Neighbors(u) {
			if d[w] < 0 {
				d[w] = d[u] + 1
				q = append(q, w)
			}
		}
	}
	return d
}

// load reads a shipped scenario of vkt's experiments and runs it with park.
func load(t *testing.T, name string) *scenario.Scenario {
	s := runtest.Load(t, name)
	s.Algorithm, s.Params = "park", nil
	return s
}

// TestOneElectionExactCounts: one election over a settled network (an elect
// event) scatters one Election over every edge but the second direction of
// the tree's, floods one Leader likewise, and every other node's Ack travels
// to the source one hop at a time: with constant delays the Elections arrive
// first along shortest paths, so the Acks number the sum of the distances.
// With the broadcast medium, Election and Leader are one transmission from
// each node that has a neighbour besides the one it heard them from: n-L
// each (L the nodes but the source with one neighbour), heard 2E-L times;
// the Acks are unicast's.
func TestOneElectionExactCounts(t *testing.T) {
	for _, medium := range []string{"unicast", "broadcast"} {
		for _, shape := range []string{"line:2", "line:10", "ring:9", "star:8", "grid:5x4", "complete:7", "tree:25", "layered:3"} {
			t.Run(medium+"/"+shape, func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Params = "park", shape, map[string]string{"medium": medium}
				s.Delay = sim.DefaultDelay
				s.Duration = 40 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
				const source = 1
				at := 5 * time.Second
				s.Events = []sim.Action{{At: at, Kind: sim.ElectAt, Nodes: []algo.NodeID{source}}}
				w := newSent(at)
				sum := runtest.Run(t, s, w)
				g := runtest.Network(t, s)
				hops := 0
				for _, d := range distances(g, source) {
					hops += d
				}
				flood, heard := 2*sum.Edges-(sum.Nodes-1), 2*sum.Edges-(sum.Nodes-1)
				if medium == "broadcast" {
					l := 0
					for v := range g.N() {
						if len(g.Neighbors(algo.NodeID(v))) == 1 && v != source {
							l++
						}
					}
					flood, heard = sum.Nodes-l, 2*sum.Edges-l
				}
				for _, c := range []struct {
					typ         string
					sent, heard int
				}{{"election", flood, heard}, {"leader", flood, heard}, {"ack", hops, hops}} {
					if w.by[c.typ] != c.sent || w.heard[c.typ] != c.heard {
						t.Errorf("%s: %d sent, heard %d times; want %d and %d", c.typ, w.by[c.typ], w.heard[c.typ], c.sent, c.heard)
					}
				}
			})
		}
	}
}

// The document's four tests, as for vkt: the best survivor after a crash,
// no election on the leader's side of a partition, none at all at a merge.
func TestExperiments(t *testing.T) {
	sum := runtest.Run(t, load(t, "vkt-2-leader-crash.yaml"))
	if l := runtest.Leaders(sum); len(l) != 1 || l[43] != 44 {
		t.Errorf("after the crash: %v, want all 44 following 43", l)
	}
	w := newSent(10 * time.Second)
	sum = runtest.Run(t, load(t, "vkt-3-partition.yaml"), w)
	for v := algo.NodeID(30); v <= 44; v++ {
		if w.node[v] > 0 {
			t.Errorf("node %d, on the leader's side, sent %d elections after the partition", v, w.node[v])
		}
	}
	if l := runtest.Leaders(sum); l[14] != 15 || l[29] != 15 || l[44] != 15 {
		t.Errorf("after the partition: %v", l)
	}
	w = newSent(30 * time.Second)
	sum = runtest.Run(t, load(t, "vkt-4-merge.yaml"), w)
	if w.by["election"]+w.by["ack"]+w.by["leader"] != 0 {
		t.Errorf("after the heal: %v", w.by)
	}
	if l := runtest.Leaders(sum); l[44] != 45 {
		t.Errorf("after the heal: %v", l)
	}
}

// TestAllStartAtOnce on every family and delay model.
func TestAllStartAtOnce(t *testing.T) {
	for _, shape := range []string{"line:20", "ring:16", "grid:6x6", "complete:12", "tree:50", "geometric:120:130", "gnp:60:0.08", "ba:80:2", "layered:4"} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms", "exponential:3ms"} {
			t.Run(shape+"/"+delay, func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Seed, s.Params = "park", shape, 3, nil
				s.Delay, _ = sim.ParseDelay(delay)
				s.Duration = 25 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}
				runtest.Run(t, s)
			})
		}
	}
}

// TestRandomFaults: random crashes, restarts, recoveries, partitions, heals
// and link failures under random delays; the checker finds nothing.
func TestRandomFaults(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 12
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 77))
			s := scenario.Default()
			s.Algorithm, s.Params, s.Seed = "park", nil, seed
			s.Topology = fmt.Sprintf("geometric:%d:%d", 20+rng.IntN(100), 200+rng.IntN(200))
			s.Delay = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: time.Duration(2+rng.IntN(20)) * time.Millisecond}
			g := runtest.Network(t, s)
			s.Events = sim.RandomTimeline(rng, g, 30*time.Second)
			s.Duration = 80 * time.Second
			s.Check = scenario.Check{Stabilization: 8 * time.Second, Liveness: 30 * time.Second}
			runtest.Run(t, s)
		})
	}
}
