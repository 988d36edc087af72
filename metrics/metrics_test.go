package metrics

import (
	"reflect"
	"strings"
	"testing"
	"time"

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

// The changes a mobile run is judged by: links that movement changed (not
// those a partition cut), computations started (a node taking up a new index
// of its own), and switches from one leader to another.
func TestCounterChanges(t *testing.T) {
	c := NewCounter(1)
	late := NewCounter(1) // counts from the first minute on
	late.From = time.Minute
	// An arranged counter (records in the emitter's layout, here 1 before
	// 0) counts the same.
	arranged := NewCounter(1)
	arranged.Arrange([]int32{1, 0})
	// A late counter whose nodes are followed apart (Nodes) counts the same
	// as the late one.
	split := NewCounter(1)
	split.From = time.Minute
	nodes := split.Nodes()
	none := algo.None
	st := func(at time.Duration, v algo.NodeID, leader algo.NodeID, num uint32, src algo.NodeID) trace.Event {
		return trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: none,
			Status: algo.Status{Leader: leader, Index: algo.Index{Num: num, ID: src}}}
	}
	minute := time.Minute
	for _, e := range []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Peer: none},
		{Kind: trace.NodeAdded, Node: 1, Peer: none},
		{Kind: trace.LinkUp, Node: 0, Peer: 1},                            // initial: not moved
		{At: minute, Kind: trace.LinkDown, Node: 0, Peer: 1, Moved: true}, // 1
		{At: minute, Kind: trace.LinkUp, Node: 0, Peer: 1, Moved: true},   // 2
		{At: minute, Kind: trace.LinkDown, Node: 0, Peer: 1},              // a partition's cut
		st(0, 0, none, 1, 0),      // 0 starts (1,0): 1
		st(0, 0, none, 1, 0),      // the same computation
		st(0, 1, none, 1, 0),      // 1 joins it: not a start
		st(0, 0, 0, 1, 0),         // first leader: no change
		st(0, 1, 0, 1, 0),         //
		st(minute, 1, none, 2, 1), // 1 starts (2,1): 2
		st(minute, 1, 1, 2, 1),    // 0 -> 1: change 1
		st(minute, 0, none, 2, 1), // lost its leader: no change
		st(minute, 0, 1, 2, 1),    // 0 -> 1: change 2
		st(minute, 0, 1, 3, 0),    // 0 starts (3,0): 3
		st(2*minute, 1, 1, 2, 1),  // same leader again
	} {
		c.Observe(&e)
		late.Observe(&e)
		arranged.Observe(&e)
		split.Observe(&e)
		nodes.Observe(&e)
	}
	split.split = false // the one field that differs
	if !reflect.DeepEqual(split, late) {
		t.Errorf("followed apart: %+v\nin one: %+v", split, late)
	}
	if arranged.ElectionsStarted != c.ElectionsStarted || arranged.LeaderChanges != c.LeaderChanges || arranged.seen[0] != c.seen[1] {
		t.Errorf("arranged: elections started %d, leader changes %d, records %+v; unarranged %d, %d, %+v",
			arranged.ElectionsStarted, arranged.LeaderChanges, arranged.seen, c.ElectionsStarted, c.LeaderChanges, c.seen)
	}
	if late.LinkChanges != 2 || late.ElectionsStarted != 2 || late.LeaderChanges != 2 {
		t.Errorf("from the first minute: link changes %d, elections started %d, leader changes %d; want 2, 2, 2", late.LinkChanges, late.ElectionsStarted, late.LeaderChanges)
	}
	if r := late.Rates(2*time.Minute, 6); r.ElectionsPerNodeMinute != 1 || r.MessagesPerNodeSecond != 0.05 {
		t.Errorf("rates over the second minute: %+v", r)
	}
	if c.LinkChanges != 2 || c.ElectionsStarted != 3 || c.LeaderChanges != 2 {
		t.Errorf("link changes %d, elections started %d, leader changes %d; want 2, 3, 2", c.LinkChanges, c.ElectionsStarted, c.LeaderChanges)
	}
	s := &Summary{EndMS: MS(2 * minute)}
	c.Fill(s, []string{"m"})
	want := Rates{ElectionsPerNodeMinute: 0.75, LeaderChangesPerNodeMinute: 0.5, LinkChangesPerNodeMinute: 1}
	if s.Rates != want || s.LinkChanges != 2 || s.ElectionsStarted != 3 || s.LeaderChanges != 2 {
		t.Errorf("summary %+v %+v, want rates %+v", s.Rates, s, want)
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
		Elections:  Elections{Completed: 1, MeanTimeMS: 4, MaxTimeMS: 4, List: []Election{{StartMS: 1500, EndMS: 1504, Nodes: 3, Leader: 2}}},
		Faults:     []Moment{{AtMS: 1000, What: "node 3 crashes"}},
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
		"the run:\n        1 s  node 3 crashes\n      1.5 s  3 nodes elect node 2 in 4.0 ms\n",
		"elections: 1 completed, mean 4.0 ms",
		"3 nodes (0-2): leader 2",
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
