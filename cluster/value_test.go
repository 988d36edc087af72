package cluster_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/trace"
)

// Value steps read as the simulator's value events do; a bad one is
// refused naming the file, line, column and field.
func TestValueScriptSteps(t *testing.T) {
	s, err := cluster.ParseScript("v.yaml", []byte(`
steps:
  - {at: 1s, value: {node: 4, to: 1}}
  - {value: {node: leader, to: -3}}
  - {value: {node: [1, 2], to: 50}}
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Steps {
		got = append(got, fmt.Sprintf("%d %s %v %v %d", st.Line, st.Action, st.Nodes, st.Leader, st.Value))
	}
	want := []string{"3 value [4] false 1", "4 value [] true -3", "5 value [1 2] false 50"}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct{ step, want string }{
		{"{value: 4}", "v.yaml:3:13: steps[0].value: want {node: N, to: V} (N a node id, a list of them or leader; V an integer), got \"4\""},
		{"{value: {node: 4}}", "v.yaml:3:13: steps[0].value: want {node: N, to: V} (N a node id, a list of them or leader; V an integer): to is missing"},
		{"{value: {to: 4}}", "v.yaml:3:13: steps[0].value: want {node: N, to: V} (N a node id, a list of them or leader; V an integer): node is missing"},
		{"{value: }", "v.yaml:3:13: steps[0].value: want {node: N, to: V} (N a node id, a list of them or leader; V an integer), got nothing"},
		// No alias of node: nodes is an unknown field, alone or beside node.
		{"{value: {node: 2, nodes: 3, to: 1}}", `v.yaml:3:23: steps[0].value: unknown field "nodes" (known: node, to)`},
		{"{value: {node: leader, nodes: 3, to: 1}}", `v.yaml:3:28: steps[0].value: unknown field "nodes" (known: node, to)`},
		{"{value: {nodes: [1, 2], to: 1}}", `v.yaml:3:14: steps[0].value: unknown field "nodes" (known: node, to)`},
		{"{value: {node: 4, to: 99999999999999999999}}", `v.yaml:3:27: steps[0].value.to: value "99999999999999999999": want an integer from -9223372036854775808 to 9223372036854775807`},
		{"{value: {node: 4, to: high}}", `v.yaml:3:27: steps[0].value.to: value "high": want an integer, like 120 or -3`},
		{"{value: {node: 4, to: 1.5}}", `v.yaml:3:27: steps[0].value.to: value "1.5": want an integer`},
		{"{value: {node: 4, to: 1, by: 2}}", `v.yaml:3:30: steps[0].value: unknown field "by" (known: node, to)`},
		{"{value: {node: x, to: 1}}", `v.yaml:3:20: steps[0].value.node: want a node id, a list of ids or "leader"`},
		{"{value: {node: 4, to: 1}, kill: 2}", "v.yaml:3:5: steps[0]: a step needs exactly one action: kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow or value (got value, kill)"},
		// Out of the cluster's range (CheckNodes, against 5 nodes).
		{"{value: {node: [1, 5], to: 1}}", "v.yaml:3:20: steps[0].value.node: node 5 is out of range: the cluster has nodes 0..4"},
	} {
		s, err := cluster.ParseScript("v.yaml", []byte("nodes: 5\nsteps:\n  - "+c.step+"\n"))
		if err == nil {
			err = s.CheckNodes(5)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v\nwant %s", c.step, err, c.want)
		}
	}
}

// Value changes on three real nodes: the leader whose value falls below
// another's hands over to it; a node not running gets its new value on its
// next life (its --value), and takes over then; the leader's value set by
// "leader" falls too. Each change is journaled as the simulator's
// ValueChanged event, and the checker finds no violation.
func TestValueOnNodes(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "run.jsonl")
	rec := &values{}
	c, err := cluster.Start(ctx, cluster.Config{Nodes: 3, Hello: 50 * time.Millisecond, Trace: file, Observers: []trace.Observer{rec},
		Params: map[string]string{"heartbeat": "100ms", "timeout": "500ms"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	wait := func(leader int) {
		t.Helper()
		if _, err := c.Wait(ctx, cluster.ExpectLeader(leader, 5*time.Second)); err != nil {
			t.Fatalf("expect leader %d: %v", leader, err)
		}
	}
	wait(2)
	// 2's value falls below 1's: 1 takes over.
	must("value 2 -1", c.SetValue(ctx, 2, -1))
	wait(1)
	if _, err := c.Wait(ctx, cluster.ExpectAgreement(time.Second)); err != nil {
		t.Errorf("agreement on the most valued node, by the new values: %v", err)
	}
	res, err := c.Do(ctx, cluster.Step{Action: "value", Nodes: []int{2}, Value: -1})
	if err != nil || res.Step != "value 2 -1" || res.Result != "value 2: -1 already: nothing to do" {
		t.Errorf("the same value again: %+v, %v", res, err)
	}
	// 1 dies; its new value waits for its next life: 0 leads meanwhile.
	must("kill", c.Kill(ctx, 1))
	res, err = c.Do(ctx, cluster.Step{Action: "value", Nodes: []int{1}, Value: 10})
	if err != nil || res.Result != "value 1: 10 (was 1) (not running: set when it starts again)" {
		t.Errorf("value of a node not running: %+v, %v", res, err)
	}
	if args := strings.Join(c.NodeArgs(1), " "); !strings.Contains(args, "--value 10 ") {
		t.Errorf("node 1's command line after its value changed: %s", args)
	}
	wait(0)
	must("restart", c.Restart(ctx, 1))
	wait(1)
	if rows := c.Snapshot().Rows; rows[1].Value != 10 || rows[2].Value != -1 || rows[0].Value != 0 {
		t.Errorf("values in the table: %d %d %d, want 0 10 -1", rows[0].Value, rows[1].Value, rows[2].Value)
	}
	// The leader's value, whichever it is: 1's, below 0's now.
	parsed, err := cluster.ParseCommand("value leader -5", 3)
	must("parse", err)
	res, err = c.Do(ctx, parsed)
	if err != nil || res.Result != "value 1: -5 (was 10)" {
		t.Errorf("value leader -5: %+v, %v", res, err)
	}
	wait(0)
	if err := c.SetValue(ctx, 3, 1); err == nil || !strings.Contains(err.Error(), "node 3 is out of range") {
		t.Errorf("value of node 3 of 3: %v", err)
	}
	sum := c.Finish(nil)
	if v := sum.Check; v == nil || !v.OK {
		t.Errorf("the checker's verdict: %+v", v)
	}
	want := []string{"value 2 -1", "value 1 10", "value 1 -5"}
	if !slices.Equal(rec.got, want) {
		t.Errorf("value events %q, want %q", rec.got, want)
	}
}

// values records the value events a run journals.
type values struct{ got []string }

func (k *values) Observe(e *trace.Event) {
	if e.Kind == trace.ValueChanged {
		k.got = append(k.got, fmt.Sprintf("%s %d %d", e.Kind, e.Node, e.Value))
	}
}

// The shipped script scenarios/cluster-scripts/value-leader-falls.yaml on
// five real nodes: every expect step is met (the leader hands over as its
// value falls, then as another's rises), and the checker finds no
// violation.
func TestValueLeaderFallsScript(t *testing.T) {
	s, err := cluster.LoadScript("../scenarios/cluster-scripts/value-leader-falls.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cluster.FromScript(s, cluster.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	sum := c.Finish(c.Run(ctx, m.Script))
	if !sum.OK {
		t.Fatalf("error %q; steps %+v", sum.Error, sum.Steps)
	}
	if v := sum.Check; v == nil || !v.OK || len(v.OutsideModel) > 0 {
		t.Errorf("the checker's verdict %+v: want no violation, inside the model", v)
	}
	if sum.Final[0].Leader != 0 || sum.Final[4].Value != 1 || sum.Final[0].Value != 50 {
		t.Errorf("final rows %+v: want node 0 leading, values 50 and 1 for nodes 0 and 4", sum.Final)
	}
}
