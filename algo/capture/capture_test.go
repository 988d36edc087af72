package capture_test

import (
	"fmt"
	"math/bits"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/capture"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

const P = algo.PulseLength

// ceilLog2 is ceil(log2 n), floorLog2 floor(log2 n), for n >= 1.
func ceilLog2(n int) int  { return bits.Len(uint(n - 1)) }
func floorLog2(n int) int { return bits.Len(uint(n)) - 1 }

// watch follows a run: messages by type, capture attempts (the first
// capture from a candidate to a node), the time of the last status change
// and the statuses.
type watch struct {
	by       map[algo.MsgType]int
	attempts map[[2]algo.NodeID]bool
	last     time.Duration
	state    map[algo.NodeID]algo.State
	// before, if set, is called before each event with its time.
	before func(at time.Duration)
}

func newWatch() *watch {
	return &watch{by: map[algo.MsgType]int{}, attempts: map[[2]algo.NodeID]bool{}, state: map[algo.NodeID]algo.State{}}
}

func (w *watch) Observe(e *trace.Event) {
	if w.before != nil {
		w.before(e.At)
	}
	switch e.Kind {
	case trace.Sent:
		w.by[e.Msg.Type]++
		if e.Msg.Type == 0 { // capture, in both capture algorithms
			w.attempts[[2]algo.NodeID{e.Node, e.Peer}] = true
		}
	case trace.StatusChanged:
		w.last = e.At
		w.state[e.Node] = e.Status.State
	}
}

func (w *watch) count(s algo.State) int {
	c := 0
	for _, st := range w.state {
		if st == s {
			c++
		}
	}
	return c
}

type spec struct {
	alg        string
	n          int
	seed       uint64
	values     sim.ValueMode
	candidates string // "" for the default
	order      string
	delay      sim.Delay
	events     []sim.Action
}

func (c spec) String() string {
	return fmt.Sprintf("%s n=%d seed=%d values=%d candidates=%q order=%q", c.alg, c.n, c.seed, c.values, c.candidates, c.order)
}

// run runs c through runner.Run and requires the checker to find nothing
// and to have checked every component.
func run(t *testing.T, c spec, obs ...trace.Observer) *metrics.Summary {
	t.Helper()
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Duration = c.alg, fmt.Sprintf("complete:%d", c.n), c.seed, 0
	s.Values = sim.Values{Mode: c.values}
	s.Params = map[string]string{}
	if c.candidates != "" {
		s.Initiators = c.candidates
	}
	// With no candidate, no election is expected.
	s.Unelected = scenario.Uninitiated
	if c.order != "" {
		s.Params["order"] = c.order
	}
	if c.delay != (sim.Delay{}) {
		s.Delay = c.delay
	}
	s.Events = c.events
	// capture-async takes time linear in n (the winner captures the others
	// one at a time): give big networks longer than the default 30s.
	s.Check.Liveness = time.Hour
	sum := runtest.Run(t, s, obs...)
	if !sum.Quiescent {
		t.Fatalf("%v: the run did not end", c)
	}
	return sum
}

// leaderOf returns the leader every live node follows, failing if they
// differ or one has none.
func leaderOf(t *testing.T, c spec, sum *metrics.Summary) algo.NodeID {
	t.Helper()
	l := sum.Final[0].Leader
	for _, f := range sum.Final {
		if f.Leader != l || f.State != "Norm" || l == algo.None {
			t.Fatalf("%v: node %d follows %d in %s, node 0 follows %d", c, f.ID, f.Leader, f.State, l)
		}
	}
	return l
}

// mostValued is the most valued node of ids (nil: all) in sum.
func mostValued(sum *metrics.Summary, ids []algo.NodeID) algo.NodeID {
	best := algo.NoPeer
	for _, f := range sum.Final {
		if ids == nil {
			best = best.Max(algo.Peer{ID: f.ID, Value: f.Value})
		}
	}
	for _, id := range ids {
		best = best.Max(algo.Peer{ID: id, Value: sum.Final[id].Value})
	}
	return best.ID
}

// TestAllToAll: n(n-1) identity messages with every node a candidate, k(n-1)
// with k; every node decides at pulse 1, on the most valued candidate.
func TestAllToAll(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 30, 120} {
		for _, values := range []sim.ValueMode{sim.ValueID, sim.ValueRandom} {
			for seed := uint64(1); seed <= 3; seed++ {
				c := spec{alg: "all-to-all", n: n, seed: seed, values: values}
				w := newWatch()
				sum := run(t, c, w)
				if got := int(sum.Messages.Total); got != n*(n-1) {
					t.Errorf("%v: %d messages, want n(n-1) = %d", c, got, n*(n-1))
				}
				if w.last >= 2*P {
					t.Errorf("%v: last status change at %v, want within pulse 1", c, w.last)
				}
				if l := leaderOf(t, c, sum); l != mostValued(sum, nil) {
					t.Errorf("%v: leader %d, want %d", c, l, mostValued(sum, nil))
				}
			}
		}
	}
	// k candidates, the most valued (with values id: n-1) among them.
	for _, k := range [][]algo.NodeID{{19}, {0, 19}, {3, 5, 7, 19}} {
		c := spec{alg: "all-to-all", n: 20, values: sim.ValueID, candidates: nodeSet(k)}
		w := newWatch()
		sum := run(t, c, w)
		if got := int(sum.Messages.Total); got != len(k)*19 {
			t.Errorf("%v: %d messages, want k(n-1) = %d", c, got, len(k)*19)
		}
		if w.last >= 2*P {
			t.Errorf("%v: last status change at %v", c, w.last)
		}
		leaderOf(t, c, sum)
	}
}

func nodeSet(ids []algo.NodeID) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(id)
	}
	return s
}

// TestSubsetLeaderIsBestCandidate: with a subset of candidates that leaves
// out the most valued node, each algorithm elects the most valued
// candidate (the checker, which wants the most valued node, is not asked).
func TestSubsetLeaderIsBestCandidate(t *testing.T) {
	for _, alg := range []string{"all-to-all", "capture-sync", "capture-async"} {
		for seed := uint64(1); seed <= 5; seed++ {
			s := scenario.Default()
			s.Algorithm, s.Topology, s.Seed, s.Duration = alg, "complete:25", seed, 0
			cands := []algo.NodeID{2, 3, 11, 17, 20}
			s.Initiators = nodeSet(cands)
			sum, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := mostValued(sum, cands)
			for _, f := range sum.Final {
				if f.Leader != want || f.State != "Norm" {
					t.Fatalf("%s seed %d: node %d follows %d in %s, want %d", alg, seed, f.ID, f.Leader, f.State, want)
				}
			}
		}
	}
}

// TestElectEvent: with no candidates, an elect event at time 0 makes its
// node the only candidate; with no elect event nothing happens.
func TestElectEvent(t *testing.T) {
	for _, alg := range []string{"all-to-all", "capture-sync", "capture-async"} {
		c := spec{alg: alg, n: 9, values: sim.ValueID, candidates: "none",
			events: []sim.Action{{At: 0, Kind: sim.ElectAt, Nodes: []algo.NodeID{8}}}}
		sum := run(t, c)
		if l := leaderOf(t, c, sum); l != 8 {
			t.Errorf("%s: leader %d", alg, l)
		}
		c.events = nil
		sum = run(t, c)
		if sum.Messages.Total != 0 || sum.Unreached != 1 {
			t.Errorf("%s with no candidate: %d messages, %d unreached", alg, sum.Messages.Total, sum.Unreached)
		}
	}
}

// TestCaptureSyncBounds: Theorem 5.1 (at most floor(n/2^(k-1)) candidates
// left at pulse 2k, 1 <= k <= ceil(log n)-1) and Corollary 5.2 (at most
// 2n ceil(log n) - n captures and n ceil(log n) acks), plus the winner's n-1
// leader messages and the time: every node decides by pulse
// 2 ceil(log n) + 1.
func TestCaptureSyncBounds(t *testing.T) {
	sizes := []int{2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 129, 300}
	if !testing.Short() {
		sizes = append(sizes, 1000, 2000)
	}
	for _, n := range sizes {
		for _, values := range []sim.ValueMode{sim.ValueID, sim.ValueRandom} {
			for _, order := range []string{"rotate", "random"} {
				seeds := uint64(4)
				if n >= 1000 {
					seeds = 1
				}
				for seed := uint64(1); seed <= seeds; seed++ {
					c := spec{alg: "capture-sync", n: n, seed: seed, values: values, order: order}
					L := ceilLog2(n)
					w := newWatch()
					k := 1
					w.before = func(at time.Duration) {
						// At the start of pulse 2k+1 the candidates of
						// pulse 2k have all acted.
						for ; k <= L-1 && at >= time.Duration(2*k+1)*P; k++ {
							if got, bound := w.count(algo.Elect), n>>(k-1); got > bound {
								t.Errorf("%v: %d candidates at pulse %d, Theorem 5.1 allows %d", c, got, 2*k, bound)
							}
						}
					}
					sum := run(t, c, w)
					if l := leaderOf(t, c, sum); l != mostValued(sum, nil) {
						t.Errorf("%v: leader %d", c, l)
					}
					captures, acks, leaders := w.by[0], w.by[1], w.by[2]
					if captures > 2*n*L-n || acks > n*L || leaders != n-1 {
						t.Errorf("%v: %d captures (max %d), %d acks (max %d), %d leader (want %d)", c, captures, 2*n*L-n, acks, n*L, leaders, n-1)
					}
					if end := time.Duration(2*L+1)*P + P/2; w.last > end {
						t.Errorf("%v: last decision at %v, want by %v", c, w.last, end)
					}
				}
			}
		}
	}
}

// TestCaptureAsyncBounds: Corollary 5.4: at most 2n floor(log n) + n capture
// attempts, each of at most six messages: two captures, a check, an
// eliminate, an eliminated and an ack or nack. (Theorem 5.3, in every
// global state, is checked in theorem_test.go.)
func TestCaptureAsyncBounds(t *testing.T) {
	sizes := []int{2, 3, 4, 5, 7, 8, 16, 17, 50, 100, 257, 500}
	if !testing.Short() {
		sizes = append(sizes, 1000, 2000)
	}
	delays := []sim.Delay{{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond},
		{Kind: sim.Exponential, A: 3 * time.Millisecond}, sim.DefaultDelay}
	for _, n := range sizes {
		seeds := 8
		if n >= 500 {
			seeds = 2
		}
		for seed := 1; seed <= seeds; seed++ {
			c := spec{alg: "capture-async", n: n, seed: uint64(seed), values: sim.ValueMode(seed % 2),
				delay: delays[seed%len(delays)], order: []string{"rotate", "random"}[seed/2%2]}
			w := newWatch()
			sum := run(t, c, w)
			if l := leaderOf(t, c, sum); l != mostValued(sum, nil) {
				t.Errorf("%v: leader %d", c, l)
			}
			A := len(w.attempts)
			if bound := 2*n*floorLog2(n) + n; A > bound {
				t.Errorf("%v: %d capture attempts, Corollary 5.4 allows %d", c, A, bound)
			}
			by := func(name string) int {
				return int(sum.Messages.ByType[name])
			}
			if by("capture") > 2*A || by("check") > A || by("eliminate") > by("check") ||
				by("eliminated") > by("eliminate") || by("ack")+by("nack") > A+by("eliminate") {
				t.Errorf("%v: %d attempts, messages %v", c, A, sum.Messages.ByType)
			}
			if total := int(sum.Messages.Total) - by("leader"); total > 6*A {
				t.Errorf("%v: %d messages for %d attempts, more than six each", c, total, A)
			}
			if by("leader") != n-1 {
				t.Errorf("%v: %d leader messages, want %d", c, by("leader"), n-1)
			}
		}
	}
}
