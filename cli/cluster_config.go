package cli

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

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

// clusterConfig is what the cluster runs with, flags and script merged:
// cluster.Config's fields, and where they came from.
type clusterConfig struct {
	algo          string
	params        map[string]string
	nodes         int
	graph         *topo.Graph
	topoName      string
	values        []int64
	hello         time.Duration
	helloLoss     int
	faults        runtime.Faults
	initiators    string // the node set given, or ""
	controlElects bool   // --elect N: the control process starts the election
	crashOn       map[int]string
	corrupt       []int
	keyFile       string
	logLevel      string
	basePort      int
	dir           string
	keep          bool
	poll, refresh time.Duration
	script        *cluster.Script
	// fromScript maps a field of cluster.Config to the script's field
	// that set it, for its errors.
	fromScript map[string]string
}

// cluster is the package's configuration.
func (cfg *clusterConfig) cluster() cluster.Config {
	return cluster.Config{Algorithm: cfg.algo, Params: cfg.params, Nodes: cfg.nodes, Graph: cfg.graph, Topology: cfg.topoName,
		Values: cfg.values, Hello: cfg.hello, HelloLoss: cfg.helloLoss, Initiators: cfg.initiators, ControlElects: cfg.controlElects,
		CrashOn: cfg.crashOn, Corrupt: cfg.corrupt, Faults: cfg.faults, KeyFile: cfg.keyFile, LogLevel: cfg.logLevel,
		BasePort: cfg.basePort, Dir: cfg.dir, Keep: cfg.keep, Poll: cfg.poll}
}

// newCluster lays the cluster out (cluster.New), its errors naming the
// flag or the script's field at fault; its notes go to stderr, the rest of
// what it says to log.
func (cfg *clusterConfig) newCluster(cmd *cobra.Command, log func(cluster.Line)) (*cluster.Cluster, error) {
	cc := cfg.cluster()
	stderr := cmd.ErrOrStderr()
	cc.Log = func(l cluster.Line) {
		switch {
		case l.Kind == cluster.LineNote:
			fmt.Fprintf(stderr, "elect: note: %s\n", l.Text)
		case log != nil:
			log(l)
		}
	}
	c, err := cluster.New(cc)
	return c, cfg.blame(err)
}

// clusterFlagOf names the flag of a field of cluster.Config.
var clusterFlagOf = map[string]string{"Hello": "--hello", "HelloLoss": "--hello-loss", "LogLevel": "--log-level",
	"BasePort": "--base-port", "CrashOn": "--crash-on", "Corrupt": "--corrupt", "Dir": "--dir"}

// blame names the flag or the script's field that set what err finds
// wrong.
func (cfg *clusterConfig) blame(err error) error {
	var ce *cluster.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	if field, ok := cfg.fromScript[ce.Field]; ok {
		return cfg.script.Blame(ce.Err, field)
	}
	switch ce.Field {
	case "Initiators":
		set := cfg.initiators
		if set == "" && cfg.controlElects {
			set = "none"
		}
		return fmt.Errorf("--initiators %q: %w", set, ce.Err)
	case "CrashOn", "Corrupt", "Dir":
		return fmt.Errorf("%s: %w", clusterFlagOf[ce.Field], ce.Err)
	case "Hello", "HelloLoss", "LogLevel", "BasePort":
		return fmt.Errorf("%s %w", clusterFlagOf[ce.Field], ce.Err)
	}
	return ce.Err
}

// config merges the script and the flags (flags win) and checks what only
// they can say, naming the flag or the script's line at fault.
func (f *clusterFlags) config(cmd *cobra.Command) (*clusterConfig, error) {
	fl := cmd.Flags()
	cfg := &clusterConfig{algo: f.algo, hello: f.hello, helloLoss: f.helloLoss, logLevel: f.logLevel, basePort: f.basePort,
		refresh: f.refresh, poll: f.poll, dir: f.dir, keep: f.keep, params: map[string]string{}, fromScript: map[string]string{}}
	var s *cluster.Script
	if f.script != "" {
		var err error
		if s, err = cluster.LoadScript(f.script); err != nil {
			return nil, err
		}
		cfg.script = s
		if s.Algorithm != "" && !fl.Changed("algo") {
			cfg.algo = s.Algorithm
			cfg.fromScript["Algorithm"] = "algorithm"
		}
		if s.Hello > 0 && !fl.Changed("hello") {
			cfg.hello = s.Hello
		}
		if s.HelloLoss > 0 && !fl.Changed("hello-loss") {
			cfg.helloLoss = s.HelloLoss
		}
		maps.Copy(cfg.params, s.Params)
	}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		cfg.params[k] = v
	}
	if cfg.hello <= 0 {
		return nil, fmt.Errorf("--hello %v: want a positive duration", cfg.hello)
	}
	if cfg.helloLoss < 1 {
		return nil, fmt.Errorf("--hello-loss %d: want at least 1", cfg.helloLoss)
	}
	if fl.Changed("nodes") && (f.nodes < 1 || f.nodes > cluster.MaxNodes) {
		return nil, fmt.Errorf("--nodes %d: want 1 to %d (every node is a process)", f.nodes, cluster.MaxNodes)
	}
	if f.refresh <= 0 {
		return nil, fmt.Errorf("--refresh %v: want a positive duration", f.refresh)
	}
	if f.poll < 0 || f.duration < 0 {
		return nil, errors.New("--poll and --duration take durations >= 0")
	}
	seed := f.seed
	if s != nil && s.Seed != nil && !fl.Changed("seed") {
		seed = *s.Seed
	}
	if err := f.network(cmd, cfg, s, seed); err != nil {
		return nil, err
	}

	// Values.
	rng := rand.New(rand.NewPCG(seed, 0x76616c756573)) // "values"
	var err error
	switch {
	case s != nil && s.Values != nil && !fl.Changed("values"):
		cfg.values, err = s.Values.Resolve(cfg.nodes, rng)
		if err != nil {
			return nil, s.Blame(err, "values")
		}
	default:
		if cfg.values, err = parseClusterValues(f.values, cfg.nodes, rng); err != nil {
			return nil, err
		}
	}
	if s != nil {
		if err := s.CheckNodes(cfg.nodes); err != nil {
			return nil, err
		}
	}
	if cfg.faults, err = runtime.ParseFaults(f.faults); err != nil {
		return nil, fmt.Errorf("--faults: %w", err)
	}
	if err := f.faultsAndInitiators(cmd, cfg, s); err != nil {
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
	return cfg, nil
}

// network builds the cluster's graph: its size comes from --nodes, the
// script, the topology spec, or the default 5, in that order.
func (f *clusterFlags) network(cmd *cobra.Command, cfg *clusterConfig, s *cluster.Script, seed uint64) error {
	fl := cmd.Flags()
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
	} else if m := cluster.ModelTopology(cfg.algo); !fl.Changed("topology") && m != "" && m != spec {
		// The default, complete, is not what a ring algorithm runs on:
		// take the family its model needs.
		spec, picked = m, true
	}
	g, name, err := clusterTopology(spec, nodes, seed)
	if err != nil {
		if s != nil && !fl.Changed("topology") {
			return s.Blame(err, "topology")
		}
		return fmt.Errorf("--topology: %w", err)
	}
	if g.N() < 1 || g.N() > cluster.MaxNodes {
		err := fmt.Errorf("%d nodes: want 1 to %d (every node is a process)", g.N(), cluster.MaxNodes)
		if nodesFrom == "nodes" {
			return s.Blame(err, "nodes")
		}
		return fmt.Errorf("--topology %s: %w", spec, err)
	}
	if nodes > 0 && g.N() != nodes {
		err := fmt.Errorf("topology %s has %d nodes, but %s says %d", name, g.N(), nodesFrom, nodes)
		if nodesFrom == "nodes" {
			return s.Blame(err, "nodes")
		}
		return err
	}
	cfg.nodes, cfg.graph, cfg.topoName = g.N(), g, name
	if picked {
		fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: %s needs a %s network (Model.Topology): the cluster is %s (--topology chooses another)\n", cfg.algo, spec, name)
	}
	return nil
}

// clusterTopology builds the graph of spec (cluster.Topology).
func clusterTopology(spec string, nodes int, seed uint64) (*topo.Graph, string, error) {
	return cluster.Topology(spec, nodes, seed)
}

// checkNodeConfig builds (without running) every node as the cluster will
// run it (cluster.Config.Check), so that an algorithm, a parameter or a
// fault its nodes cannot take is refused once.
func checkNodeConfig(cfg *clusterConfig) error {
	err := cfg.cluster().Check()
	if ce := (*cluster.ConfigError)(nil); errors.As(err, &ce) {
		return ce.Err
	}
	return err
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

// faultsAndInitiators merges the initiators and the injected faults, flags
// over the script, into cfg (the cluster package checks them), and makes
// --elect the control process's script.
func (f *clusterFlags) faultsAndInitiators(cmd *cobra.Command, cfg *clusterConfig, s *cluster.Script) error {
	fl := cmd.Flags()
	n := cfg.nodes
	switch {
	case fl.Changed("initiators"):
		cfg.initiators = f.initiators
	case s != nil && s.Initiators != "":
		cfg.initiators = s.Initiators
		cfg.fromScript["Initiators"] = "initiators"
	case f.elect != "" && f.elect != "none":
		cfg.controlElects = true // the control process starts the election
	}

	cfg.crashOn = map[int]string{}
	if fl.Changed("crash-on") {
		for _, item := range f.crashOn {
			idText, msg, ok := strings.Cut(item, "=")
			id, err := strconv.Atoi(strings.TrimSpace(idText))
			if !ok || err != nil || id < 0 || strings.TrimSpace(msg) == "" {
				return fmt.Errorf("--crash-on %q: want NODE=TYPE, e.g. 2=gather", item)
			}
			if id >= n {
				return fmt.Errorf("--crash-on %q: node %d is out of range: the cluster has nodes 0..%d", item, id, n-1)
			}
			cfg.crashOn[id] = strings.TrimSpace(msg)
		}
	} else if s != nil {
		maps.Copy(cfg.crashOn, s.CrashOn)
		cfg.fromScript["CrashOn"] = "crash_on"
	}

	switch {
	case fl.Changed("corrupt"):
		jokers, all, err := algo.ParseNodeSet(f.corrupt)
		if err != nil || all {
			return fmt.Errorf("--corrupt %q: want a node set like 3 or 1,4-5", f.corrupt)
		}
		for _, id := range jokers {
			cfg.corrupt = append(cfg.corrupt, int(id))
		}
	case s != nil:
		cfg.corrupt = s.Corrupt
	}

	if f.elect != "" {
		if cfg.script != nil {
			return errors.New("--elect and --script: give one (a script starts elections with its elect steps)")
		}
		if f.within <= 0 {
			return fmt.Errorf("--within %v: want a positive duration", f.within)
		}
		// The control process's run is a script of two steps, or of the
		// wait alone when the initiators start the election (none).
		var steps []cluster.Step
		if f.elect != "none" {
			id, err := strconv.Atoi(f.elect)
			if err != nil || id < 0 || id >= n {
				return fmt.Errorf("--elect %q: want a node id from 0 to %d, or none", f.elect, n-1)
			}
			steps = append(steps, cluster.Step{Path: "--elect", At: -1, Action: "elect", Nodes: []int{id}})
		}
		steps = append(steps, cluster.Step{Path: "--within", At: -1, Action: "expect", Expect: cluster.ExpectAgreement(f.within)})
		cfg.script = &cluster.Script{File: "--elect", Steps: steps}
	}
	return nil
}

// clusterScript is a cluster script, as cli's tests read it.
type clusterScript struct{ *cluster.Script }

func (s clusterScript) checkNodes(n int) error { return s.CheckNodes(n) }

// parseClusterScript parses the text of a script named file.
func parseClusterScript(file string, data []byte) (clusterScript, error) {
	s, err := cluster.ParseScript(file, data)
	return clusterScript{s}, err
}
