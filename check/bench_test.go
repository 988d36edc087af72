package check

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

var benchNet = sync.OnceValues(func() (*topo.Graph, error) {
	spec, err := topo.Parse("geometric:1000000:1.8", 0)
	if err != nil {
		return nil, err
	}
	return spec.Build(rand.New(rand.NewPCG(1, 2)), "")
})

// BenchmarkMonitorStatus feeds status changes of a million nodes sharing a
// geometric network (about ten neighbours each) to a Monitor: the cost of one
// status event, the checker's hot path. Nodes go through elections in
// sweeps: all leave Norm (Elect), then wait (Wait), then follow the most
// valued node of their component (Norm), so components keep opening and
// closing election episodes and their leader tallies keep changing. Virtual
// time moves by a nanosecond per event, so no bound expires.
func BenchmarkMonitorStatus(b *testing.B) {
	g, err := benchNet()
	if err != nil {
		b.Fatal(err)
	}
	n := g.N()
	comp, _ := g.Components()
	best := map[int32]algo.NodeID{} // values are ids: the highest id wins
	for v, c := range comp {
		best[c] = max(best[c], algo.NodeID(v))
	}
	leader := make([]algo.NodeID, n)
	for v, c := range comp {
		leader[v] = best[c]
	}
	order := rand.New(rand.NewPCG(3, 4)).Perm(n)

	m := New(Config{Stabilization: DefaultStabilization, Liveness: DefaultLiveness, Spontaneous: true, Network: g})
	var ev trace.Event
	for v := range n {
		ev = trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: int64(v)}
		m.Observe(&ev)
	}
	at := time.Duration(1)
	// The first event after the announcement builds the components.
	start := time.Now()
	ev = trace.Event{At: at, Kind: trace.StatusChanged, Node: 0, Peer: algo.None, Status: algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 1, ID: 0}}}
	m.Observe(&ev)
	build := time.Since(start)

	i := 0
	for b.Loop() {
		v := algo.NodeID(order[i%n])
		sweep := i / n
		s := algo.Status{Leader: algo.None, Index: algo.Index{Num: uint32(sweep/3 + 1), ID: v}}
		switch sweep % 3 {
		case 0:
			s.State = algo.Elect
		case 1:
			s.State = algo.Wait
		case 2:
			s.State, s.Leader = algo.Norm, leader[v]
		}
		at++
		ev = trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: algo.None, Status: s}
		m.Observe(&ev)
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/status")
	b.ReportMetric(float64(build.Milliseconds()), "build-ms")
	if r := m.Report(); r.ViolationCount != 0 {
		b.Fatalf("violations in the benchmark run: %v", r.Violations[0])
	}
}
