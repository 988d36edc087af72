package check

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
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
	leader := bestLeaders(g)
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

var churnNetwork = sync.OnceValues(func() (*topo.Graph, error) {
	spec, err := topo.Parse("geometric:10000:d10", 0)
	if err != nil {
		return nil, err
	}
	return spec.Build(rand.New(rand.NewPCG(5, 6)), "")
})

// churnStream makes the events of mobility on a network: link changes, each
// at its own time, 200µs apart (5,000 a second, what 10,000 moving nodes
// produce), alternately the loss of a random link and a link up between a
// random node and a random node two hops away (a nearby pair), so that the
// mean degree stays put; one event in 20 is instead a status change, a node
// leaving Norm or coming back to its leader.
type churnStream struct {
	rng    *rand.Rand
	adj    []map[algo.NodeID]bool
	edges  []topo.Edge
	where  map[topo.Edge]int // index in edges
	leader []algo.NodeID
	away   []bool
	at     time.Duration
	i      int
	links  int // link events made
}

func newChurnStream(g *topo.Graph, leader []algo.NodeID, at time.Duration) *churnStream {
	s := &churnStream{rng: rand.New(rand.NewPCG(7, 8)), adj: make([]map[algo.NodeID]bool, g.N()),
		where: map[topo.Edge]int{}, leader: leader, away: make([]bool, g.N()), at: at}
	for v := range s.adj {
		s.adj[v] = map[algo.NodeID]bool{}
		for _, u := range g.Neighbors(algo.NodeID(v)) {
			s.adj[v][u] = true
		}
	}
	for _, e := range g.Edges() {
		s.where[e] = len(s.edges)
		s.edges = append(s.edges, e)
	}
	return s
}

func (s *churnStream) next(ev *trace.Event) {
	s.at += 200 * time.Microsecond
	s.i++
	n := len(s.adj)
	if s.i%20 == 0 {
		v := algo.NodeID(s.rng.IntN(n))
		st := algo.Status{Leader: s.leader[v], State: algo.Norm, Index: algo.Index{Num: 1, ID: s.leader[v]}}
		if !s.away[v] {
			st = algo.Status{Leader: algo.None, State: algo.Wait, Index: algo.Index{Num: 1, ID: s.leader[v]}}
		}
		s.away[v] = !s.away[v]
		*ev = trace.Event{At: s.at, Kind: trace.StatusChanged, Node: v, Peer: algo.None, Status: st}
		return
	}
	s.links++
	if s.links%2 == 0 {
		k := s.rng.IntN(len(s.edges))
		e := s.edges[k]
		last := s.edges[len(s.edges)-1]
		s.edges[k], s.where[last] = last, k
		s.edges = s.edges[:len(s.edges)-1]
		delete(s.where, e)
		delete(s.adj[e.A], e.B)
		delete(s.adj[e.B], e.A)
		*ev = trace.Event{At: s.at, Kind: trace.LinkDown, Node: e.A, Peer: e.B}
		return
	}
	for {
		v := algo.NodeID(s.rng.IntN(n))
		u, ok := s.pick(v)
		if !ok {
			continue
		}
		w, ok := s.pick(u)
		if !ok || w == v || s.adj[v][w] {
			continue
		}
		e := topo.Edge{A: min(v, w), B: max(v, w)}
		s.where[e] = len(s.edges)
		s.edges = append(s.edges, e)
		s.adj[v][w], s.adj[w][v] = true, true
		*ev = trace.Event{At: s.at, Kind: trace.LinkUp, Node: e.A, Peer: e.B}
		return
	}
}

// pick returns a random neighbour of v.
func (s *churnStream) pick(v algo.NodeID) (algo.NodeID, bool) {
	if len(s.adj[v]) == 0 {
		return 0, false
	}
	k := s.rng.IntN(len(s.adj[v]))
	for u := range s.adj[v] {
		if k == 0 {
			return u, true
		}
		k--
	}
	panic("unreachable")
}

// BenchmarkMonitorChurn feeds the Monitor mobility on 10,000 nodes of a
// geometric network (mean degree 10, nearly all in one component), all
// following their component's most valued node: a link change at a time,
// each at its own instant (churnStream). It reports the cost of one link
// event, with components maintained in place (incremental) and rebuilt
// for every change (full-rebuild, the way before incremental.go). The
// stream is made outside the timer, in chunks.
func BenchmarkMonitorChurn(b *testing.B) {
	for _, mode := range []struct {
		name string
		full bool
	}{{"incremental", false}, {"full-rebuild", true}} {
		b.Run(mode.name, func(b *testing.B) {
			g, err := churnNetwork()
			if err != nil {
				b.Fatal(err)
			}
			n := g.N()
			leader := bestLeaders(g)
			m := New(Config{Stabilization: DefaultStabilization, Liveness: DefaultLiveness, Spontaneous: true, Network: g})
			m.fullRebuild = mode.full
			var ev trace.Event
			for v := range n {
				ev = trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: int64(v)}
				m.Observe(&ev)
			}
			for v := range n {
				ev = trace.Event{At: time.Millisecond, Kind: trace.StatusChanged, Node: algo.NodeID(v), Peer: algo.None,
					Status: algo.Status{Leader: leader[v], State: algo.Norm, Index: algo.Index{Num: 1, ID: leader[v]}}}
				m.Observe(&ev)
			}
			s := newChurnStream(g, leader, time.Millisecond)
			chunk := make([]trace.Event, 4096)
			b.ResetTimer()
			for done := 0; done < b.N; done += len(chunk) {
				b.StopTimer()
				chunk = chunk[:min(len(chunk), b.N-done)]
				for i := range chunk {
					s.next(&chunk[i])
				}
				b.StartTimer()
				for i := range chunk {
					m.Observe(&chunk[i])
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(1, s.links)), "ns/link")
			b.ReportMetric(float64(s.at)/float64(time.Second), "sim-s")
		})
	}
}

// bestLeaders gives each node the most valued node of its component, values
// being ids (the highest id wins).
func bestLeaders(g *topo.Graph) []algo.NodeID {
	comp, _ := g.Components()
	best := map[int32]algo.NodeID{}
	for v, c := range comp {
		best[c] = max(best[c], algo.NodeID(v))
	}
	leader := make([]algo.NodeID, g.N())
	for v, c := range comp {
		leader[v] = best[c]
	}
	return leader
}

// movingStream is mobility as the simulator makes it, for
// BenchmarkMonitorMoving: 10,000 nodes in a square at the density of the
// moving run (a mean degree of about ten), each going straight at its own
// speed (1 to 20 m/s) and bouncing off the sides, with a link between any two
// nodes within range; every link that comes up or goes down is an event at
// its own instant. Made once: the network at the start and the link events
// of the first minutes.
var movingStream = sync.OnceValue(func() *moving {
	const (
		n     = 10000
		side  = 14000.0
		r     = 250.0
		dt    = 0.05 // seconds between position updates
		links = 300000
	)
	rng := rand.New(rand.NewPCG(9, 10))
	x, y, vx, vy := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for v := range n {
		x[v], y[v] = rng.Float64()*side, rng.Float64()*side
		speed, dir := 1+19*rng.Float64(), 2*math.Pi*rng.Float64()
		vx[v], vy[v] = speed*math.Cos(dir), speed*math.Sin(dir)
	}
	cells := int(side / r)
	near := func() map[topo.Edge]bool {
		grid := make([][]int32, cells*cells)
		cell := func(p float64) int { return min(cells-1, int(p/r)) }
		for v := range n {
			k := cell(x[v])*cells + cell(y[v])
			grid[k] = append(grid[k], int32(v))
		}
		out := map[topo.Edge]bool{}
		for v := range n {
			cx, cy := cell(x[v]), cell(y[v])
			for i := max(0, cx-1); i <= min(cells-1, cx+1); i++ {
				for j := max(0, cy-1); j <= min(cells-1, cy+1); j++ {
					for _, u := range grid[i*cells+j] {
						dx, dy := x[v]-x[u], y[v]-y[u]
						if int(u) > v && dx*dx+dy*dy < r*r {
							out[topo.Edge{A: algo.NodeID(v), B: algo.NodeID(u)}] = true
						}
					}
				}
			}
		}
		return out
	}
	mv := &moving{}
	cur := near()
	for e := range cur {
		mv.initial = append(mv.initial, e)
	}
	slices.SortFunc(mv.initial, func(a, b topo.Edge) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	at := time.Millisecond
	for step := 1; len(mv.events) < links; step++ {
		for v := range n {
			x[v] += vx[v] * dt
			y[v] += vy[v] * dt
			if x[v] < 0 || x[v] >= side {
				vx[v] = -vx[v]
				x[v] = min(max(x[v], 0), side-1e-9)
			}
			if y[v] < 0 || y[v] >= side {
				vy[v] = -vy[v]
				y[v] = min(max(y[v], 0), side-1e-9)
			}
		}
		next := near()
		var changed []trace.Event
		for e := range cur {
			if !next[e] {
				changed = append(changed, trace.Event{Kind: trace.LinkDown, Node: e.A, Peer: e.B})
			}
		}
		for e := range next {
			if !cur[e] {
				changed = append(changed, trace.Event{Kind: trace.LinkUp, Node: e.A, Peer: e.B})
			}
		}
		rng.Shuffle(len(changed), func(i, j int) { changed[i], changed[j] = changed[j], changed[i] })
		base := time.Duration(float64(step) * dt * float64(time.Second))
		for i := range changed {
			changed[i].At = base + time.Duration(i+1)*time.Microsecond
		}
		mv.events = append(mv.events, changed...)
		cur = next
		at = base
	}
	mv.end = at + time.Second
	return mv
})

type moving struct {
	initial []topo.Edge
	events  []trace.Event
	end     time.Duration
}

// BenchmarkMonitorMoving replays movingStream's link events to a Monitor
// whose nodes all follow their component's most valued node at the start
// (so that components are judged, and fail, as they split): the cost of a
// link change under mobility, as the moving run makes them (a common
// neighbour joins the ends of most links that go down). One iteration is
// the whole stream, on a fresh Monitor made outside the timer.
func BenchmarkMonitorMoving(b *testing.B) {
	mv := movingStream()
	g := topo.New(10000, mv.initial)
	leader := bestLeaders(g)
	for b.Loop() {
		b.StopTimer()
		m := New(Config{Stabilization: DefaultStabilization, Liveness: DefaultLiveness, Spontaneous: true, Moving: true, Network: g})
		var ev trace.Event
		for v := range g.N() {
			ev = trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: int64(v)}
			m.Observe(&ev)
		}
		for v := range g.N() {
			ev = trace.Event{At: time.Millisecond / 2, Kind: trace.StatusChanged, Node: algo.NodeID(v), Peer: algo.None,
				Status: algo.Status{Leader: leader[v], State: algo.Norm, Index: algo.Index{Num: 1, ID: leader[v]}}}
			m.Observe(&ev)
		}
		b.StartTimer()
		for i := range mv.events {
			m.Observe(&mv.events[i])
		}
		ev = trace.Event{At: mv.end, Kind: trace.End, Peer: algo.None}
		m.Observe(&ev)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mv.events)), "ns/link")
}
