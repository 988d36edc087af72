package metrics

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

func TestCounter(t *testing.T) {
	c := NewCounter(2)
	for _, e := range []trace.Event{
		{Kind: trace.Sent, Msg: algo.Message{Type: 0}},
		{Kind: trace.Sent, Msg: algo.Message{Type: 1}},
		{Kind: trace.Sent, Msg: algo.Message{Type: 1}},
		{Kind: trace.Delivered, Msg: algo.Message{Type: 1}},
		{Kind: trace.Dropped, Reason: trace.Lost, Msg: algo.Message{Type: 0}},
		{Kind: trace.StatusChanged},
	} {
		c.Observe(&e)
	}
	m := c.Messages([]string{"election", "ack"})
	if m.Total != 3 || m.ByType["election"] != 1 || m.ByType["ack"] != 2 || m.Delivered != 1 ||
		m.Dropped != 1 || m.DropReasons["loss"] != 1 || c.Events != 6 {
		t.Errorf("%+v, events %d", m, c.Events)
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWriteText(t *testing.T) {
	s := &Summary{
		Algorithm: "echo", Topology: "line:3", Nodes: 3, Edges: 2, Seed: 1, Quiescent: true,
		Messages:   Messages{Total: 6, ByType: map[string]uint64{"explorer": 2, "echo": 2, "info": 2}, Delivered: 6},
		Elections:  Elections{Completed: 1, MeanTimeMS: 4, MaxTimeMS: 4},
		Final:      []NodeFinal{{ID: 0, Leader: 2, State: "Norm"}, {ID: 1, Leader: 2, State: "Norm"}, {ID: 2, Leader: 2, State: "Norm"}, {ID: 3, Leader: algo.None, State: "Wait"}},
		Components: [][]algo.NodeID{{0, 1, 2}, {3}},
	}
	var b strings.Builder
	if err := WriteText(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"echo on line:3: 3 nodes, 2 edges, seed 1",
		"messages: 6 sent, 6 delivered, 0 dropped",
		"elections: 1 completed, mean 4.000 ms",
		"3 nodes (0, 1, ... 2): leader 2",
		"1 node (3): 1 without a leader",
		"check: OK",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	s.ViolationCount = 1
	s.Violations = []Violation{{AtMS: 30000, Property: "liveness", Reason: "not settled"}}
	b.Reset()
	WriteText(&b, s)
	if !strings.Contains(b.String(), "1 VIOLATION(S)") || !strings.Contains(b.String(), "at 30000.000 ms, liveness: not settled") {
		t.Errorf("violations not shown:\n%s", b.String())
	}
}
