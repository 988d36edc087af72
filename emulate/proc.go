//go:build linux

package emulate

import (
	"bufio"
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
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/trace"
)

// proc is one emulated node: its namespace and files, and its current
// process (a life), if any.
type proc struct {
	id    int
	value int64
	ns    string
	sock  string // its HTTP server's Unix socket
	state string // its state directory
	log   string // its log file, every life appended

	mu      sync.Mutex
	cmd     *exec.Cmd
	alive   bool
	life    int
	done    chan struct{} // closed when the current life is reaped
	status  *node.StatusJSON
	counted node.CountersJSON // the counters of its ended lives, added up
	usage   usage
}

// usage is what the kernel accounted to a node's ended lives.
type usage struct {
	cpu    time.Duration // user + system
	maxRSS int64         // bytes, the largest of any life
}

// launcher starts nodes: what every node's command line shares.
type launcher struct {
	bin       string
	args      []string // after "node": algorithm, params, hello, port...
	port      int
	client    *http.Client
	j         *journal
	log       func(format string, args ...any)
	unplanned func(p *proc) // called when a node's process ends on its own
}

// newClient is an HTTP client that reaches the nodes' Unix sockets: the
// host of a URL is the node ("n12", see url), socket gives its path.
func newClient(socket func(host string) (string, bool)) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			path, ok := socket(host)
			if !ok {
				return nil, fmt.Errorf("no node %q", host)
			}
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
		MaxIdleConnsPerHost: 1, DisableCompression: true,
	}}
}

// host is p's name in URLs.
func (p *proc) host() string { return "n" + strconv.Itoa(p.id) }

// url is the address of path on p's HTTP server.
func (p *proc) url(path string) string { return "http://" + p.host() + path }

// isAlive reports whether p has a live process.
func (p *proc) isAlive() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.alive
}

// life is one process of a node, as launched.
type life struct {
	n      int           // lives of the node so far, this one included
	done   chan struct{} // closed when it is reaped
	logOff int64         // where its part of the log begins
}

// start begins a new life of p (see launch) and returns once it is ready.
func (l *launcher) start(ctx context.Context, p *proc, fresh bool) error {
	lf, err := l.launch(p, fresh)
	if err != nil {
		return err
	}
	return l.ready(ctx, p, lf)
}

// launch starts a new life of p: fresh (its state directory emptied
// first) or not (kept: the node recovers from it). It returns as soon as
// the process runs; ready waits for it to answer.
func (l *launcher) launch(p *proc, fresh bool) (life, error) {
	if fresh {
		if err := os.RemoveAll(p.state); err != nil {
			return life{}, fmt.Errorf("node %d: emptying its state directory: %w", p.id, err)
		}
	}
	logf, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return life{}, fmt.Errorf("node %d: %w", p.id, err)
	}
	defer logf.Close()
	off, _ := logf.Seek(0, io.SeekEnd)
	args := append([]string{"netns", "exec", p.ns, l.bin, "node",
		"--id", strconv.Itoa(p.id), "--value", strconv.FormatInt(p.value, 10),
		"--listen", fmt.Sprintf("0.0.0.0:%d", l.port),
		"--broadcast", fmt.Sprintf("%s:%d", broadcast(), l.port),
		"--http", "unix:" + p.sock, "--state-dir", p.state,
	}, l.args...)
	cmd := exec.Command("ip", args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// ip netns exec enters the namespace and execs the node, which keeps
	// these: SIGKILL when the emulator dies, whatever kills it, and a
	// process group of its own, so that a Ctrl-C reaches the emulator
	// alone, which then ends the nodes itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return life{}, fmt.Errorf("node %d: starting ip netns exec: %w", p.id, err)
	}
	lf := life{done: make(chan struct{}), logOff: off}
	p.mu.Lock()
	p.cmd, p.alive, p.done, p.status = cmd, true, lf.done, nil
	p.life++
	lf.n = p.life
	p.mu.Unlock()
	go l.reap(p, cmd, lf.n, lf.done)
	return lf, nil
}

// ready waits until life lf of p answers, then feeds its status stream to
// the journal.
func (l *launcher) ready(ctx context.Context, p *proc, lf life) error {
	if err := l.awaitUp(ctx, p, lf.done); err != nil {
		return fmt.Errorf("%w%s", err, LogTail(p.log, lf.logOff))
	}
	go l.watch(ctx, p, lf.n)
	return nil
}

// reap waits for a life to end and books its usage; a life that ended
// while the emulator thought it alive ended on its own.
func (l *launcher) reap(p *proc, cmd *exec.Cmd, life int, done chan struct{}) {
	err := cmd.Wait()
	p.mu.Lock()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.usage.cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		p.usage.maxRSS = max(p.usage.maxRSS, ru.Maxrss*1024)
	}
	unplanned := p.alive && p.life == life
	if unplanned {
		p.alive = false
	}
	p.mu.Unlock()
	close(done)
	if unplanned {
		l.log("node %d ended on its own (%v); its log: %s", p.id, err, p.log)
		if l.unplanned != nil {
			l.unplanned(p)
		}
	}
}

// awaitUp waits until p's /healthz answers (30 s at most), asking more and
// more slowly: a hundred nodes booting at once on two cores need the CPU
// more than the emulator's questions do.
func (l *launcher) awaitUp(ctx context.Context, p *proc, done <-chan struct{}) error {
	deadline := time.Now().Add(30 * time.Second)
	pause := 5 * time.Millisecond
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url("/healthz"), nil)
		if resp, err := l.client.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-done:
			return fmt.Errorf("node %d ended as it started", p.id)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(pause*3/2, 100*time.Millisecond)
		if time.Now().After(deadline) {
			return fmt.Errorf("node %d did not answer on %s within 30s", p.id, p.sock)
		}
	}
}

// watch reads p's status stream for one life and journals each change at
// the time the node made it.
func (l *launcher) watch(ctx context.Context, p *proc, life int) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url("/status/stream"), nil)
	resp, err := l.client.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var st node.StatusJSON
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			l.log("node %d: unreadable status line: %v", p.id, err)
			continue
		}
		state, err := algo.ParseState(st.State)
		if err != nil {
			l.log("node %d: %v", p.id, err)
			continue
		}
		p.mu.Lock()
		current := p.alive && p.life == life
		if current {
			p.status = &st
		}
		p.mu.Unlock()
		if !current {
			return
		}
		at := l.j.since(time.Unix(0, st.ChangedUnixNS))
		if st.ChangedUnixNS == 0 {
			at = l.j.since(time.Now())
		}
		l.j.add(trace.Event{At: max(at, 0), Kind: trace.StatusChanged, Node: algo.NodeID(p.id), Peer: algo.None,
			Status: algo.Status{Leader: st.Leader, State: state, Index: algo.Index{Num: st.Computation.Num, ID: st.Computation.ID}}})
	}
}

// counters asks a live node for its counters (nil when it does not answer
// within a second).
func (l *launcher) counters(ctx context.Context, p *proc) *node.CountersJSON {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url("/status"), nil)
	resp, err := l.client.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var st node.StatusJSON
	if json.NewDecoder(resp.Body).Decode(&st) != nil {
		return nil
	}
	return &st.Counters
}

// kill ends p's life with SIGKILL, first booking its counters (what it
// sends in the last milliseconds before the signal goes uncounted). It
// returns when the signal went, or false when p was not alive.
func (l *launcher) kill(ctx context.Context, p *proc) (time.Time, bool) {
	p.mu.Lock()
	alive, cmd, done := p.alive, p.cmd, p.done
	p.mu.Unlock()
	if !alive {
		return time.Time{}, false
	}
	c := l.counters(ctx, p)
	p.mu.Lock()
	p.alive, p.status = false, nil
	if c != nil {
		p.counted = add(p.counted, *c)
	}
	p.mu.Unlock()
	at := time.Now()
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		l.log("node %d: %v", p.id, err)
	}
	<-done
	return at, true
}

// elect asks a live node to start an election.
func (l *launcher) elect(ctx context.Context, p *proc) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url("/elect"), nil)
	resp, err := l.client.Do(req)
	if err != nil {
		return fmt.Errorf("node %d: %w", p.id, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("node %d: POST /elect: %s", p.id, resp.Status)
	}
	return nil
}

// add adds counters up.
func add(a, b node.CountersJSON) node.CountersJSON {
	sum := func(x, y map[string]uint64) map[string]uint64 {
		out := map[string]uint64{}
		for k, v := range x {
			out[k] += v
		}
		for k, v := range y {
			out[k] += v
		}
		return out
	}
	return node.CountersJSON{
		Sent: sum(a.Sent, b.Sent), Received: sum(a.Received, b.Received), Rejected: sum(a.Rejected, b.Rejected),
		HellosSent: a.HellosSent + b.HellosSent, HellosRecv: a.HellosRecv + b.HellosRecv,
		Unroutable: a.Unroutable + b.Unroutable, Elections: a.Elections + b.Elections,
		LeaderChanges: a.LeaderChanges + b.LeaderChanges,
	}
}

// paths lays out p's files in dir: short names, since a Unix socket's path
// has at most 107 bytes.
func (p *proc) paths(dir string) {
	p.sock = filepath.Join(dir, "s", strconv.Itoa(p.id))
	p.state = filepath.Join(dir, "state", strconv.Itoa(p.id))
	p.log = filepath.Join(dir, "log", fmt.Sprintf("node-%d.log", p.id))
}
