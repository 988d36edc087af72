package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/topo"
)

// maxClusterNodes bounds --nodes: every node is a process of its own.
const maxClusterNodes = 200

// clusterFlags are elect cluster's options.
type clusterFlags struct {
	nodes             int
	values            string
	seed              uint64
	topology          string
	algo              string
	params            []string
	hello             time.Duration
	helloLoss         int
	keyFile, logLevel string
	basePort          int
	dir               string
	keep              bool
	script            string
	json              bool
	duration          time.Duration
	poll, refresh     time.Duration
	initiators        string
	crashOn           []string
	corrupt           string
	elect             string
	within            time.Duration
	faults            string
}

// clusterConfig is what the cluster runs with, flags and script merged.
type clusterConfig struct {
	nodes     int
	values    []int64
	algo      string
	params    map[string]string
	paramKeys []string
	hello     time.Duration
	helloLoss int
	keyFile   string
	logLevel  string
	topoName  string
	graph     *topo.Graph
	basePort  int
	dir       string
	tempDir   bool // dir was made for this run
	poll      time.Duration
	refresh   time.Duration
	script    *clusterScript
	// The faults and initiators each node is started with, by node id.
	initiators []bool
	crashOn    map[int]string
	corrupt    []bool
	faults     runtime.Faults // injected into what every node sends (seeded per node)
}

func newClusterCmd() *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "cluster [--nodes N] [--script FILE] [flags]",
		Short: "Run N real nodes on 127.0.0.1 and watch them elect; kill, restart and recover them",
		Long: `Start N elect node processes on 127.0.0.1 (ids 0..N-1, value = id unless
--values says otherwise), each listing its neighbours in --topology (every
other node by default) as peers, each with a state directory of its own, and
show their /status as a live table.

The cluster's network is fixed: each node knows exactly its neighbours in
--topology and the true N (elect node --size), so every registered algorithm
runs, yours too, those written for a ring or a complete network included, on
the network they assume (without --topology, a ring for ring and
chang-roberts; bully, all-to-all, capture-sync and capture-async on the
default, complete). Each node gives its algorithm what its model asks for:
reliable FIFO links to one that does not tolerate loss, the pulses of a
synchronizer to a synchronous one. Nodes in --initiators (by default the
algorithm's own) elect as they boot, as a simulated run's initiators do.

Commands, typed a line at a time (k, r, c, s and e also take "leader"):
  k N, kill N      SIGKILL node N
  s N, stop N      SIGTERM: a clean stop
  r N, restart N   start N again with an empty state directory: it elects
  c N, recover N   start N again with its state directory: it merges, no election
  e N, elect N     ask N to start an election (POST /elect)
  p, print         print the table
  q, quit          stop every node and end

--script FILE runs a scenario of timed steps instead (see
scenarios/cluster-scripts/) and ends when it does: exit status 1 when an expect
step failed. The summary at the end gives each node's final status and every
failover measured: from the kill of a leader until every live node follows
the most valued survivor.

The cluster also plays the control process of the ring document
(003_995b7edf0113a8b5.txt): --crash-on and --corrupt inject its faults (a node
that dies during gathering or confirmation, a joker that alters the payload),
the algorithm's reports are collected from the nodes, and the summary ends with
the outcome as the document's control process says it: the elected node, the
failure and its phase naming the node that died, the checksum failure naming
the joker. --elect N runs just that: start an election at N, wait --within for
every live node to follow the most valued one, report, end (exit 1 if not in
time). See scenarios/cluster-scripts/ring-*.yaml.

Each node's log is DIR/node-N.log and its state DIR/node-N/state, DIR being
--dir or a temporary directory (removed at the end unless --keep is given or
something failed). Every node is stopped when the command ends, whatever the
reason; on Linux they are killed if it dies.`,
		Example: `  elect cluster --nodes 5
  elect cluster --nodes 8 --param heartbeat=200ms --param timeout=1s --hello 50ms
  elect cluster --script scenarios/cluster-scripts/failover.yaml --json
  elect cluster --algo ring --topology ring --nodes 4 --crash-on 2=gather --elect 0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runCluster(ctx, cmd, cfg, f)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.nodes, "nodes", 0, "number of nodes, 1 to 200 (default 5, or what --topology or the script says)")
	fl.StringVar(&f.values, "values", "id", "node values: id (value = id), random (drawn with --seed), or a list V0,V1,... of one per node")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of random values and random topologies")
	fl.StringVar(&f.topology, "topology", "complete", "who lists whom as a peer: complete, line, ring, star, grid:WxH, tree, ... (elect sim's specs; N from --nodes); by default complete, or the network the algorithm's model needs (a ring for chang-roberts)")
	fl.StringVar(&f.algo, "algo", node.DefaultAlgorithm, "the election algorithm: any registered one, yours too (elect algos lists them)")
	fl.StringArrayVarP(&f.params, "param", "p", nil, "algorithm parameter NAME=VALUE (repeatable), e.g. heartbeat=200ms")
	fl.DurationVar(&f.hello, "hello", node.DefaultHello, "interval between hello beacons")
	fl.IntVar(&f.helloLoss, "hello-loss", node.DefaultHelloLoss, "a neighbour is lost after this many beacon intervals without a datagram from it")
	fl.StringVar(&f.keyFile, "key-file", "", "the cluster's shared key (see elect node --key-file)")
	fl.StringVar(&f.logLevel, "log-level", "info", "the nodes' log level: debug, info, warn or error")
	fl.IntVar(&f.basePort, "base-port", 0, "node i listens on UDP port P+i and serves HTTP on P+1000+i (default: free ports)")
	fl.StringVar(&f.dir, "dir", "", "directory of the nodes' state and logs (default: a temporary one); state found there is recovered")
	fl.BoolVar(&f.keep, "keep", false, "keep the temporary directory at the end")
	fl.StringVar(&f.script, "script", "", "run the steps of this YAML file, then end")
	fl.BoolVar(&f.json, "json", false, "print the final summary as one JSON object (the live output goes to stderr)")
	fl.DurationVar(&f.duration, "duration", 0, "end after this long (0: at q, Ctrl-C or the script's end)")
	fl.DurationVar(&f.poll, "poll", 0, "interval between polls of every node's /status (default 50ms, 2.5ms a node beyond 20)")
	fl.DurationVar(&f.refresh, "refresh", 200*time.Millisecond, "interval between redraws of the table on a terminal")
	fl.StringVar(&f.initiators, "initiators", "", "the nodes that start an election at boot, and no other: a node set like 0 or 0,3-5, all or none (default: the algorithm's, e.g. node 0 for ring and echo, all for chang-roberts and vkt); vkt's and park's nodes read it in their parameter initiators, the others' are started with --initiator; bully takes only all")
	fl.StringArrayVar(&f.crashOn, "crash-on", nil, "fault injection: NODE=TYPE makes NODE die on its first message of TYPE, e.g. 2=gather (repeatable)")
	fl.StringVar(&f.corrupt, "corrupt", "", "fault injection: these nodes (a node set) alter the payload of every message they send: the ring document's joker")
	fl.StringVar(&f.elect, "elect", "", "act as the ring document's control process: start an election at this node (POST /elect; no other node initiates unless --initiators says so), or none (the initiators start it: --initiators, or the algorithm's), wait until every live node follows the most valued one (--within), report the outcome and end: exit 0 when elected, 1 when not in time, 2 when a node's machine panicked")
	fl.StringVar(&f.faults, "faults", "", "inject faults into what every node sends (elect node --faults, each node seeded apart): loss=P,duplicate=P,delay=D,jitter=D,seed=N, e.g. loss=0.2")
	fl.DurationVar(&f.within, "within", 10*time.Second, "with --elect, how long to wait for the outcome")
	return cmd
}

// config merges the script and the flags (flags win) and checks it all,
// naming the flag or the script's line at fault.
func (f *clusterFlags) config(cmd *cobra.Command) (*clusterConfig, error) {
	fl := cmd.Flags()
	cfg := &clusterConfig{algo: f.algo, hello: f.hello, helloLoss: f.helloLoss, logLevel: f.logLevel,
		basePort: f.basePort, refresh: f.refresh, poll: f.poll, params: map[string]string{}}
	var s *clusterScript
	if f.script != "" {
		var err error
		if s, err = loadClusterScript(f.script); err != nil {
			return nil, err
		}
		cfg.script = s
		if s.Algorithm != "" && !fl.Changed("algo") {
			cfg.algo = s.Algorithm
		}
		if s.Hello > 0 && !fl.Changed("hello") {
			cfg.hello = s.Hello
		}
		if s.HelloLoss > 0 && !fl.Changed("hello-loss") {
			cfg.helloLoss = s.HelloLoss
		}
		for _, k := range slices.Sorted(maps.Keys(s.Params)) {
			cfg.params[k] = s.Params[k]
			cfg.paramKeys = append(cfg.paramKeys, k)
		}
	}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		if _, dup := cfg.params[k]; !dup {
			cfg.paramKeys = append(cfg.paramKeys, k)
		}
		cfg.params[k] = v
	}
	if cfg.hello <= 0 {
		return nil, fmt.Errorf("--hello %v: want a positive duration", cfg.hello)
	}
	if cfg.helloLoss < 1 {
		return nil, fmt.Errorf("--hello-loss %d: want at least 1", cfg.helloLoss)
	}
	if fl.Changed("nodes") && (f.nodes < 1 || f.nodes > maxClusterNodes) {
		return nil, fmt.Errorf("--nodes %d: want 1 to %d (every node is a process)", f.nodes, maxClusterNodes)
	}
	if f.refresh <= 0 {
		return nil, fmt.Errorf("--refresh %v: want a positive duration", f.refresh)
	}
	if f.poll < 0 || f.duration < 0 {
		return nil, errors.New("--poll and --duration take durations >= 0")
	}

	// The network: its size comes from --nodes, the script, the topology
	// spec, or the default 5, in that order.
	nodes, nodesFrom := 0, ""
	switch {
	case fl.Changed("nodes"):
		nodes, nodesFrom = f.nodes, "--nodes"
	case s != nil && s.Nodes > 0:
		nodes, nodesFrom = s.Nodes, "nodes"
	}
	spec, picked := f.topology, false
	if s != nil && s.Topology != "" && !fl.Changed("topology") {
		spec = s.Topology
	} else if !fl.Changed("topology") {
		// The default, complete, is not what a ring algorithm runs on:
		// take the family its model needs, when topo knows it.
		if a, err := algo.Lookup(cfg.algo); err == nil && a.Model.Topology != "" && a.Model.Topology != spec {
			if _, err := topo.Parse(a.Model.Topology, 3); err == nil {
				spec, picked = a.Model.Topology, true
			}
		}
	}
	seed := f.seed
	if s != nil && s.Seed != nil && !fl.Changed("seed") {
		seed = *s.Seed
	}
	g, name, err := clusterTopology(spec, nodes, seed)
	if err != nil {
		if s != nil && !fl.Changed("topology") {
			return nil, s.blame(err, "topology")
		}
		return nil, fmt.Errorf("--topology: %w", err)
	}
	if g.N() < 1 || g.N() > maxClusterNodes {
		err := fmt.Errorf("%d nodes: want 1 to %d (every node is a process)", g.N(), maxClusterNodes)
		if nodesFrom == "nodes" {
			return nil, s.blame(err, "nodes")
		}
		return nil, fmt.Errorf("--topology %s: %w", spec, err)
	}
	if nodes > 0 && g.N() != nodes {
		err := fmt.Errorf("topology %s has %d nodes, but %s says %d", name, g.N(), nodesFrom, nodes)
		if nodesFrom == "nodes" {
			return nil, s.blame(err, "nodes")
		}
		return nil, err
	}
	cfg.nodes, cfg.graph, cfg.topoName = g.N(), g, name
	if picked {
		fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: %s needs a %s network (Model.Topology): the cluster is %s (--topology chooses another)\n", cfg.algo, spec, name)
	}
	if cfg.poll == 0 {
		cfg.poll = 50 * time.Millisecond
		if cfg.nodes > 20 {
			cfg.poll += time.Duration(cfg.nodes-20) * 2500 * time.Microsecond
		}
	}

	// Values.
	rng := rand.New(rand.NewPCG(seed, 0x76616c756573)) // "values"
	switch {
	case s != nil && s.Values != nil && !fl.Changed("values"):
		cfg.values, err = s.Values.Resolve(cfg.nodes, rng)
		if err != nil {
			return nil, s.blame(err, "values")
		}
	default:
		if cfg.values, err = parseClusterValues(f.values, cfg.nodes, rng); err != nil {
			return nil, err
		}
	}
	if s != nil {
		if err := s.checkNodes(cfg.nodes); err != nil {
			return nil, err
		}
	}
	if cfg.faults, err = runtime.ParseFaults(f.faults); err != nil {
		return nil, fmt.Errorf("--faults: %w", err)
	}
	if err := f.faultsAndInitiators(cmd, cfg, s); err != nil {
		return nil, err
	}

	// The algorithm and its parameters, checked here rather than by N
	// processes that would all fail the same way.
	if err := checkNodeConfig(cfg); err != nil {
		if s != nil && !fl.Changed("algo") && s.set["algorithm"] != (scenario.Position{}) {
			return nil, s.blame(err, "algorithm")
		}
		return nil, err
	}
	if f.keyFile != "" {
		abs, err := filepath.Abs(f.keyFile)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("--key-file: %w", err)
		}
		cfg.keyFile = abs
	}
	switch f.logLevel {
	case "debug", "info", "warn", "error":
	default:
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", f.logLevel)
	}
	if f.basePort != 0 && (f.basePort < 1024 || f.basePort+1000+cfg.nodes-1 > 65535) {
		return nil, fmt.Errorf("--base-port %d: want a port from 1024 to %d, so that P+1000+%d is a port", f.basePort, 65535-1000-cfg.nodes+1, cfg.nodes-1)
	}
	cfg.dir = f.dir
	return cfg, nil
}

// clusterTopology builds the graph of spec; nodes (0: not given) supplies N
// for specs without one.
func clusterTopology(spec string, nodes int, seed uint64) (*topo.Graph, string, error) {
	var sp topo.Spec
	var err error
	if nodes > 0 {
		sp, err = topo.Parse(spec, nodes)
		if err != nil {
			// grid:WxH, layered:L and file:PATH carry their own size.
			if own, err2 := topo.Parse(spec, 0); err2 == nil {
				sp, err = own, nil
			}
		}
	} else {
		sp, err = topo.Parse(spec, 0)
		if err != nil {
			if dflt, err2 := topo.Parse(spec, 5); err2 == nil {
				sp, err = dflt, nil
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	if sp.N > maxClusterNodes {
		return nil, "", fmt.Errorf("topology %s has %d nodes: want at most %d (every node is a process)", sp.String(), sp.N, maxClusterNodes)
	}
	g, err := sp.Build(rand.New(rand.NewPCG(seed, 0x746f706f)), "") // "topo"
	if err != nil {
		return nil, "", err
	}
	return g, sp.String(), nil
}

// parseClusterValues reads --values: id, random, or one value per node.
func parseClusterValues(s string, n int, rng *rand.Rand) ([]int64, error) {
	if mode, err := sim.ParseValueMode(s); err == nil {
		return sim.Values{Mode: mode}.Resolve(n, rng)
	}
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("--values %q: want id, random, or %d comma-separated integers (one per node), got %d", s, n, len(parts))
	}
	out := make([]int64, n)
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--values: value %d of node %d is not an integer", i, i)
		}
		out[i] = v
	}
	return out, nil
}

// checkNodeConfig builds (without running) every node as the cluster will
// run it, so that an algorithm, a parameter or a fault its nodes cannot
// take is refused once, naming what is wrong, rather than by N processes
// that would all fail the same way: node.New checks the algorithm against
// the network (a ring algorithm on a ring of the cluster's size).
func checkNodeConfig(cfg *clusterConfig) error {
	net := runtime.NewMemNetwork()
	for i := range cfg.nodes {
		peers := map[algo.NodeID]netip.AddrPort{}
		for _, j := range cfg.graph.Neighbors(algo.NodeID(i)) {
			peers[j] = netip.MustParseAddrPort("127.0.0.1:9")
		}
		ep := net.Listen()
		_, err := node.New(node.Config{ID: algo.NodeID(i), Algorithm: cfg.algo, Params: cfg.params, Transport: ep, Peers: peers,
			Hello: cfg.hello, HelloLoss: cfg.helloLoss, Size: cfg.nodes, CrashOn: cfg.crashOn[i],
			Logger: slog.New(slog.DiscardHandler)})
		ep.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// runCluster starts the cluster, runs it until the script ends, q, Ctrl-C
// or --duration, then prints the summary.
func runCluster(ctx context.Context, cmd *cobra.Command, cfg *clusterConfig, f clusterFlags) (err error) {
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding elect's own binary to start the nodes: %w", err)
	}
	if cfg.dir == "" {
		if cfg.dir, err = os.MkdirTemp("", "elect-cluster-"); err != nil {
			return err
		}
		cfg.tempDir = true
	} else if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	if cfg.dir, err = filepath.Abs(cfg.dir); err != nil {
		return err
	}
	keep := !cfg.tempDir || f.keep
	defer func() {
		if !keep {
			os.RemoveAll(cfg.dir)
		}
	}()
	c, err := newCluster(cfg, bin)
	if err != nil {
		return err
	}
	defer c.killAll() // whatever happens, no node outlives the command

	stdout := cmd.OutOrStdout()
	live := stdout
	if f.json {
		live = cmd.ErrOrStderr()
	}
	view := newClusterView(live)
	c.view = view
	view.printf("elect cluster: starting %d nodes (%s on %s); logs and state in %s\n", cfg.nodes, cfg.algo, cfg.topoName, cfg.dir)
	if err := c.startAll(ctx); err != nil {
		keep = true
		return fmt.Errorf("starting the cluster (state and logs kept in %s): %w", cfg.dir, err)
	}
	c.mu.Lock()
	c.t0 = time.Now()
	c.mu.Unlock()

	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	var bg sync.WaitGroup
	bg.Go(func() { c.pollLoop(runCtx, cfg.poll) })
	if view.tty {
		view.draw(c.liveLines(c.snapshot(time.Now()))) // the screen is laid out before any line below it
		view.logf(0, "logs and state in %s", cfg.dir)
		bg.Go(func() {
			t := time.NewTicker(cfg.refresh)
			defer t.Stop()
			for {
				view.draw(c.liveLines(c.snapshot(time.Now())))
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
				}
			}
		})
	}

	// What ends the run.
	quit := make(chan struct{})
	var quitOnce sync.Once
	doQuit := func() { quitOnce.Do(func() { close(quit) }) }
	scriptDone := make(chan error, 1)
	if cfg.script != nil {
		go func() { scriptDone <- c.runScript(runCtx, cfg.script) }()
	}
	in := cmd.InOrStdin()
	inTTY := false
	if fi, ok := in.(*os.File); ok && term.IsTerminal(int(fi.Fd())) {
		inTTY = true
	}
	if cfg.script == nil || inTTY {
		if inTTY {
			view.logf(0, "commands: k N kill, s N stop, r N restart (fresh), c N recover, p print, q quit (then Enter)")
		}
		go c.commands(runCtx, in, inTTY, doQuit)
	}
	var limit <-chan time.Time
	if f.duration > 0 {
		tm := time.NewTimer(f.duration)
		defer tm.Stop()
		limit = tm.C
	}

	var runErr error
	select {
	case <-ctx.Done():
		if cfg.script != nil {
			runErr = errors.New("interrupted before the script ended")
		}
	case <-quit:
		if cfg.script != nil {
			runErr = errors.New("quit before the script ended")
		}
	case runErr = <-scriptDone:
	case <-limit:
		if cfg.script != nil {
			runErr = fmt.Errorf("the script did not end within --duration %v", f.duration)
		}
	}
	stopRun()
	bg.Wait()

	// One more look at every node, then the summary, then the end of them.
	final, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	c.pollRound(final)
	cancel()
	sum := c.summary(time.Now())
	view.close()
	c.stopAll()
	if runErr != nil {
		keep = true
		sum.OK, sum.Error = false, runErr.Error()
	}
	sum.Kept = keep
	if f.json {
		b, err := json.Marshal(sum)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		writeSummaryText(stdout, sum)
	}
	if n := c.machinePanics(); n > 0 {
		// The algorithm broke the specification: exit 2, as sim does.
		return fmt.Errorf("%d node(s) ended as their machine panicked (see the control events): %w", n, violationError{n})
	}
	return runErr
}

// summary is the final report.
func (c *cluster) summary(now time.Time) *clusterSummary {
	snap := c.snapshot(now)
	cfg := c.cfg
	s := &clusterSummary{
		Algorithm: cfg.algo, Params: cfg.params, Topology: cfg.topoName, Nodes: cfg.nodes, Dir: cfg.dir,
		DurationMS: msOf(snap.elapsed), Agreed: snap.agree.all && len(snap.agree.comps) > 0,
		Components: snap.agree.comps, Leaders: snap.agree.leaders, Final: snap.rows,
		Failovers: []failoverJSON{}, OK: true,
	}
	c.mu.Lock()
	s.Control = c.controlLocked()
	c.mu.Unlock()
	if s.Components == nil {
		s.Components, s.Leaders = [][]int{}, []int{}
	}
	if cfg.script != nil {
		s.Script = cfg.script.File
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.failovers {
		j := failoverJSON{Node: f.node, How: f.how, AtMS: msOf(f.at.Sub(c.t0)), MS: -1, Leaders: f.leaders}
		if !f.done.IsZero() {
			j.Done, j.MS = true, msOf(f.done.Sub(f.at))
		}
		if j.Leaders == nil {
			j.Leaders = []int{}
		}
		s.Failovers = append(s.Failovers, j)
	}
	s.Steps = slices.Clone(c.steps)
	if s.Steps == nil {
		s.Steps = []stepResult{}
	}
	for _, st := range s.Steps {
		if !st.OK && st.Line > 0 {
			s.OK = false
		}
	}
	return s
}

// act runs action (kill, stop, restart or recover) on the nodes ids, or on
// the leading nodes when leader is set, and says what it did.
func (c *cluster) act(ctx context.Context, action string, ids []int, leader bool) (string, error) {
	if leader {
		c.mu.Lock()
		for _, n := range c.nodes {
			if n.answered() && n.st.Leading {
				ids = append(ids, n.id)
			}
		}
		c.mu.Unlock()
		if len(ids) == 0 {
			return "", errors.New("no node leads now")
		}
	}
	if action == "elect" {
		return c.elect(ctx, ids)
	}
	var msgs []string
	for _, id := range ids {
		if id < 0 || id >= len(c.nodes) {
			return strings.Join(msgs, "; "), fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, len(c.nodes)-1)
		}
		msg, err := c.act1(ctx, action, c.nodes[id])
		if err != nil {
			return strings.Join(msgs, "; "), err
		}
		msgs = append(msgs, msg)
	}
	return strings.Join(msgs, "; "), nil
}

func (c *cluster) act1(ctx context.Context, action string, n *clusterNode) (string, error) {
	n.act.Lock()
	defer n.act.Unlock()
	c.mu.Lock()
	leading := n.answered() && n.st.Leading
	c.mu.Unlock()
	switch action {
	case "kill", "stop":
		e, err := c.end(n, action)
		if err != nil {
			return "", err
		}
		name := "SIGKILL"
		if action == "stop" {
			name = "SIGTERM"
		}
		msg := fmt.Sprintf("%s %d: %s to pid %d", action, n.id, name, e.PID)
		if leading {
			c.mu.Lock()
			c.failovers = append(c.failovers, &failover{node: n.id, how: action, at: e.At})
			c.mu.Unlock()
			msg += " (it led: timing the failover)"
		}
		return msg, nil
	case "restart", "recover":
		if n.alive() {
			if _, err := c.end(n, "kill"); err != nil {
				return "", err
			}
		}
		mode := supervisor.Fresh
		if action == "recover" {
			mode = supervisor.Recover
		}
		if err := c.launch(n, mode); err != nil {
			return "", err
		}
		if err := n.proc.AwaitUp(ctx, 10*time.Second); err != nil {
			return "", err
		}
		pid := n.proc.Info().PID
		if mode == supervisor.Fresh {
			return fmt.Sprintf("restart %d: pid %d, empty state: it elects", n.id, pid), nil
		}
		return fmt.Sprintf("recover %d: pid %d, with its saved state: it merges", n.id, pid), nil
	}
	return "", fmt.Errorf("unknown action %q", action)
}

// expect waits until x holds or x.Within passes, and returns how long it
// took.
func (c *cluster) expect(ctx context.Context, x clusterExpect) (time.Duration, error) {
	start := time.Now()
	wctx, cancel := context.WithDeadline(ctx, start.Add(x.Within))
	defer cancel()
	next := start
	last := "no poll round ended"
	for {
		if err := c.awaitRound(wctx, next); err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return 0, fmt.Errorf("not met within %v: %s", x.Within, last)
		}
		c.mu.Lock()
		at := c.roundAt
		problem := c.checkLocked(x)
		c.mu.Unlock()
		if problem == "" {
			return time.Since(start), nil
		}
		last = problem
		next = at.Add(time.Nanosecond)
	}
}

// checkLocked says what keeps x from holding ("" when it holds); c.mu is
// held.
func (c *cluster) checkLocked(x clusterExpect) string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if x.Leader >= 0 {
		if l := c.nodes[x.Leader]; !l.alive() {
			add("node %d is not running", x.Leader)
		}
		for _, n := range c.nodes {
			switch {
			case !n.alive():
			case !n.answered():
				add("node %d does not answer", n.id)
			case n.st.State != "Norm":
				add("node %d is in %s", n.id, n.st.State)
			case int(n.st.Leader) != x.Leader:
				add("node %d follows %s", n.id, leaderText(int(n.st.Leader)))
			}
		}
	}
	if x.Agree {
		a := c.agreementLocked()
		for i, comp := range a.comps {
			if a.leaders[i] != a.best[i] {
				add("{%s} does not follow its most valued node %d", idRanges(comp), a.best[i])
			}
		}
		if len(a.comps) == 0 {
			add("no node is running")
		}
	}
	for _, e := range x.Elections {
		n := c.nodes[e.Node]
		switch {
		case !n.alive():
			add("node %d is not running", e.Node)
		case !n.answered():
			add("node %d does not answer", e.Node)
		case n.st.Counters.Elections != e.Count:
			add("node %d took part in %d elections since it started, want %d", e.Node, n.st.Counters.Elections, e.Count)
		}
	}
	if x.Failure.Phase != "" {
		if p := c.checkFailureLocked(x.Failure); p != "" {
			add("%s", p)
		}
	}
	if len(problems) > 6 {
		problems = append(problems[:6], fmt.Sprintf("and %d more", len(problems)-6))
	}
	return strings.Join(problems, "; ")
}

// runScript runs the steps of s in order, each not before its time.
func (c *cluster) runScript(ctx context.Context, s *clusterScript) error {
	c.mu.Lock()
	t0 := c.t0
	c.mu.Unlock()
	prevEnd := t0
	for _, st := range s.Steps {
		due := prevEnd.Add(st.After)
		if st.At >= 0 && t0.Add(st.At).After(due) {
			due = t0.Add(st.At)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(due)):
		}
		start := time.Now()
		res := stepResult{Line: st.Line, Step: st.describe(), StartMS: msOf(start.Sub(t0))}
		var err error
		if st.Action == "expect" {
			var took time.Duration
			if took, err = c.expect(ctx, st.Expect); err == nil {
				res.Result = fmt.Sprintf("met after %.0f ms", msOf(took))
			}
		} else {
			res.Result, err = c.act(ctx, st.Action, st.Nodes, st.Leader)
		}
		prevEnd = time.Now()
		res.TookMS, res.OK = msOf(prevEnd.Sub(start)), err == nil
		if err != nil {
			res.Error = err.Error()
		}
		c.record(res)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.view.logf(prevEnd.Sub(t0), "%s:%d: %s: FAILED: %v", s.File, st.Line, res.Step, err)
			return fmt.Errorf("%s:%d: %s: %s: %w", s.File, st.Line, st.Path, res.Step, err)
		}
		if st.Action == "expect" {
			c.view.logf(prevEnd.Sub(t0), "%s:%d: %s: %s", s.File, st.Line, res.Step, res.Result)
		} else {
			c.view.logf(prevEnd.Sub(t0), "%s:%d: %s", s.File, st.Line, res.Result)
		}
	}
	return nil
}

// record keeps the result of a step or command for the summary.
func (c *cluster) record(r stepResult) {
	c.mu.Lock()
	c.steps = append(c.steps, r)
	c.mu.Unlock()
}

// clusterCommand is a parsed keyboard command.
type clusterCommand struct {
	action string // kill, stop, restart, recover, print, help, quit; "" for nothing
	ids    []int
	leader bool
}

var clusterVerbs = map[string]string{
	"k": "kill", "kill": "kill", "s": "stop", "stop": "stop",
	"r": "restart", "restart": "restart", "c": "recover", "recover": "recover",
	"e": "elect", "elect": "elect",
	"p": "print", "print": "print", "h": "help", "help": "help", "?": "help",
	"q": "quit", "quit": "quit", "exit": "quit",
}

// parseClusterCommand reads one line typed by the user.
func parseClusterCommand(line string, n int) (clusterCommand, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return clusterCommand{}, nil
	}
	verb, ok := clusterVerbs[strings.ToLower(words[0])]
	if !ok {
		return clusterCommand{}, fmt.Errorf("unknown command %q (k N, s N, r N, c N, e N, p, q; h for help)", words[0])
	}
	cmd := clusterCommand{action: verb}
	switch verb {
	case "print", "help", "quit":
		if len(words) > 1 {
			return cmd, fmt.Errorf("%s takes no argument", verb)
		}
		return cmd, nil
	}
	if len(words) == 1 {
		return cmd, fmt.Errorf("%s which node? (%s N, N from 0 to %d, or %s leader)", verb, words[0], n-1, words[0])
	}
	for _, w := range words[1:] {
		for _, part := range strings.Split(w, ",") {
			if part == "" {
				continue
			}
			if part == "leader" {
				cmd.leader = true
				continue
			}
			id, err := strconv.Atoi(part)
			if err != nil || id < 0 {
				return cmd, fmt.Errorf("%s %s: %q is not a node id", verb, strings.Join(words[1:], " "), part)
			}
			if id >= n {
				return cmd, fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)
			}
			cmd.ids = append(cmd.ids, id)
		}
	}
	if cmd.leader && len(cmd.ids) > 0 {
		return cmd, fmt.Errorf("%s: give node ids or leader, not both", verb)
	}
	return cmd, nil
}

const clusterHelp = `commands (then Enter):
  k N, kill N      SIGKILL node N (N may be "leader"; several ids: k 1 2 3)
  s N, stop N      SIGTERM: a clean stop
  r N, restart N   start N again with an empty state directory: it elects
  c N, recover N   start N again with its state directory: it merges
  e N, elect N     ask N to start an election (POST /elect)
  p, print         print the table
  q, quit          stop every node and end`

// commands reads commands from in until it ends or ctx does.
func (c *cluster) commands(ctx context.Context, in io.Reader, tty bool, quit func()) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if ctx.Err() != nil {
			return
		}
		now := func() time.Duration { return c.since(time.Now()) }
		cmd, err := parseClusterCommand(sc.Text(), len(c.nodes))
		if err != nil {
			c.view.logf(now(), "error: %v", err)
			continue
		}
		switch cmd.action {
		case "":
		case "quit":
			quit()
			return
		case "help":
			c.view.printf("%s\n", clusterHelp)
		case "print":
			snap := c.snapshot(time.Now())
			c.view.printf("%s\n", strings.Join(c.liveLines(snap)[1:], "\n"))
		default:
			start := time.Now()
			res := stepResult{Step: strings.TrimSpace(sc.Text()), StartMS: msOf(c.since(start))}
			msg, err := c.act(ctx, cmd.action, cmd.ids, cmd.leader)
			res.TookMS, res.OK, res.Result = msOf(time.Since(start)), err == nil, msg
			if err != nil {
				res.Error = err.Error()
				if msg != "" {
					c.view.logf(now(), "%s", msg)
				}
				c.view.logf(now(), "error: %v", err)
			} else {
				c.view.logf(now(), "%s", msg)
			}
			c.record(res)
		}
	}
	if ctx.Err() != nil {
		return
	}
	if tty {
		quit() // Ctrl-D
		return
	}
	c.view.logf(c.since(time.Now()), "no more commands on stdin: the cluster runs until Ctrl-C, SIGTERM or --duration")
}
