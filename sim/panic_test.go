package sim

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/broken"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// events keeps a run's events.
type events []trace.Event

func (r *events) Observe(e *trace.Event) { *r = append(*r, *e) }

func ring(n int) *topo.Graph {
	var edges []topo.Edge
	for i := range n {
		edges = append(edges, topo.Edge{A: algo.NodeID(i), B: algo.NodeID((i + 1) % n)})
	}
	return topo.New(n, edges)
}

// runDouble runs the broken double bug on a ring of 4 from node 0.
func runDouble(t *testing.T, bug broken.Bug, more ...trace.Observer) (Result, events) {
	t.Helper()
	a, err := algo.Lookup(broken.Names[bug])
	if err != nil {
		t.Fatal(err)
	}
	var got events
	e, err := New(Config{Algorithm: a, Graph: ring(4), Initiators: []algo.NodeID{0},
		Delay: Delay{Kind: Constant, A: 1e6}, Observers: append([]trace.Observer{&got}, more...)})
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(), got
}

// A machine's panic ends the run: the engine recovers it and emits it as a
// Panicked event naming the node, the call (which message, from whom) and
// the algorithm's frames, then the End; Result.Panic says the same.
func TestMachinePanicEndsTheRun(t *testing.T) {
	for _, c := range []struct {
		bug  broken.Bug
		node algo.NodeID
		text []string
	}{
		// Node 1 hears of node 0's flood, a computation it did not start.
		{broken.Panic, 1, []string{"in Receive of flood from 0: assignment to entry in nil map; at github.com/electgo/elect/internal/broken.(*node).Receive (broken.go:"}},
		// The initiator sends a type it does not declare: its bug, though
		// the engine's code raises it.
		{broken.Undeclared, 0, []string{"in Elect: test-broken-undeclared node 0 sent message type 1, which its Messages (1 types) does not name; at github.com/electgo/elect/internal/broken.(*node)."}},
	} {
		t.Run(broken.Names[c.bug], func(t *testing.T) {
			res, got := runDouble(t, c.bug)
			p := res.Panic
			if p == nil {
				t.Fatalf("no panic in the result")
			}
			for _, w := range c.text {
				if !strings.Contains(p.Text, w) {
					t.Errorf("text %q lacks %q", p.Text, w)
				}
			}
			if p.Node != c.node || res.Quiescent || res.End != p.At || len(p.Stack) == 0 {
				t.Errorf("panic at node %d at %v, run ends at %v quiescent=%v; want node %d, the run ending there, not quiescent", p.Node, p.At, res.End, res.Quiescent, c.node)
			}
			n := len(got)
			if n < 2 || got[n-2].Kind != trace.Panicked || got[n-2].Text != p.Text || got[n-2].Node != p.Node || got[n-1].Kind != trace.End {
				t.Errorf("the events do not end with the panic, then the end: %+v", got[max(0, n-3):])
			}
		})
	}
	if res, _ := runDouble(t, broken.None); res.Panic != nil || !res.Quiescent {
		t.Errorf("the correct flood: panic %+v, quiescent %v", res.Panic, res.Quiescent)
	}
}

// panicky is an observer of elect's own (this package's) that panics at the
// first delivery: elect's bug, not the algorithm's.
type panicky struct{}

func (panicky) Observe(e *trace.Event) {
	if e.Kind == trace.Delivered {
		var m map[int]int
		m[0]++
	}
}

// A panic of elect's own code during a run is not the algorithm's: Run
// raises it again as an *InternalError, with the stack where it began.
func TestInternalPanicIsRaised(t *testing.T) {
	defer func() {
		v := recover()
		ie, ok := v.(*InternalError)
		if !ok {
			t.Fatalf("recovered %v (%T), want an *InternalError", v, v)
		}
		if ie.Theirs || !strings.Contains(string(ie.Stack), "sim.panicky.Observe") ||
			!strings.HasPrefix(ie.Error(), "internal error of elect (a bug of elect, not of the algorithm): panic: assignment to entry in nil map") {
			t.Errorf("%v; theirs %v; stack:\n%s", ie, ie.Theirs, ie.Stack)
		}
	}()
	runDouble(t, broken.None, panicky{})
	t.Fatal("the run did not panic")
}
