// Package cluster starts N real `elect node` processes on loopback, scripts them, returns the outcome.
// It must not import cli, which adapts elect cluster's flags to it; it builds on supervisor and node.
//
// A [Cluster] is made from a [Config] by [New] (checked, laid out, nothing
// running) and started by [Cluster.Start], or both at once by [Start]. Each
// node lists its neighbours in the configured topology as peers and knows
// the true N, so every registered algorithm runs on the network it assumes;
// each has a state directory and a log of its own. The cluster polls every
// node's /status, tells when the live nodes agree on a leader (a
// [Snapshot], an [Agreement]), and times failovers: from the kill of a
// leader until every live node follows the most valued survivor.
//
// It plays the control process of the ring document
// (003_995b7edf0113a8b5.txt): [Cluster.Elect] starts an election as the
// control process does, Config.CrashOn and Config.Corrupt inject the
// document's faults (a node that dies in gathering or confirmation, a joker
// that alters the payload), the nodes' reports are collected, and
// [Cluster.Outcome] says the outcome as the document's control process
// does: the elected node, a failure naming its phase and the node that
// died, a checksum failure naming the joker. A [Script] (the YAML of
// scenarios/cluster-scripts/) runs timed actions and waits for each
// [Expect] it names ([Cluster.Run]); [Cluster.Finish] ends a run with its
// [Summary]. The simulator's gray failures are steps too: a link cut one
// way ([Cluster.Cut], [Cluster.Uncut]), a clock's rate or jump
// ([Cluster.Clock]), a slow node ([Cluster.Slow]), set on the nodes with
// POST /gray and again on a node started anew; and so are its value
// changes ([Cluster.SetValue]), set with POST /value, a node not running
// starting its next life with its new value.
//
// The checker of a simulated run (check.Monitor) judges every run as it
// goes, as `elect emulate` has it judge its own (package internal/journal):
// each node's status changes read from its /status/stream, stamped when the
// node made them, and what was done to the nodes, in time order; the
// summary's Check is its [Verdict], and [Summary.Violated] says which of its
// violations fail the run. Config.Trace writes the same events as a trace
// file, which `elect check` judges to the same verdict.
//
// Every node is stopped by [Cluster.Close], whatever happened; on Linux
// they are killed if the program dies.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/electgo/elect/internal/journal"
)

// Cluster is a cluster of node processes, from New to Close.
type Cluster struct {
	cfg        Config // resolved: every default filled
	initiators []bool // nodes started with --initiator
	corrupt    []bool // the jokers
	nodes      []*clusterNode
	tempDir    bool // cfg.Dir was made for this cluster

	mu        sync.Mutex
	t0        time.Time     // when every node first answered: time 0 of a script
	round     chan struct{} // closed and replaced after every poll round
	roundAt   time.Time     // when the last round started
	agreedKey string
	failovers []*failover
	steps     []StepResult  // of scripts, and of the steps Do ran
	events    []Event       // what the control process was told (control.go)
	rec       *recording    // the run's events, their checker and trace (trace.go)
	gray      journal.Gray  // every node's gray failures (gray.go)
	grayEnds  []*time.Timer // the ends of slow spells to come
	failed    bool          // a start, a script or the run failed: the directory is kept
	script    string        // the file of the script run

	started  bool
	stopPoll context.CancelFunc
	polling  chan struct{} // closed when the poll loop ends
	finished *Summary      // guarded by mu
	closed   bool
	// life is held (to read) by every action on the nodes and (to write)
	// by Close, so that no node is started again once the cluster closes
	// (a restart between its kill and its launch would outlive it).
	life sync.RWMutex
	// logMu makes Config.Log hear one line at a time; logDone, set by
	// Close, silences it.
	logMu   sync.Mutex
	logDone bool
}

// LineKind says what a Line is about.
type LineKind string

// The kinds of Line.
const (
	LineNote   LineKind = "note"   // a choice made for the configuration, by New
	LineChange LineKind = "change" // a node's status or the agreement changed: what a live table shows too
	LineReport LineKind = "report" // a node's report to the control process
	LineExit   LineKind = "exit"   // a node's process ended on its own
	LineStep   LineKind = "step"   // a step of a script ran, or failed
)

// Line is something the cluster says as it runs (Config.Log).
type Line struct {
	At   time.Duration // since every node first answered (0 before)
	Kind LineKind      // what it is about
	Text string        // what it says, one line
}

// say hands a line to Config.Log.
func (c *Cluster) say(kind LineKind, at time.Duration, format string, args ...any) {
	if c.cfg.Log == nil {
		return
	}
	// One line at a time, whichever goroutine speaks (the poller, a
	// node's exit, Run), and none once Close has returned: a test's
	// t.Logf must not be called after the test ends.
	c.logMu.Lock()
	defer c.logMu.Unlock()
	if !c.logDone {
		c.cfg.Log(Line{At: at, Kind: kind, Text: fmt.Sprintf(format, args...)})
	}
}

func (c *Cluster) note(text string) { c.say(LineNote, 0, "%s", text) }

// New checks cfg (see Config.Check), makes its directory and lays the
// nodes out (ports, peers, state directories, logs, the key), starting no
// process. Close removes what it made.
func New(cfg Config) (*Cluster, error) {
	if os.Getenv(NodeEnv) != "" {
		// This process was started as a node of a cluster and got here:
		// a program (a test binary, without the shim of the package's
		// example) that does not run cli.Main for "node" would start
		// clusters of itself without end.
		return nil, fmt.Errorf("this process is node %s of a cluster, and starts a cluster of its own: the program the nodes run (Config.Binary, this one by default) must run cli.Main when its first argument is \"node\" (a test's TestMain: see package cluster's example)", os.Getenv(NodeEnv))
	}
	if cfg.Binary == "" {
		bin, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding elect's own binary to start the nodes: %w", err)
		}
		cfg.Binary = bin
	}
	c, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	c.gray = journal.Gray{}
	dir := c.cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "elect-cluster-"); err != nil {
			return nil, err
		}
		c.tempDir = true
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fieldErr("Dir", err)
	}
	if c.cfg.Dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if err = c.layout(); err == nil {
		err = c.record()
	}
	if err != nil {
		if c.tempDir {
			os.RemoveAll(c.cfg.Dir)
		}
		return nil, err
	}
	return c, nil
}

// Start is New, then Cluster.Start; when the start fails, what it started
// is closed.
func Start(ctx context.Context, cfg Config) (*Cluster, error) {
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Start starts every node and returns once all answer; time 0 of the run
// is then, and the polling begins. ctx bounds the start: the nodes run
// until Finish or Close. When the start fails, the directory is kept.
func (c *Cluster) Start(ctx context.Context) error {
	if c.started {
		return errors.New("the cluster is started already")
	}
	c.started = true
	if err := c.startAll(ctx); err != nil {
		c.mu.Lock()
		c.failed = true
		c.mu.Unlock()
		return fmt.Errorf("starting the cluster (state and logs kept in %s): %w", c.cfg.Dir, err)
	}
	c.mu.Lock()
	c.t0 = time.Now()
	c.mu.Unlock()
	c.begin(c.t0)
	pctx, stop := context.WithCancel(context.Background())
	c.stopPoll, c.polling = stop, make(chan struct{})
	go func() {
		defer close(c.polling)
		c.pollLoop(pctx, c.cfg.Poll)
	}()
	return nil
}

// Finish ends the run and returns its summary: the polling stops, every
// node is asked for its status a last time, the summary is taken, then
// every live node is stopped cleanly (SIGTERM: each saves its state).
// failure, when not nil, is why the run failed: the summary says so and
// the directory is kept. A second call returns the first one's summary.
func (c *Cluster) Finish(failure error) *Summary {
	if c.finished != nil {
		return c.finished
	}
	c.stopGrayEnds()
	if c.stopPoll != nil {
		c.stopPoll()
		<-c.polling
	}
	final, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	c.pollRound(final)
	cancel()
	now := time.Now()
	sum := c.summary(now)
	// The checker judges the run as that last poll saw it, before the
	// nodes are stopped.
	var traceErr error
	sum.Check, traceErr = c.endRecording(now)
	c.stopAll()
	c.mu.Lock()
	if failure = errors.Join(failure, traceErr); failure != nil {
		c.failed = true
		sum.OK, sum.Error = false, failure.Error()
	}
	sum.Kept = c.keptLocked()
	c.finished = sum
	c.mu.Unlock()
	return sum
}

// Close ends the cluster: Finish, when the run began and was not
// finished; then every process still alive is killed, and the directory
// removed unless it is kept (Config.Dir or Config.Keep given, or a
// failure). It returns the error of the removal.
func (c *Cluster) Close() error {
	c.life.Lock()
	defer c.life.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.started && c.finished == nil && c.stopPoll != nil {
		c.Finish(nil)
	}
	c.killAll()
	c.rec.close() // a run that never began leaves its trace unended
	c.logMu.Lock()
	c.logDone = true
	c.logMu.Unlock()
	c.mu.Lock()
	keep := c.keptLocked()
	c.mu.Unlock()
	if !keep {
		return os.RemoveAll(c.cfg.Dir)
	}
	return nil
}

// keptLocked says whether Close keeps the directory; c.mu is held.
func (c *Cluster) keptLocked() bool { return !c.tempDir || c.cfg.Keep || c.failed }

// Config is the cluster's configuration, every default filled in: the
// algorithm, the topology's name and graph, the values, the parameters
// (with the boot initiators of a spontaneous algorithm), the directory.
func (c *Cluster) Config() Config { return c.cfg }

// Since is the time from time 0 of the run (when every node first
// answered) to t; 0 before.
func (c *Cluster) Since(t time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t0.IsZero() {
		return 0
	}
	return t.Sub(c.t0)
}
