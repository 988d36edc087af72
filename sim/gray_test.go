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

var tenMS, _ = sim.ParseDelay("constant:10ms")

// pingBoth has both nodes of a pair send one ping at start and one at each
// expiry of timer 0, every 100ms of their own clocks, until they have sent
// n.
func pingBoth(n uint32) *hooks {
	return &hooks{
		onStart: func(p *probe, env algo.Env) { p.send(env, 1-p.id); env.SetTimer(0, 100*time.Millisecond) },
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			if p.sent < n {
				p.send(env, 1-p.id)
				env.SetTimer(0, 100*time.Millisecond)
			}
		},
	}
}

func dir(from, to algo.NodeID) topo.Edge { return topo.Edge{A: from, B: to} }

// A cut direction drops what crosses it as it arrives, and only that
// direction; the uncut lets it carry again.
func TestCutOneWay(t *testing.T) {
	h := pingBoth(2)
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: tenMS, Timeline: []sim.Action{
		{At: 0, Kind: sim.Cut, Link: dir(0, 1)},
		{At: 50 * time.Millisecond, Kind: sim.Uncut, Link: dir(0, 1)},
	}})
	wantLog(t, h,
		"10ms 0 got #1 from 1",
		"100ms timer 0 at 0", "100ms timer 0 at 1",
		"110ms 1 got #2 from 0", "110ms 0 got #2 from 1",
		"200ms timer 0 at 0", "200ms timer 0 at 1")
	if n := rec.count(trace.Dropped, trace.CutOff); n != 1 {
		t.Errorf("%d messages dropped as cut, want 1", n)
	}
	var gray []string
	for _, e := range rec.events {
		if e.Kind.Gray() {
			gray = append(gray, e.Kind.String()+" "+e.At.String())
		}
	}
	if got := strings.Join(gray, ", "); got != "cut 0s, uncut 50ms" {
		t.Errorf("gray events: %s", got)
	}
}

// A clock's rate sets how fast Env.Now advances and how long a timer takes
// in true time; a jump moves Env.Now and leaves the timers set where they
// were.
func TestClockRateAndJump(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			env.SetTimer(0, time.Second)
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: tenMS, Timeline: []sim.Action{
		{At: 0, Kind: sim.Clock, Nodes: []algo.NodeID{0}, Rate: 0.8},
		{At: 500 * time.Millisecond, Kind: sim.Clock, Nodes: []algo.NodeID{0}, Jump: 10 * time.Second},
	}})
	// Set at 0 for 1s of its clock: 1.25s of true time. Its clock then
	// reads 0.8 * 1.25s + 10s.
	wantLog(t, h, "11s timer 0 at 0")
	var fired time.Duration
	for _, e := range rec.events {
		if e.Kind == trace.TimerFired {
			fired = e.At
		}
	}
	if fired != 1250*time.Millisecond {
		t.Errorf("the timer fired at %v of true time, want 1.25s", fired)
	}
}

// A slow node handles each input late, in the order the inputs came; what
// it holds queued is lost when it crashes, and once the spell ends it is on
// time again.
func TestSlowNode(t *testing.T) {
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				p.send(env, 1)
				p.send(env, 1)
				env.SetTimer(0, time.Second)
			} else {
				env.SetTimer(0, 100*time.Millisecond)
			}
		},
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			if p.id == 0 {
				p.send(env, 1)
			}
		},
	}
	_, _ = runProbe(t, h, sim.Config{Graph: line(2), Delay: tenMS, Timeline: []sim.Action{
		{At: 0, Kind: sim.Slow, Nodes: []algo.NodeID{1}, By: 200 * time.Millisecond, For: 500 * time.Millisecond},
	}})
	wantLog(t, h,
		"210ms 1 got #1 from 0", "210ms 1 got #2 from 0",
		"300ms timer 0 at 1",
		"1s timer 0 at 0", "1.01s 1 got #3 from 0")

	h2 := &hooks{onStart: h.onStart, onTimer: h.onTimer}
	rec, _ := runProbe(t, h2, sim.Config{Graph: line(2), Delay: tenMS, Timeline: []sim.Action{
		{At: 0, Kind: sim.Slow, Nodes: []algo.NodeID{1}, By: 200 * time.Millisecond},
		{At: 150 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{1}},
		{At: 160 * time.Millisecond, Kind: sim.Restart, Nodes: []algo.NodeID{1}},
	}})
	if n := rec.count(trace.Dropped, trace.LinkBroke); n != 2 {
		t.Errorf("%d messages lost with the crash, want the 2 queued", n)
	}
	if n := rec.count(trace.Delivered, 0); n != 1 {
		t.Errorf("%d delivered, want 1 (the one after the restart)", n)
	}
}

// A direction's loss of its own takes about its share, of that direction
// only.
func TestLossOneWay(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		for range 5000 {
			p.send(env, 1-p.id)
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Seed: 5, Delay: tenMS, Timeline: []sim.Action{
		{At: 0, Kind: sim.LossDir, Link: dir(1, 0), Rate: 0.3},
	}})
	lost := 0
	for _, e := range rec.events {
		if e.Kind == trace.Dropped {
			if e.Node != 1 {
				t.Fatalf("a message from %d lost", e.Node)
			}
			lost++
		}
	}
	if lost < 1350 || lost > 1650 {
		t.Errorf("%d of 5000 lost at 0.3", lost)
	}
}

func TestGrayValidation(t *testing.T) {
	for _, tc := range []struct {
		a    sim.Action
		want string
	}{
		{sim.Action{Kind: sim.Cut, Link: dir(1, 1)}, "cut: cut from 1 to itself"},
		{sim.Action{Kind: sim.Uncut, Link: dir(0, 9)}, "uncut from 0 to 9 names a node that does not exist (nodes 0..1)"},
		{sim.Action{Kind: sim.LossDir, Link: dir(0, 1), Rate: 1}, "loss rate 1: want a probability in [0, 1)"},
		{sim.Action{Kind: sim.Clock, Nodes: []algo.NodeID{0}}, "a clock event needs a rate or a jump"},
		{sim.Action{Kind: sim.Clock, Nodes: []algo.NodeID{0}, Rate: -1}, "clock rate -1: want more than 0"},
		{sim.Action{Kind: sim.Clock, Rate: 2}, "clock: names no node"},
		{sim.Action{Kind: sim.Slow, Nodes: []algo.NodeID{0}, By: -time.Second}, "slow by -1s for 0s: want durations of 0 or more"},
		{sim.Action{Kind: sim.Slow, Nodes: []algo.NodeID{5}, By: time.Second}, "node 5 does not exist"},
	} {
		_, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(2), Timeline: []sim.Action{tc.a}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.a.Kind, err, tc.want)
		}
	}
}

// Radios of ranges of their own (mobility.Radios): a strong node passing a
// weak one is heard before it can hear, and after; what the weak node sends
// meanwhile is dropped as cut, and the trace says when each direction
// stops and starts carrying.
func TestOneWayMotion(t *testing.T) {
	plan := &mobility.Plan{Tracks: []mobility.Track{
		{Start: topo.Point{}}, // weak: 100 m
		{Start: topo.Point{X: 300}, Legs: []mobility.Leg{{Start: 0, End: 60 * time.Second, From: topo.Point{X: 300}, To: topo.Point{X: -300}}}}, // strong, 200 m, 10 m/s
	}, Width: 1000, Height: 1000}
	rs, err := mobility.NewRadios(plan, []float64{100, 200})
	if err != nil {
		t.Fatal(err)
	}
	// Each node sends the other a ping every second of 0..59 s, while they
	// are linked.
	h := &hooks{
		onStart: func(p *probe, env algo.Env) { env.SetTimer(0, time.Second) },
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			if len(env.Neighbors()) > 0 {
				p.send(env, 1-p.id)
			}
			if env.Now() < 59*time.Second {
				env.SetTimer(0, time.Second)
			}
		},
	}
	rec, _ := runProbe(t, h, sim.Config{Graph: rs.Graph(), Motion: rs, Delay: tenMS, Duration: 70 * time.Second})
	var cuts []string
	got := map[algo.NodeID]int{}
	for _, e := range rec.events {
		switch e.Kind {
		case trace.Cut, trace.Uncut:
			cuts = append(cuts, fmt.Sprintf("%v %s %d->%d", e.At, e.Kind, e.Node, e.Peer))
		case trace.Delivered:
			got[e.Node]++
		}
	}
	want := "10s cut 0->1, 20s uncut 0->1, 40.000000001s cut 0->1, 50.000000001s uncut 0->1"
	if strings.Join(cuts, ", ") != want {
		t.Errorf("cuts %q, want %q", strings.Join(cuts, ", "), want)
	}
	// Linked from just after the pings of 10 s to 50 s: each sends at 11..50
	// s, the last lost with the link. Node 0 hears 1's first 39; node 1
	// hears the 20 of 0's that arrive while 0 -> 1 carries (sent at
	// 20..39 s), and 19 are cut as they arrive (11..19 s, 40..49 s).
	if got[0] != 39 || got[1] != 20 || rec.count(trace.Dropped, trace.CutOff) != 19 {
		t.Errorf("node 0 heard %d, node 1 %d, %d dropped as cut; want 39, 20, 19", got[0], got[1], rec.count(trace.Dropped, trace.CutOff))
	}
}
