package vkt_test

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// scale is the scenario of the scale measurements: one initiator (node 0)
// on a random geometric network of mean degree about 10, constant 3 ms
// links, no heartbeat within the run, and a timeout that lets the few nodes
// outside node 0's component elect themselves once node 0's election is
// over (without it they would wait for ever, and the checker would have
// nothing to judge them by). The checker judges every component at the end:
// settled on its most valued node.
func scale(topology string, timeout, end time.Duration) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Initiators = "vkt", topology, 1, "0"
	s.Params = map[string]string{"heartbeat": "1h", "timeout": timeout.String(), "election_timeout": "1h"}
	s.Delay = sim.Delay{Kind: sim.Constant, A: 3 * time.Millisecond}
	s.Duration = end
	s.Check = scenario.Check{Stabilization: end, Liveness: end}
	return s
}

// BenchmarkElect100k: 100,000 nodes in 316 m x 316 m with a range of 1.8 m
// (the density of geometric:1000000:1.8); the election takes 2.1 s of
// virtual time.
//
//	go test -run X -bench Elect100k -benchtime 3x ./algo/vkt
func BenchmarkElect100k(b *testing.B) {
	benchScale(b, scale("geometric:100000:1.8:316x316", 2500*time.Millisecond, 3*time.Second))
}

// BenchmarkElect1M: 1,000,000 nodes in 1000 m x 1000 m with a range of
// 1.8 m; the election takes 6.6 s of virtual time.
//
//	go test -run X -bench Elect1M -benchtime 1x ./algo/vkt
func BenchmarkElect1M(b *testing.B) {
	benchScale(b, scale("geometric:1000000:1.8", 7*time.Second, 7500*time.Millisecond))
}

// benchScale measures the election alone (the engine and the machines, the
// network built beforehand, no checker, no counters) and the whole run as
// `elect sim` makes it (network, engine, checker, counters, summary; not the
// printing).
func benchScale(b *testing.B, s *scenario.Scenario) {
	if testing.Short() {
		b.Skip("a scale benchmark")
	}
	b.Run("election", func(b *testing.B) {
		g := runtest.Network(b, s)
		a, _ := algo.Lookup(s.Algorithm)
		b.ResetTimer()
		var events uint64
		for i := 0; i < b.N; i++ {
			e, err := sim.New(sim.Config{Algorithm: a, Params: s.Params, Graph: g, Values: s.Values, Seed: s.Seed, Delay: s.Delay, Duration: s.Duration})
			if err != nil {
				b.Fatal(err)
			}
			events = e.Run().Stats.Events
			b.StopTimer()
			if lead := leaderOf(e, 0); lead == algo.None {
				b.Fatal("node 0 has no leader")
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(events), "events")
	})
	b.Run("run", func(b *testing.B) {
		var sum *metricsView
		for i := 0; i < b.N; i++ {
			r, err := runner.Run(s, runner.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if r.ViolationCount > 0 || r.Unchecked > 0 {
				b.Fatalf("%d violations (%v), %d components unjudged", r.ViolationCount, r.Violations, r.Unchecked)
			}
			sum = &metricsView{msgs: r.Messages.Total, elections: len(r.Elections.List)}
			if len(r.Elections.List) > 0 {
				sum.virtual = r.Elections.List[0].EndMS - r.Elections.List[0].StartMS
			}
		}
		b.ReportMetric(float64(sum.msgs), "msgs")
		b.ReportMetric(sum.virtual, "virtual-ms")
		b.ReportMetric(float64(sum.elections), "elections")
	})
}

type metricsView struct {
	msgs      uint64
	virtual   float64
	elections int
}

// leaderOf is node v's leader, None unless it is in normal operation.
func leaderOf(e *sim.Engine, v algo.NodeID) algo.NodeID {
	st, _ := e.Status(v)
	if !st.HasLeader() {
		return algo.None
	}
	return st.Leader
}
