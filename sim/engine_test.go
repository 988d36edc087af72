package sim_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// probe is a scripted machine: each test says what it does on start and on
// timers, and every input it sees is written to a shared log.
type probe struct {
	id   algo.NodeID
	h    *hooks
	sent uint32 // messages sent so far, carried in Index.Num
	boot string
}

type hooks struct {
	log     []string
	onStart func(p *probe, env algo.Env)
	onTimer func(p *probe, env algo.Env, t algo.Timer)
}

func (h *hooks) logf(format string, args ...any) { h.log = append(h.log, fmt.Sprintf(format, args...)) }

func (p *probe) send(env algo.Env, to algo.NodeID) {
	p.sent++
	env.Send(to, algo.Message{Type: 0, Index: algo.Index{Num: p.sent, ID: p.id}})
}

func (p *probe) Start(env algo.Env) {
	p.boot = "start"
	if p.h.onStart != nil {
		p.h.onStart(p, env)
	}
}
func (p *probe) Restart(env algo.Env) { p.boot = "restart"; p.h.logf("%v restart %d", env.Now(), p.id) }
func (p *probe) Recover(env algo.Env, saved []byte) error {
	p.boot = "recover"
	p.sent = binary.BigEndian.Uint32(saved)
	p.h.logf("%v recover %d sent=%d", env.Now(), p.id, p.sent)
	return nil
}
func (p *probe) Save() []byte { return binary.BigEndian.AppendUint32(nil, p.sent) }
func (p *probe) Receive(env algo.Env, m *algo.Message) {
	p.h.logf("%v %d got #%d from %d", env.Now(), p.id, m.Index.Num, m.From)
}
func (p *probe) Timer(env algo.Env, t algo.Timer) {
	p.h.logf("%v timer %d at %d", env.Now(), t, p.id)
	if p.h.onTimer != nil {
		p.h.onTimer(p, env, t)
	}
}
func (p *probe) NeighborUp(env algo.Env, id algo.NodeID) {
	p.h.logf("%v %d sees %d up (neighbours %v)", env.Now(), p.id, id, env.Neighbors())
}
func (p *probe) NeighborDown(env algo.Env, id algo.NodeID) {
	p.h.logf("%v %d sees %d down (neighbours %v)", env.Now(), p.id, id, env.Neighbors())
}
func (p *probe) Elect(env algo.Env) { p.h.logf("%v elect %d", env.Now(), p.id) }
func (p *probe) Status() algo.Status {
	return algo.Status{Leader: p.id, State: algo.Norm, Index: algo.Index{Num: p.sent}}
}

// current is the hooks of the running test: tests here run one at a time.
var current = &hooks{}

var probeAlgo = &algo.Algorithm{
	Name:     "sim-test-probe",
	Messages: []string{"ping"},
	Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
		h := current
		return func(id algo.NodeID) algo.Machine { return &probe{id: id, h: h} }, nil
	},
}

// recorder keeps the events a run emits.
type recorder struct{ events []trace.Event }

func (r *recorder) Observe(e *trace.Event) { r.events = append(r.events, *e) }

func (r *recorder) count(kind trace.Kind, reason trace.DropReason) int {
	n := 0
	for _, e := range r.events {
		if e.Kind == kind && (kind != trace.Dropped || e.Reason == reason) {
			n++
		}
	}
	return n
}

func line(n int) *topo.Graph {
	var edges []topo.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, topo.Edge{A: algo.NodeID(i), B: algo.NodeID(i + 1)})
	}
	return topo.New(n, edges)
}

func runProbe(t *testing.T, h *hooks, cfg sim.Config) (*recorder, sim.Result) {
	t.Helper()
	current = h
	rec := &recorder{}
	cfg.Algorithm = probeAlgo
	cfg.Observers = append(cfg.Observers, rec)
	e, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rec, e.Run()
}

func wantLog(t *testing.T, h *hooks, want ...string) {
	t.Helper()
	got := strings.Join(h.log, "\n")
	if got != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Links are FIFO whatever the delay distribution: ten messages sent at once
// arrive in the order sent.
func TestFIFOUnderRandomDelays(t *testing.T) {
	for _, d := range []string{"uniform:1ms:50ms", "exponential:20ms"} {
		delay, _ := sim.ParseDelay(d)
		for seed := uint64(0); seed < 10; seed++ {
			h := &hooks{onStart: func(p *probe, env algo.Env) {
				if p.id == 0 {
					for i := 0; i < 10; i++ {
						p.send(env, 1)
					}
				}
			}}
			runProbe(t, h, sim.Config{Graph: line(2), Seed: seed, Delay: delay})
			for i, l := range h.log {
				if !strings.Contains(l, fmt.Sprintf("got #%d from 0", i+1)) {
					t.Fatalf("%s seed %d: message %d: %s", d, seed, i+1, l)
				}
			}
		}
	}
}

// With loss p, about a fraction p of the messages are dropped, each reported
// with its reason.
func TestLoss(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			for i := 0; i < 10000; i++ {
				p.send(env, 1)
			}
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Seed: 3, Delay: sim.DefaultDelay, Loss: 0.2})
	lost := rec.count(trace.Dropped, trace.Lost)
	if lost < 1800 || lost > 2200 {
		t.Errorf("%d of 10000 lost at p=0.2", lost)
	}
	if got := rec.count(trace.Delivered, 0); got != 10000-lost {
		t.Errorf("%d delivered, want %d", got, 10000-lost)
	}
}

// A message to a node that is not a neighbour is dropped at once.
func TestSendToNonNeighbour(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			p.send(env, 2)
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(3), Delay: sim.DefaultDelay})
	if rec.count(trace.Dropped, trace.NoLink) != 1 || rec.count(trace.Delivered, 0) != 0 {
		t.Errorf("events: %+v", rec.events)
	}
}

// A link that goes down loses what is in flight on it, even if it comes back
// before the message would have arrived; both ends are told.
func TestLinkDownLosesInFlight(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			p.send(env, 1) // arrives at 10ms, after the link broke
		}
	}}
	ms := time.Millisecond
	rec, _ := runProbe(t, h, sim.Config{
		Graph: line(2), Delay: sim.Delay{Kind: sim.Constant, A: 10 * ms},
		Timeline: []sim.Action{
			{At: 5 * ms, Kind: sim.LinkDown, Link: topo.Edge{A: 1, B: 0}},
			{At: 6 * ms, Kind: sim.LinkUp, Link: topo.Edge{A: 0, B: 1}},
		},
	})
	wantLog(t, h,
		"5ms 0 sees 1 down (neighbours [])",
		"5ms 1 sees 0 down (neighbours [])",
		"6ms 0 sees 1 up (neighbours [1])",
		"6ms 1 sees 0 up (neighbours [0])",
	)
	if rec.count(trace.Dropped, trace.LinkBroke) != 1 {
		t.Errorf("want the message dropped as link_down")
	}
}

// A crash loses the node's state, its timers and the messages in flight to
// and from it; restart boots a fresh machine through Restart, recover boots
// one through Recover with what Save returned at the crash.
func TestCrashRestartRecover(t *testing.T) {
	ms := time.Millisecond
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			switch p.id {
			case 0:
				p.send(env, 1) // in flight to 1 when 1 crashes
			case 1:
				p.send(env, 2) // in flight from 1 when it crashes
				p.send(env, 0)
				env.SetTimer(7, 20*ms) // must never fire
			}
		},
	}
	rec, _ := runProbe(t, h, sim.Config{
		Graph: line(3), Delay: sim.Delay{Kind: sim.Constant, A: 10 * ms},
		Timeline: []sim.Action{
			{At: 5 * ms, Kind: sim.Crash, Nodes: []algo.NodeID{1}},
			{At: 30 * ms, Kind: sim.Recover, Nodes: []algo.NodeID{1}},
			{At: 40 * ms, Kind: sim.Crash, Nodes: []algo.NodeID{1}},
			{At: 50 * ms, Kind: sim.Restart, Nodes: []algo.NodeID{1}},
		},
	})
	wantLog(t, h,
		"5ms 0 sees 1 down (neighbours [])",
		"5ms 2 sees 1 down (neighbours [])",
		"30ms recover 1 sent=2",
		"30ms 0 sees 1 up (neighbours [1])",
		"30ms 2 sees 1 up (neighbours [1])",
		"40ms 0 sees 1 down (neighbours [])",
		"40ms 2 sees 1 down (neighbours [])",
		"50ms restart 1",
		"50ms 0 sees 1 up (neighbours [1])",
		"50ms 2 sees 1 up (neighbours [1])",
	)
	if got := rec.count(trace.Dropped, trace.LinkBroke); got != 3 {
		t.Errorf("%d messages lost to the crash, want 3", got)
	}
}

// A partition cuts exactly the links between groups, nodes in no group form
// a group of their own, a new partition replaces the old one and heal
// restores every link.
func TestPartitionAndHeal(t *testing.T) {
	ms := time.Millisecond
	h := &hooks{}
	rec, _ := runProbe(t, h, sim.Config{
		Graph: line(5), Delay: sim.DefaultDelay,
		Timeline: []sim.Action{
			{At: 1 * ms, Kind: sim.Partition, Groups: []sim.Group{{Name: "a", Nodes: []algo.NodeID{0, 1}}, {Name: "b", Nodes: []algo.NodeID{2}}}},
			{At: 2 * ms, Kind: sim.Partition, Groups: []sim.Group{{Name: "a", Nodes: []algo.NodeID{0, 1, 2}}}},
			{At: 3 * ms, Kind: sim.Heal},
		},
	})
	var links []string
	for _, e := range rec.events {
		if (e.Kind == trace.LinkUp || e.Kind == trace.LinkDown) && e.At > 0 {
			links = append(links, fmt.Sprintf("%v %s %d-%d", e.At, e.Kind, e.Node, e.Peer))
		}
	}
	want := []string{
		"1ms link_down 1-2", "1ms link_down 2-3",
		"2ms link_up 1-2",
		"3ms link_up 2-3",
	}
	if strings.Join(links, "; ") != strings.Join(want, "; ") {
		t.Errorf("links: %v\nwant %v", links, want)
	}
	if len(h.log) != 8 {
		t.Errorf("%d neighbour notices, want 8: %v", len(h.log), h.log)
	}
}

// SetTimer moves a pending timer, StopTimer cancels it.
func TestTimers(t *testing.T) {
	ms := time.Millisecond
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				env.SetTimer(1, 5*ms)
				env.SetTimer(1, 8*ms) // moves it
				env.SetTimer(2, 3*ms)
				env.StopTimer(2)
				env.SetTimer(3, 0)
			}
		},
		onTimer: func(p *probe, env algo.Env, t algo.Timer) {
			if t == 3 {
				env.SetTimer(4, 1*ms)
			}
		},
	}
	_, res := runProbe(t, h, sim.Config{Graph: line(1), Delay: sim.DefaultDelay})
	wantLog(t, h, "0s timer 3 at 0", "1ms timer 4 at 0", "8ms timer 1 at 0")
	if res.Stats.Timers != 3 {
		t.Errorf("%d timers fired, want 3", res.Stats.Timers)
	}
}

// Timers keep their generations when a timer number beyond those used so
// far widens every node's table in the middle of a run.
func TestTimersWiden(t *testing.T) {
	ms := time.Millisecond
	again := true
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			env.SetTimer(1, time.Duration(5+p.id)*ms)
			env.SetTimer(2, 9*ms)
			if p.id == 1 {
				env.SetTimer(200, 2*ms) // widens while the others are pending
				env.StopTimer(2)
			}
		},
		onTimer: func(p *probe, env algo.Env, t algo.Timer) {
			if t == 200 && again {
				again = false
				env.SetTimer(37, 1*ms)
				env.SetTimer(200, 1*ms) // once more, at 3ms
				env.StopTimer(37)
			}
		},
	}
	_, res := runProbe(t, h, sim.Config{Graph: line(3), Delay: sim.DefaultDelay})
	wantLog(t, h, "2ms timer 200 at 1", "3ms timer 200 at 1",
		"5ms timer 1 at 0", "6ms timer 1 at 1", "7ms timer 1 at 2", "9ms timer 2 at 0", "9ms timer 2 at 2")
	if res.Stats.Timers != 7 {
		t.Errorf("%d timers fired, want 7", res.Stats.Timers)
	}
}

// Elect events reach live nodes only.
func TestElectAction(t *testing.T) {
	h := &hooks{}
	runProbe(t, h, sim.Config{Graph: line(3), Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{At: 1, Kind: sim.Crash, Nodes: []algo.NodeID{2}},
		{At: 2, Kind: sim.ElectAt, Nodes: []algo.NodeID{0, 2}},
	}})
	if got := h.log[len(h.log)-1]; got != "2ns elect 0" {
		t.Errorf("last entry %q", got)
	}
}

// The duration bounds virtual time; a run cut short is not quiescent.
func TestDuration(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) { env.SetTimer(0, time.Hour) }}
	_, res := runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay, Duration: time.Minute})
	if res.Quiescent || res.End != time.Minute || len(h.log) != 0 {
		t.Errorf("result %+v, log %v", res, h.log)
	}
	_, res = runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay})
	if !res.Quiescent || res.End != time.Hour {
		t.Errorf("result %+v", res)
	}
}

// Bad timelines are refused with the place they were written.
func TestTimelineErrors(t *testing.T) {
	for _, c := range []struct {
		a    sim.Action
		want string
	}{
		{sim.Action{Kind: sim.Crash, Nodes: []algo.NodeID{9}, Where: "f.yaml:3"}, "f.yaml:3: crash: node 9 does not exist"},
		{sim.Action{Kind: sim.LinkDown, Link: topo.Edge{A: 0, B: 2}}, "event 0: link_down: nodes 0 and 2 are not linked"},
		{sim.Action{Kind: sim.Partition, Groups: []sim.Group{{Name: "x", Nodes: []algo.NodeID{1}}, {Name: "y", Nodes: []algo.NodeID{1}}}}, "node 1 is in groups x and y"},
		{sim.Action{Kind: sim.Restart}, "names no node"},
		{sim.Action{At: -1, Kind: sim.Heal}, "negative time"},
	} {
		current = &hooks{}
		_, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(3), Timeline: []sim.Action{c.a}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.a, err, c.want)
		}
	}
}

// faultyRun is a run with every kind of randomness and fault the engine
// knows, on a wave algorithm, writing its trace.
func faultyRun(t testing.TB, g *topo.Graph, seed uint64) (sim.Result, []byte) {
	a, err := algo.Lookup("extinction")
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	var buf bytes.Buffer
	tw, err := trace.NewWriter(&buf, trace.Header{Algorithm: a.Name, Seed: seed, Messages: a.Messages})
	if err != nil {
		t.Fatal(err)
	}
	delay, _ := sim.ParseDelay("exponential:3ms")
	e, err := sim.New(sim.Config{
		Algorithm: a, Graph: g, Seed: seed, Delay: delay, Loss: 0.01,
		Values:    sim.Values{Mode: sim.ValueRandom},
		Observers: []trace.Observer{tw},
		Timeline: []sim.Action{
			{At: 2 * ms, Kind: sim.Crash, Nodes: []algo.NodeID{3, 4}},
			{At: 5 * ms, Kind: sim.Partition, Groups: []sim.Group{{Name: "a", Nodes: []algo.NodeID{0, 1, 2, 5, 6, 7, 8, 9, 10}}}},
			{At: 9 * ms, Kind: sim.Recover, Nodes: []algo.NodeID{3}},
			{At: 12 * ms, Kind: sim.Heal},
			{At: 14 * ms, Kind: sim.Restart, Nodes: []algo.NodeID{4}},
			{At: 20 * ms, Kind: sim.ElectAt, Nodes: []algo.NodeID{7}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := e.Run()
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return res, buf.Bytes()
}

func geometric(t testing.TB, n int, r float64) *topo.Graph {
	return specGraph(t, fmt.Sprintf("geometric:%d:%g", n, r))
}

// The same scenario and seed give the same trace, byte for byte, whatever
// GOMAXPROCS; another seed gives another run.
func TestDeterminism(t *testing.T) {
	g := geometric(t, 300, 110)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	r1, t1 := faultyRun(t, g, 42)
	runtime.GOMAXPROCS(2)
	r2, t2 := faultyRun(t, g, 42)
	if !bytes.Equal(t1, t2) || r1.Hash != r2.Hash {
		t.Fatalf("traces differ between GOMAXPROCS 1 and 2 (hashes %x, %x)", r1.Hash, r2.Hash)
	}
	if r1.Stats.Events < 1000 {
		t.Fatalf("only %d events: the run does not exercise much", r1.Stats.Events)
	}
	r3, _ := faultyRun(t, g, 43)
	if r3.Hash == r1.Hash {
		t.Errorf("seeds 42 and 43 gave the same hash")
	}
}

// The engine lays nodes out in memory by position when the graph has
// positions; the run must not depend on it.
func TestLayoutDoesNotLeak(t *testing.T) {
	g := geometric(t, 300, 110)
	flat := *g
	flat.Pos = nil
	r1, t1 := faultyRun(t, g, 7)
	r2, t2 := faultyRun(t, &flat, 7)
	if r1.Hash != r2.Hash || !bytes.Equal(t1, t2) {
		t.Fatalf("the memory layout changed the run")
	}
}

// crash: leader stops the node most live nodes follow, whoever it is then.
func TestCrashLeader(t *testing.T) {
	h := &hooks{} // probes follow themselves: each node is its own leader
	rec, _ := runProbe(t, h, sim.Config{Graph: line(3), Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{At: 1, Kind: sim.Crash, Leader: true},
	}})
	var crashed []algo.NodeID
	for _, e := range rec.events {
		if e.Kind == trace.Crashed {
			crashed = append(crashed, e.Node)
		}
	}
	// One vote each: the highest id among equals.
	if len(crashed) != 1 || crashed[0] != 2 {
		t.Errorf("crashed %v, want [2]", crashed)
	}
}

// A partition group can be an area of the plane: the nodes placed in it.
func TestPartitionByArea(t *testing.T) {
	g := line(4)
	g.Pos = []topo.Point{{X: 0}, {X: 10}, {X: 20}, {X: 30}}
	g.Width, g.Height = 40, 1
	h := &hooks{}
	rec, _ := runProbe(t, h, sim.Config{Graph: g, Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{At: 1, Kind: sim.Partition, Groups: []sim.Group{{Name: "west", Area: &sim.Rect{X0: 0, Y0: 0, X1: 15, Y1: 1}}}},
	}})
	var cut []string
	for _, e := range rec.events {
		if e.Kind == trace.LinkDown {
			cut = append(cut, fmt.Sprintf("%d-%d", e.Node, e.Peer))
		}
	}
	if strings.Join(cut, " ") != "1-2" {
		t.Errorf("cut %v, want the one link between x<15 and the rest", cut)
	}
	current = &hooks{}
	_, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(3), Timeline: []sim.Action{
		{Kind: sim.Partition, Groups: []sim.Group{{Name: "west", Area: &sim.Rect{X1: 1, Y1: 1}}}},
	}})
	if err == nil || !strings.Contains(err.Error(), "group west: an area needs a network with positions") {
		t.Errorf("area on a network without positions: %v", err)
	}
}

// Pulses: whatever is sent during pulse k arrives at the start of pulse k+1.
func TestPulseDelivery(t *testing.T) {
	ms := time.Millisecond
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				p.send(env, 1) // sent at 0: arrives at 1ms
				env.SetTimer(0, 1500*time.Microsecond)
			}
		},
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) { p.send(env, 1) }, // sent at 1.5ms: arrives at 2ms
	}
	runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.Delay{Kind: sim.Pulse, A: ms}})
	wantLog(t, h, "1ms 1 got #1 from 0", "1.5ms timer 0 at 0", "2ms 1 got #2 from 0")
	if d, err := sim.ParseDelay("pulse:2ms"); err != nil || d != (sim.Delay{Kind: sim.Pulse, A: 2 * ms}) || d.String() != "pulse:2ms" {
		t.Errorf("ParseDelay(pulse:2ms) = %v, %v", d, err)
	}
	if _, err := sim.ParseDelay("pulse:0s"); err == nil {
		t.Error("a pulse of zero accepted")
	}
}

// crash_on crashes a node the moment a message of the named type reaches
// it; the message is lost.
func TestCrashOn(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			p.send(env, 1)
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{Kind: sim.CrashOn, Nodes: []algo.NodeID{1}, Message: "ping"},
	}})
	if rec.count(trace.Crashed, 0) != 1 || rec.count(trace.Delivered, 0) != 0 || rec.count(trace.Dropped, trace.LinkBroke) != 1 {
		t.Errorf("events: %+v", rec.events)
	}
	current = &hooks{}
	_, err := sim.New(sim.Config{Algorithm: probeAlgo, Graph: line(2), Timeline: []sim.Action{{Kind: sim.CrashOn, Nodes: []algo.NodeID{1}, Message: "pong"}}})
	if err == nil || !strings.Contains(err.Error(), `has no message type "pong" (it has: ping)`) {
		t.Errorf("unknown type: %v", err)
	}
}

// corrupt makes a node a joker: what it sends leaves altered.
func TestCorrupt(t *testing.T) {
	var got []algo.Message
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				env.SetTimer(0, time.Millisecond) // after the event that makes it a joker
			}
		},
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			data := []byte{1, 2, 3}
			env.Send(1, algo.Message{Data: data})
			env.Send(1, algo.Message{Peer: algo.Peer{ID: 4, Value: 10}})
			if data[0] != 1 {
				t.Error("the joker changed the sender's own bytes")
			}
		},
	}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{Kind: sim.Corrupt, Nodes: []algo.NodeID{0}},
	}})
	for _, e := range rec.events {
		if e.Kind == trace.Delivered {
			got = append(got, e.Msg)
		}
	}
	if len(got) != 2 || got[0].Data[0] != 2 || got[0].Data[1] != 2 || got[1].Peer.Value != 11 {
		t.Errorf("delivered %+v", got)
	}
}

// Report puts what a machine reports into the event stream.
func TestReport(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 1 {
			env.Report("checksum mismatch in gathering")
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay})
	n := 0
	for _, e := range rec.events {
		if e.Kind == trace.Reported && e.Node == 1 && e.Text == "checksum mismatch in gathering" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d reports", n)
	}
}

// Faults armed at time 0 hold from the boot on: a joker's very first
// message leaves altered.
func TestFaultsArmedAtZero(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			env.Send(1, algo.Message{Data: []byte{7}})
		}
	}}
	rec, _ := runProbe(t, h, sim.Config{Graph: line(2), Delay: sim.DefaultDelay, Timeline: []sim.Action{
		{Kind: sim.Corrupt, Nodes: []algo.NodeID{0}},
	}})
	for _, e := range rec.events {
		if e.Kind == trace.Delivered && e.Msg.Data[0] != 8 {
			t.Errorf("delivered %v, want the joker's byte altered", e.Msg.Data)
		}
	}
}

// The engine runs a synchronous algorithm in pulses whatever delay it is
// given.
func TestSynchronousGetsPulses(t *testing.T) {
	sync := *probeAlgo
	sync.Model.Synchronous = true
	h := &hooks{onStart: func(p *probe, env algo.Env) {
		if p.id == 0 {
			p.send(env, 1)
		}
	}}
	current = h
	e, err := sim.New(sim.Config{Algorithm: &sync, Graph: line(2), Delay: sim.Delay{Kind: sim.Uniform, A: 7 * time.Millisecond, B: 9 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	e.Run()
	wantLog(t, h, fmt.Sprintf("%v 1 got #1 from 0", algo.PulseLength))
}
