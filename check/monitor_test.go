package check

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// mustScript parses an inline script (events and expectations) or fails.
func mustScript(t *testing.T, text string) *script {
	t.Helper()
	s, err := parseScript(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return s
}

// pair is the common start of the table cases: nodes 0 and 1 (1 most
// valued) linked, in Norm following 1 from 1ms unless the case says
// otherwise.
const pair = `
0 node 0 value=0
0 node 1 value=1
0 link 0 1
`

// TestEdgeCases covers the boundaries and odd inputs the stories of
// testdata do not: exact deadline instants, zero bounds, lifecycle events
// that change nothing, the detail cap.
func TestEdgeCases(t *testing.T) {
	cases := []struct {
		name string
		cfg  string // config line, if any
		body string // events and expectations
	}{
		{"disagreement resolved exactly at the stabilisation deadline", "", pair + `
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
10s status 0 leader=1 Norm index=1,1
60s end quiescent
---
violations: none`},
		{"disagreement resolved a nanosecond after the deadline", "", pair + `
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
10.000000001s status 0 leader=1 Norm index=1,1
60s end quiescent
---
violation safety at 10s nodes 0 1`},
		{"disagreement that starts exactly at the deadline is reported by the deadline", "", pair + `
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
10s status 0 leader=0 Norm index=1,0
10.5s status 0 leader=1 Norm index=1,1
60s end quiescent
---
violation safety at 10s nodes 0 1`},
		{"disagreement that starts a nanosecond after the deadline is reported at once", "", pair + `
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
10.000000001s status 0 leader=0 Norm index=1,0
10.5s status 0 leader=1 Norm index=1,1
60s end quiescent
---
violation safety at 10.000000001s nodes 0 1`},
		{"settled exactly at the liveness deadline", "", pair + `
30s status 0 leader=1 Norm index=1,1
30s status 1 leader=1 Norm index=1,1
60s end quiescent
---
violations: none`},
		{"settled a nanosecond after the liveness deadline", "", pair + `
30s status 0 leader=1 Norm index=1,1
30.000000001s status 1 leader=1 Norm index=1,1
60s end quiescent
---
violation liveness at 30s nodes 1`},
		{"zero stabilisation bound: any disagreement after the change", "stabilization=0", pair + `
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
2ms status 0 leader=1 Norm index=1,1
60s end quiescent
---
violation safety at 1ms nodes 0 1`},
		{"a link flap restarts the clock even if the component is the same", "", pair + `
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
5s link_down 0 1
5s link 0 1
60s end quiescent
---
violation safety at 15s nodes 0 1
violation liveness at 35s nodes 0`},
		{"a link change with a dead node restarts the live node's clock", "", `
0 node 0 value=0
0 node 1 value=1
0 node 2 value=2
0 link 0 1
0 link 1 2
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
1ms crash 2
5s link_down 1 2
60s end
---
violation safety at 15s nodes 0 1
violation liveness at 35s nodes 0`},
		{"restarting a live node, crashing a dead one and statuses of dead nodes change nothing", "", `
0 node 0 value=0
0 node 1 value=1
0 node 2 value=2
0 link 0 1
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
1ms status 2 leader=2 Norm index=1,2
2s crash 2
40s restart 0
40s crash 2
41s status 2 leader=2 Norm index=1,2
45s status 0 leader=none Elect
60s end
---
violation liveness at 45s nodes 0 ~ left the stable state
components: [0 1]`},
		{"recover is a restart", "", `
0 node 0 value=0
0 node 1 value=1
0 link 0 1
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
40s crash 1
40s recover 1
60s end quiescent
---
violation liveness at 60s nodes 1 ~ never settled
components: [0 1]
leaderless: 0.16668333333333333`},
		{"crash and restart at one instant: the node comes back leaderless", "", pair + `
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
40s crash 1
40s restart 1
71s end
---
violation liveness at 70s nodes 1`},
		{"safety names the lowest node of each of the first two leaders", "", `
0 node 0 value=0
0 node 1 value=1
0 node 2 value=2
0 node 3 value=3
0 node 4 value=4
0 link 0 1
0 link 1 2
0 link 2 3
0 link 3 4
1ms status 1 leader=4 Elect
1ms status 2 leader=4 Norm index=1,4
1ms status 3 leader=2 Norm index=1,2
1ms status 4 leader=4 Norm index=1,4
60s end
---
violation safety at 10s nodes 2 3
violation liveness at 30s nodes 0 1 3`},
		{"the detail list is capped, the count is not", "max=3", `
0 node 0 value=0
0 node 1 value=1
0 node 2 value=2
0 node 3 value=3
0 node 4 value=4
0 node 5 value=5
0 link 0 1
0 link 2 3
0 link 4 5
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
1ms status 2 leader=2 Norm index=1,2
1ms status 3 leader=3 Norm index=1,3
1ms status 4 leader=4 Norm index=1,4
1ms status 5 leader=5 Norm index=1,5
60s end
---
violations: 6`},
		{"no nodes at all", "", `
5s end quiescent
---
violations: none
components:
leaderless: 0`},
		{"a component whose nodes all crashed disappears", "", pair + `
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
3s crash 0
3s crash 1
60s end quiescent
---
violations: none
components:
leaderless: 0.000333333333`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.body
			if c.cfg != "" {
				text = "config " + c.cfg + "\n" + text
			}
			s := mustScript(t, text)
			r := runBothWays(t, s.cfg, s.events)
			if bad := checkExpectations(s, r); len(bad) > 0 {
				t.Errorf("\n  %s\nreport:\n%s", strings.Join(bad, "\n  "), describe(r))
			}
			if strings.Contains(c.name, "capped") && len(r.Violations) != 3 {
				t.Errorf("%d violations in detail, want 3", len(r.Violations))
			}
		})
	}
}

// TestAfterEnd: events after End are ignored and Report is repeatable.
func TestAfterEnd(t *testing.T) {
	s := mustScript(t, pair+`
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
10s end
---
violations: none`)
	m := feed(Config{Stabilization: time.Second, Liveness: 2 * time.Second}, s.events)
	before := m.Report()
	for _, e := range []trace.Event{
		{At: 11 * time.Second, Kind: trace.StatusChanged, Node: 0, Status: algo.Status{Leader: 0}},
		{At: 12 * time.Second, Kind: trace.Crashed, Node: 1},
		{At: 13 * time.Second, Kind: trace.LinkDown, Node: 0, Peer: 1},
		{At: 100 * time.Second, Kind: trace.End, Quiescent: true},
	} {
		m.Observe(&e)
	}
	if after := m.Report(); !reflect.DeepEqual(before, after) {
		t.Errorf("events after End changed the report:\n%s\n%s", describe(before), describe(after))
	}
	if got := m.Node(0); got != (NodeState{Value: 0, Alive: true, Status: algo.Status{Leader: 1, Index: algo.Index{Num: 1, ID: 1}}}) {
		t.Errorf("Node(0) = %+v", got)
	}
	if m.Nodes() != 2 {
		t.Errorf("Nodes() = %d", m.Nodes())
	}
}

// TestNodeView: the Monitor's view of each node follows the events, and a
// crash or restart resets the status.
func TestNodeView(t *testing.T) {
	m := New(Config{Stabilization: time.Second, Liveness: 2 * time.Second})
	st := algo.Status{Leader: 1, State: algo.Norm, Index: algo.Index{Num: 3, ID: 1}}
	none := algo.Status{Leader: algo.None}
	steps := []struct {
		e    trace.Event
		node algo.NodeID
		want NodeState
	}{
		{trace.Event{Kind: trace.NodeAdded, Node: 0, Value: 7}, 0, NodeState{7, true, none, 7}},
		{trace.Event{Kind: trace.NodeAdded, Node: 1, Value: 9}, 1, NodeState{9, true, none, 9}},
		{trace.Event{At: 1, Kind: trace.StatusChanged, Node: 0, Status: st}, 0, NodeState{7, true, st, 7}},
		{trace.Event{At: 2, Kind: trace.ValueChanged, Node: 0, Value: -4}, 0, NodeState{-4, true, st, -4}},
		{trace.Event{At: 3, Kind: trace.Crashed, Node: 0}, 0, NodeState{-4, false, none, -4}},
		{trace.Event{At: 4, Kind: trace.StatusChanged, Node: 0, Status: st}, 0, NodeState{-4, false, none, -4}},
		{trace.Event{At: 5, Kind: trace.Recovered, Node: 0}, 0, NodeState{-4, true, none, -4}},
		{trace.Event{At: 6, Kind: trace.StatusChanged, Node: 1, Status: st}, 1, NodeState{9, true, st, 9}},
		{trace.Event{At: 7, Kind: trace.Restarted, Node: 1}, 1, NodeState{9, true, st, 9}}, // alive: no-op
	}
	for i, s := range steps {
		m.Observe(&s.e)
		if got := m.Node(s.node); got != s.want {
			t.Errorf("step %d (%v): Node(%d) = %+v, want %+v", i, s.e.Kind, s.node, got, s.want)
		}
	}
}

// TestCapacityHint: Config.Nodes sizes arrays and changes nothing else.
func TestCapacityHint(t *testing.T) {
	s := mustScript(t, readTestdata(t, "partition_heal.txt"))
	want := feed(s.cfg, s.events).Report()
	for _, n := range []int{1, 4, 1000} {
		cfg := s.cfg
		cfg.Nodes = n
		if got := feed(cfg, s.events).Report(); !reflect.DeepEqual(got, want) {
			t.Errorf("Nodes=%d changes the report:\n%s\nwant\n%s", n, describe(got), describe(want))
		}
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSharedNetwork: a run given the announced network through
// Config.Network reports exactly what a run building it from the link_up
// events does, and leaves the shared graph as it was, although links go
// down and up, nodes crash and links the graph does not have come up.
func TestSharedNetwork(t *testing.T) {
	spec, err := topo.Parse("grid:6x5", 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := spec.Build(rand.New(rand.NewPCG(3, 4)), "")
	if err != nil {
		t.Fatal(err)
	}
	edges := g.Edges()
	nbrs := make([][]algo.NodeID, g.N())
	for v := range nbrs {
		nbrs[v] = slices.Clone(g.Neighbors(algo.NodeID(v)))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var events []trace.Event
	for v := range g.N() {
		events = append(events, trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: int64(v % 7)})
	}
	for _, e := range edges {
		events = append(events, trace.Event{Kind: trace.LinkUp, Node: e.A, Peer: e.B})
	}
	at := time.Duration(0)
	for i := range 400 {
		at += time.Duration(rng.IntN(3)) * time.Second
		v := algo.NodeID(rng.IntN(g.N()))
		e := trace.Event{At: at, Node: v, Peer: algo.None}
		switch i % 5 {
		case 0:
			k := edges[rng.IntN(len(edges))]
			e.Kind, e.Node, e.Peer = trace.LinkDown, k.A, k.B
		case 1:
			u := algo.NodeID(rng.IntN(g.N()))
			if u == v || rng.IntN(4) > 0 {
				continue
			}
			e.Kind, e.Node, e.Peer = trace.LinkUp, min(u, v), max(u, v)
		case 2:
			e.Kind = []trace.Kind{trace.Crashed, trace.Restarted}[rng.IntN(2)]
		default:
			e.Kind = trace.StatusChanged
			e.Status = algo.Status{Leader: algo.NodeID(rng.IntN(g.N())), State: algo.State(rng.IntN(3) / 2), Index: algo.Index{Num: 1}}
		}
		events = append(events, e)
	}
	events = append(events, trace.Event{At: at + time.Second, Kind: trace.End, Peer: algo.None})
	r := runBothWays(t, Config{Stabilization: 5 * time.Second, Liveness: 20 * time.Second, Spontaneous: true}, events)
	if r.ViolationCount == 0 || len(r.Components) < 2 {
		t.Errorf("the run should exercise violations and splits: %d violations, %d components", r.ViolationCount, len(r.Components))
	}
	if got := g.Edges(); !slices.Equal(got, edges) {
		t.Errorf("shared graph edges changed")
	}
	for v := range nbrs {
		if got := g.Neighbors(algo.NodeID(v)); !slices.Equal(got, nbrs[v]) {
			t.Errorf("neighbours of %d changed: %v, were %v", v, got, nbrs[v])
		}
	}
}

// checkInvariants recomputes every component's counters from its members
// and compares them with the Monitor's incremental ones. Valid only when no
// recompute is pending, nor a value change (settleValues).
func checkInvariants(m *Monitor) error {
	if m.dirty || len(m.valued) > 0 {
		return nil
	}
	type counts struct {
		size, notSettled, electing, distinct, correct, touched, waiting int32
		best                                                            algo.Peer
	}
	got := map[int32]*counts{}
	leaders := map[int32]map[algo.NodeID]int32{}
	for v := range algo.NodeID(len(m.nodes)) {
		c := m.rec(v).comp
		if !m.rec(v).alive {
			if c >= 0 {
				return fmt.Errorf("dead node %d in component %d", v, c)
			}
			continue
		}
		if c < 0 {
			return fmt.Errorf("live node %d in no component", v)
		}
		k := got[c]
		if k == nil {
			k = &counts{best: algo.NoPeer}
			got[c] = k
			leaders[c] = map[algo.NodeID]int32{}
		}
		if got := m.compOf(v); got != c {
			return fmt.Errorf("node %d in component %d, but %d in its links record", v, c, got)
		}
		k.size++
		if m.rec(v).waiting {
			k.waiting++
		}
		if p := (algo.Peer{ID: v, Value: m.rec(v).value}); p.Better(k.best) && (!m.cfg.AmongInitiators || m.rec(v).initiated) {
			k.best = p
		}
		for _, u := range m.linksOf(v) {
			if m.rec(u).alive && m.rec(u).comp != c {
				return fmt.Errorf("linked live nodes %d and %d in components %d and %d", v, u, c, m.rec(u).comp)
			}
		}
	}
	for v := range algo.NodeID(len(m.nodes)) {
		c := m.rec(v).comp
		if c < 0 {
			continue
		}
		k, s := got[c], m.rec(v).status
		if !s.Index.IsZero() {
			k.touched++
		}
		if s.State != algo.Norm {
			k.electing++
		}
		if !s.HasLeader() {
			k.notSettled++
			continue
		}
		if s.Leader == k.best.ID {
			k.correct++
		}
		if leaders[c][s.Leader] == 0 {
			k.distinct++
		}
		leaders[c][s.Leader]++
	}
	tallied := 0
	for c, k := range got {
		cs := &m.comps[c]
		have := counts{cs.size, cs.notSettled, cs.electing, cs.distinct, cs.correct, cs.touched, cs.waiting, cs.best}
		if have != *k {
			return fmt.Errorf("component %d: counters %+v, recomputed %+v", c, have, *k)
		}
		for l, n := range leaders[c] {
			if m.tally[tallyKey(c, l)] != n {
				return fmt.Errorf("component %d: tally of leader %d is %d, want %d", c, l, m.tally[tallyKey(c, l)], n)
			}
			tallied++
		}
	}
	if len(m.tally) != tallied {
		return fmt.Errorf("tally holds %d entries, want %d", len(m.tally), tallied)
	}
	for c := range m.comps {
		if _, ok := got[int32(c)]; !ok && m.comps[c].size != 0 {
			return fmt.Errorf("component %d has size %d but no member", c, m.comps[c].size)
		}
	}
	return nil
}

// oracle is a brute-force model of a run: the network, the nodes' states,
// and when each node last saw a change.
type oracle struct {
	n        int
	up       map[topo.Edge]bool // carrying both ways: in the network, no direction cut
	phys     map[topo.Edge]bool // in the network
	cut      map[[2]algo.NodeID]bool
	alive    []bool
	value    []int64
	status   []algo.Status
	touchedT []time.Duration
	// among, when set, are the nodes that may lead (initiators, under
	// Config.AmongInitiators).
	among []bool
	// atElection holds value changes back (Config.ValueAtElection): a
	// node's new value (next) waits (waiting) until an instant ends in
	// which a node of its component was touched.
	atElection bool
	waiting    []bool
	next       []int64
	// before holds, for the live nodes whose values changed in the
	// instant (without atElection), their values before it: a component
	// whose most valued node the instant's changes changed is touched.
	before map[algo.NodeID]int64
	now    time.Duration
	// node-time, integrated between events
	aliveT, leaderlessT time.Duration
}

func newOracle(n int) *oracle {
	o := &oracle{n: n, up: map[topo.Edge]bool{}, phys: map[topo.Edge]bool{}, cut: map[[2]algo.NodeID]bool{}, alive: make([]bool, n), value: make([]int64, n),
		status: make([]algo.Status, n), touchedT: make([]time.Duration, n)}
	for v := range o.status {
		o.status[v].Leader = algo.None
	}
	return o
}

// cutAny says a direction of link k is cut.
func (o *oracle) cutAny(k topo.Edge) bool {
	return o.cut[[2]algo.NodeID{k.A, k.B}] || o.cut[[2]algo.NodeID{k.B, k.A}]
}

func (o *oracle) linked(a, b algo.NodeID) bool {
	return o.up[topo.Edge{A: min(a, b), B: max(a, b)}]
}

func (o *oracle) apply(e trace.Event) {
	if e.At > o.now {
		o.endInstant()
		for v := range o.n {
			if o.alive[v] {
				o.aliveT += e.At - o.now
				if !o.status[v].HasLeader() {
					o.leaderlessT += e.At - o.now
				}
			}
		}
		o.now = e.At
	}
	v := e.Node
	switch e.Kind {
	case trace.NodeAdded:
		o.alive[v], o.value[v] = true, e.Value
	case trace.LinkUp, trace.LinkDown:
		k := topo.Edge{A: e.Node, B: e.Peer}
		o.phys[k] = e.Kind == trace.LinkUp
		if !o.cutAny(k) {
			o.up[k] = o.phys[k]
			o.touchedT[e.Node], o.touchedT[e.Peer] = o.now, o.now
		}
	case trace.Cut, trace.Uncut:
		o.cut[[2]algo.NodeID{e.Node, e.Peer}] = e.Kind == trace.Cut
		k := topo.Edge{A: min(e.Node, e.Peer), B: max(e.Node, e.Peer)}
		if up := o.phys[k] && !o.cutAny(k); up != o.up[k] {
			o.up[k] = up
			o.touchedT[e.Node], o.touchedT[e.Peer] = o.now, o.now
		}
	case trace.ClockRate, trace.ClockJumped, trace.Slowed:
		o.touchedT[v] = o.now
	case trace.Crashed:
		if o.alive[v] {
			o.alive[v] = false
			o.status[v] = algo.Status{Leader: algo.None}
			for u := range o.n {
				if o.linked(v, algo.NodeID(u)) {
					o.touchedT[u] = o.now
				}
			}
		}
	case trace.Restarted, trace.Recovered:
		if !o.alive[v] {
			o.alive[v] = true
			o.status[v] = algo.Status{Leader: algo.None}
			o.touchedT[v] = o.now
		}
	case trace.StatusChanged:
		if o.alive[v] {
			o.status[v] = e.Status
		}
	case trace.ValueChanged:
		if o.atElection {
			if o.waiting == nil {
				o.waiting, o.next = make([]bool, o.n), make([]int64, o.n)
			}
			o.waiting[v], o.next[v] = true, e.Value
			break
		}
		if _, seen := o.before[v]; !seen && o.alive[v] {
			if o.before == nil {
				o.before = map[algo.NodeID]int64{}
			}
			o.before[v] = o.value[v]
		}
		o.value[v] = e.Value
	case trace.ElectCalled:
		o.touchedT[v] = o.now
		if o.among != nil {
			o.among[v] = true
		}
	case trace.End:
		o.endInstant()
	}
}

// endInstant ends the instant o.now under atElection: the nodes of a
// component that holds a node touched in it take up their waiting values.
func (o *oracle) endInstant() {
	if len(o.before) > 0 {
		for _, comp := range o.components() {
			after := o.mostValued(comp)
			for v, x := range o.before {
				o.before[v], o.value[v] = o.value[v], x
			}
			then := o.mostValued(comp)
			for v, x := range o.before {
				o.before[v], o.value[v] = o.value[v], x
			}
			if after != then {
				o.touchedT[comp[0]] = o.now
			}
		}
		clear(o.before)
	}
	if o.waiting == nil {
		return
	}
	for _, comp := range o.components() {
		if !slices.ContainsFunc(comp, func(v algo.NodeID) bool { return o.touchedT[v] == o.now }) {
			continue
		}
		for _, v := range comp {
			if o.waiting[v] {
				o.waiting[v], o.value[v] = false, o.next[v]
			}
		}
	}
}

// components lists the connected components of live nodes, each ascending,
// ordered by smallest node, by breadth-first search.
func (o *oracle) components() [][]algo.NodeID {
	seen := make([]bool, o.n)
	var out [][]algo.NodeID
	for s := range o.n {
		if !o.alive[s] || seen[s] {
			continue
		}
		seen[s] = true
		comp := []algo.NodeID{algo.NodeID(s)}
		for i := 0; i < len(comp); i++ {
			for u := range o.n {
				if !seen[u] && o.alive[u] && o.linked(comp[i], algo.NodeID(u)) {
					seen[u] = true
					comp = append(comp, algo.NodeID(u))
				}
			}
		}
		slices.Sort(comp)
		out = append(out, comp)
	}
	return out
}

// mostValued is the most valued node of comp that may lead.
func (o *oracle) mostValued(comp []algo.NodeID) algo.NodeID {
	bp := algo.NoPeer
	for _, v := range comp {
		if p := (algo.Peer{ID: v, Value: o.value[v]}); p.Better(bp) && (o.among == nil || o.among[v]) {
			bp = p
		}
	}
	return bp.ID
}

// judge returns what the specification says of a component's current state.
func (o *oracle) judge(comp []algo.NodeID) (best algo.NodeID, disagree, settled, reached bool, since time.Duration) {
	bp := algo.NoPeer
	for _, v := range comp {
		if p := (algo.Peer{ID: v, Value: o.value[v]}); p.Better(bp) && (o.among == nil || o.among[v]) {
			bp = p
		}
		since = max(since, o.touchedT[v])
	}
	settled = true
	leader := algo.None
	for _, v := range comp {
		s := o.status[v]
		reached = reached || !s.Index.IsZero()
		if !s.HasLeader() || s.Leader != bp.ID {
			settled = false
		}
		if s.HasLeader() {
			if leader != algo.None && leader != s.Leader {
				disagree = true
			}
			leader = s.Leader
		}
	}
	return bp.ID, disagree, settled, reached, since
}

// randomRun generates a run on a random small network: link changes, crashes,
// restarts, value changes and statuses, with time steps of all sizes so that
// deadlines pass, coincide with events or not.
func randomRun(rng *rand.Rand) (Config, []trace.Event) {
	n := 1 + rng.IntN(10)
	var edges []topo.Edge
	p := rng.Float64()
	for a := range n {
		for b := a + 1; b < n; b++ {
			if rng.Float64() < p {
				edges = append(edges, topo.Edge{A: algo.NodeID(a), B: algo.NodeID(b)})
			}
		}
	}
	g := topo.New(n, edges)
	cfg := Config{
		Stabilization: time.Duration(rng.IntN(4)) * 5 * time.Second,
		Liveness:      time.Duration(1+rng.IntN(4)) * 10 * time.Second,
		Spontaneous:   rng.IntN(2) == 0,
		MaxViolations: 1000,
	}
	o := newOracle(n)
	var events []trace.Event
	emit := func(e trace.Event) {
		o.apply(e)
		events = append(events, e)
	}
	for v := range n {
		emit(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: int64(rng.IntN(3))})
	}
	for _, e := range g.Edges() {
		emit(trace.Event{Kind: trace.LinkUp, Node: e.A, Peer: e.B})
	}
	at := time.Duration(0)
	node := func() algo.NodeID { return algo.NodeID(rng.IntN(n)) }
	steps := rng.IntN(80)
	for range steps {
		switch rng.IntN(4) {
		case 0: // same instant
		case 1:
			at += time.Duration(1 + rng.IntN(1000))
		case 2:
			at += time.Duration(rng.IntN(5)) * 5 * time.Second // lands on deadlines
		case 3:
			at += time.Duration(rng.Int64N(int64(20 * time.Second)))
		}
		v := node()
		e := trace.Event{At: at, Node: v, Peer: algo.None}
		switch k := rng.IntN(20); {
		case k < 3:
			u := node()
			if u == v {
				continue
			}
			e.Kind = trace.LinkUp
			if k == 0 {
				e.Kind = trace.LinkDown
			}
			e.Node, e.Peer = min(u, v), max(u, v)
		case k < 5:
			e.Kind = trace.Crashed
		case k < 7:
			e.Kind = []trace.Kind{trace.Restarted, trace.Recovered}[rng.IntN(2)]
		case k < 8:
			e.Kind, e.Value = trace.ValueChanged, int64(rng.IntN(3))
		case k < 9:
			e.Kind = []trace.Kind{trace.ElectCalled, trace.Sent, trace.TimerFired}[rng.IntN(3)]
		case k < 12:
			// the component of v converges: everybody follows its best
			for _, comp := range o.components() {
				if !slices.Contains(comp, v) {
					continue
				}
				best, _, _, _, _ := o.judge(comp)
				for _, u := range comp {
					emit(trace.Event{At: at, Kind: trace.StatusChanged, Node: u, Peer: algo.None,
						Status: algo.Status{Leader: best, State: algo.Norm, Index: algo.Index{Num: 1, ID: best}}})
				}
			}
			continue
		default:
			e.Kind = trace.StatusChanged
			e.Status.Leader = algo.NodeID(rng.IntN(n+1) - 1)
			e.Status.State = algo.State(max(0, rng.IntN(5)-2))
			if rng.IntN(3) > 0 {
				e.Status.Index = algo.Index{Num: uint32(1 + rng.IntN(3)), ID: node()}
			}
		}
		emit(e)
	}
	if rng.IntN(2) == 0 {
		at += time.Duration(rng.Int64N(int64(40 * time.Second)))
	}
	emit(trace.Event{At: at, Kind: trace.End, Peer: algo.None, Quiescent: rng.IntN(2) == 0})
	// Drawn last, so that the runs drawn before stay as they were.
	cfg.AmongInitiators = !cfg.Spontaneous && rng.IntN(3) == 0
	cfg.ValueAtElection = rng.IntN(2) == 0
	cfg.ValuesMove = rng.IntN(4) == 0
	return cfg, events
}

// TestRandomRuns checks random runs against brute force: the final
// components (BFS), the leaderless fraction (integrated event by event),
// the unchecked and unreached counts, the verdict on the final state of a
// quiescent run, the internal counters after every event, and that the
// network-sharing run gives the same report.
func TestRandomRuns(t *testing.T) {
	runs := 2000
	if testing.Short() {
		runs = 300
	}
	for seed := range uint64(runs) {
		cfg, events := randomRun(rand.New(rand.NewPCG(seed, 99)))
		fail := func(format string, args ...any) {
			t.Helper()
			var b strings.Builder
			fmt.Fprintf(&b, "config %+v\n", cfg)
			for _, e := range events {
				fmt.Fprintf(&b, "  %v %v node %d peer %d value %d status %+v q=%v\n", e.At, e.Kind, e.Node, e.Peer, e.Value, e.Status, e.Quiescent)
			}
			t.Fatalf("seed %d: %s\n%s", seed, fmt.Sprintf(format, args...), b.String())
		}
		m := New(cfg)
		o := newOracle(initialNetwork(events).N())
		o.atElection = cfg.ValueAtElection
		if cfg.AmongInitiators {
			o.among = make([]bool, o.n) // the most valued initiator's, as the Monitor's
		}
		for i, e := range events {
			o.apply(e)
			ev := e
			m.Observe(&ev)
			if err := checkInvariants(m); err != nil {
				fail("after event %d (%v %v): %v", i, e.At, e.Kind, err)
			}
		}
		r := m.Report()

		shared := cfg
		shared.Network = initialNetwork(events)
		if r2 := feed(shared, events).Report(); !reflect.DeepEqual(r, r2) {
			fail("Config.Network changes the report:\n%s\n%s", describe(r), describe(r2))
		}

		comps := o.components()
		if !reflect.DeepEqual(r.Components, comps) {
			fail("components %v, BFS gives %v", r.Components, comps)
		}
		want := 0.0
		if o.aliveT > 0 {
			want = float64(o.leaderlessT) / float64(o.aliveT)
		}
		if math.Abs(r.LeaderlessFraction-want) > 1e-12 {
			fail("leaderless %v, want %v", r.LeaderlessFraction, want)
		}
		end := events[len(events)-1]
		initiated := map[algo.NodeID]bool{}
		for _, e := range events {
			if e.Kind == trace.ElectCalled {
				initiated[e.Node] = true
			}
		}
		unchecked, unreached := 0, 0
		for _, comp := range comps {
			_, disagree, settled, reached, since := o.judge(comp)
			inScope := cfg.Spontaneous || reached || slices.ContainsFunc(comp, func(v algo.NodeID) bool { return initiated[v] })
			if !inScope {
				unreached++
			}
			if inScope && !end.Quiescent && since+cfg.Liveness > end.At {
				unchecked++
			}
			if !end.Quiescent {
				continue
			}
			// A quiescent end judges the final state: a violation of each
			// kind it breaks, within this component's lifetime.
			if disagree && !hasViolation(r, "safety", comp, since) {
				fail("component %v disagrees at the quiescent end, no safety violation since %v:\n%s", comp, since, describe(r))
			}
			if inScope && !settled && !hasViolation(r, "liveness", comp, since) {
				fail("component %v is not settled at the quiescent end, no liveness violation since %v:\n%s", comp, since, describe(r))
			}
		}
		if r.Unchecked != unchecked || r.Unreached != unreached {
			fail("unchecked %d unreached %d, want %d and %d:\n%s", r.Unchecked, r.Unreached, unchecked, unreached, describe(r))
		}
		if r.ViolationCount != len(r.Violations) {
			fail("%d violations counted, %d in detail", r.ViolationCount, len(r.Violations))
		}
		for i, v := range r.Violations {
			if v.At > end.At || (i > 0 && v.At < r.Violations[i-1].At) || len(v.Nodes) == 0 {
				fail("violation %d out of order or without nodes: %v", i, v)
			}
		}
		for i, e := range r.Elections {
			if e.Start > e.End || e.End > end.At || e.Nodes < 1 || (i > 0 && e.End < r.Elections[i-1].End) {
				fail("bad election %d: %+v", i, e)
			}
		}
		ref := refCheck(cfg, events)
		if got, want := sortedViolations(r.Violations), sortedViolations(ref.violations); !reflect.DeepEqual(got, want) {
			fail("violations differ from the reference:\n got %v\nwant %v", got, want)
		}
		if got, want := sortedElections(r.Elections), sortedElections(ref.elections); !slices.Equal(got, want) {
			fail("elections differ from the reference:\n got %v\nwant %v", got, want)
		}
		if r.OpenElections != ref.open || r.Unchecked != ref.unchecked || r.Unreached != ref.unreached {
			fail("open/unchecked/unreached %d/%d/%d, reference %d/%d/%d", r.OpenElections, r.Unchecked, r.Unreached, ref.open, ref.unchecked, ref.unreached)
		}
		if len(r.Notes) != ref.notes {
			fail("notes %q, the reference wants %d", r.Notes, ref.notes)
		}
		if r.OpenElections > len(r.Components) {
			fail("%d open elections in %d components", r.OpenElections, len(r.Components))
		}
	}
}

func hasViolation(r Report, property string, comp []algo.NodeID, since time.Duration) bool {
	for _, v := range r.Violations {
		if v.Property != property || v.At < since {
			continue
		}
		inside := true
		for _, u := range v.Nodes {
			inside = inside && slices.Contains(comp, u)
		}
		if inside {
			return true
		}
	}
	return false
}
