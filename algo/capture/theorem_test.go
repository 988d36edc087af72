package capture

import (
	"fmt"
	"math/bits"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// complete is the complete graph on n nodes.
func complete(n int) *topo.Graph {
	var es []topo.Edge
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			es = append(es, topo.Edge{A: algo.NodeID(u), B: algo.NodeID(v)})
		}
	}
	return topo.New(n, es)
}

// asyncRun runs capture-async on complete:n with the registered
// algorithm's Build, keeping a pointer to every machine.
func asyncRun(t *testing.T, n int, seed uint64, params map[string]string, delay sim.Delay, obs func([]*asyncNode) trace.Observer) ([]*asyncNode, *sim.Engine, sim.Result) {
	t.Helper()
	reg, err := algo.Lookup("capture-async")
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]*asyncNode, n)
	a := *reg
	a.Build = func(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
		mk, err := reg.Build(p, n)
		if err != nil {
			return nil, err
		}
		return func(id algo.NodeID) algo.Machine {
			m := mk(id)
			nodes[id] = m.(*asyncNode)
			return m
		}, nil
	}
	var observers []trace.Observer
	if obs != nil {
		observers = append(observers, obs(nodes))
	}
	initiators, _, err := a.Initiators("", params, n)
	if err != nil {
		t.Fatal(err)
	}
	e, err := sim.New(sim.Config{Algorithm: &a, Params: params, Graph: complete(n), Seed: seed, Initiators: initiators,
		Values: sim.Values{Mode: sim.ValueMode(seed % 2)}, Delay: delay, Observers: observers})
	if err != nil {
		t.Fatal(err)
	}
	return nodes, e, e.Run()
}

// levels watches Theorem 5.3 in every global state: between any two inputs
// (a delivery or a timer), at most floor(n / (2^k - 1)) candidates are at
// level k, 1 <= k <= floor(log2 n). The node of the last input is read
// again before each input and at the end; for small networks every machine
// is read again, and the counts compared.
type levels struct {
	t       *testing.T
	name    string
	nodes   []*asyncNode
	seen    []int32 // level of each candidate as last read; -1: not a candidate
	count   []int   // candidates by level
	started bool
	cur     algo.NodeID
	checks  int
	top     int32 // the highest level a candidate was seen at
	failed  bool
}

func newLevels(t *testing.T, name string, nodes []*asyncNode) *levels {
	return &levels{t: t, name: name, nodes: nodes, seen: make([]int32, len(nodes)), count: make([]int, 64), cur: algo.None}
}

func (l *levels) read(v algo.NodeID) {
	if s := l.seen[v]; s >= 0 {
		l.count[s]--
	}
	a := l.nodes[v]
	l.seen[v] = -1
	if a.candidate {
		if want := int32(bits.Len(uint(a.owns+1)) - 1); a.level != want {
			l.fail("candidate %d: level %d with %d owned", v, a.level, a.owns)
		}
		l.seen[v] = a.level
		l.count[a.level]++
		l.top = max(l.top, a.level)
	}
}

func (l *levels) fail(format string, args ...any) {
	if !l.failed {
		l.t.Errorf(l.name+": "+format, args...)
	}
	l.failed = true
}

func (l *levels) Observe(e *trace.Event) {
	switch e.Kind {
	case trace.Delivered, trace.TimerFired, trace.End:
	default:
		return
	}
	n := len(l.nodes)
	if !l.started {
		l.started = true
		for v := range l.seen {
			l.seen[v] = -1
			l.read(algo.NodeID(v))
		}
	} else if l.cur != algo.None {
		l.read(l.cur)
	}
	l.cur = e.Node
	if n <= 128 {
		for v := range l.nodes {
			a := l.nodes[v]
			if a.candidate != (l.seen[v] >= 0) || a.candidate && a.level != l.seen[v] {
				l.fail("node %d changed outside its own input", v)
			}
		}
	}
	l.checks++
	for k := 1; k <= bits.Len(uint(n))-1; k++ {
		if bound := n / (1<<k - 1); l.count[k] > bound {
			l.fail("at %v: %d candidates at level %d, Theorem 5.3 allows %d", e.At, l.count[k], k, bound)
		}
	}
	for k := bits.Len(uint(n)); k < len(l.count); k++ {
		if l.count[k] > 0 {
			l.fail("at %v: %d candidates at level %d > floor(log2 %d)", e.At, l.count[k], k, n)
		}
	}
}

// TestTheorem53 checks Theorem 5.3 after every input of runs of many sizes,
// seeds, delays and orders, and that the runs elect the most valued node.
func TestTheorem53(t *testing.T) {
	sizes := []int{2, 3, 4, 7, 8, 15, 16, 40, 64, 128, 200, 513}
	if !testing.Short() {
		sizes = append(sizes, 1000, 2000)
	}
	delays := []sim.Delay{{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond},
		{Kind: sim.Exponential, A: 3 * time.Millisecond}, {Kind: sim.Uniform, A: 0, B: 20 * time.Millisecond}}
	for _, n := range sizes {
		seeds := 10
		if n > 200 {
			seeds = 2
		}
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			order := []string{"rotate", "random"}[seed%2]
			name := fmt.Sprintf("n=%d seed=%d order=%s", n, seed, order)
			var lv *levels
			nodes, e, res := asyncRun(t, n, seed, map[string]string{"order": order}, delays[seed%3],
				func(nodes []*asyncNode) trace.Observer { lv = newLevels(t, name, nodes); return lv })
			if n >= 64 && lv.top < 2 {
				t.Errorf("%s: no candidate seen above level %d", name, lv.top)
			}
			if !res.Quiescent || lv.checks == 0 {
				t.Fatalf("%s: quiescent %v, %d checks", name, res.Quiescent, lv.checks)
			}
			best := algo.NoPeer
			for v := range nodes {
				best = best.Max(algo.Peer{ID: algo.NodeID(v), Value: e.Value(algo.NodeID(v))})
			}
			for v := range nodes {
				if st, _ := e.Status(algo.NodeID(v)); st.Leader != best.ID || st.State != algo.Norm {
					t.Fatalf("%s: node %d: %+v, want Norm following %d", name, v, st, best.ID)
				}
			}
		}
	}
}
