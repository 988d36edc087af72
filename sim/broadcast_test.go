package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// bcast broadcasts the probe's next message.
func (p *probe) bcast(env algo.Env) {
	p.sent++
	algo.Broadcast(env, algo.Message{Type: 0, Index: algo.Index{Num: p.sent, ID: p.id}})
}

func star(leaves int) *topo.Graph {
	var edges []topo.Edge
	for i := 1; i <= leaves; i++ {
		edges = append(edges, topo.Edge{A: 0, B: algo.NodeID(i)})
	}
	return topo.New(leaves+1, edges)
}

// A broadcast is one transmission (one Sent, to Everyone) that every
// neighbour receives at one instant, in ascending id; links that break on
// the way, or come up after it went out, carry nothing.
func TestBroadcastFansOut(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name     string
		timeline []sim.Action
		want     []string
	}{
		{"every neighbour", nil, []string{"10ms 1 got #1 from 0", "10ms 2 got #1 from 0", "10ms 3 got #1 from 0", "10ms 4 got #1 from 0"}},
		{"a link cut on the way", []sim.Action{{At: 5 * ms, Kind: sim.LinkDown, Link: topo.Edge{A: 0, B: 2}}},
			[]string{"5ms 0 sees 2 down (neighbours [1 3 4])", "5ms 2 sees 0 down (neighbours [])", "10ms 1 got #1 from 0", "10ms 3 got #1 from 0", "10ms 4 got #1 from 0"}},
		{"a link cut and back before the delivery", []sim.Action{{At: 5 * ms, Kind: sim.LinkDown, Link: topo.Edge{A: 0, B: 2}}, {At: 6 * ms, Kind: sim.LinkUp, Link: topo.Edge{A: 0, B: 2}}},
			[]string{"5ms 0 sees 2 down (neighbours [1 3 4])", "5ms 2 sees 0 down (neighbours [])", "6ms 0 sees 2 up (neighbours [1 2 3 4])", "6ms 2 sees 0 up (neighbours [0])",
				"10ms 1 got #1 from 0", "10ms 3 got #1 from 0", "10ms 4 got #1 from 0"}},
		{"the sender crashed", []sim.Action{{At: 5 * ms, Kind: sim.Crash, Nodes: []algo.NodeID{0}}},
			[]string{"5ms 1 sees 0 down (neighbours [])", "5ms 2 sees 0 down (neighbours [])", "5ms 3 sees 0 down (neighbours [])", "5ms 4 sees 0 down (neighbours [])"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := &hooks{onStart: func(p *probe, env algo.Env) {
				if p.id == 0 {
					p.bcast(env)
				}
			}}
			rec, _ := runProbe(t, h, sim.Config{Graph: star(4), Delay: sim.Delay{Kind: sim.Constant, A: 10 * ms}, Timeline: c.timeline})
			wantLog(t, h, c.want...)
			sent := 0
			for _, e := range rec.events {
				if e.Kind == trace.Sent {
					sent++
					if e.Peer != algo.Everyone || e.Msg.To != algo.Everyone {
						t.Errorf("a broadcast's Sent event names %d (To %d), want Everyone", e.Peer, e.Msg.To)
					}
				}
			}
			if sent != 1 || rec.count(trace.Dropped, trace.LinkBroke) != 0 {
				t.Errorf("%d transmissions, %d link_down drops; want 1 and none (a radio knows nothing of who did not hear)", sent, rec.count(trace.Dropped, trace.LinkBroke))
			}
		})
	}
}

// Loss is drawn for each receiver on its own: over many broadcasts to 4
// neighbours at 30% loss each one hears about 70%, and every reception is
// either delivered or lost.
func TestBroadcastLossPerReceiver(t *testing.T) {
	const beats = 500
	h := &hooks{
		onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				env.SetTimer(0, time.Millisecond)
			}
		},
		onTimer: func(p *probe, env algo.Env, _ algo.Timer) {
			if p.sent < beats {
				p.bcast(env)
				env.SetTimer(0, time.Millisecond)
			}
		},
	}
	rec, _ := runProbe(t, h, sim.Config{Graph: star(4), Loss: 0.3, Seed: 9})
	got := map[algo.NodeID]int{}
	for _, e := range rec.events {
		if e.Kind == trace.Delivered {
			got[e.Node]++
		}
	}
	lost := rec.count(trace.Dropped, trace.Lost)
	if rec.count(trace.Sent, 0) != beats || rec.count(trace.Delivered, 0)+lost != 4*beats {
		t.Fatalf("%d sent, %d delivered, %d lost; want %d transmissions, %d receptions in all", rec.count(trace.Sent, 0), rec.count(trace.Delivered, 0), lost, beats, 4*beats)
	}
	for v := algo.NodeID(1); v <= 4; v++ {
		if f := float64(got[v]) / beats; f < 0.62 || f > 0.78 {
			t.Errorf("node %d heard %.2f of the broadcasts, want about 0.7", v, f)
		}
	}
}

// Each link stays FIFO under random delays: a broadcast between two
// unicast messages arrives between them.
func TestBroadcastFIFOWithUnicast(t *testing.T) {
	delay, _ := sim.ParseDelay("uniform:1ms:50ms")
	for seed := range uint64(10) {
		h := &hooks{onStart: func(p *probe, env algo.Env) {
			if p.id == 0 {
				p.send(env, 1)
				p.bcast(env)
				p.send(env, 2)
				p.bcast(env)
			}
		}}
		rec, _ := runProbe(t, h, sim.Config{Graph: star(2), Delay: delay, Seed: seed})
		order := map[algo.NodeID]string{}
		for _, e := range rec.events {
			if e.Kind == trace.Delivered {
				order[e.Node] += fmt.Sprint(e.Msg.Index.Num)
			}
		}
		if order[1] != "124" || order[2] != "234" {
			t.Errorf("seed %d: node 1 got %q, node 2 %q; want 124 and 234", seed, order[1], order[2])
		}
	}
}

// A broadcast with nobody in range is still a transmission.
func TestBroadcastAlone(t *testing.T) {
	h := &hooks{onStart: func(p *probe, env algo.Env) { p.bcast(env) }}
	rec, res := runProbe(t, h, sim.Config{Graph: topo.New(1, nil)})
	if rec.count(trace.Sent, 0) != 1 || rec.count(trace.Delivered, 0) != 0 || !res.Quiescent {
		t.Errorf("%d sent, %d delivered, quiescent %v", rec.count(trace.Sent, 0), rec.count(trace.Delivered, 0), res.Quiescent)
	}
}
