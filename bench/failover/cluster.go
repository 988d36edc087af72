package failover

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// Node is one process of a cluster.
type Node struct {
	ID   int
	Cmd  *exec.Cmd
	URL  string // its /status
	out  *tail
	done chan struct{} // closed once the process has exited
	err  error         // its exit, once done is closed
}

// Exited reports whether the process has ended.
func (n *Node) Exited() bool {
	select {
	case <-n.done:
		return true
	default:
		return false
	}
}

// failure describes a node that ended or never answered, with the end of
// what it wrote.
func (n *Node) failure(what string) error {
	msg := fmt.Sprintf("node %d (%s) %s", n.ID, strings.Join(n.Cmd.Args, " "), what)
	if n.Exited() {
		msg += fmt.Sprintf(" [exited: %v]", n.err)
	}
	if t := n.out.String(); t != "" {
		msg += "\n--- last output of node " + fmt.Sprint(n.ID) + " ---\n" + t
	} else {
		msg += " (no output)"
	}
	return errors.New(msg)
}

// Cluster is N processes of one system on 127.0.0.1.
type Cluster struct {
	Sys   System
	Nodes []*Node
	poll  *http.Client
}

// Start launches n processes of sys from the binary bin. The processes die
// with ctx, with Close, and (on Linux) with the calling process.
func Start(ctx context.Context, sys System, bin string, n int, s Setting) (*Cluster, error) {
	ports, err := FreePorts(n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Sys: sys, poll: &http.Client{
		Timeout:   time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true},
	}}
	for i := range n {
		cmd := exec.CommandContext(ctx, bin, sys.Args(i, ports, s)...)
		out := &tail{max: 4096}
		cmd.Stdout, cmd.Stderr = out, out
		cmd.SysProcAttr = sysProcAttr()
		cmd.WaitDelay = time.Second
		node := &Node{ID: i, Cmd: cmd, URL: fmt.Sprintf("http://127.0.0.1:%d/status", ports[i].HTTP), out: out, done: make(chan struct{})}
		if err := cmd.Start(); err != nil {
			c.Close()
			return nil, fmt.Errorf("%s node %d: %w", sys.Name(), i, err)
		}
		go func() {
			node.err = cmd.Wait()
			close(node.done)
		}()
		c.Nodes = append(c.Nodes, node)
	}
	return c, nil
}

// Close kills every process still running and waits for them.
func (c *Cluster) Close() {
	for _, n := range c.Nodes {
		if !n.Exited() {
			n.Cmd.Process.Kill()
		}
	}
	for _, n := range c.Nodes {
		<-n.done
	}
	c.poll.CloseIdleConnections()
}

// Live is the nodes whose process has not been killed or ended.
func (c *Cluster) Live() []*Node {
	var live []*Node
	for _, n := range c.Nodes {
		if !n.Exited() {
			live = append(live, n)
		}
	}
	return live
}

// Kill sends SIGKILL to node id and returns the time just before the signal.
func (c *Cluster) Kill(id int) (time.Time, error) {
	n := c.Nodes[id]
	t := time.Now()
	if err := n.Cmd.Process.Kill(); err != nil {
		return t, fmt.Errorf("kill node %d: %w", id, err)
	}
	return t, nil
}

// Round polls every node of nodes at once and returns their statuses, in
// the order of nodes; a node that did not answer has ok false.
func (c *Cluster) Round(ctx context.Context, nodes []*Node) (sts []Status, oks []bool, errs []error) {
	sts = make([]Status, len(nodes))
	oks = make([]bool, len(nodes))
	errs = make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			sts[i], errs[i] = c.status(ctx, n)
			oks[i] = errs[i] == nil
		})
	}
	wg.Wait()
	return sts, oks, errs
}

func (c *Cluster) status(ctx context.Context, n *Node) (Status, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.URL, nil)
	if err != nil {
		return Status{}, err
	}
	resp, err := c.poll.Do(req)
	if err != nil {
		return Status{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return Status{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Status{}, fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	return c.Sys.Parse(body)
}

// AwaitLeader polls the live nodes every interval until they agree (as the
// system defines it) and returns the leader. It fails, naming the node, when
// a process ends or a node has not answered by the deadline.
func (c *Cluster) AwaitLeader(ctx context.Context, every time.Duration, deadline time.Time) (int, error) {
	var last []Status
	var lastOK []bool
	var lastErr []error
	live := c.Live()
	for {
		for _, n := range live {
			if n.Exited() {
				return -1, n.failure("ended before the cluster elected")
			}
		}
		start := time.Now()
		sts, oks, errs := c.Round(ctx, live)
		last, lastOK, lastErr = sts, oks, errs
		if !slices.Contains(oks, false) {
			if l, ok := c.Sys.Agreed(sts); ok {
				return l, nil
			}
		}
		if time.Now().After(deadline) {
			for i, ok := range lastOK {
				if !ok {
					return -1, live[i].failure(fmt.Sprintf("does not answer on %s: %v", live[i].URL, lastErr[i]))
				}
			}
			return -1, fmt.Errorf("%s: no agreement on a leader by the deadline; last statuses: %s", c.Sys.Name(), describe(last))
		}
		if err := sleepCtx(ctx, every-time.Since(start)); err != nil {
			return -1, err
		}
	}
}

func describe(sts []Status) string {
	var b strings.Builder
	for i, st := range sts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d:%s leader %d", st.ID, st.State, st.Leader)
	}
	return b.String()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// FreePorts picks n pairs of ports that are free on 127.0.0.1 for TCP and
// UDP alike, holding them all until every one is chosen so that none is
// given twice.
func FreePorts(n int) ([]Ports, error) {
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	free := func() (int, error) {
		for range 100 {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return 0, err
			}
			closers = append(closers, l)
			port := l.Addr().(*net.TCPAddr).Port
			u, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", port))
			if err != nil {
				continue // taken for UDP: keep the TCP one held and try another
			}
			closers = append(closers, u)
			return port, nil
		}
		return 0, errors.New("no port free for both TCP and UDP after 100 tries")
	}
	ports := make([]Ports, n)
	for i := range ports {
		var err error
		if ports[i].Peer, err = free(); err != nil {
			return nil, err
		}
		if ports[i].HTTP, err = free(); err != nil {
			return nil, err
		}
	}
	return ports, nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if len(s) == t.max {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = "..." + s[i:]
		}
	}
	return strings.TrimRight(s, "\n")
}

var _ io.Writer = (*tail)(nil)
