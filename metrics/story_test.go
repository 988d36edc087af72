package metrics

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// A run's faults from its events, in words, in time order: the network's
// declaration and the start's requests to elect left out, "the leader"
// named when the crashed node led (and not after it came back, until it
// leads again), links that movement changed left out,
// the nodes of one fault gathered, and a fault spread over time (as the
// emulator stamps it) said to be.
func TestStory(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	ev := func(at time.Duration, k trace.Kind, v algo.NodeID) trace.Event {
		return trace.Event{At: at, Kind: k, Node: v, Peer: algo.None}
	}
	link := func(at time.Duration, k trace.Kind, a, b algo.NodeID, moved bool) trace.Event {
		return trace.Event{At: at, Kind: k, Node: a, Peer: b, Moved: moved}
	}
	status := func(at time.Duration, v, leader algo.NodeID, state algo.State) trace.Event {
		e := ev(at, trace.StatusChanged, v)
		e.Status = algo.Status{Leader: leader, State: state}
		return e
	}
	events := []trace.Event{
		ev(0, trace.NodeAdded, 0), ev(0, trace.NodeAdded, 1),
		link(0, trace.LinkUp, 0, 1, false), link(0, trace.LinkUp, 1, 2, false),
		ev(0, trace.ElectCalled, 0),
		status(1*s, 34, 34, algo.Norm), status(1*s, 2, 34, algo.Norm), status(1*s, 5, 5, algo.Norm),
		ev(10*s, trace.Crashed, 34),
		ev(20*s, trace.Crashed, 5), ev(20*s, trace.Crashed, 2),
		ev(25*s, trace.Recovered, 2),
		ev(26*s, trace.Recovered, 4), ev(26*s+3*ms, trace.Recovered, 7),
		link(30*s, trace.LinkDown, 1, 2, false), link(30*s, trace.LinkDown, 3, 4, false),
		link(31*s, trace.LinkDown, 5, 6, true),
		link(40*s, trace.LinkDown, 1, 7, false),
		ev(45*s, trace.ElectCalled, 7),
		status(46*s, 9, 9, algo.Norm), status(47*s, 9, 9, algo.Elect),
		ev(50*s, trace.Crashed, 9),
		ev(55*s, trace.Restarted, 9),
		link(60*s, trace.LinkUp, 1, 2, false), link(60*s, trace.LinkUp, 3, 4, false), link(60*s, trace.LinkUp, 1, 7, false),
		link(61*s, trace.LinkUp, 1, 7, false),
		ev(64*s, trace.Restarted, 34), ev(65*s, trace.Crashed, 34),
		ev(66*s, trace.Restarted, 5), status(67*s, 5, 5, algo.Norm),
		ev(70*s, trace.Crashed, 1), ev(70*s, trace.Crashed, 3), ev(70*s, trace.Crashed, 4), ev(70*s, trace.Crashed, 5),
		ev(70*s, trace.Crashed, 8), ev(70*s, trace.Crashed, 11), ev(70*s, trace.Crashed, 13),
		{At: 80 * s, Kind: trace.End},
	}
	want := []string{
		"10 the leader, node 34, crashes",
		"20 nodes 2 and 5 crash (among them the leader, node 5)",
		"25 node 2 recovers its state",
		"26 nodes 4 and 7 recover their state (over 3.0 ms)",
		"30 2 links go down",
		"40 link 1-7 goes down",
		"45 node 7 is asked to elect",
		"50 node 9 crashes",
		"55 node 9 restarts with no state",
		"60 3 links come back",
		"61 link 1-7 comes back",
		"64 node 34 restarts with no state",
		"65 node 34 crashes",
		"66 node 5 restarts with no state",
		"70 7 nodes (1, 3-5, 8 and 2 more, up to 13) crash (among them the leader, node 5)",
	}
	if got := storyOf(events); got != strings.Join(want, "\n") {
		t.Errorf("faults:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Fill tells the fault still being gathered when no End came (a run cut
// short), and a fault's nodes once each.
func TestStoryFillWithoutEnd(t *testing.T) {
	st := NewStory()
	for _, v := range []algo.NodeID{3, 1, 3} {
		st.Observe(&trace.Event{At: time.Second, Kind: trace.Crashed, Node: v, Peer: algo.None})
	}
	var sum Summary
	st.Fill(&sum)
	if len(sum.Faults) != 1 || sum.Faults[0] != (Moment{AtMS: 1000, What: "nodes 1 and 3 crash"}) {
		t.Errorf("faults %+v", sum.Faults)
	}
}

// A component's ids as runs, all of them up to four, and past that how
// many more and the last, so that 15 nodes between 0 and 39 never read as
// 40.
func TestSpan(t *testing.T) {
	for _, c := range []struct {
		ids  []algo.NodeID
		want string
	}{
		{[]algo.NodeID{5}, "5"},
		{[]algo.NodeID{3, 4}, "3-4"},
		{[]algo.NodeID{3, 7}, "3, 7"},
		{[]algo.NodeID{0, 1, 2, 3, 5, 6, 9, 11, 12}, "0-3, 5-6, 9, 11-12"},
		{[]algo.NodeID{0, 1, 4, 7, 8, 9, 13, 17, 20, 21, 22, 30, 31, 35, 39}, "0-1, 4, 7-9 and 9 more, up to 39"},
	} {
		if got := span(c.ids); got != c.want {
			t.Errorf("span(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
}

// The time without a leader says over what time it was measured: to the
// end of a run stopped at its duration, until a quiet run's last event,
// and, when that run left every live node led, until their election ended.
func TestWriteLeaderless(t *testing.T) {
	led := []NodeFinal{{ID: 0, Alive: true, Leader: 1, State: "Norm"}, {ID: 1, Alive: true, Leader: 1, State: "Norm"}}
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{LeaderlessFraction: 0.0014, EndMS: 100000, Final: led},
			"without a leader: 0.14% of node-time\n"},
		{Summary{LeaderlessFraction: 0.8044, EndMS: 135, Quiescent: true, Settled: true, Final: led},
			"without a leader: 80.44% of node-time, until every node had its leader and the run went quiet at 135.0 ms\n"},
		{Summary{LeaderlessFraction: 0.5, EndMS: 2000, Quiescent: true, Settled: true, Final: append([]NodeFinal{{ID: 2}}, led...)},
			"without a leader: 50.00% of node-time, until every live node had its leader and the run went quiet at 2 s\n"},
		{Summary{LeaderlessFraction: 0.9, EndMS: 135, Quiescent: true, Final: led},
			"without a leader: 90.00% of node-time, until the run went quiet at 135.0 ms\n"},
	} {
		var b strings.Builder
		writeLeaderless(&b, &c.s)
		if b.String() != c.want {
			t.Errorf("%+v:\n%q, want\n%q", c.s, b.String(), c.want)
		}
	}
}

// Per-node rates are told for a run of a minute or more, and left out of a
// shorter one (a 150 ms wave is not 400 elections a minute); the counter
// says which.
func TestRatesOnlyOverAMinute(t *testing.T) {
	c := NewCounter(1)
	for v := range algo.NodeID(2) {
		c.Observe(&trace.Event{Kind: trace.NodeAdded, Node: v, Peer: algo.None})
		c.Observe(&trace.Event{At: time.Millisecond, Kind: trace.StatusChanged, Node: v, Peer: algo.None,
			Status: algo.Status{State: algo.Elect, Leader: algo.None, Index: algo.Index{Num: 1, ID: v}}})
	}
	for _, c2 := range []struct {
		end          time.Duration
		extrapolated bool
	}{{150 * time.Millisecond, true}, {59 * time.Second, true}, {time.Minute, false}, {100 * time.Second, false}} {
		s := &Summary{EndMS: MS(c2.end), Mobility: "waypoint"}
		c.Fill(s, []string{"m"})
		if s.Rates.Extrapolated != c2.extrapolated {
			t.Errorf("a run of %v: extrapolated %v, want %v", c2.end, s.Rates.Extrapolated, c2.extrapolated)
		}
		var b strings.Builder
		if err := WriteText(&b, s); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "per node:") == c2.extrapolated || strings.Contains(out, "per node a minute") == c2.extrapolated {
			t.Errorf("a run of %v (extrapolated %v):\n%s", c2.end, c2.extrapolated, out)
		}
		if !strings.Contains(out, "movement: 0 link changes") {
			t.Errorf("a run of %v: no link changes told:\n%s", c2.end, out)
		}
	}
}

// Gray failures are told as they struck: a direction of a link cut or
// carrying again, clocks at a rate (those at one rate gathered, others
// apart), true again, jumping, nodes slowed and on time again; those an
// Acted event tells are left to it.
func TestStoryGray(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	gray := func(at time.Duration, k trace.Kind, v algo.NodeID, value int64) trace.Event {
		return trace.Event{At: at, Kind: k, Node: v, Peer: algo.None, Value: value}
	}
	cut := func(at time.Duration, k trace.Kind, from, to algo.NodeID) trace.Event {
		return trace.Event{At: at, Kind: k, Node: from, Peer: to}
	}
	events := []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Peer: algo.None},
		cut(1*s, trace.Cut, 6, 2),
		cut(2*s, trace.Cut, 2, 6), cut(2*s, trace.Cut, 1, 0),
		gray(3*s, trace.ClockRate, 3, 800000), gray(3*s, trace.ClockRate, 5, 800000), gray(3*s, trace.ClockRate, 4, 1200000),
		gray(4*s, trace.ClockJumped, 3, -int64(time.Hour)),
		gray(5*s, trace.ClockJumped, 3, int64(1500*ms)), gray(5*s+10*ms, trace.ClockJumped, 7, int64(1500*ms)),
		gray(6*s, trace.Slowed, 4, int64(200*ms)),
		gray(7*s, trace.Slowed, 4, 0), gray(7*s, trace.Slowed, 5, 0),
		gray(8*s, trace.ClockRate, 3, 1000000),
		cut(9*s, trace.Uncut, 6, 2),
		cut(10*s, trace.Uncut, 2, 6), cut(10*s, trace.Uncut, 1, 0),
		{At: 11 * s, Kind: trace.Acted, Text: "node 3's clock goes wild"},
		gray(11*s, trace.ClockRate, 3, 2000000),
		{At: 12 * s, Kind: trace.End},
	}
	want := []string{
		"1 link 6→2 cut one way",
		"2 2 link directions cut one way",
		"3 the clocks of nodes 3 and 5 run at ×0.8 (20% slow)",
		"3 the clock of node 4 runs at ×1.2 (20% fast)",
		"4 the clock of node 3 jumps back 3600 s",
		"5 the clocks of nodes 3 and 7 jump forward 1.5 s (over 10.0 ms)",
		"6 node 4 is slowed: its inputs handled 200.0 ms late",
		"7 nodes 4 and 5 are on time again",
		"8 the clock of node 3 runs true again",
		"9 link 6→2 carries again",
		"10 2 link directions carry again",
		"11 node 3's clock goes wild",
	}
	if got := storyOf(events); got != strings.Join(want, "\n") {
		t.Errorf("faults:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Value changes are told against the node's leader: a follower rising
// above its leader, a leader falling below its most valued follower (a
// tie broken by the higher id), and, while they are few, the others,
// those of one instant and value together; a value not known before
// becomes what it is.
func TestStoryValues(t *testing.T) {
	s := time.Second
	added := func(v algo.NodeID, x int64) trace.Event {
		return trace.Event{Kind: trace.NodeAdded, Node: v, Peer: algo.None, Value: x}
	}
	value := func(at time.Duration, v algo.NodeID, x int64) trace.Event {
		return trace.Event{At: at, Kind: trace.ValueChanged, Node: v, Peer: algo.None, Value: x}
	}
	// All of 0-4 follow leader.
	led := func(at time.Duration, leader algo.NodeID) []trace.Event {
		var evs []trace.Event
		for v := range algo.NodeID(5) {
			evs = append(evs, trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: algo.None,
				Status: algo.Status{Leader: leader, State: algo.Norm}})
		}
		return evs
	}
	events := []trace.Event{added(0, 10), added(1, 20), added(2, 30), added(3, 40), added(4, 90)}
	events = append(events, led(1*s, 4)...)
	events = append(events, value(10*s, 3, 120), value(12*s, 1, 50))
	events = append(events, led(14*s, 3)...)
	events = append(events, value(20*s, 3, 10))
	events = append(events, led(22*s, 4)...)
	events = append(events, value(25*s, 2, 90), value(25*s, 0, 90), value(30*s, 4, 50))
	events = append(events, led(35*s, 2)...)
	events = append(events, value(40*s, 3, 90),
		trace.Event{At: 45 * s, Kind: trace.Crashed, Node: 1, Peer: algo.None}, value(46*s, 1, 5),
		value(50*s, 9, 7), trace.Event{At: 60 * s, Kind: trace.End})
	want := []string{
		"10 node 3's value rises to 120, above its leader 4's 90",
		"12 node 1's value rises to 50",
		"20 the leader 3's value falls to 10, below node 4's 90",
		"25 the values of nodes 0 and 2 rise to 90",
		"30 the leader 4's value falls to 50, below node 2's 90",
		"40 node 3's value rises to 90, level with its leader 2's, and its id is higher",
		"45 node 1 crashes",
		"46 node 1's value falls to 5",
		"50 node 9's value becomes 7",
	}
	if got := storyOf(events); got != strings.Join(want, "\n") {
		t.Errorf("faults:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Values that change often (a battery draining every second) are told
// only when they cross a leader's, and the others counted in one line,
// where they start.
func TestStoryValuesOften(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		drain int64 // the leader's a second
		want  []string
	}{
		{5, []string{
			"1 the values of 3 nodes change 89 times until 30 s: only those that cross a leader's are told",
			"11 the leader 2's value falls to 45, below node 1's 49",
		}},
		{1, []string{
			"1 the values of 3 nodes change 90 times until 30 s, none crossing a leader's",
		}},
	} {
		events := []trace.Event{
			{Kind: trace.NodeAdded, Node: 0, Peer: algo.None, Value: 50},
			{Kind: trace.NodeAdded, Node: 1, Peer: algo.None, Value: 60},
			{Kind: trace.NodeAdded, Node: 2, Peer: algo.None, Value: 100},
		}
		for v := range algo.NodeID(3) {
			events = append(events, trace.Event{At: s / 2, Kind: trace.StatusChanged, Node: v, Peer: algo.None,
				Status: algo.Status{Leader: 2, State: algo.Norm}})
		}
		for i := range int64(30) {
			at := time.Duration(i+1) * s
			events = append(events,
				trace.Event{At: at, Kind: trace.ValueChanged, Node: 0, Peer: algo.None, Value: 50 - i - 1},
				trace.Event{At: at, Kind: trace.ValueChanged, Node: 1, Peer: algo.None, Value: 60 - i - 1},
				trace.Event{At: at, Kind: trace.ValueChanged, Node: 2, Peer: algo.None, Value: 100 - c.drain*(i+1)})
		}
		events = append(events, trace.Event{At: 31 * s, Kind: trace.End})
		if got := storyOf(events); got != strings.Join(c.want, "\n") {
			t.Errorf("draining %d a second, faults:\n%s\nwant:\n%s", c.drain, got, strings.Join(c.want, "\n"))
		}
	}
}

// Value changes that cross together are told together, by whom: leaders
// falling below a follower's, followers rising above their leader's.
func TestStoryValuesCrossTogether(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	var events []trace.Event
	for v, x := range []int64{1, 2, 10, 4, 5, 11} {
		events = append(events, trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: x})
	}
	for v := range algo.NodeID(6) {
		events = append(events, trace.Event{At: s, Kind: trace.StatusChanged, Node: v, Peer: algo.None,
			Status: algo.Status{Leader: 2 + 3*(v/3), State: algo.Norm}})
	}
	events = append(events,
		trace.Event{At: 5 * s, Kind: trace.ValueChanged, Node: 2, Peer: algo.None, Value: 1},
		trace.Event{At: 5 * s, Kind: trace.ValueChanged, Node: 5, Peer: algo.None, Value: 3},
		trace.Event{At: 5*s + 3*ms, Kind: trace.ValueChanged, Node: 0, Peer: algo.None, Value: 50},
		trace.Event{At: 6 * s, Kind: trace.End})
	want := "5 leaders 2 and 5 each fall below a follower's value; node 0 rises above its leader's value (over 3.0 ms)"
	if got := storyOf(events); got != want {
		t.Errorf("faults:\n%s\nwant:\n%s", got, want)
	}
}

// storyOf tells events, a moment a line: "seconds what".
func storyOf(events []trace.Event) string {
	st := NewStory()
	for i := range events {
		st.Observe(&events[i])
	}
	var sum Summary
	st.Fill(&sum)
	var got []string
	for _, m := range sum.Faults {
		got = append(got, fmt.Sprintf("%g %s", m.AtMS/1000, m.What))
	}
	return strings.Join(got, "\n")
}
