package viz

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// valuesTrace is a run of 8 nodes on a ring, of values 0-7, that follow
// node 7: node 3's value rises to 5 at 1 s (below its leader's), node 4's
// to 20 at 2 s (above its leader 7's), all follow 4 from 3 s, 4's value
// falls to 1 at 4 s (below its follower 7's), node 6's to -3 at 5 s, the
// end at 6 s.
const valuesTrace = "testdata/values.jsonl"

// TestValueMarks: the timeline marks the value changes that crossed (a
// follower above its leader, a leader below a follower), in the story's
// words, and not the others; a node's history tells its value changes,
// from what; the state at a moment (GET /state, from chunks of 5 events)
// has each node's value and counts the value changes.
func TestValueMarks(t *testing.T) {
	r, srv := serveReplayChunks(t, valuesTrace, 5)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	got := faultMarks(r)
	want := []string{
		"2000 value: node 4's value rises to 20, above its leader 7's 7",
		"4000 value: the leader 4's value falls to 1, below node 7's 7",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	history := func(v int) []string { return changesOf(t, r, srv, v) }
	for v, want := range map[int][]string{
		3: {"3000 Norm, leader 4", "1000 value rises to 5 (was 3)", "1 Norm, leader 7"},
		4: {"4000 the leader 4's value falls to 1, below node 7's 7", "3000 Norm, leader 4",
			"2000 node 4's value rises to 20, above its leader 7's 7", "1 Norm, leader 7"},
		6: {"5000 value falls to -3 (was 6)", "3000 Norm, leader 4", "1 Norm, leader 7"},
	} {
		if got := history(v); !slices.Equal(got, want) {
			t.Errorf("node %d's history %q, want %q", v, got, want)
		}
	}
	for _, c := range []struct {
		ms      string
		values  []float64
		changes float64
	}{
		{"999", []float64{0, 1, 2, 3, 4, 5, 6, 7}, 0},
		{"1000", []float64{0, 1, 2, 5, 4, 5, 6, 7}, 1},
		{"3500", []float64{0, 1, 2, 5, 20, 5, 6, 7}, 2},
		{"4000", []float64{0, 1, 2, 5, 1, 5, 6, 7}, 3},
		{"9000", []float64{0, 1, 2, 5, 1, 5, -3, 7}, 4},
	} {
		_, _, b := httpGet(t, srv.URL+"/state?ms="+c.ms)
		s, _, err := decodeKeyframe(b)
		if err != nil {
			t.Fatalf("/state?ms=%s: %v", c.ms, err)
		}
		if !slices.Equal(s.value, c.values) || s.valueChanges != c.changes {
			t.Errorf("at %s ms: values %v, %g changes; want %v, %g", c.ms, s.value, s.valueChanges, c.values, c.changes)
		}
	}
}

// A node's history keeps the value changes that crossed no leader's to
// the last few (a value model changes a value every second), and every
// one that crossed.
func TestValueHistoryBounded(t *testing.T) {
	x, err := newIndex(trace.Header{Nodes: 2, Messages: []string{"m"}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ms := time.Millisecond
	events := []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Peer: algo.None, Value: 10},
		{Kind: trace.NodeAdded, Node: 1, Peer: algo.None, Value: 5},
	}
	for v := range algo.NodeID(2) {
		events = append(events, trace.Event{At: ms, Kind: trace.StatusChanged, Node: v, Peer: algo.None,
			Status: algo.Status{Leader: 0, State: algo.Norm, Index: algo.Index{Num: 1}}})
	}
	for i, x := range []int64{9, 4, 3, 2, 1, 0} {
		events = append(events, trace.Event{At: time.Duration(i+1) * time.Second, Kind: trace.ValueChanged, Node: 0, Peer: algo.None, Value: x})
	}
	for i := range events {
		if err := x.add(&events[i]); err != nil {
			t.Fatal(err)
		}
	}
	h, err := x.history(0, x.events)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range h.Changes {
		got = append(got, m.What)
	}
	want := []string{"value falls to 0 (was 1)", "value falls to 1 (was 2)", "value falls to 2 (was 3)",
		"the leader 0's value falls to 4, below node 1's 5", "Norm, leader 0"}
	if !slices.Equal(got, want) {
		t.Errorf("node 0's history %q, want %q", got, want)
	}
}

// valueView is what the page must say at a moment of a run whose values
// change: the words of the log (its changes' filter) for the last event,
// the start of the card of Node (selected), the counter of value changes.
type valueView struct {
	MS      float64 `json:"ms"`
	Log     string  `json:"log"`
	Node    int     `json:"node"`
	Card    string  `json:"card"`
	Counter string  `json:"counter"`
}

// TestBrowserValues replays valuesTrace (in chunks of 5 events, so that
// the moments are reached both from the server's states and by the page's
// own replay): the log says each value event as the story does, against
// the node's leader when it crossed and from what value when not; the
// card of the node selected shows its value as it changes; the counters
// count the changes; the timeline marks those that crossed.
func TestBrowserValues(t *testing.T) {
	browser(t)
	want := expected{ValueMarks: []string{
		"node 4's value rises to 20, above its leader 7's 7",
		"the leader 4's value falls to 1, below node 7's 7",
	}}
	// Out of order, the page jumps back and forth.
	want.Values = []valueView{
		{MS: 2000, Log: "node 4's value rises to 20, above its leader 7's 7", Node: 4, Card: "node 4: value 20, Norm, leader 7", Counter: "2 value changes"},
		{MS: 1000, Log: "node 3's value rises to 5 (was 3)", Node: 4, Card: "node 4: value 4, Norm, leader 7", Counter: "1 value change"},
		{MS: 4000, Log: "the leader 4's value falls to 1, below node 7's 7", Node: 4, Card: "node 4: value 1, Norm, leader", Counter: "3 value changes"},
		{MS: 5000, Log: "node 6's value falls to -3 (was 6)", Node: 6, Card: "node 6: value -3, Norm, leader 4", Counter: "4 value changes"},
	}
	_, srv := serveReplayChunks(t, valuesTrace, 5)
	drive(t, srv.URL+"/", want)
}
