package metrics

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Three nodes on a line follow node 2. The link 1-2 breaks at 1s: nodes 0
// and 1 still name 2 but cannot reach it, until 1 takes up 1 at 2s (0 never
// does); node 0 crashes at 3s. Sampled every 500ms up to 4s.
func TestReach(t *testing.T) {
	mon := check.New(check.Config{})
	r := NewReach(500*time.Millisecond, mon)
	none, s := algo.None, time.Second
	led := func(at time.Duration, v, l algo.NodeID) trace.Event {
		return trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: none, Status: algo.Status{Leader: l}}
	}
	for _, e := range []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Peer: none},
		{Kind: trace.NodeAdded, Node: 1, Peer: none},
		{Kind: trace.NodeAdded, Node: 2, Peer: none},
		{Kind: trace.LinkUp, Node: 0, Peer: 1},
		{Kind: trace.LinkUp, Node: 1, Peer: 2},
		led(0, 0, 2), led(0, 1, 2), led(0, 2, 2),
		{At: s, Kind: trace.LinkDown, Node: 1, Peer: 2, Moved: true},
		led(2*s, 1, 1),
		{At: 3 * s, Kind: trace.Crashed, Node: 0, Peer: none},
		{At: 3 * s, Kind: trace.StatusChanged, Node: 2, Peer: none, Status: algo.Status{Leader: 2, State: algo.Elect}}, // electing: not led
		led(3200*time.Millisecond, 2, 2),
		{At: 4 * s, Kind: trace.End, Peer: none},
	} {
		r.Observe(&e) // before the checker, as the runner has it
		mon.Observe(&e)
	}
	// Samples at 0.5 (3 led of 3), 1 (the break is at 1s: 1 of 3), 1.5 (1
	// of 3), 2 (2 of 3), 2.5 (2 of 3), 3 (1 of 2: node 2 is electing), 3.5 (2
	// of 2), 4 (2 of 2).
	if r.samples != 21 || r.led != 14 {
		t.Errorf("%d led of %d samples, want 14 of 21", r.led, r.samples)
	}
	if got := r.Fraction(); got != 14.0/21 {
		t.Errorf("fraction %v", got)
	}
}
