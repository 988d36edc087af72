package metrics_test

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/park"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// searchReach is Reach as it was first written, the oracle of the test
// below: at each sample it labels the components of live nodes by a search
// of the checker's links, and compares a node's label with its leader's.
type searchReach struct {
	period, next time.Duration
	net          *check.Monitor
	samples, led uint64
}

func (r *searchReach) Observe(e *trace.Event) {
	for e.At > r.next {
		r.sample()
		r.next += r.period
	}
	if e.Kind == trace.End && e.At == r.next {
		r.sample()
	}
}

func (r *searchReach) sample() {
	n := r.net.Nodes()
	comp := make([]int32, n)
	for v := range comp {
		comp[v] = -1
	}
	alive := func(v algo.NodeID) bool { return r.net.Node(v).Alive }
	for s := range n {
		if comp[s] >= 0 || !alive(algo.NodeID(s)) {
			continue
		}
		comp[s] = int32(s)
		q := []algo.NodeID{algo.NodeID(s)}
		for i := 0; i < len(q); i++ {
			for _, u := range r.net.Neighbors(q[i]) {
				if comp[u] < 0 && alive(u) {
					comp[u] = int32(s)
					q = append(q, u)
				}
			}
		}
	}
	for v := range n {
		st := r.net.Node(algo.NodeID(v))
		if !st.Alive {
			continue
		}
		r.samples++
		if l := st.Status.Leader; st.Status.HasLeader() && int(l) < n && comp[l] == comp[v] {
			r.led++
		}
	}
}

// Reach, which reads the checker's components, counts exactly what a search
// of the network at every sample counts, on moving networks with crashes,
// restarts and partitions, sampled often enough to fall inside instants of
// many changes.
func TestReachMatchesSearch(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		s := scenario.Default()
		s.Algorithm, s.Seed, s.Topology = "park", seed, "geometric:60:120:600x600"
		s.Mobility, s.Duration = "waypoint:5:30:1s", 60*time.Second
		s.Events = []sim.Action{
			{At: 5 * time.Second, Kind: sim.Crash, Leader: true},
			{At: 9 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{3, 4, 5}},
			{At: 20 * time.Second, Kind: sim.Restart, Nodes: []algo.NodeID{4}},
			{At: 25 * time.Second, Kind: sim.Partition, Groups: []sim.Group{{Name: "a", Nodes: []algo.NodeID{0, 1, 2, 6, 7, 8, 9, 10, 11, 12}}}},
			{At: 40 * time.Second, Kind: sim.Heal},
		}
		net, err := runner.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		a, err := algo.Lookup(s.Algorithm)
		if err != nil {
			t.Fatal(err)
		}
		cfg := runner.CheckConfig(s, a)
		cfg.Network = net.Graph
		mon := check.New(cfg)
		period := 37 * time.Millisecond
		reach := metrics.NewReach(period, mon)
		ref := &searchReach{period: period, next: period, net: mon}
		e, err := sim.New(sim.Config{Algorithm: a, Graph: net.Graph, Seed: seed, Delay: s.Delay,
			Duration: s.Duration, Timeline: s.Events, Motion: net.Radio,
			Observers: []trace.Observer{ref, reach, mon}})
		if err != nil {
			t.Fatal(err)
		}
		e.Run()
		if ref.samples < 10000 || ref.led == ref.samples {
			t.Fatalf("seed %d: %d led of %d samples: the run does not test much", seed, ref.led, ref.samples)
		}
		if got, want := reach.Fraction(), float64(ref.led)/float64(ref.samples); got != want {
			t.Errorf("seed %d: reach %v, a search at every sample %v (%d of %d)", seed, got, want, ref.led, ref.samples)
		}
	}
}
