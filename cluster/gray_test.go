package cluster_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/trace"
)

// The gray steps of a script read as the simulator's gray events do.
func TestGrayScriptSteps(t *testing.T) {
	s, err := cluster.ParseScript("g.yaml", []byte(`
steps:
  - {at: 1s, cut: {from: 4, to: 0}}
  - {at: 2s, uncut: {from: 4, to: 0}}
  - {clock: {node: 3, rate: 0.8}}
  - {clock: {node: [1, 2], jump: -1h}}
  - {clock: {nodes: leader, rate: 1.2, jump: 2s}}
  - {slow: {node: 3, by: 200ms}}
  - {after: 1s, slow: {node: 3, by: 200ms, for: 10s}}
  - {slow: {node: 3, by: 0s}}
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Steps {
		got = append(got, fmt.Sprintf("%d %s %v %v %+v", st.Line, st.Action, st.Nodes, st.Leader, st.Gray))
	}
	want := []string{
		"3 cut [] false {From:4 To:0 Rate:0 Jump:0s By:0s For:0s}",
		"4 uncut [] false {From:4 To:0 Rate:0 Jump:0s By:0s For:0s}",
		"5 clock [3] false {From:0 To:0 Rate:0.8 Jump:0s By:0s For:0s}",
		"6 clock [1 2] false {From:0 To:0 Rate:0 Jump:-1h0m0s By:0s For:0s}",
		"7 clock [] true {From:0 To:0 Rate:1.2 Jump:2s By:0s For:0s}",
		"8 slow [3] false {From:0 To:0 Rate:0 Jump:0s By:200ms For:0s}",
		"9 slow [3] false {From:0 To:0 Rate:0 Jump:0s By:200ms For:10s}",
		"10 slow [3] false {From:0 To:0 Rate:0 Jump:0s By:0s For:0s}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := s.CheckNodes(5); err != nil {
		t.Errorf("CheckNodes(5): %v", err)
	}
}

// A bad gray step is refused naming the file, line, column and field.
func TestGrayScriptErrors(t *testing.T) {
	for _, c := range []struct{ step, want string }{
		{"{cut: {from: 4, to: 4}}", "g.yaml:3:11: steps[0].cut: from and to are both node 4: a direction joins two nodes"},
		{"{cut: {from: 4}}", "g.yaml:3:11: steps[0].cut: want {from: A, to: B} (B no longer hears A): from and to"},
		{"{uncut: {to: 1}}", "g.yaml:3:13: steps[0].uncut: want {from: A, to: B} (B hears A again): from and to"},
		{"{cut: 4}", "g.yaml:3:11: steps[0].cut: want {from: A, to: B} (B no longer hears A), got"},
		{"{cut: {from: 4, to: 0, rate: 1}}", `g.yaml:3:28: steps[0].cut: unknown field "rate" (known: from, to)`},
		{"{cut: {from: x, to: 0}}", `g.yaml:3:18: steps[0].cut.from: invalid node id "x"`},
		{"{clock: {node: 3, rate: 0}}", `g.yaml:3:29: steps[0].clock.rate: clock rate "0": want a number above 0 and at most 100`},
		{"{clock: {node: 3, rate: -1}}", `g.yaml:3:29: steps[0].clock.rate: clock rate "-1": want a number above 0`},
		{"{clock: {node: 3, rate: 100.5}}", `g.yaml:3:29: steps[0].clock.rate: clock rate "100.5": want a number above 0`},
		{"{clock: {node: 3, jump: 0s}}", `g.yaml:3:29: steps[0].clock.jump: jump "0s": want a duration other than 0, like 1h or -500ms`},
		{"{clock: {node: 3}}", "g.yaml:3:13: steps[0].clock: want {node: N, rate: R} or {node: N, jump: D}, or both rate and jump"},
		{"{clock: {rate: 0.8}}", "g.yaml:3:13: steps[0].clock: want {node: N, rate: R}"},
		{"{clock: {node: 3, rate: 0.8, by: 1s}}", `g.yaml:3:34: steps[0].clock: unknown field "by" (known: node, rate, jump)`},
		{"{slow: {node: 3, by: -1s}}", `g.yaml:3:26: steps[0].slow.by: negative duration "-1s"`},
		{"{slow: {node: 3, by: 1s, for: soon}}", `g.yaml:3:35: steps[0].slow.for: invalid duration "soon"`},
		{"{slow: {node: 3}}", "g.yaml:3:12: steps[0].slow: want {node: N, by: D}, and for: D to end it after D"},
		{"{slow: {node: [], by: 1s}}", "g.yaml:3:19: steps[0].slow.node: an empty list names no node"},
		{"{slow: {node: 3, by: 1s}, kill: 2}", "g.yaml:3:5: steps[0]: a step needs exactly one action: kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow or value (got slow, kill)"},
		{"{sloow: {node: 3, by: 1s}}", `g.yaml:3:6: steps[0]: unknown field "sloow" (known: at, after, kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow, value)`},
		// Out of the cluster's range (CheckNodes, against 5 nodes).
		{"{cut: {from: 4, to: 5}}", "g.yaml:3:25: steps[0].cut.to: node 5 is out of range: the cluster has nodes 0..4"},
		{"{uncut: {from: 7, to: 0}}", "g.yaml:3:20: steps[0].uncut.from: node 7 is out of range: the cluster has nodes 0..4"},
		{"{clock: {node: [1, 9], rate: 2}}", "g.yaml:3:20: steps[0].clock.node: node 9 is out of range: the cluster has nodes 0..4"},
		{"{slow: {node: 5, by: 1s}}", "g.yaml:3:19: steps[0].slow.node: node 5 is out of range: the cluster has nodes 0..4"},
	} {
		s, err := cluster.ParseScript("g.yaml", []byte("nodes: 5\nsteps:\n  - "+c.step+"\n"))
		if err == nil {
			err = s.CheckNodes(5)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v\nwant %s", c.step, err, c.want)
		}
	}
}

// A gray step that does not fit the cluster is refused before any node
// hears of it.
func TestGrayRefused(t *testing.T) {
	c, err := cluster.New(cluster.Config{Topology: "line", Nodes: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for _, c := range []struct {
		err  error
		want string
	}{
		{c.Cut(ctx, 0, 2), "cut: nodes 0 and 2 are not linked in the topology line:3: no direction of theirs to cut"},
		{c.Uncut(ctx, 1, 3), "uncut: node 3 is out of range: the cluster has nodes 0..2"},
		{c.Clock(ctx, 1, 101, 0), "clock rate 101: want a rate above 0 and at most 100"},
		{c.Slow(ctx, 1, -time.Second), "slow by -1s for 0s: want durations of 0 or more"},
		{c.Slow(ctx, 4, time.Second), "node 4 is out of range: the cluster has nodes 0..2"},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

// The Go API's gray failures on three real nodes: each is journaled as the
// simulator's event and set on the node it changes; a node killed and
// recovered gets its state back; a slow spell with For ends on its own;
// the checker finds no violation.
func TestGrayOnNodes(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "run.jsonl")
	rec := &kinds{}
	c, err := cluster.Start(ctx, cluster.Config{Nodes: 3, Hello: 50 * time.Millisecond, Trace: file, Observers: []trace.Observer{rec},
		Params: map[string]string{"heartbeat": "100ms", "timeout": "500ms"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Wait(ctx, cluster.ExpectLeader(2, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("cut", c.Cut(ctx, 1, 0))
	must("clock", c.Clock(ctx, 1, 1.05, -time.Hour))
	res, err := c.Do(ctx, cluster.Step{Action: "slow", Nodes: []int{2}, Gray: cluster.GrayFault{By: 20 * time.Millisecond, For: 300 * time.Millisecond}})
	if err != nil || res.Step != "slow 2 20ms for 300ms" || !strings.Contains(res.Result, "slow 2: handles each input 20ms late; on time again in 300ms") {
		t.Fatalf("slow for: %+v, %v", res, err)
	}
	if err := c.Cut(ctx, 0, 0); err == nil || !strings.Contains(err.Error(), "from and to are both node 0") {
		t.Errorf("a cut of 0 to itself: %v", err)
	}
	if _, err := c.Do(ctx, cluster.Step{Action: "clock", Nodes: []int{1}}); err == nil || !strings.Contains(err.Error(), "needs a rate or a jump") {
		t.Errorf("a clock step of nothing: %v", err)
	}
	// Node 0 dies; what it was set to waits for its next life.
	must("kill", c.Kill(ctx, 0))
	res, err = c.Do(ctx, cluster.Step{Action: "slow", Nodes: []int{0}, Gray: cluster.GrayFault{By: 10 * time.Millisecond}})
	if err != nil || !strings.HasSuffix(res.Result, "(not running: set when it starts again)") {
		t.Errorf("slow of a node not running: %+v, %v", res, err)
	}
	res, err = c.Do(ctx, cluster.Step{Action: "recover", Nodes: []int{0}})
	if err != nil || !strings.HasSuffix(res.Result, "its gray failures set again: deaf to 1, 10ms slow") {
		t.Errorf("recover: %+v, %v", res, err)
	}
	// The slow spell of 2 ends 300 ms after it began: wait for a poll
	// round that shows it.
	var rows []cluster.NodeRow
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, err := c.Wait(ctx, cluster.ExpectLeader(2, 5*time.Second)); err != nil {
			t.Fatal(err)
		}
		if rows = c.Snapshot().Rows; rows[2].Gray == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if g := rows[0].Gray; g == nil || !slices.Equal(g.CutFrom, []algo.NodeID{1}) || g.Slow != 10*time.Millisecond {
		t.Errorf("node 0 recovered with gray %+v, want cut from 1 and 10ms slow", g)
	}
	if g := rows[1].Gray; g == nil || g.ClockRate != 1.05 {
		t.Errorf("node 1: gray %+v, want its clock at 1.05", g)
	}
	if g := rows[2].Gray; g != nil {
		t.Errorf("node 2: gray %+v, want none once its slow spell ended", g)
	}
	must("uncut", c.Uncut(ctx, 1, 0))
	must("slow", c.Slow(ctx, 0, 0))
	must("clock", c.Clock(ctx, 1, 1, 0))
	if _, err := c.Wait(ctx, cluster.ExpectLeader(2, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Snapshot().Rows {
		if r.Gray != nil {
			t.Errorf("node %d still has %+v", r.ID, r.Gray)
		}
	}
	sum := c.Finish(nil)
	if v := sum.Check; v == nil || !v.OK {
		t.Errorf("the checker's verdict: %+v", v)
	}
	want := []string{"cut 1 0", "clock 1 1050000", "jump 1 -3600000000000", "slow 2 20000000", "slow 0 10000000",
		"slow 2 0", "uncut 1 0", "slow 0 0", "clock 1 1000000"}
	// The end of 2's slow spell comes on a timer of its own: in any order.
	slices.Sort(rec.got)
	slices.Sort(want)
	if !slices.Equal(rec.got, want) {
		t.Errorf("gray events %q, want %q", rec.got, want)
	}
}

// kinds records the gray events a run journals.
type kinds struct{ got []string }

func (k *kinds) Observe(e *trace.Event) {
	switch e.Kind {
	case trace.Cut, trace.Uncut:
		k.got = append(k.got, fmt.Sprintf("%s %d %d", e.Kind, e.Node, e.Peer))
	case trace.ClockRate, trace.ClockJumped, trace.Slowed:
		k.got = append(k.got, fmt.Sprintf("%s %d %d", e.Kind, e.Node, e.Value))
	}
}
