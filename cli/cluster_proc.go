package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/topo"
)

// clusterNode is one node of the cluster and its process.
type clusterNode struct {
	id      int
	value   int64
	udpPort int
	logPath string
	proc    *supervisor.Process

	act sync.Mutex // one action at a time on a node

	// Guarded by cluster.mu: the current life's last poll.
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

// cluster is the running cluster.
type cluster struct {
	cfg   *clusterConfig
	nodes []*clusterNode
	graph *topo.Graph
	view  *clusterView

	mu        sync.Mutex
	t0        time.Time     // when every node first answered: time 0 of a script
	round     chan struct{} // closed and replaced after every poll round
	roundAt   time.Time     // when the last round started
	agreedKey string
	failovers []*failover
	steps     []stepResult   // of the script, and commands typed
	events    []controlEvent // what the control process was told (cluster_control.go)
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

// newCluster lays out the nodes: ports, peers, state directories, logs.
func newCluster(cfg *clusterConfig, bin string) (*cluster, error) {
	c := &cluster{cfg: cfg, graph: cfg.graph, round: make(chan struct{})}
	n := cfg.nodes
	var ps []ports
	if cfg.basePort > 0 {
		for i := range n {
			ps = append(ps, ports{cfg.basePort + i, cfg.basePort + 1000 + i})
		}
	} else {
		var err error
		if ps, err = freePorts(n); err != nil {
			return nil, err
		}
	}
	// The nodes sign their datagrams and guard POST /elect with the
	// user's key, or one of the cluster's own.
	var key []byte
	var err error
	if cfg.keyFile == "" {
		cfg.keyFile = filepath.Join(cfg.dir, "key")
		key, err = runtime.NewKeyFile(cfg.keyFile)
	} else {
		key, err = runtime.ReadKeyFile(cfg.keyFile)
	}
	if err != nil {
		return nil, fmt.Errorf("the cluster's key: %w", err)
	}
	token := node.HTTPToken(key)
	for i := range n {
		c.nodes = append(c.nodes, &clusterNode{id: i, value: cfg.values[i], udpPort: ps[i].udp,
			logPath: filepath.Join(cfg.dir, fmt.Sprintf("node-%d.log", i))})
	}
	for _, nd := range c.nodes {
		var peers []string
		for _, j := range c.graph.Neighbors(topoID(nd.id)) {
			peers = append(peers, fmt.Sprintf("%d=127.0.0.1:%d", j, c.nodes[j].udpPort))
		}
		ep := supervisor.Endpoint{Network: "tcp", Address: fmt.Sprintf("127.0.0.1:%d", ps[nd.id].http)}
		stateDir := filepath.Join(cfg.dir, fmt.Sprintf("node-%d", nd.id), "state")
		nd.proc = supervisor.New(supervisor.Spec{
			Name: fmt.Sprintf("node %d", nd.id), Binary: bin, Args: c.args(nd, ep, stateDir, strings.Join(peers, ",")),
			StateDir: stateDir, Log: nd.logPath, Banner: fmt.Sprintf("elect cluster: node %d", nd.id), HTTP: ep, Token: token,
			OnExit: func(err error) {
				c.died(nd, err)
				if c.view != nil {
					c.view.logf(c.since(time.Now()), "node %d exited on its own: %v (log: %s)", nd.id, err, nd.logPath)
				}
			},
		})
	}
	return c, nil
}

// since is the time since t0, for messages.
func (c *cluster) since(t time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t0.IsZero() {
		return 0
	}
	return t.Sub(c.t0)
}

// args is the command line of node n.
func (c *cluster) args(n *clusterNode, ep supervisor.Endpoint, stateDir, peers string) []string {
	cfg := c.cfg
	a := []string{"node",
		"--id", strconv.Itoa(n.id), "--value", strconv.FormatInt(n.value, 10),
		"--listen", fmt.Sprintf("127.0.0.1:%d", n.udpPort),
		"--http", ep.String(),
		"--state-dir", stateDir,
		"--algo", cfg.algo,
		"--hello", cfg.hello.String(), "--hello-loss", strconv.Itoa(cfg.helloLoss),
		"--log-level", cfg.logLevel,
	}
	if peers != "" {
		a = append(a, "--peers", peers)
	}
	// The cluster's network is fixed: its topology, over ids 0..N-1.
	a = append(a, "--size", strconv.Itoa(cfg.nodes))
	if cfg.initiators[n.id] {
		a = append(a, "--initiator")
	}
	if msg, ok := cfg.crashOn[n.id]; ok {
		a = append(a, "--crash-on", msg)
	}
	if cfg.corrupt[n.id] {
		a = append(a, "--corrupt")
	}
	if cfg.faults != (runtime.Faults{}) {
		f := cfg.faults
		f.Seed += uint64(n.id) + 1 // each node its own draws
		a = append(a, "--faults", f.String())
	}
	for _, k := range cfg.paramKeys {
		a = append(a, "--param", k+"="+cfg.params[k])
	}
	if cfg.keyFile != "" {
		a = append(a, "--key-file", cfg.keyFile)
	}
	return a
}

// launch starts a new life of node n (see supervisor.Mode); what the
// last poll said of the node is of its last life, and forgotten.
func (c *cluster) launch(n *clusterNode, mode supervisor.Mode) error {
	if err := n.proc.Launch(mode); err != nil {
		return err
	}
	c.forget(n)
	return nil
}

// end ends node n's life with SIGKILL (kill) or SIGTERM (stop: the node
// saves its state; SIGKILL after 5 s) and returns once it is reaped.
func (c *cluster) end(n *clusterNode, action string) (supervisor.Ended, error) {
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
func (c *cluster) forget(n *clusterNode) {
	c.mu.Lock()
	n.st, n.pollErr, n.lastKey, n.reportSeq = nil, nil, "", 0
	c.mu.Unlock()
}

// startAll starts every node and waits until all answer.
func (c *cluster) startAll(ctx context.Context) error {
	for _, n := range c.nodes {
		if err := c.launch(n, supervisor.Start); err != nil {
			return err
		}
	}
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Go(func() { errs[i] = n.proc.AwaitUp(ctx, 15*time.Second) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// killAll kills every process still alive and waits for them.
func (c *cluster) killAll() {
	for _, n := range c.nodes {
		n.proc.Kill()
	}
}

// stopAll stops every live node cleanly (SIGTERM: each saves its state),
// all at once.
func (c *cluster) stopAll() {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Go(func() { c.end(n, "stop") })
	}
	wg.Wait()
}
