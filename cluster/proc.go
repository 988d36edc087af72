package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/supervisor"
)

// NodeFlags are the flags of `elect node` that every node of a run shares:
// the drivers of real nodes, this package and emulate, start their nodes
// with them after each node's own.
type NodeFlags struct {
	Algorithm string            // --algo
	Params    map[string]string // --param NAME=VALUE, by name
	Hello     time.Duration     // --hello
	HelloLoss int               // --hello-loss
	LogLevel  string            // --log-level
}

// Args are the flags as a command line.
func (f NodeFlags) Args() []string {
	args := []string{"--algo", f.Algorithm, "--hello", f.Hello.String(), "--hello-loss", strconv.Itoa(f.HelloLoss),
		"--log-level", f.LogLevel}
	for _, k := range slices.Sorted(maps.Keys(f.Params)) {
		args = append(args, "--param", k+"="+f.Params[k])
	}
	return args
}

// FaultFlags are node id's --faults: f, drawn from a seed of the node's
// own; none when f injects nothing.
func FaultFlags(f runtime.Faults, id int) []string {
	if f == (runtime.Faults{}) {
		return nil
	}
	f.Seed += uint64(id) + 1 // each node its own draws
	return []string{"--faults", f.String()}
}

// StartAll boots n nodes: launch(i) starts each in turn (a launch returns
// once its process runs), then ready(ctx, i) waits for all of them at once
// to answer. It returns the first launch's error, or every ready's.
func StartAll(ctx context.Context, n int, launch func(i int) error, ready func(ctx context.Context, i int) error) error {
	for i := range n {
		if err := launch(i); err != nil {
			return err
		}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = ready(ctx, i) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// clusterNode is one node of the cluster and its process.
type clusterNode struct {
	id      int
	value   int64 // guarded by Cluster.mu: a value step changes it
	udpPort int
	logPath string
	args    []string // its command line; guarded by Cluster.mu, as its --value is value
	proc    *supervisor.Process

	act sync.Mutex // one action at a time on a node

	// Guarded by Cluster.mu: the current life's last poll.
	st      *node.StatusJSON
	pollErr error
	lastKey string // what the line-per-change output last said of it
	// reportSeq is the last of the current life's reports heard.
	reportSeq uint64
}

// alive reports whether the node's current life runs.
func (n *clusterNode) alive() bool { return n.proc.Info().State.Alive() }

// answered reports whether the node's current life answered the last poll.
func (n *clusterNode) answered() bool { return n.alive() && n.st != nil && n.pollErr == nil }

// following is the leader the node follows in Norm, or -1.
func (n *clusterNode) following() int {
	if !n.answered() || n.st.State != "Norm" {
		return -1
	}
	return int(n.st.Leader)
}

// failover is a kill (or stop) of a leading node and the agreement after it.
type failover struct {
	node    int
	how     string // kill or stop
	at      time.Time
	done    time.Time // zero until every component agrees again
	leaders []int
}

// ports are a node's UDP and HTTP ports.
type ports struct{ udp, http int }

// freePorts picks n pairs of ports free on 127.0.0.1, holding every socket
// until all are chosen so that none is given twice.
func freePorts(n int) ([]ports, error) {
	var held []io.Closer
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	out := make([]ports, n)
	for i := range out {
		u, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("choosing a UDP port: %w", err)
		}
		held = append(held, u)
		t, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("choosing an HTTP port: %w", err)
		}
		held = append(held, t)
		out[i] = ports{u.LocalAddr().(*net.UDPAddr).Port, t.Addr().(*net.TCPAddr).Port}
	}
	return out, nil
}

// layout lays the nodes out: ports, peers, state directories, logs.
func (c *Cluster) layout() error {
	cfg := &c.cfg
	n := cfg.Nodes
	var ps []ports
	if cfg.BasePort > 0 {
		for i := range n {
			ps = append(ps, ports{cfg.BasePort + i, cfg.BasePort + 1000 + i})
		}
	} else {
		var err error
		if ps, err = freePorts(n); err != nil {
			return err
		}
	}
	// The nodes sign their datagrams and guard POST /elect with the
	// user's key, or one of the cluster's own.
	var key []byte
	var err error
	if cfg.KeyFile == "" {
		cfg.KeyFile = filepath.Join(cfg.Dir, "key")
		key, err = runtime.NewKeyFile(cfg.KeyFile)
	} else {
		key, err = runtime.ReadKeyFile(cfg.KeyFile)
	}
	if err != nil {
		return fmt.Errorf("the cluster's key: %w", err)
	}
	token := node.HTTPToken(key)
	for i := range n {
		c.nodes = append(c.nodes, &clusterNode{id: i, value: cfg.Values[i], udpPort: ps[i].udp,
			logPath: filepath.Join(cfg.Dir, fmt.Sprintf("node-%d.log", i))})
	}
	for _, nd := range c.nodes {
		var peers []string
		for _, j := range cfg.Graph.Neighbors(algo.NodeID(nd.id)) {
			peers = append(peers, fmt.Sprintf("%d=127.0.0.1:%d", j, c.nodes[j].udpPort))
		}
		ep := c.httpEndpoint(nd.id, ps[nd.id].http)
		stateDir := filepath.Join(cfg.Dir, fmt.Sprintf("node-%d", nd.id), "state")
		nd.args = c.args(nd, ep, stateDir, strings.Join(peers, ","))
		nd.proc = supervisor.New(supervisor.Spec{
			Name: fmt.Sprintf("node %d", nd.id), Binary: cfg.Binary, Args: nd.args,
			Env:      append(os.Environ(), NodeEnv+"="+strconv.Itoa(nd.id)),
			StateDir: stateDir, Log: nd.logPath, Banner: fmt.Sprintf("elect cluster: node %d", nd.id), HTTP: ep, Token: token,
			OnExit: func(err error) {
				c.died(nd, err)
				c.say(LineExit, c.Since(time.Now()), "node %d exited on its own: %v (log: %s)", nd.id, err, nd.logPath)
			},
		})
	}
	return nil
}

// maxSocketPath is the longest path a Unix socket may have (107 bytes on
// Linux, less a margin).
const maxSocketPath = 100

// httpEndpoint is where node id serves HTTP: on a free port the Unix
// socket Dir/s/ID, whose name no other process can take between the
// cluster's choosing it and the node's binding it (a TCP port picked free
// and released can be, by any client's next connection: a node of a
// cluster under a busy test run then failed to start, address in use);
// the port given otherwise (BasePort), or when Dir's path is too long for
// a socket.
func (c *Cluster) httpEndpoint(id, port int) supervisor.Endpoint {
	path := filepath.Join(c.cfg.Dir, "s", strconv.Itoa(id))
	if c.cfg.BasePort > 0 || len(path) > maxSocketPath || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return supervisor.Endpoint{Network: "tcp", Address: fmt.Sprintf("127.0.0.1:%d", port)}
	}
	return supervisor.Endpoint{Network: "unix", Address: path}
}

// args is the command line of node n: its own flags, then the cluster's.
func (c *Cluster) args(n *clusterNode, ep supervisor.Endpoint, stateDir, peers string) []string {
	cfg := c.cfg
	a := []string{"node",
		"--id", strconv.Itoa(n.id), "--value", strconv.FormatInt(n.value, 10),
		"--listen", fmt.Sprintf("127.0.0.1:%d", n.udpPort),
		"--http", ep.String(),
		"--state-dir", stateDir,
	}
	if peers != "" {
		a = append(a, "--peers", peers)
	}
	// The cluster's network is fixed: its topology, over ids 0..N-1.
	a = append(a, "--size", strconv.Itoa(cfg.Nodes))
	if c.initiators[n.id] {
		a = append(a, "--initiator")
	}
	if msg, ok := cfg.CrashOn[n.id]; ok {
		a = append(a, "--crash-on", msg)
	}
	if c.corrupt[n.id] {
		a = append(a, "--corrupt")
	}
	a = append(a, FaultFlags(cfg.Faults, n.id)...)
	a = append(a, NodeFlags{Algorithm: cfg.Algorithm, Params: cfg.Params, Hello: cfg.Hello, HelloLoss: cfg.HelloLoss, LogLevel: cfg.LogLevel}.Args()...)
	if cfg.KeyFile != "" {
		a = append(a, "--key-file", cfg.KeyFile)
	}
	return a
}

// NodeArgs is the command line node id runs with, after the binary.
func (c *Cluster) NodeArgs(id int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.nodes[id].args)
}

// launch starts a new life of node n (see supervisor.Mode); what the
// last poll said of the node is of its last life, and forgotten.
func (c *Cluster) launch(n *clusterNode, mode supervisor.Mode) error {
	if err := n.proc.Launch(mode); err != nil {
		return err
	}
	c.forget(n)
	return nil
}

// end ends node n's life with SIGKILL (kill) or SIGTERM (stop: the node
// saves its state; SIGKILL after 5 s) and returns once it is reaped.
func (c *Cluster) end(n *clusterNode, action string) (supervisor.Ended, error) {
	end := n.proc.Kill
	if action == "stop" {
		end = func() (supervisor.Ended, error) { return n.proc.Stop(5 * time.Second) }
	}
	e, err := end()
	if err == nil {
		c.forget(n)
	}
	return e, err
}

// forget drops what the last poll said of node n, whose life changed.
func (c *Cluster) forget(n *clusterNode) {
	c.mu.Lock()
	n.st, n.pollErr, n.lastKey, n.reportSeq = nil, nil, "", 0
	c.mu.Unlock()
}

// startAll starts every node and waits until all answer.
func (c *Cluster) startAll(ctx context.Context) error {
	return StartAll(ctx, len(c.nodes),
		func(i int) error { return c.launch(c.nodes[i], supervisor.Start) },
		func(ctx context.Context, i int) error { return c.nodes[i].proc.AwaitUp(ctx, 15*time.Second) })
}

// killAll kills every process still alive and waits for them.
func (c *Cluster) killAll() {
	for _, n := range c.nodes {
		n.proc.Kill()
	}
}

// stopAll stops every live node cleanly (SIGTERM: each saves its state),
// all at once.
func (c *Cluster) stopAll() {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Go(func() { c.end(n, "stop") })
	}
	wg.Wait()
}
