// Package ringtest is what the tests of the example ring algorithms share:
// a scenario on ring:N with the values laid out in a named arrangement, a
// run through elect's public runner that fails the test on any error or
// checker violation, and the judgement of its outcome (every node in Norm,
// following the most valued node, with an election index).
package ringtest

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// Sizes are the ring sizes the bound tests run: the smallest rings, powers
// of two and their neighbours, and a larger one.
var Sizes = []int{3, 4, 5, 8, 16, 17, 64, 100}

// Arrangement lays values on the ring's nodes.
type Arrangement struct {
	Name string
	// Seed is the run's seed, which also draws the random values.
	Seed uint64
	set  func(n int) sim.Values
}

// Ascending gives node v the value v (the scenario's "values: id"): the
// values rise along the ring and the best node, n-1, sits next to the worst.
func Ascending() Arrangement {
	return Arrangement{Name: "ascending", Seed: 1, set: func(int) sim.Values { return sim.Values{Mode: sim.ValueID} }}
}

// Descending gives node v the value n-1-v (an explicit value map).
func Descending() Arrangement {
	return Arrangement{Name: "descending", Seed: 1, set: func(n int) sim.Values {
		vs := sim.Values{Mode: sim.ValueID, Explicit: make(map[algo.NodeID]int64, n)}
		for v := range n {
			vs.Explicit[algo.NodeID(v)] = int64(n - 1 - v)
		}
		return vs
	}}
}

// BitReversal gives node v the value of v with its ⌈log₂ n⌉ bits in
// reverse order: on a ring of 2^k nodes, the values that survive each
// round of comparisons with the neighbours are spread evenly round the
// ring again (0 2 1 3, 0 4 2 6 1 5 3 7), so that every round halves the
// contenders and no fewer: the worst case of Franklin's algorithm.
func BitReversal() Arrangement {
	return Arrangement{Name: "bitreversal", Seed: 1, set: func(n int) sim.Values {
		vs := sim.Values{Mode: sim.ValueID, Explicit: make(map[algo.NodeID]int64, n)}
		k := Log2Ceil(n)
		for v := range n {
			vs.Explicit[algo.NodeID(v)] = int64(bits.Reverse64(uint64(v)) >> (64 - k))
		}
		return vs
	}}
}

// Random draws the values from the run's seed ("values: random").
func Random(seed uint64) Arrangement {
	return Arrangement{Name: fmt.Sprintf("random%d", seed), Seed: seed, set: func(int) sim.Values { return sim.Values{Mode: sim.ValueRandom} }}
}

// Explicit gives node v the value values[v].
func Explicit(values ...int64) Arrangement {
	return Arrangement{Name: fmt.Sprint(values), Seed: 1, set: func(int) sim.Values {
		vs := sim.Values{Mode: sim.ValueID, Explicit: make(map[algo.NodeID]int64, len(values))}
		for v, x := range values {
			vs.Explicit[algo.NodeID(v)] = x
		}
		return vs
	}}
}

// Arrangements are the ones every bound test runs: ascending, descending,
// bit reversal and random values with five seeds.
func Arrangements() []Arrangement {
	as := []Arrangement{Ascending(), Descending(), BitReversal()}
	for seed := uint64(1); seed <= 5; seed++ {
		as = append(as, Random(seed))
	}
	return as
}

// Scenario is a run of algorithm on ring:n with the arrangement's values,
// the algorithm's default initiators (the driver calls Elect on each at
// time 0), the default delays (uniform 1-5 ms, FIFO links) and no events,
// until no event is left.
func Scenario(algorithm string, n int, a Arrangement) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Params = algorithm, nil
	s.Topology, s.Seed = fmt.Sprintf("ring:%d", n), a.Seed
	s.Values = a.set(n)
	s.Duration = 0
	return s
}

// Result is a run's summary and every node's last status.
type Result struct {
	*metrics.Summary
	Status []algo.Status
}

// statuses remembers each node's last status from the run's events.
type statuses []algo.Status

func (st *statuses) Observe(e *trace.Event) {
	switch e.Kind {
	case trace.NodeAdded:
		for int(e.Node) >= len(*st) {
			*st = append(*st, algo.Status{Leader: algo.None})
		}
	case trace.StatusChanged:
		(*st)[e.Node] = e.Status
	}
}

// Run runs s and fails t if the run errs or the checker finds a violation.
func Run(t testing.TB, s *scenario.Scenario) Result {
	t.Helper()
	var st statuses
	sum := runtest.Run(t, s, &st)
	return Result{Summary: sum, Status: st}
}

// Elected fails t unless every node ended in Norm following the most valued
// node with a non-zero election index that names it, and returns that node.
func Elected(t testing.TB, r Result) algo.NodeID {
	t.Helper()
	best := runtest.FollowBest(t, r.Summary)
	if len(r.Status) != r.Nodes {
		t.Fatalf("statuses of %d nodes, want %d", len(r.Status), r.Nodes)
	}
	for v, s := range r.Status {
		if s.Index.IsZero() || s.Index.ID != best {
			t.Errorf("node %d: election index %v, want <k,%d> with k > 0", v, s.Index, best)
		}
	}
	return best
}

// Log2Ceil is ⌈log₂ n⌉ for n ≥ 1.
func Log2Ceil(n int) int {
	return bits.Len(uint(n - 1))
}
