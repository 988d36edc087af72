package journal

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

func TestGrayApply(t *testing.T) {
	g := Gray{}
	steps := []struct {
		e    trace.Event
		want string // node: request
	}{
		{trace.Event{Kind: trace.Cut, Node: 4, Peer: 0}, "0: [4] 0 0s 0s"},
		{trace.Event{Kind: trace.Cut, Node: 2, Peer: 0}, "0: [2 4] 0 0s 0s"},
		{trace.Event{Kind: trace.Cut, Node: 4, Peer: 0}, "0: [2 4] 0 0s 0s"},
		{trace.Event{Kind: trace.ClockRate, Node: 0, Value: trace.PPM(0.8)}, "0: [2 4] 0.8 0s 0s"},
		{trace.Event{Kind: trace.ClockJumped, Node: 0, Value: int64(-time.Hour)}, "0: [2 4] 0.8 -1h0m0s 0s"},
		{trace.Event{Kind: trace.Uncut, Node: 4, Peer: 0}, "0: [2] 0.8 0s 0s"},
		{trace.Event{Kind: trace.Slowed, Node: 3, Value: int64(200 * time.Millisecond)}, "3: [] 0 0s 200ms"},
		{trace.Event{Kind: trace.ClockRate, Node: 0, Value: trace.PPM(1)}, "0: [2] 0 0s 0s"},
	}
	for i, s := range steps {
		v, req := g.Apply(&s.e)
		if got := fmt.Sprintf("%d: %v %g %v %v", v, req.CutFrom, req.ClockRate, req.ClockJump, req.Slow); got != s.want {
			t.Errorf("step %d, %v: %s, want %s", i, s.e.Kind, got, s.want)
		}
	}
	if st, ok := g.Of(0); !ok || fmt.Sprint(st.CutFrom) != "[2]" || st.ClockJump != 0 {
		t.Errorf("node 0's state to set again: %+v, %v", st, ok)
	}
	g.Apply(&trace.Event{Kind: trace.Slowed, Node: 3})
	if _, ok := g.Of(3); ok {
		t.Errorf("node 3 on time again still has a state to set")
	}
	if _, ok := g.Of(algo.NodeID(7)); ok {
		t.Errorf("a node never touched has a state")
	}
}
