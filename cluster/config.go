package cluster

import (
	"fmt"
	"log/slog"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// MaxNodes bounds a cluster's size: every node is a process of its own.
const MaxNodes = 200

// Config is a cluster: its network, its nodes' settings, the faults they
// are started with, and where their files go. The zero value of a field
// is its default.
type Config struct {
	// Binary is the elect program every node runs, as `Binary node ...`
	// ("": this program, os.Executable: a test binary then runs
	// cli.Main when its first argument is "node"; see the example).
	Binary string
	// Algorithm is the election algorithm, any registered one (""
	// node.DefaultAlgorithm), and Params its parameters by name.
	Algorithm string
	Params    map[string]string
	// Nodes is the number of nodes, 1 to MaxNodes (0: the topology's own
	// size, or 5).
	Nodes int
	// Topology says who lists whom as a peer: a topo spec (complete,
	// ring, line, grid:WxH, ...; N from Nodes), or "" for complete, or for
	// the network the algorithm's model needs (a ring for chang-roberts).
	// Graph, when set, is the network itself, and Topology its name.
	Topology string
	Graph    *topo.Graph
	// Seed draws a random topology.
	Seed uint64
	// Values are the nodes' values, one per node (nil: a node's value is
	// its id).
	Values []int64
	// Hello is the interval between hello beacons, HelloLoss how many
	// silent ones lose a neighbour (0: node.DefaultHello and
	// node.DefaultHelloLoss).
	Hello     time.Duration
	HelloLoss int
	// Initiators are the nodes that start an election at boot, a node set
	// ("0", "0,3-5", "all", "none"); "" leaves the algorithm's own. A
	// spontaneous algorithm's nodes read them in its boot parameter, the
	// others' are started with --initiator.
	Initiators string
	// ControlElects, with Initiators "", boots no node as an initiator
	// where the algorithm can be told so: the control process starts the
	// election (Elect). Bully, whose every node elects at boot, and a boot
	// parameter given in Params keep theirs.
	ControlElects bool
	// CrashOn makes a node die on its first message of a type (the ring
	// document's node that dies in gathering or confirmation); Corrupt
	// lists its jokers, which alter the payload of every message they
	// send.
	CrashOn map[int]string
	Corrupt []int
	// Faults are injected into what every node sends, each node seeded
	// apart.
	Faults runtime.Faults
	// KeyFile is the cluster's shared key ("": a key of the cluster's
	// own, in Dir).
	KeyFile string
	// LogLevel is the nodes' log level: debug, info (""), warn or error.
	LogLevel string
	// BasePort, when set, makes node i listen on UDP port BasePort+i and
	// serve HTTP on BasePort+1000+i; 0 picks free UDP ports (ports the
	// kernel gives out, released just before the nodes bind them: a
	// process that takes one in between makes that node fail to start,
	// the reason in its log) and serves HTTP on Unix sockets, Dir/s/N,
	// which nothing else can take.
	BasePort int
	// Dir holds node N's log, Dir/node-N.log, and its state,
	// Dir/node-N/state ("": a temporary directory, which Close removes
	// unless Keep is set or the run failed). State found there is
	// recovered.
	Dir  string
	Keep bool
	// Poll is the interval between polls of every node's /status (0:
	// 50ms, 2.5ms more a node beyond 20).
	Poll time.Duration
	// Trace, when set, is a file that the run's events are written to, in
	// time order, as a trace (JSON lines; gzip when the name ends in .gz):
	// the header, the nodes and links, each node's status changes as it
	// made them, what was done to the nodes, the steps in words, the end.
	// `elect check FILE` judges it to the summary's verdict (Summary.Check).
	// New creates it, Finish ends and closes it.
	Trace string
	// Observers also hear the run's events, in time order, as the checker
	// does (from time 0 of the run to Finish).
	Observers []trace.Observer
	// Stabilization and Liveness are the checker's bounds (0:
	// check.DefaultStabilization and check.DefaultLiveness).
	Stabilization, Liveness time.Duration
	// Log, when set, hears what the cluster says as it runs (see Line):
	// one line at a time, from whichever goroutine speaks, and never once
	// Close has returned.
	Log func(Line)
}

// ConfigError says which field of a Config keeps it from running.
type ConfigError struct {
	Field string // the field's name: Topology, Initiators, CrashOn...
	Err   error  // what is wrong with it
}

// Error says the field and what is wrong with it.
func (e *ConfigError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns what is wrong with the field.
func (e *ConfigError) Unwrap() error { return e.Err }

func fieldErr(field string, err error) error { return &ConfigError{Field: field, Err: err} }

// Check says whether cfg can run, starting nothing: every node is built as
// the cluster will run it, so that an algorithm, a parameter or a fault
// its nodes cannot take is refused once, naming what is wrong, rather than
// by N processes that would all fail the same way. Its error is a
// *ConfigError.
func (cfg Config) Check() error {
	_, err := cfg.resolve()
	return err
}

// defaultPoll is the interval between polls of n nodes.
func defaultPoll(n int) time.Duration {
	d := 50 * time.Millisecond
	if n > 20 {
		d += time.Duration(n-20) * 2500 * time.Microsecond
	}
	return d
}

// resolve fills cfg's defaults in and checks it all, naming the field at
// fault; the cluster it returns is laid out by New.
func (cfg Config) resolve() (*Cluster, error) {
	c := &Cluster{cfg: Config{Log: cfg.Log}, round: make(chan struct{})}
	if cfg.Algorithm == "" {
		cfg.Algorithm = node.DefaultAlgorithm
	}
	if cfg.Hello == 0 {
		cfg.Hello = node.DefaultHello
	} else if cfg.Hello < 0 {
		return nil, fieldErr("Hello", fmt.Errorf("%v: want a positive duration", cfg.Hello))
	}
	if cfg.HelloLoss == 0 {
		cfg.HelloLoss = node.DefaultHelloLoss
	} else if cfg.HelloLoss < 0 {
		return nil, fieldErr("HelloLoss", fmt.Errorf("%d: want at least 1", cfg.HelloLoss))
	}
	switch cfg.LogLevel {
	case "":
		cfg.LogLevel = "info"
	case "debug", "info", "warn", "error":
	default:
		return nil, fieldErr("LogLevel", fmt.Errorf("%q: want debug, info, warn or error", cfg.LogLevel))
	}
	if cfg.Nodes < 0 || cfg.Nodes > MaxNodes {
		return nil, fieldErr("Nodes", fmt.Errorf("%d: want 1 to %d (every node is a process)", cfg.Nodes, MaxNodes))
	}
	if cfg.Graph == nil {
		spec := cfg.Topology
		if spec == "" {
			spec = "complete"
			if m := ModelTopology(cfg.Algorithm); m != "" {
				spec = m
			}
		}
		g, name, err := Topology(spec, cfg.Nodes, cfg.Seed)
		if err != nil {
			return nil, fieldErr("Topology", err)
		}
		if spec != "complete" && cfg.Topology == "" {
			c.note(fmt.Sprintf("%s needs a %s network (Model.Topology): the cluster is %s", cfg.Algorithm, spec, name))
		}
		cfg.Graph, cfg.Topology = g, name
	} else if cfg.Topology == "" {
		cfg.Topology = fmt.Sprintf("graph:%d", cfg.Graph.N())
	}
	n := cfg.Graph.N()
	if n < 1 || n > MaxNodes {
		return nil, fieldErr("Topology", fmt.Errorf("%s: %d nodes: want 1 to %d (every node is a process)", cfg.Topology, n, MaxNodes))
	}
	if cfg.Nodes > 0 && cfg.Nodes != n {
		return nil, fieldErr("Nodes", fmt.Errorf("topology %s has %d nodes, but nodes says %d", cfg.Topology, n, cfg.Nodes))
	}
	cfg.Nodes = n
	if cfg.Values == nil {
		cfg.Values = make([]int64, n)
		for i := range cfg.Values {
			cfg.Values[i] = int64(i)
		}
	} else if len(cfg.Values) != n {
		return nil, fieldErr("Values", fmt.Errorf("%d values for %d nodes: want one per node", len(cfg.Values), n))
	}
	if cfg.Poll == 0 {
		cfg.Poll = defaultPoll(n)
	} else if cfg.Poll < 0 {
		return nil, fieldErr("Poll", fmt.Errorf("%v: want a duration >= 0", cfg.Poll))
	}
	if cfg.Stabilization < 0 || cfg.Liveness < 0 {
		return nil, fieldErr("Liveness", fmt.Errorf("the checker's bounds (%v, %v): want durations >= 0", cfg.Stabilization, cfg.Liveness))
	}
	if cfg.BasePort != 0 && (cfg.BasePort < 1024 || cfg.BasePort+1000+n-1 > 65535) {
		return nil, fieldErr("BasePort", fmt.Errorf("%d: want a port from 1024 to %d, so that P+1000+%d is a port", cfg.BasePort, 65535-1000-n+1, n-1))
	}
	cfg.Params = maps.Clone(cfg.Params)
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	c.cfg = cfg
	// The initiators and the faults of an algorithm that exists; node.New
	// names one that does not.
	if a, err := algo.Lookup(cfg.Algorithm); err == nil {
		if err := c.resolveInitiators(a); err != nil {
			return nil, fieldErr("Initiators", err)
		}
		if err := c.resolveFaults(a); err != nil {
			return nil, err
		}
	}
	if err := c.checkNodes(); err != nil {
		return nil, fieldErr("Algorithm", err)
	}
	return c, nil
}

// resolveInitiators hands the initiators to the nodes: those of a
// spontaneous algorithm in its boot parameter (see bootInitiators), the
// others' as --initiator.
func (c *Cluster) resolveInitiators(a *algo.Algorithm) error {
	cfg := &c.cfg
	set, implied := cfg.Initiators, false
	if set == "" && cfg.ControlElects {
		set, implied = "none", true // the control process starts the election
	}
	ids, note, err := a.Initiators(set, cfg.Params, cfg.Nodes)
	if err == nil && a.Model.Spontaneous {
		ids = nil
		note, err = bootInitiators(a, cfg, set, implied)
	}
	if note != "" {
		c.note(note)
	}
	if err != nil {
		return err
	}
	c.initiators = make([]bool, cfg.Nodes)
	for _, id := range ids {
		c.initiators[id] = true
	}
	return nil
}

// bootInitiators hands set, the initiators of a cluster of a spontaneous
// algorithm a, to its nodes as a simulated run does (runner.Params): they
// start their elections at boot themselves, in Start, where they read the
// set in a's boot parameter (algo.Param.Boot), with which every node is
// started; none is started with --initiator, which would ask it for a
// second. A value given for the parameter is a deprecated alias that must
// agree with set (algo.Algorithm.CheckBoot); note says so. implied marks
// the set that ControlElects implies (none: the control process starts the
// election), which gives way to that value, and to an algorithm whose
// every node elects at boot (bully).
func bootInitiators(a *algo.Algorithm, cfg *Config, set string, implied bool) (note string, err error) {
	if implied {
		boot := slices.IndexFunc(a.Params, func(p algo.Param) bool { return p.Boot })
		if boot < 0 {
			set = ""
		} else if _, given := cfg.Params[a.Params[boot].Name]; given {
			set = ""
		}
	}
	if note, err = a.CheckBoot(set, cfg.Params); err != nil {
		return note, err
	}
	cfg.Params = a.WithBoot(cfg.Params, set)
	return note, nil
}

// resolveFaults checks the nodes that die on a message and the jokers.
func (c *Cluster) resolveFaults(a *algo.Algorithm) error {
	cfg := &c.cfg
	n := cfg.Nodes
	outOfRange := func(id int) error {
		return fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)
	}
	cfg.CrashOn = maps.Clone(cfg.CrashOn)
	if cfg.CrashOn == nil {
		cfg.CrashOn = map[int]string{}
	}
	for _, id := range slices.Sorted(maps.Keys(cfg.CrashOn)) {
		msg := cfg.CrashOn[id]
		if id < 0 || id >= n {
			return fieldErr("CrashOn", outOfRange(id))
		}
		if !slices.Contains(a.Messages, msg) {
			return fieldErr("CrashOn", fmt.Errorf("node %d: algorithm %s has no message %q (it has %s)", id, a.Name, msg, strings.Join(a.Messages, ", ")))
		}
	}
	c.corrupt = make([]bool, n)
	for _, id := range cfg.Corrupt {
		if id < 0 || id >= n {
			return fieldErr("Corrupt", outOfRange(id))
		}
		c.corrupt[id] = true
	}
	return nil
}

// checkNodes builds (without running) every node as the cluster will run
// it: node.New checks the algorithm against the network (a ring algorithm
// on a ring of the cluster's size), its parameters and its faults.
func (c *Cluster) checkNodes() error {
	cfg := c.cfg
	net := runtime.NewMemNetwork()
	for i := range cfg.Nodes {
		peers := map[algo.NodeID]netip.AddrPort{}
		for _, j := range cfg.Graph.Neighbors(algo.NodeID(i)) {
			peers[j] = netip.MustParseAddrPort("127.0.0.1:9")
		}
		ep := net.Listen()
		_, err := node.New(node.Config{ID: algo.NodeID(i), Algorithm: cfg.Algorithm, Params: cfg.Params, Transport: ep, Peers: peers,
			Hello: cfg.Hello, HelloLoss: cfg.HelloLoss, Size: cfg.Nodes, CrashOn: cfg.CrashOn[i],
			Logger: slog.New(slog.DiscardHandler)})
		ep.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// NodeEnv is set in the environment of every node a cluster starts, to
// the node's id: New refuses to start a cluster from such a process, which
// would otherwise start clusters of itself without end (a program that
// does not run cli.Main when its first argument is "node").
const NodeEnv = "ELECT_CLUSTER_NODE"
