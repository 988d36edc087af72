package park

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// The network of the document's Figure 1: A is the source; B and C are its
// neighbours and each other's; D hangs off B and F off C ("the node D and F
// also send the Ack messages to the source node when they received the
// Election messages from the B and C respectively"); E joins D and F. The
// figure's values are in its picture, not its text; the text says D is the
// most valued, and these values make it so.
const (
	A algo.NodeID = iota
	B
	C
	D
	E
	F
)

var names = "ABCDEF"

func figure1() (*topo.Graph, map[algo.NodeID]int64) {
	g := topo.New(6, []topo.Edge{{A: A, B: B}, {A: A, B: C}, {A: B, B: C}, {A: B, B: D}, {A: C, B: F}, {A: D, B: E}, {A: E, B: F}})
	return g, map[algo.NodeID]int64{A: 2, B: 5, C: 4, D: 9, E: 6, F: 3}
}

func letters(ids []algo.NodeID) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteByte(names[id])
	}
	return "{" + b.String() + "}"
}

// sourceView records the source's lists each time they change.
type sourceView struct {
	src   **node
	steps []string
	acks  int
}

func (v *sourceView) Observe(e *trace.Event) {
	if e.Kind == trace.Sent && e.Msg.Type == Ack {
		v.acks++
	}
	if e.Kind == trace.Sent && e.Node == A && e.Msg.Type == Election {
		return // A is in the middle of scattering: its lists are half made
	}
	n := *v.src
	if n == nil || n.status != algo.Elect {
		return
	}
	var wl, cl []algo.NodeID
	for _, w := range n.wl {
		wl = append(wl, w.id)
	}
	for id := range n.cl {
		cl = append(cl, id)
	}
	slices.Sort(cl)
	step := fmt.Sprintf("wl=%s cl=%s", letters(wl), letters(cl))
	if len(v.steps) == 0 || v.steps[len(v.steps)-1] != step {
		v.steps = append(v.steps, step)
	}
}

// TestFigure1 walks the document's example: A scatters Election; B and C
// answer with their neighbours, which brings D and F into wl; their Acks,
// passed on by B and C, bring E; when E's Ack is in, wl is empty and A
// announces D, the most valued node.
func TestFigure1(t *testing.T) {
	g, values := figure1()
	var source *node
	view := &sourceView{src: &source}
	c := &config{up: adhoc.Config{Heartbeat: time.Second, Timeout: 3 * time.Second, Type: Heartbeat},
		resend: 500 * time.Millisecond, ackTimeout: 2 * time.Second, electionTimeout: 10 * time.Second}
	alg := &algo.Algorithm{Name: "park-figure1", Messages: MessageNames,
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			return func(id algo.NodeID) algo.Machine {
				n := c.newNode(id).(*node)
				if id == A {
					source = n
				}
				return &quiet{n, id == A}
			}, nil
		}}
	e, err := sim.New(sim.Config{Algorithm: alg, Graph: g, Values: sim.Values{Explicit: values}, Delay: sim.DefaultDelay,
		Duration: 500 * time.Millisecond, Observers: []trace.Observer{view}})
	if err != nil {
		t.Fatal(err)
	}
	e.Run()
	want := []string{
		"wl={BC} cl={A}",    // (a) A sends Election to B and C
		"wl={CD} cl={AB}",   // (b) B's Ack brings its neighbour D
		"wl={DF} cl={ABC}",  //     C's Ack brings F
		"wl={EF} cl={ABCD}", // (c) D's Ack, by way of B, brings E
		"wl={E} cl={ABCDF}", //     F's, by way of C
		"wl={} cl={ABCDEF}", // (d) E's Ack: wl is empty
	}
	if strings.Join(view.steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("the source's lists:\n%s\nwant:\n%s", strings.Join(view.steps, "\n"), strings.Join(want, "\n"))
	}
	for v := A; v <= F; v++ {
		if st, _ := e.Status(v); st.Leader != D || st.State != algo.Norm {
			t.Errorf("%c: %+v, want Norm following D", names[v], st)
		}
	}
	// Every Ack travels to A hop by hop: B and C are one hop away, D and F
	// two, E three.
	if view.acks != 1+1+2+2+3 {
		t.Errorf("%d Ack messages, want 9 (one per hop)", view.acks)
	}
}

// quiet is a node of the figure: only A starts an election, the others wait
// for one, as in the figure.
type quiet struct {
	*node
	source bool
}

func (q *quiet) Start(env algo.Env) {
	q.up.Leader, q.status = algo.NoPeer, algo.Norm
	if q.source {
		q.Elect(env)
	}
}
