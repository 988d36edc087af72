package check

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// The differential tests of incremental.go: on random event streams heavy in
// link churn, a Monitor that applies lone link changes in place must give
// exactly the Report of one that rebuilds the changed components for every
// change (fullRebuild), and its counters must agree with its components
// after every event.

// churnNet is a generator's model of the network, enough to choose events:
// links, who is alive, values, and components by search.
type churnNet struct {
	adj   []map[algo.NodeID]bool
	alive []bool
	value []int64
}

func (g *churnNet) linked(a, b algo.NodeID) bool { return g.adj[a][b] }

func (g *churnNet) set(a, b algo.NodeID, up bool) {
	if up {
		g.adj[a][b], g.adj[b][a] = true, true
	} else {
		delete(g.adj[a], b)
		delete(g.adj[b], a)
	}
}

// component returns the live nodes connected to live node v, ascending.
func (g *churnNet) component(v algo.NodeID) []algo.NodeID {
	seen := map[algo.NodeID]bool{v: true}
	out := []algo.NodeID{v}
	for i := 0; i < len(out); i++ {
		for u := range g.adj[out[i]] {
			if g.alive[u] && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	slices.Sort(out)
	return out
}

// best returns the most valued node of comp.
func (g *churnNet) best(comp []algo.NodeID) algo.NodeID {
	b := algo.NoPeer
	for _, v := range comp {
		b = b.Max(algo.Peer{ID: v, Value: g.value[v]})
	}
	return b.ID
}

// randomEdge returns a random link up, if any.
func (g *churnNet) randomEdge(rng *rand.Rand) (algo.NodeID, algo.NodeID, bool) {
	n := len(g.adj)
	for range 4 * n {
		a := algo.NodeID(rng.IntN(n))
		if len(g.adj[a]) == 0 {
			continue
		}
		// In order: a map's own would make the run another each time.
		return a, slices.Sorted(maps.Keys(g.adj[a]))[rng.IntN(len(g.adj[a]))], true
	}
	return 0, 0, false
}

// churnRun generates a run dominated by link changes, most of them alone at
// their instant (the incremental case), on a random network of up to maxN
// nodes: geometric (links between nodes in range, and new links between
// nearby nodes) or uniform. Crashes, restarts, value changes, elect calls,
// batches of link changes at one instant, elections and convergence of
// components (right or wrong) come between, at times of all sizes so that
// deadlines pass, coincide with events or not.
func churnRun(rng *rand.Rand, maxN int) (Config, []trace.Event) {
	n := 2 + rng.IntN(maxN-1)
	g := &churnNet{adj: make([]map[algo.NodeID]bool, n), alive: make([]bool, n), value: make([]int64, n)}
	x, y := make([]float64, n), make([]float64, n)
	for v := range n {
		g.adj[v] = map[algo.NodeID]bool{}
		x[v], y[v] = rng.Float64(), rng.Float64()
	}
	geometric := rng.IntN(3) > 0
	// a range giving a mean degree from about 1 to 10
	r := (0.3 + 1.7*rng.Float64()) / float64(n)
	r = min(1, 2*math.Sqrt(r))
	p := rng.Float64() * min(1, 6/float64(n))
	near := func(a, b algo.NodeID) bool {
		if !geometric {
			return rng.Float64() < p
		}
		dx, dy := x[a]-x[b], y[a]-y[b]
		return dx*dx+dy*dy < r*r
	}
	cfg := Config{
		Stabilization: time.Duration(rng.IntN(3)) * 5 * time.Second,
		Liveness:      time.Duration(1+rng.IntN(3)) * 10 * time.Second,
		Spontaneous:   rng.IntN(2) == 0,
		MaxViolations: []int{3, 1000}[rng.IntN(2)],
	}
	var events []trace.Event
	emit := func(e trace.Event) { events = append(events, e) }
	for v := range n {
		g.alive[v] = true
		g.value[v] = int64(rng.IntN(n))
		emit(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: g.value[v]})
	}
	for a := range algo.NodeID(n) {
		for b := a + 1; b < algo.NodeID(n); b++ {
			if near(a, b) {
				g.set(a, b, true)
				emit(trace.Event{Kind: trace.LinkUp, Node: a, Peer: b})
			}
		}
	}
	link := func(at time.Duration, a, b algo.NodeID, up bool) {
		g.set(a, b, up)
		if rng.IntN(2) == 0 {
			a, b = b, a // either end may come first
		}
		kind := trace.LinkDown
		if up {
			kind = trace.LinkUp
		}
		emit(trace.Event{At: at, Kind: kind, Node: a, Peer: b})
	}
	// nearbyPair finds a pair not linked yet, in range if it can.
	nearbyPair := func() (algo.NodeID, algo.NodeID, bool) {
		for range 20 {
			a, b := algo.NodeID(rng.IntN(n)), algo.NodeID(rng.IntN(n))
			if a != b && !g.linked(a, b) && (!geometric || near(a, b) || rng.IntN(4) == 0) {
				return a, b, true
			}
		}
		return 0, 0, false
	}
	node := func() algo.NodeID { return algo.NodeID(rng.IntN(n)) }
	index := uint32(0)
	at := time.Duration(0)
	steps := 50 + rng.IntN(300)
	for range steps {
		switch k := rng.IntN(10); {
		case k < 6: // distinct times: one change per instant
			at += time.Duration(1 + rng.Int64N(int64(time.Second)))
		case k < 7: // same instant
		case k < 9:
			at += time.Duration(rng.IntN(4)) * 5 * time.Second // lands on deadlines
		default:
			at += time.Duration(rng.Int64N(int64(20 * time.Second)))
		}
		v := node()
		switch k := rng.IntN(100); {
		case k < 30:
			if a, b, ok := g.randomEdge(rng); ok {
				link(at, a, b, false)
			}
		case k < 55:
			if a, b, ok := nearbyPair(); ok {
				link(at, a, b, true)
			}
		case k < 58: // a link change that changes nothing in the network
			u := node()
			link(at, v, u, g.linked(v, u) || v == u)
		case k < 61: // a batch at one instant
			for range 1 + rng.IntN(3) {
				if a, b, ok := g.randomEdge(rng); ok && rng.IntN(2) == 0 {
					link(at, a, b, false)
				} else if a, b, ok := nearbyPair(); ok {
					link(at, a, b, true)
				}
			}
		case k < 64:
			if g.alive[v] {
				g.alive[v] = false
				emit(trace.Event{At: at, Kind: trace.Crashed, Node: v, Peer: algo.None})
			}
		case k < 67:
			g.alive[v] = true
			emit(trace.Event{At: at, Kind: []trace.Kind{trace.Restarted, trace.Recovered}[rng.IntN(2)], Node: v, Peer: algo.None})
		case k < 68:
			g.value[v] = int64(rng.IntN(n))
			emit(trace.Event{At: at, Kind: trace.ValueChanged, Node: v, Peer: algo.None, Value: g.value[v]})
		case k < 69:
			emit(trace.Event{At: at, Kind: trace.ElectCalled, Node: v, Peer: algo.None})
		case k < 85: // v's component converges, on its best or, rarely, not
			if !g.alive[v] {
				continue
			}
			comp := g.component(v)
			leader := g.best(comp)
			if rng.IntN(8) == 0 {
				leader = comp[rng.IntN(len(comp))]
			}
			index++
			for _, u := range comp {
				if rng.IntN(10) == 0 {
					continue // one that lags behind
				}
				emit(trace.Event{At: at, Kind: trace.StatusChanged, Node: u, Peer: algo.None,
					Status: algo.Status{Leader: leader, State: algo.Norm, Index: algo.Index{Num: index, ID: leader}}})
			}
		case k < 92: // an election starts in v's component
			if !g.alive[v] {
				continue
			}
			index++
			for _, u := range g.component(v) {
				if rng.IntN(3) > 0 {
					emit(trace.Event{At: at, Kind: trace.StatusChanged, Node: u, Peer: algo.None,
						Status: algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: index, ID: v}}})
				}
			}
		default: // any status at all
			s := algo.Status{Leader: algo.NodeID(rng.IntN(n+1) - 1), State: algo.State(max(0, rng.IntN(5)-2))}
			if rng.IntN(3) > 0 {
				s.Index = algo.Index{Num: uint32(1 + rng.IntN(3)), ID: node()}
			}
			emit(trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: algo.None, Status: s})
		}
	}
	if rng.IntN(2) == 0 {
		at += time.Duration(rng.Int64N(int64(40 * time.Second)))
	}
	emit(trace.Event{At: at, Kind: trace.End, Peer: algo.None, Quiescent: rng.IntN(2) == 0})
	// Drawn last, so that the runs drawn before stay as they were.
	cfg.ValueAtElection = rng.IntN(2) == 0
	return cfg, events
}

// feedMode runs events through a fresh Monitor, rebuilding for every change
// or not, checking its counters after every event when asked to.
func feedMode(cfg Config, events []trace.Event, fullRebuild, invariants bool) (*Monitor, error) {
	return feedArranged(cfg, events, fullRebuild, invariants, nil)
}

// feedArranged is feedMode with the records arranged by rank when it is
// not nil (trace.Arranger).
func feedArranged(cfg Config, events []trace.Event, fullRebuild, invariants bool, rank []int32) (*Monitor, error) {
	m := New(cfg)
	if rank != nil {
		m.Arrange(rank)
	}
	m.fullRebuild = fullRebuild
	for i, e := range events {
		ev := e
		m.Observe(&ev)
		if invariants {
			if err := checkInvariants(m); err != nil {
				return m, fmt.Errorf("after event %d (%v %v %d %d): %v", i, e.At, e.Kind, e.Node, e.Peer, err)
			}
		}
	}
	return m, nil
}

// differ runs events both ways (and the incremental way with the network
// shared through Config.Network) and returns what differs, if anything.
func differ(cfg Config, events []trace.Event, invariants bool) string {
	full, _ := feedMode(cfg, events, true, false)
	inc, err := feedMode(cfg, events, false, invariants)
	if err != nil {
		return err.Error()
	}
	want, got := full.Report(), inc.Report()
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("incremental report:\n%s\nfull rebuild report:\n%s", describe(got), describe(want))
	}
	shared := cfg
	shared.Network = initialNetwork(events)
	if sh, _ := feedMode(shared, events, false, false); !reflect.DeepEqual(sh.Report(), want) {
		return fmt.Sprintf("incremental report with a shared network:\n%s\nfull rebuild report:\n%s", describe(sh.Report()), describe(want))
	}
	// Records kept in a layout of the emitter's (here the reverse of the ids)
	// change nothing either.
	rank := make([]int32, shared.Network.N())
	for v := range rank {
		rank[v] = int32(len(rank) - 1 - v)
	}
	ar, err := feedArranged(shared, events, false, invariants, rank)
	if err != nil {
		return "arranged: " + err.Error()
	}
	if !reflect.DeepEqual(ar.Report(), want) {
		return fmt.Sprintf("incremental report with records arranged in reverse:\n%s\nfull rebuild report:\n%s", describe(ar.Report()), describe(want))
	}
	return ""
}

func dumpRun(cfg Config, events []trace.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "config %+v\n", cfg)
	for _, e := range events {
		fmt.Fprintf(&b, "  %v %v node %d peer %d value %d status %+v q=%v\n", e.At, e.Kind, e.Node, e.Peer, e.Value, e.Status, e.Quiescent)
	}
	return b.String()
}

// churnCases counts, in a run, the lone link changes of each case that
// relink handles, so that a test can tell that its streams exercise them
// all: the sizes that matter are those of the sides of a merge or split.
type churnCases struct {
	// detours counts links down whose ends stay connected, shortcuts
	// those of them with a common live neighbour (split's joined).
	inPlace, merges, detours, shortcuts, splits, bigSplits, bestLeft int
}

func (k *churnCases) count(events []trace.Event) {
	n := initialNetwork(events).N()
	g := &churnNet{adj: make([]map[algo.NodeID]bool, n), alive: make([]bool, n), value: make([]int64, n)}
	for v := range n {
		g.adj[v] = map[algo.NodeID]bool{}
	}
	changes := func(at time.Duration) (links, others int) {
		for _, e := range events {
			if e.At != at {
				continue
			}
			switch e.Kind {
			case trace.LinkUp, trace.LinkDown:
				links++
			case trace.NodeAdded, trace.Crashed, trace.Restarted, trace.Recovered, trace.ValueChanged, trace.ElectCalled:
				others++
			}
		}
		return links, others
	}
	for _, e := range events {
		a, b := e.Node, e.Peer
		switch e.Kind {
		case trace.NodeAdded:
			g.alive[a], g.value[a] = true, e.Value
		case trace.Crashed:
			g.alive[a] = false
		case trace.Restarted, trace.Recovered:
			g.alive[a] = true
		case trace.ValueChanged:
			g.value[a] = e.Value
		}
		if e.Kind != trace.LinkUp && e.Kind != trace.LinkDown {
			continue
		}
		lone := e.At > 0 && !g.linked(a, b) == (e.Kind == trace.LinkUp) && a != b && g.alive[a] && g.alive[b]
		if links, others := changes(e.At); links != 1 || others != 0 {
			lone = false
		}
		before := g.component(a)
		g.set(a, b, e.Kind == trace.LinkUp)
		if !lone {
			continue
		}
		switch {
		case slices.Contains(before, b) && e.Kind == trace.LinkUp:
			k.inPlace++
		case e.Kind == trace.LinkUp:
			k.merges++
		case slices.Contains(g.component(a), b):
			k.detours++
			for u := range g.adj[a] {
				if g.adj[b][u] && g.alive[u] {
					k.shortcuts++
					break
				}
			}
		default:
			k.splits++
			sa, sb := g.component(a), g.component(b)
			if min(len(sa), len(sb)) > 1 {
				k.bigSplits++
			}
			small := sa
			if len(sb) < len(sa) {
				small = sb
			}
			if slices.Contains(small, g.best(before)) {
				k.bestLeft++
			}
		}
	}
}

// TestIncrementalMatchesRebuild: thousands of churn-heavy streams on small
// networks, and the random runs of TestRandomRuns, give deep-equal Reports
// both ways, and the incremental counters hold after every event.
func TestIncrementalMatchesRebuild(t *testing.T) {
	runs := 4000
	if testing.Short() {
		runs = 600
	}
	var cases churnCases
	for seed := range uint64(runs) {
		cfg, events := churnRun(rand.New(rand.NewPCG(seed, 7)), 24)
		cases.count(events)
		if d := differ(cfg, events, true); d != "" {
			t.Fatalf("churn seed %d: %s\n%s", seed, d, dumpRun(cfg, events))
		}
		cfg, events = randomRun(rand.New(rand.NewPCG(seed, 99)))
		if d := differ(cfg, events, true); d != "" {
			t.Fatalf("random run seed %d: %s\n%s", seed, d, dumpRun(cfg, events))
		}
	}
	t.Logf("lone link changes: %+v", cases)
	if min(cases.inPlace, cases.merges, cases.shortcuts, cases.detours-cases.shortcuts, cases.splits, cases.bigSplits, cases.bestLeft) < runs/10 {
		t.Errorf("the streams exercise some cases too little: %+v", cases)
	}
}

// TestIncrementalLargeNetworks: fewer, longer streams on networks of up to
// 600 nodes, where the searches of a split run long and the two sides are
// far apart in size.
func TestIncrementalLargeNetworks(t *testing.T) {
	runs := 60
	if testing.Short() {
		runs = 10
	}
	for seed := range uint64(runs) {
		cfg, events := churnRun(rand.New(rand.NewPCG(seed, 8)), 600)
		if d := differ(cfg, events, seed%4 == 0); d != "" {
			t.Fatalf("seed %d: %s", seed, d)
		}
	}
}

// TestLazyDeadlinesBackInTime: streams whose events now and then go back in
// time (a trace written out of order) give deadlines earlier than those a
// component slot already has queued (schedule); the lazy queue still judges
// exactly what the eager one of fullRebuild does.
func TestLazyDeadlinesBackInTime(t *testing.T) {
	runs := 1500
	if testing.Short() {
		runs = 300
	}
	back := 0
	for seed := range uint64(runs) {
		rng := rand.New(rand.NewPCG(seed, 11))
		cfg, events := churnRun(rng, 24)
		for i := range events {
			if e := &events[i]; e.At > 0 && e.Kind != trace.End && rng.IntN(12) == 0 {
				e.At = max(1, e.At-time.Duration(rng.Int64N(int64(30*time.Second))))
				back++
			}
		}
		if d := differ(cfg, events, true); d != "" {
			t.Fatalf("seed %d: %s\n%s", seed, d, dumpRun(cfg, events))
		}
	}
	if back < runs {
		t.Errorf("only %d events went back in time", back)
	}
}
