package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/runtime"
)

// Config.Check refuses, starting nothing, what the nodes could not run,
// naming the field at fault (ConfigError) and saying what is wrong.
func TestConfigCheck(t *testing.T) {
	for _, c := range []struct {
		cfg         cluster.Config
		field, want string
	}{
		{cluster.Config{Algorithm: "chang-roberts", Topology: "complete", Nodes: 4}, "Algorithm", "algorithm chang-roberts needs a ring of 3 or more nodes: node 0 of 4 has 3 peers"},
		{cluster.Config{Algorithm: "nosuch", Nodes: 3}, "Algorithm", "nosuch"},
		{cluster.Config{Topology: "grid:3x3", Nodes: 4}, "Nodes", "topology grid:3x3 has 9 nodes, but nodes says 4"},
		{cluster.Config{Topology: "hexagon", Nodes: 3}, "Topology", `topology "hexagon" (nodes=3): unknown`},
		{cluster.Config{Topology: "grid:20x20"}, "Topology", "topology grid:20x20 has 400 nodes: want at most 200"},
		{cluster.Config{Nodes: 201}, "Nodes", "201: want 1 to 200"},
		{cluster.Config{Nodes: 3, Values: []int64{1, 2}}, "Values", "2 values for 3 nodes"},
		{cluster.Config{Nodes: 4, Algorithm: "ring", Topology: "ring", CrashOn: map[int]string{2: "gathering"}}, "CrashOn", `node 2: algorithm ring has no message "gathering" (it has gather, confirm)`},
		{cluster.Config{Nodes: 4, CrashOn: map[int]string{7: "election"}}, "CrashOn", "node 7 is out of range: the cluster has nodes 0..3"},
		{cluster.Config{Nodes: 3, Corrupt: []int{4}}, "Corrupt", "node 4 is out of range: the cluster has nodes 0..2"},
		{cluster.Config{Nodes: 4, Algorithm: "echo", Initiators: "9"}, "Initiators", "initiator 9 does not exist"},
		{cluster.Config{Nodes: 4, Algorithm: "bully", Initiators: "0"}, "Initiators", "bully: every node elects at boot"},
		{cluster.Config{Nodes: 3, Params: map[string]string{"timeout": "soon"}}, "Algorithm", `vkt parameter timeout: invalid duration "soon"`},
		{cluster.Config{Nodes: 3, LogLevel: "loud"}, "LogLevel", `"loud": want debug, info, warn or error`},
		{cluster.Config{Nodes: 3, BasePort: 65000}, "BasePort", "65000: want a port from 1024 to 64533"},
		{cluster.Config{Nodes: 3, Hello: -time.Second}, "Hello", "-1s: want a positive duration"},
	} {
		err := c.cfg.Check()
		var ce *cluster.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field || !strings.Contains(ce.Err.Error(), c.want) {
			t.Errorf("%+v: %v; want a ConfigError of %s saying %q", c.cfg, err, c.field, c.want)
		}
	}
	for _, cfg := range []cluster.Config{
		{},
		{Algorithm: "chang-roberts", Nodes: 4}, // on the ring its model needs
		{Algorithm: "ring", Topology: "ring", Nodes: 4, CrashOn: map[int]string{2: "gather"}, Corrupt: []int{1}, Initiators: "none"},
		{Algorithm: "vkt", Nodes: 3, ControlElects: true},
		{Algorithm: "bully", Nodes: 3, ControlElects: true}, // every node elects at boot all the same
	} {
		if err := cfg.Check(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// New resolves the configuration: the network the algorithm's model needs
// when no topology is given (saying so), the nodes' command lines with the
// initiators and faults, and a boot parameter for a spontaneous algorithm.
func TestNewResolves(t *testing.T) {
	var notes []string
	c, err := cluster.New(cluster.Config{Algorithm: "chang-roberts", Nodes: 4, Initiators: "1", CrashOn: map[int]string{2: "election"},
		Corrupt: []int{3}, Faults: runtime.Faults{Loss: 0.2}, Log: func(l cluster.Line) {
			if l.Kind == cluster.LineNote {
				notes = append(notes, l.Text)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cfg := c.Config()
	if cfg.Topology != "ring:4" || cfg.Nodes != 4 || cfg.Algorithm != "chang-roberts" || !slices.Equal(cfg.Values, []int64{0, 1, 2, 3}) {
		t.Errorf("resolved %s on %s, %d nodes, values %v", cfg.Algorithm, cfg.Topology, cfg.Nodes, cfg.Values)
	}
	if want := "chang-roberts needs a ring network (Model.Topology): the cluster is ring:4"; !slices.Equal(notes, []string{want}) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	for id := range 4 {
		args := strings.Join(c.NodeArgs(id), " ")
		for flag, want := range map[string]bool{
			"--initiator": id == 1, "--crash-on election": id == 2, "--corrupt": id == 3,
			"--size 4": true, "--algo chang-roberts": true, fmt.Sprintf("--faults loss=0.2,seed=%d", id+1): true,
		} {
			if strings.Contains(args, flag+" ") != want && !strings.HasSuffix(args, flag) {
				t.Errorf("node %d: %q has %s: %v", id, args, flag, !want)
			}
		}
	}
	v, err := cluster.New(cluster.Config{Algorithm: "vkt", Nodes: 3, ControlElects: true})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if got := v.Config().Params["initiators"]; got != "none" || slices.Contains(v.NodeArgs(0), "--initiator") {
		t.Errorf("vkt with ControlElects: initiators=%q, %q", got, v.NodeArgs(0))
	}
}

// The flags every node of a run shares, as emulate's nodes get them too.
func TestNodeFlags(t *testing.T) {
	got := cluster.NodeFlags{Algorithm: "vkt", Params: map[string]string{"timeout": "1s", "heartbeat": "200ms"},
		Hello: 50 * time.Millisecond, HelloLoss: 4, LogLevel: "info"}.Args()
	want := []string{"--algo", "vkt", "--hello", "50ms", "--hello-loss", "4", "--log-level", "info",
		"--param", "heartbeat=200ms", "--param", "timeout=1s"}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	if f := cluster.FaultFlags(runtime.Faults{}, 3); f != nil {
		t.Errorf("no faults: %q", f)
	}
	a, b := cluster.FaultFlags(runtime.Faults{Loss: 0.5, Seed: 7}, 0), cluster.FaultFlags(runtime.Faults{Loss: 0.5, Seed: 7}, 1)
	if len(a) != 2 || a[0] != "--faults" || slices.Equal(a, b) {
		t.Errorf("nodes 0 and 1: %q and %q; want --faults, seeded apart", a, b)
	}
}

// A process started as a cluster's node refuses to start a cluster of its
// own: a program that does not run cli.Main for "node" would otherwise
// start clusters of itself without end.
func TestNodeStartsNoCluster(t *testing.T) {
	t.Setenv(cluster.NodeEnv, "3")
	_, err := cluster.New(cluster.Config{Nodes: 3, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "this process is node 3 of a cluster") {
		t.Fatalf("New from a node: %v", err)
	}
}

// Once closed, a cluster starts no node again (a restart in flight would
// outlive it), and says so.
func TestActAfterClose(t *testing.T) {
	c, err := cluster.New(cluster.Config{Nodes: 3, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, act := range []func(context.Context, ...int) error{c.Restart, c.Recover, c.Kill, c.Elect} {
		if err := act(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("an action after Close: %v", err)
		}
	}
	// A step run by Do fails the same way, and the summary keeps it.
	st, err := cluster.ParseCommand("r 1", 3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(context.Background(), st)
	if err == nil || res.OK || res.Step != "restart 1" || res.Error != err.Error() {
		t.Errorf("Do after Close: %+v, %v", res, err)
	}
	if steps := c.Summary().Steps; len(steps) != 1 || steps[0] != res {
		t.Errorf("the summary's steps: %+v, want [%+v]", steps, res)
	}
}

// A wait that its context ends says what it waited for, and wraps the
// context's error.
func TestWaitCutShort(t *testing.T) {
	c, err := cluster.New(cluster.Config{Nodes: 3, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Wait(ctx, cluster.ExpectLeader(1, time.Minute))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "expect leader 1 within 1m0s: cut short after") {
		t.Errorf("Wait with its context ended: %v", err)
	}
}
