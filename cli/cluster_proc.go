package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/electgo/elect/emulate"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/topo"
)

// procState is what became of a node's process.
type procState int

const (
	procStarting procState = iota // started, /healthz not answered yet
	procRunning
	procKilled  // SIGKILL from us
	procStopped // SIGTERM from us
	procExited  // ended on its own
)

func (p procState) alive() bool { return p == procStarting || p == procRunning }

// clusterNode is one node of the cluster and its current process.
type clusterNode struct {
	id                int
	value             int64
	udpPort, httpPort int
	stateDir, logPath string
	peers             string // --peers

	act sync.Mutex // one action at a time on a node

	// Guarded by cluster.mu.
	proc     procState
	pid      int
	cmd      *exec.Cmd
	done     chan struct{} // closed once the process is reaped
	exitErr  error
	gen      int    // lives so far; a poll answer of an older life is dropped
	mode     string // how the current life started: start, fresh or recover
	logStart int64  // offset of the current life in the log file
	st       *node.StatusJSON
	pollErr  error
	lastKey  string // what the line-per-change output last said of it
	stopping bool   // a clean stop is under way
}

func (n *clusterNode) statusURL() string {
	return fmt.Sprintf("http://127.0.0.1:%d/status", n.httpPort)
}

// answered reports whether the node's current life answered the last poll.
func (n *clusterNode) answered() bool { return n.proc.alive() && n.st != nil && n.pollErr == nil }

// following is the leader the node follows in Norm, or -1.
func (n *clusterNode) following() int {
	if !n.answered() || n.st.State != "Norm" {
		return -1
	}
	return int(n.st.Leader)
}

// cluster is the running cluster.
type cluster struct {
	cfg    *clusterConfig
	bin    string
	dir    string
	nodes  []*clusterNode
	graph  *topo.Graph
	client *http.Client
	view   *clusterView

	mu        sync.Mutex
	t0        time.Time     // when every node first answered: time 0 of a script
	round     chan struct{} // closed and replaced after every poll round
	roundAt   time.Time     // when the last round started
	agreedKey string
	failovers []*failover
	steps     []stepResult // of the script, and commands typed
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
	c := &cluster{cfg: cfg, bin: bin, dir: cfg.dir, graph: cfg.graph, round: make(chan struct{}),
		client: &http.Client{Timeout: time.Second, Transport: &http.Transport{
			MaxIdleConnsPerHost: 2, DisableCompression: true, Proxy: nil,
		}}}
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
	for i := range n {
		c.nodes = append(c.nodes, &clusterNode{
			id: i, value: cfg.values[i], udpPort: ps[i].udp, httpPort: ps[i].http,
			stateDir: filepath.Join(c.dir, fmt.Sprintf("node-%d", i), "state"),
			logPath:  filepath.Join(c.dir, fmt.Sprintf("node-%d.log", i)),
			proc:     procExited,
		})
	}
	for _, nd := range c.nodes {
		var peers []string
		for _, j := range c.graph.Neighbors(topoID(nd.id)) {
			peers = append(peers, fmt.Sprintf("%d=127.0.0.1:%d", j, c.nodes[j].udpPort))
		}
		nd.peers = strings.Join(peers, ",")
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
func (c *cluster) args(n *clusterNode) []string {
	cfg := c.cfg
	a := []string{"node",
		"--id", strconv.Itoa(n.id), "--value", strconv.FormatInt(n.value, 10),
		"--listen", fmt.Sprintf("127.0.0.1:%d", n.udpPort),
		"--http", fmt.Sprintf("127.0.0.1:%d", n.httpPort),
		"--state-dir", n.stateDir,
		"--algo", cfg.algo,
		"--hello", cfg.hello.String(), "--hello-loss", strconv.Itoa(cfg.helloLoss),
		"--log-level", cfg.logLevel,
	}
	if n.peers != "" {
		a = append(a, "--peers", n.peers)
	}
	for _, k := range cfg.paramKeys {
		a = append(a, "--param", k+"="+cfg.params[k])
	}
	if cfg.keyFile != "" {
		a = append(a, "--key-file", cfg.keyFile)
	}
	return a
}

// launch starts a new process for node n: mode "fresh" empties its state
// directory first (it elects), "recover" keeps it (it merges), "start" is
// the first start (with whatever --dir holds).
func (c *cluster) launch(n *clusterNode, mode string) error {
	if mode == "fresh" {
		if err := os.RemoveAll(n.stateDir); err != nil {
			return fmt.Errorf("node %d: emptying its state directory: %w", n.id, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(n.stateDir), 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(n.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("node %d: %w", n.id, err)
	}
	defer logf.Close()
	off, _ := logf.Seek(0, io.SeekEnd)
	c.mu.Lock()
	gen := n.gen + 1
	c.mu.Unlock()
	fmt.Fprintf(logf, "=== elect cluster: node %d, life %d (%s), %s\n", n.id, gen, mode, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(c.bin, c.args(n)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = clusterProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("node %d: starting %s: %w", n.id, c.bin, err)
	}
	done := make(chan struct{})
	c.mu.Lock()
	n.cmd, n.pid, n.done, n.exitErr = cmd, cmd.Process.Pid, done, nil
	n.proc, n.gen, n.mode, n.logStart = procStarting, gen, mode, off
	n.st, n.pollErr, n.lastKey, n.stopping = nil, nil, "", false
	c.mu.Unlock()
	go func() {
		err := cmd.Wait()
		c.mu.Lock()
		n.exitErr = err
		unexpected := n.gen == gen && n.proc.alive() && !n.stopping
		if unexpected {
			n.proc, n.st = procExited, nil
		}
		c.mu.Unlock()
		close(done)
		if unexpected && c.view != nil {
			c.view.logf(c.since(time.Now()), "node %d exited on its own: %v (log: %s)", n.id, err, n.logPath)
		}
	}()
	return nil
}

// awaitUp waits until node n's /healthz answers, failing with the end of
// its log when the process ends or the deadline passes first.
func (c *cluster) awaitUp(ctx context.Context, n *clusterNode, within time.Duration) error {
	c.mu.Lock()
	done, gen := n.done, n.gen
	c.mu.Unlock()
	url := fmt.Sprintf("http://127.0.0.1:%d/healthz", n.httpPort)
	deadline := time.Now().Add(within)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := c.client.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				c.mu.Lock()
				if n.gen == gen && n.proc == procStarting {
					n.proc = procRunning
				}
				c.mu.Unlock()
				return nil
			}
		}
		select {
		case <-done:
			c.mu.Lock()
			err := n.exitErr
			c.mu.Unlock()
			return fmt.Errorf("node %d ended as it started (%v)%s", n.id, err, c.logTail(n))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.signal(n, syscall.SIGKILL, procKilled)
			return fmt.Errorf("node %d did not answer on %s within %v%s", n.id, url, within, c.logTail(n))
		}
	}
}

// logTail is the end of what node n's current life wrote, for errors.
func (c *cluster) logTail(n *clusterNode) string {
	c.mu.Lock()
	off := n.logStart
	c.mu.Unlock()
	return emulate.LogTail(n.logPath, off)
}

// signal sends sig to node n's live process, marks it as become, and waits
// until the process is reaped. A clean stop that takes more than 5 s ends
// with SIGKILL.
func (c *cluster) signal(n *clusterNode, sig syscall.Signal, become procState) (pid int, err error) {
	c.mu.Lock()
	if !n.proc.alive() {
		state := n.proc
		c.mu.Unlock()
		return 0, fmt.Errorf("node %d is not running (%s)", n.id, state)
	}
	cmd, done := n.cmd, n.done
	pid = n.pid
	n.stopping = true
	c.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return pid, fmt.Errorf("node %d: %v: %w", n.id, sig, err)
	}
	if sig == syscall.SIGKILL {
		<-done
	} else {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	c.mu.Lock()
	n.proc, n.st, n.pollErr, n.lastKey = become, nil, nil, ""
	c.mu.Unlock()
	return pid, nil
}

func (p procState) String() string {
	switch p {
	case procStarting:
		return "starting"
	case procRunning:
		return "running"
	case procKilled:
		return "killed"
	case procStopped:
		return "stopped"
	}
	return "exited"
}

// startAll starts every node and waits until all answer.
func (c *cluster) startAll(ctx context.Context) error {
	for _, n := range c.nodes {
		if err := c.launch(n, "start"); err != nil {
			return err
		}
	}
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Go(func() { errs[i] = c.awaitUp(ctx, n, 15*time.Second) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// killAll kills every process still alive and waits for them.
func (c *cluster) killAll() {
	for _, n := range c.nodes {
		c.signal(n, syscall.SIGKILL, procKilled)
	}
}

// stopAll stops every live node cleanly (SIGTERM: each saves its state),
// all at once.
func (c *cluster) stopAll() {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Go(func() { c.signal(n, syscall.SIGTERM, procStopped) })
	}
	wg.Wait()
	c.client.CloseIdleConnections()
}

// pollRound asks every live node for its /status, all at once, then
// records the answers and what they show.
func (c *cluster) pollRound(ctx context.Context) {
	type target struct {
		n   *clusterNode
		gen int
	}
	start := time.Now()
	c.mu.Lock()
	var ts []target
	for _, n := range c.nodes {
		if n.proc.alive() {
			ts = append(ts, target{n, n.gen})
		}
	}
	c.mu.Unlock()
	sts := make([]*node.StatusJSON, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() { sts[i], errs[i] = c.status(ctx, t.n) })
	}
	wg.Wait()
	end := time.Now()
	c.mu.Lock()
	for i, t := range ts {
		if t.n.gen != t.gen || !t.n.proc.alive() {
			continue // killed or restarted meanwhile
		}
		t.n.pollErr = errs[i]
		if errs[i] == nil {
			t.n.st = sts[i]
		}
	}
	c.roundAt = start
	changes := c.observe(start, end)
	close(c.round)
	c.round = make(chan struct{})
	c.mu.Unlock()
	if c.view != nil && !c.view.tty {
		for _, line := range changes {
			c.view.logf(end.Sub(c.t0), "%s", line)
		}
	}
}

// status is GET /status of node n.
func (c *cluster) status(ctx context.Context, n *clusterNode) (*node.StatusJSON, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.statusURL(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", n.statusURL(), resp.Status)
	}
	var st node.StatusJSON
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, fmt.Errorf("GET %s: %w", n.statusURL(), err)
	}
	return &st, nil
}

// pollLoop polls every interval until ctx ends.
func (c *cluster) pollLoop(ctx context.Context, every time.Duration) {
	for {
		start := time.Now()
		c.pollRound(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every - time.Since(start)):
		}
	}
}

// agreement is what the last answers show, per component of live nodes.
type agreement struct {
	comps   [][]int // the components of the live nodes in the cluster's graph
	best    []int   // per component, its most valued live node
	leaders []int   // per component, the leader all its nodes follow in Norm, or -1
	all     bool    // every component follows its most valued node
}

// agreementLocked computes the agreement; c.mu is held.
func (c *cluster) agreementLocked() agreement {
	var a agreement
	seen := make([]bool, len(c.nodes))
	for _, n := range c.nodes {
		if seen[n.id] || !n.proc.alive() {
			continue
		}
		// The component of n: breadth first over live neighbours.
		comp := []int{n.id}
		seen[n.id] = true
		for i := 0; i < len(comp); i++ {
			for _, j := range c.graph.Neighbors(topoID(comp[i])) {
				if !seen[j] && c.nodes[j].proc.alive() {
					seen[j] = true
					comp = append(comp, int(j))
				}
			}
		}
		slices.Sort(comp)
		best := comp[0]
		for _, id := range comp {
			if v, b := c.nodes[id].value, c.nodes[best].value; v > b || v == b && id > best {
				best = id
			}
		}
		leader := c.nodes[comp[0]].following()
		for _, id := range comp {
			if c.nodes[id].following() != leader {
				leader = -1
				break
			}
		}
		a.comps = append(a.comps, comp)
		a.best = append(a.best, best)
		a.leaders = append(a.leaders, leader)
	}
	a.all = true
	for i := range a.comps {
		if a.leaders[i] != a.best[i] {
			a.all = false
		}
	}
	return a
}

// observe closes the failovers the round shows over and returns the
// changes worth a line; c.mu is held.
func (c *cluster) observe(start, end time.Time) []string {
	a := c.agreementLocked()
	if a.all {
		for _, f := range c.failovers {
			if f.done.IsZero() && start.After(f.at) {
				f.done, f.leaders = end, slices.Clone(a.leaders)
			}
		}
	}
	var out []string
	for _, n := range c.nodes {
		if !n.answered() {
			continue
		}
		key := fmt.Sprintf("%-5s leader %s", n.st.State, leaderText(int(n.st.Leader)))
		if key != n.lastKey {
			out = append(out, fmt.Sprintf("node %-3d %s", n.id, key))
			n.lastKey = key
		}
	}
	key := "no agreement"
	if a.all {
		key = "agreed: " + agreedText(a)
	}
	if key != c.agreedKey {
		c.agreedKey = key
		out = append(out, key)
	}
	return out
}

// awaitRound waits for the end of a round that started at or after t.
func (c *cluster) awaitRound(ctx context.Context, t time.Time) error {
	for {
		c.mu.Lock()
		ch, at := c.round, c.roundAt
		c.mu.Unlock()
		if !at.Before(t) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
