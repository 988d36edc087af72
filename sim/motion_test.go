package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// scripted is a Motion that plays a fixed list of changes; its nodes sit at
// fixed positions that jump at given times.
type scripted struct {
	changes []mobility.Change
	moves   map[time.Duration][]topo.Point // positions from each time on
	start   []topo.Point
}

func (s *scripted) Next() (mobility.Change, bool) {
	if len(s.changes) == 0 {
		return mobility.Change{}, false
	}
	c := s.changes[0]
	s.changes = s.changes[1:]
	return c, true
}

func (s *scripted) Positions(at time.Duration) []topo.Point {
	pos, since := s.start, time.Duration(-1)
	for t, p := range s.moves {
		if t <= at && t > since {
			pos, since = p, t
		}
	}
	return pos
}

func linkEvents(rec *recorder) []string {
	var out []string
	for _, e := range rec.events {
		if (e.Kind == trace.LinkUp || e.Kind == trace.LinkDown) && e.At > 0 {
			moved := ""
			if e.Moved {
				moved = " moved"
			}
			out = append(out, fmt.Sprintf("%v %s %d-%d%s", e.At, e.Kind, e.Node, e.Peer, moved))
		}
	}
	return out
}

// Movement brings pairs into range and out of it, whether or not the
// topology joined them: the machines hear of it, messages in flight on a
// link that goes out of range are lost, and the trace marks the changes as
// moved.
func TestMotionDrivesLinks(t *testing.T) {
	ms := time.Millisecond
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			p.send(env, 1) // arrives at 10ms, after 0-1 went out of range
		}
	}}
	motion := &scripted{changes: []mobility.Change{
		{At: 2 * ms, A: 1, B: 2, Up: true}, // not a link of the topology
		{At: 5 * ms, A: 0, B: 1, Up: false},
		{At: 7 * ms, A: 0, B: 2, Up: true},
	}}
	rec, _ := runProbe(t, h, sim.Config{
		Graph: topo.New(3, []topo.Edge{{A: 0, B: 1}}), Delay: sim.Delay{Kind: sim.Constant, A: 10 * ms}, Motion: motion,
	})
	wantLog(t, h,
		"2ms 1 sees 2 up (neighbours [0 2])",
		"2ms 2 sees 1 up (neighbours [1])",
		"5ms 0 sees 1 down (neighbours [])",
		"5ms 1 sees 0 down (neighbours [2])",
		"7ms 0 sees 2 up (neighbours [2])",
		"7ms 2 sees 0 up (neighbours [0 1])",
	)
	want := []string{"2ms link_up 1-2 moved", "5ms link_down 0-1 moved", "7ms link_up 0-2 moved"}
	if got := linkEvents(rec); strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("links: %v\nwant %v", got, want)
	}
	if rec.count(trace.Dropped, trace.LinkBroke) != 1 {
		t.Errorf("the message in flight on 0-1 was not lost when 0 and 1 parted")
	}
}

// A partition cuts pairs in range; a pair that comes into range across the
// cut stays down until the heal, and one that leaves range while cut does
// not come back with it. Areas are judged where the nodes are at the time.
func TestMotionUnderPartition(t *testing.T) {
	ms := time.Millisecond
	g := line(3)
	g.Pos = []topo.Point{{X: 0}, {X: 10}, {X: 20}}
	g.Width, g.Height = 100, 1
	motion := &scripted{
		start: g.Pos,
		// By 1ms node 1 has crossed to the east of x=15.
		moves: map[time.Duration][]topo.Point{1 * ms: {{X: 0}, {X: 16}, {X: 20}}},
		changes: []mobility.Change{
			{At: 3 * ms, A: 0, B: 2, Up: true},  // across the cut: unseen
			{At: 4 * ms, A: 0, B: 1, Up: false}, // across the cut: unseen
			{At: 8 * ms, A: 1, B: 2, Up: false}, // inside the east: seen
			{At: 12 * ms, A: 1, B: 2, Up: true}, // after the heal: seen
		},
	}
	rec, _ := runProbe(t, &hooks{}, sim.Config{
		Graph: g, Delay: sim.DefaultDelay, Motion: motion,
		Timeline: []sim.Action{
			{At: 2 * ms, Kind: sim.Partition, Groups: []sim.Group{{Name: "west", Area: &sim.Rect{X0: 0, Y0: 0, X1: 15, Y1: 1}}}},
			{At: 10 * ms, Kind: sim.Heal},
			{At: 11 * ms, Kind: sim.LinkDown, Link: topo.Edge{A: 0, B: 1}}, // not in range: nothing to see
		},
	})
	want := []string{
		"2ms link_down 0-1", // node 1 is east by now: 0-1 is cut, 1-2 is not
		"8ms link_down 1-2 moved",
		"10ms link_up 0-2", // in range since 3ms; 0-1 left range meanwhile
		"12ms link_up 1-2 moved",
	}
	if got := linkEvents(rec); strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("links: %v\nwant %v", got, want)
	}
}

// Under motion a link_down may name any pair; without it only links of the
// topology.
func TestMotionLinkActions(t *testing.T) {
	current = &hooks{}
	tl := []sim.Action{{At: 1, Kind: sim.LinkDown, Link: topo.Edge{A: 0, B: 2}}}
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(3), Timeline: tl}); err == nil {
		t.Errorf("link_down on a pair the static topology does not join was accepted")
	}
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(3), Timeline: tl, Motion: &scripted{}}); err != nil {
		t.Errorf("under motion: %v", err)
	}
	tl[0].Link = topo.Edge{A: 1, B: 1}
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(3), Timeline: tl, Motion: &scripted{}}); err == nil {
		t.Errorf("link_down from a node to itself was accepted")
	}
}

// Pairs that came into and out of range before the first crash are where
// a restarted node finds its neighbours; a pair leaving range while one end
// is dead stays gone, and one entering range then comes up at the restart.
func TestMotionBeforeAndAfterCrash(t *testing.T) {
	ms := time.Millisecond
	motion := &scripted{changes: []mobility.Change{
		{At: 1 * ms, A: 1, B: 3, Up: true},  // before any fault: seen
		{At: 2 * ms, A: 0, B: 1, Up: false}, // before any fault: seen
		{At: 4 * ms, A: 1, B: 2, Up: false}, // 1 is dead: unseen
		{At: 5 * ms, A: 0, B: 1, Up: true},  // 1 is dead: unseen
		{At: 8 * ms, A: 1, B: 3, Up: false}, // 1 is back: seen
	}}
	h := &hooks{}
	runProbe(t, h, sim.Config{
		Graph: line(4), Delay: sim.DefaultDelay, Motion: motion,
		Timeline: []sim.Action{
			{At: 3 * ms, Kind: sim.Crash, Nodes: []algo.NodeID{1}},
			{At: 6 * ms, Kind: sim.Restart, Nodes: []algo.NodeID{1}},
		},
	})
	wantLog(t, h,
		"1ms 1 sees 3 up (neighbours [0 2 3])",
		"1ms 3 sees 1 up (neighbours [1 2])",
		"2ms 0 sees 1 down (neighbours [])",
		"2ms 1 sees 0 down (neighbours [2 3])",
		"3ms 2 sees 1 down (neighbours [3])",
		"3ms 3 sees 1 down (neighbours [2])",
		"6ms restart 1",
		"6ms 0 sees 1 up (neighbours [1])",
		"6ms 3 sees 1 up (neighbours [1 2])",
		"8ms 1 sees 3 down (neighbours [0])",
		"8ms 3 sees 1 down (neighbours [2])",
	)
}
