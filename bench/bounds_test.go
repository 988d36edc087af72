package bench

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// diameter is the longest shortest path in any component, by a search from
// every node: what hopBound must never fall below.
func diameter(g *topo.Graph) int {
	best := 0
	dist := make([]int, g.N())
	for s := range algo.NodeID(g.N()) {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue := []algo.NodeID{s}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			best = max(best, dist[v])
			for _, u := range g.Neighbors(v) {
				if dist[u] < 0 {
					dist[u] = dist[v] + 1
					queue = append(queue, u)
				}
			}
		}
	}
	return best
}

// hopBound is never below the diameter, exact on lines and trees, and at
// most a component's size less one (a ring's).
func TestHopBound(t *testing.T) {
	build := func(spec string) *topo.Graph {
		s, err := topo.Parse(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for spec, want := range map[string]int{
		"line:2": 1, "line:9": 8, "line:100": 99, "ring:8": 7, "ring:101": 100, "star:10": 2, "complete:6": 2,
		"tree:50": diameter(build("tree:50")),
	} {
		if got := hopBound(build(spec)); got != want {
			t.Errorf("%s: %d, want %d", spec, got, want)
		}
	}
	// Two lines apart, of 3 and 5 nodes, and a node alone: the longer's.
	apart := topo.New(9, []topo.Edge{{A: 0, B: 1}, {A: 1, B: 2}, {A: 3, B: 4}, {A: 4, B: 5}, {A: 5, B: 6}, {A: 6, B: 7}})
	if got := hopBound(apart); got != 4 {
		t.Errorf("lines of 3 and 5 nodes: %d, want 4", got)
	}
	for _, spec := range []string{"layered:3", "grid:7x5", "geometric:300:90", "geometric:300:60", "gnp:200:0.02", "ba:200:1"} {
		g := build(spec)
		if got, d := hopBound(g), diameter(g); got < d || got > 2*d {
			t.Errorf("%s: %d, want from the diameter %d to twice it", spec, got, d)
		}
	}
}

// A run's bounds add the algorithm's timers to crossings of its network at
// the longest delay; the crash and the end follow the sweep's slowest
// algorithm, and the document's lengths are the least.
func TestBounds(t *testing.T) {
	for _, c := range []struct {
		d    sim.Delay
		m    algo.Model
		want time.Duration
	}{
		{sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond}, algo.Model{}, 5 * time.Millisecond},
		{sim.Delay{Kind: sim.Constant, A: 2 * time.Millisecond}, algo.Model{}, 2 * time.Millisecond},
		{sim.Delay{Kind: sim.Exponential, A: 3 * time.Millisecond}, algo.Model{}, 30 * time.Millisecond},
		{sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond}, algo.Model{Synchronous: true}, algo.PulseLength},
	} {
		if got := hopDelay(c.d, c.m); got != c.want {
			t.Errorf("%v %+v: %v, want %v", c.d, c.m, got, c.want)
		}
	}
	vkt, _ := algo.Lookup("vkt")
	p, _ := vkt.Resolve(map[string]string{"timeout": "5s"})
	line := topo.New(101, nil)
	b := bounds(vkt, p, line, 100, sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond})
	// heartbeat 1s, timeout 5s, jitter 0, probe 500ms, election_timeout 10s
	if b.Timers != 16500*time.Millisecond || b.Settle != b.Timers+Crossings*100*5*time.Millisecond || b.Hops != 100 {
		t.Errorf("vkt on 100 hops: %+v", b)
	}
	ring, _ := algo.Lookup("chang-roberts")
	if b := bounds(ring, algo.Params{}, line, 7, sim.DefaultDelay); b.Hops != 100 || b.Timers != 0 {
		t.Errorf("an algorithm of the ring goes round it, whatever its diameter: %+v", b)
	}

	crash, _ := experiment("crash")
	sc := &scenario.Scenario{}
	if at := crash.Setup(sc, Bounds{Settle: time.Second, Slowest: 2 * time.Second}); at != 5*time.Second || sc.Duration != 16*time.Second ||
		sc.Check != (scenario.Check{Stabilization: 3 * time.Second, Liveness: 8 * time.Second}) || sc.Events[0].At != at {
		t.Errorf("crash on a small network: at %v, %+v: want the document's", at, sc)
	}
	sc = &scenario.Scenario{}
	if at := crash.Setup(sc, Bounds{Settle: 20 * time.Second, Slowest: 30 * time.Second}); at != 30*time.Second || sc.Duration != 62*time.Second ||
		sc.Check != (scenario.Check{Stabilization: 20 * time.Second, Liveness: 20 * time.Second}) || sc.Events[0].At != at {
		t.Errorf("crash on a large network: at %v, %+v", at, sc)
	}
}

// On rings of 1,024 nodes, elections that the document's fixed bounds
// failed (vkt's after the crash, 3s and 8s; Chang and Roberts' at start,
// 6s) are measured, and the sweep's algorithms share the crash's moment
// and the run's length, each judged by its own bounds.
func TestBoundsFollowTheNetwork(t *testing.T) {
	ring, err := ParseTopology("ring:{n}@1024", nil)
	if err != nil {
		t.Fatal(err)
	}
	sw := &Sweep{Experiments: []string{"start", "crash"}, Algorithms: []string{"vkt", "park", "chang-roberts"}, Topologies: []Topology{ring},
		Seeds: []uint64{1}, Delay: sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond}, Values: sim.Values{Mode: sim.ValueRandom}}
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	results, failed := sw.RunAll(runs, 2, nil)
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	got := map[string]*Result{}
	for _, r := range results {
		got[r.Experiment+" "+r.Algorithm] = r
		if r.Violations != 0 || r.Unchecked != 0 || r.Elections == 0 {
			t.Errorf("%s: %d violations, %d unchecked, %d elections", r.Label(), r.Violations, r.Unchecked, r.Elections)
		}
		if r.Hops != 1023 || r.HopDelay != 5*time.Millisecond || r.Liveness != r.Timers+Crossings*1023*5*time.Millisecond || r.Duration < r.From+r.Liveness+tail {
			t.Errorf("%s: bounds %+v", r.Label(), r)
		}
	}
	if cr := got["start chang-roberts"]; cr.ElectionMS < 6000 {
		t.Errorf("Chang and Roberts took %.0f ms on 1,024 nodes: the test no longer shows a bound of 6s too short", cr.ElectionMS)
	}
	vkt, park := got["crash vkt"], got["crash park"]
	if vkt.ElectionMS < 5000 {
		t.Errorf("vkt re-elected in %.0f ms after its 3s timeout on 1,024 nodes: the test no longer shows a bound of 8s too short", vkt.ElectionMS)
	}
	if vkt.From != park.From || vkt.Duration != park.Duration || vkt.From <= 5*time.Second || vkt.Liveness >= park.Liveness {
		t.Errorf("crash: vkt from %v for %v (liveness %v), park from %v for %v (liveness %v): want the same moment and length, each its own bound",
			vkt.From, vkt.Duration, vkt.Liveness, park.From, park.Duration, park.Liveness)
	}
	if _, ok := got["crash chang-roberts"]; ok {
		t.Error("chang-roberts crashed, outside its model")
	}
}
