package sim_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

func TestParseValueModel(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"battery", "battery:capacity=100000,tx=1,rx=0.5,idle=0,recharge=0,every=1s"},
		{"battery:tx=2,idle=0.5,every=250ms", "battery:capacity=100000,tx=2,rx=0.5,idle=0.5,recharge=0,every=250ms"},
		{"battery:capacity=500,recharge=3", "battery:capacity=500,tx=1,rx=0.5,idle=0,recharge=3,every=1s"},
		{"position", "position:around=centre,scale=1000,every=1s"},
		{"position:around=center,scale=10", "position:around=centre,scale=10,every=1s"},
		{"position:around=centroid,every=2s", "position:around=centroid,scale=1000,every=2s"},
	} {
		m, err := sim.ParseValueModel(c.spec)
		if err != nil || m.String() != c.want {
			t.Errorf("ParseValueModel(%q) = %v, %v; want %s", c.spec, m, err, c.want)
		}
		if again, err := sim.ParseValueModel(m.String()); err != nil || again.String() != c.want {
			t.Errorf("%q does not read back: %v, %v", m.String(), again, err)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"solar", "want battery[:KEY=VALUE,...] or position"},
		{"battery:volts=3", `"volts=3" is not KEY=VALUE with a key of battery (capacity, tx, rx, idle, recharge, every)`},
		{"battery:tx=-1", "tx=-1: want a number from 0 to 2^53"},
		{"battery:tx=NaN", "tx=NaN: want a number from 0 to 2^53"},
		{"battery:capacity=0", "capacity=0: want a number from 0 to 2^53 (above 0 for capacity and scale)"},
		{"battery:capacity=1e19", "capacity=1e19: want a number from 0 to 2^53"},
		{"position:scale=1e30", "scale=1e30: want a number from 0 to 2^53"},
		{"battery:every=0s", "every=0s: want a duration of 1ms or more"},
		{"battery:every=1ns", "every=1ns: want a duration of 1ms or more"},
		{"battery:tx=1,tx=2", "tx is given twice"},
		{"position:around=north", "around=north: want centre (the area's) or centroid (the component's)"},
		{"position:tx=1", `"tx=1" is not KEY=VALUE with a key of position (around, scale, every)`},
	} {
		if _, err := sim.ParseValueModel(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseValueModel(%q) = %v, want an error with %q", c.spec, err, c.want)
		}
	}
}

// A battery spends exactly Tx a byte sent and Rx a byte received, as the
// runtime's datagrams would be, and Idle a second, recharges up to its
// capacity, and its value is the charge rounded down, set every Every.
// Two nodes ping each other five times in the first 400 ms: 61-byte
// datagrams (a message with no peers and no data: docs/wire.md).
func TestBatteryDrains(t *testing.T) {
	for _, c := range []struct {
		spec string
		want []string // node 0's value changes, "at=value"
	}{
		// 10000 - 5·61 sent - 5·61·0.5 received = 9542.5, and no more.
		{"battery:capacity=10000", []string{"1s=9542"}},
		// and 10 a second alive: 9532.5 at 1s, then 10 less a second.
		{"battery:capacity=10000,idle=10", []string{"1s=9532", "2s=9522", "3s=9512"}},
		// every 500ms: the pings all by then.
		{"battery:capacity=10000,every=500ms", []string{"500ms=9542"}},
		// recharging 400 a second: 9942.5, back to full at 2s, held there.
		{"battery:capacity=10000,recharge=400", []string{"1s=9942", "2s=10000"}},
		// a battery too small: empty at 1s, value 0 from then.
		{"battery:capacity=300", []string{"1s=0"}},
	} {
		m, err := sim.ParseValueModel(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		rec, res := runProbe(t, pingBoth(5), sim.Config{Graph: line(2), Delay: tenMS, Duration: 3500 * time.Millisecond, ValuesOver: m})
		var got []string
		for _, e := range rec.events {
			if e.Kind == trace.NodeAdded && e.Node == 0 && e.Value != int64(m.Capacity) {
				t.Errorf("%s: node 0 starts at %d, want its capacity", c.spec, e.Value)
			}
			if e.Kind == trace.ValueChanged && e.Node == 0 {
				got = append(got, e.At.String()+"="+strconv.FormatInt(e.Value, 10))
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: node 0's values %v, want %v", c.spec, got, c.want)
		}
		if empty := res.Values.FirstEmpty; (c.spec == "battery:capacity=300") != (empty == time.Second) || empty != time.Second && empty != -1 {
			t.Errorf("%s: first empty at %v", c.spec, empty)
		}
	}
}

// A value event sets a node's value, as a trace event, and the machines
// read it at their next input; one that changes nothing emits nothing.
func TestSetValue(t *testing.T) {
	var seen []int64
	h := &hooks{
		onStart: func(p *probe, env algo.Env) { env.SetTimer(0, 150*time.Millisecond) },
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			if p.id == 1 {
				seen = append(seen, env.Value())
			}
			env.SetTimer(0, 100*time.Millisecond)
		},
	}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Duration: 400 * time.Millisecond, Timeline: []sim.Action{
		{At: 200 * time.Millisecond, Kind: sim.SetValue, Nodes: []algo.NodeID{1}, Value: 42},
		{At: 300 * time.Millisecond, Kind: sim.SetValue, Nodes: []algo.NodeID{1}, Value: 42},
	}})
	if n := rec.count(trace.ValueChanged, 0); n != 1 {
		t.Errorf("%d value events, want 1 (the second sets what is there)", n)
	}
	if len(seen) != 3 || seen[0] != 1 || seen[1] != 42 || seen[2] != 42 {
		t.Errorf("node 1 read its value as %v at 150, 250 and 350 ms; want [1 42 42]", seen)
	}
}

// The position model: closeness to the area's centre, in [0, scale]; the
// node at the centre has it all, one at a corner none.
func TestPositionValues(t *testing.T) {
	g := topo.New(3, []topo.Edge{{A: 0, B: 1}})
	g.Pos = []topo.Point{{X: 50, Y: 50}, {X: 0, Y: 0}, {X: 100, Y: 50}}
	g.Width, g.Height = 100, 100
	m, _ := sim.ParseValueModel("position:scale=1000")
	rec, _ := runProbe(t, &hooks{}, sim.Config{Graph: g, Duration: time.Second, ValuesOver: m})
	var got []int64
	for _, e := range rec.events {
		if e.Kind == trace.NodeAdded {
			got = append(got, e.Value)
		}
	}
	// d/D: 0, half the diagonal (0.5), 50/141.42 (0.354).
	if len(got) != 3 || got[0] != 1000 || got[1] != 500 || got[2] != 646 {
		t.Errorf("values %v, want [1000 500 646]", got)
	}
	// The centroid of each component: 0 and 1 around (25, 25), 2 alone.
	m, _ = sim.ParseValueModel("position:around=centroid,scale=1000")
	rec, _ = runProbe(t, &hooks{}, sim.Config{Graph: g, Duration: time.Second, ValuesOver: m})
	got = got[:0]
	for _, e := range rec.events {
		if e.Kind == trace.NodeAdded {
			got = append(got, e.Value)
		}
	}
	if len(got) != 3 || got[0] != 750 || got[1] != 750 || got[2] != 1000 {
		t.Errorf("values around the centroids %v, want [750 750 1000]", got)
	}
}

// What a node spent before it crashed is charged then.
func TestBatteryCrash(t *testing.T) {
	// Node 1 crashes at 450 ms, its pings sent: charged at once.
	m, _ := sim.ParseValueModel("battery:capacity=10000")
	rec, res := runProbe(t, pingBoth(5), sim.Config{Graph: line(2), Delay: tenMS, Duration: 3500 * time.Millisecond, ValuesOver: m,
		Timeline: []sim.Action{{At: 450 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{1}}}})
	if got := res.Values.Spent[0] + res.Values.Spent[1]; got != 2*457.5 {
		t.Errorf("spent %v in all, want 915 (457.5 each, node 1's charged as it crashed)", got)
	}
	if n := rec.count(trace.ValueChanged, 0); n != 1 {
		t.Errorf("%d value events, want node 0's alone (node 1 is down at the step)", n)
	}
}

func TestValueModelRefused(t *testing.T) {
	m, _ := sim.ParseValueModel("battery")
	current = &hooks{}
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(2), ValuesOver: m}); err == nil || !strings.Contains(err.Error(), "need a duration") {
		t.Errorf("a model with no duration: %v", err)
	}
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(2), Duration: time.Second, ValuesOver: m,
		Timeline: []sim.Action{{At: 500 * time.Millisecond, Kind: sim.SetValue, Nodes: []algo.NodeID{1}, Value: 3}}}); err == nil || !strings.Contains(err.Error(), "the model's next step would undo it") {
		t.Errorf("a value event with a model: %v", err)
	}
	p, _ := sim.ParseValueModel("position")
	if _, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(2), Duration: time.Second, ValuesOver: p}); err == nil || !strings.Contains(err.Error(), "need a network with positions") {
		t.Errorf("a position model with no positions: %v", err)
	}
}
