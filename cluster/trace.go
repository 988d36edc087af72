package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/trace"
)

// The run's events, as `elect emulate` makes them of its nodes (package
// internal/journal): every node and link at time 0, each node's status
// changes read from its /status/stream and stamped when the node made
// them, what the cluster did to the nodes stamped when it did it, the
// steps in words, and the end, put in time order and handed to the
// checker (check.Monitor, configured from the trace's header as `elect
// check` configures it), Config.Observers and the trace file
// (Config.Trace). The checker's verdict is the summary's Check.

// traceWindow is how long the journal holds events for late readers of
// the status streams: loopback is fast, and a late event is still passed
// on, at the time of the last one before it.
const traceWindow = 500 * time.Millisecond

// recording is the run's events on their way to the checker, the trace
// file and the observers.
type recording struct {
	alg       *algo.Algorithm
	header    trace.Header
	mon       *check.Monitor
	observers []trace.Observer
	path      string // of the trace file
	file      *trace.File
	tw        *trace.Writer
	// watched is, per node, the change time (Unix ns) of the last status
	// its stream journaled: Finish waits for the streams to bring what
	// its last poll saw.
	watched []atomic.Int64
	// Guarded by the journal's passing (Observe): the events passed on.
	hash   trace.Hasher
	events int

	mu        sync.Mutex
	j         *journal.Journal // from Start; nil before
	ended     bool
	ctx       context.Context // the status streams'
	stopWatch context.CancelFunc
	outside   []string // why the run went outside the algorithm's model
}

// record prepares the run's recording (New): the trace's header, the
// checker configured from it, the trace file.
func (c *Cluster) record() error {
	cfg := c.cfg
	a, err := algo.Lookup(cfg.Algorithm)
	if err != nil {
		return fieldErr("Algorithm", err)
	}
	r := &recording{alg: a, watched: make([]atomic.Int64, cfg.Nodes), hash: trace.NewHasher()}
	params := algo.Params(cfg.Params)
	if p, err := a.Resolve(cfg.Params); err == nil {
		params = p
	}
	r.header = journal.Header(trace.Header{Algorithm: a.Name, Params: params, Seed: cfg.Seed, Topology: cfg.Topology,
		Nodes: cfg.Nodes, Messages: a.Messages, Spontaneous: a.Model.Spontaneous, Lossy: cfg.Faults.Loss > 0,
		AmongInitiators: a.Model.ElectsInitiator,
		Stabilization:   cmp.Or(cfg.Stabilization, check.DefaultStabilization),
		Liveness:        cmp.Or(cfg.Liveness, check.DefaultLiveness)})
	for id, on := range c.initiators {
		if on {
			r.header.Initiators = append(r.header.Initiators, algo.NodeID(id))
		}
	}
	// The live checker is configured as `elect check` configures its own
	// from the trace's header: the same verdict.
	cc, _, err := runner.TraceConfig(&r.header)
	if err != nil {
		return err
	}
	r.mon = check.New(cc)
	r.observers = append([]trace.Observer{r.mon, r}, cfg.Observers...)
	if len(cfg.Corrupt) > 0 {
		r.outside = append(r.outside, fmt.Sprintf("corrupt: node(s) %s alter the payload of every message they send (the ring document's joker, in no algorithm's model)", IDRanges(slices.Sorted(slices.Values(cfg.Corrupt)))))
	}
	if r.path = cfg.Trace; r.path != "" {
		if r.file, err = trace.Create(cfg.Trace); err != nil {
			return fieldErr("Trace", err)
		}
		if r.tw, err = trace.NewWriter(r.file, r.header); err != nil {
			r.file.Close()
			return fieldErr("Trace", err)
		}
		r.observers = append(r.observers, r.tw)
	}
	c.rec = r
	return nil
}

// Observe fingerprints and counts the events passed on.
func (r *recording) Observe(e *trace.Event) {
	r.hash.Add(e)
	r.events++
}

// begin starts the journal at time 0 of the run, t0: every node and
// link, the initiators asked to elect, then every node's status stream.
func (c *Cluster) begin(t0 time.Time) {
	r := c.rec
	j := journal.New(t0, traceWindow, r.observers)
	for _, n := range c.nodes {
		j.Add(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(n.id), Peer: algo.None, Value: n.value})
	}
	for _, e := range c.cfg.Graph.Edges() {
		j.Add(trace.Event{Kind: trace.LinkUp, Node: e.A, Peer: e.B})
	}
	for _, v := range r.header.Initiators {
		j.Add(trace.Event{Kind: trace.ElectCalled, Node: v, Peer: algo.None})
	}
	for _, n := range c.nodes {
		if !n.alive() { // it answered, then died before time 0
			j.Add(trace.Event{Kind: trace.Crashed, Node: algo.NodeID(n.id), Peer: algo.None})
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	r.mu.Lock()
	r.j, r.ctx, r.stopWatch = j, ctx, stop
	r.mu.Unlock()
	j.Start()
	for _, n := range c.nodes {
		c.watch(n)
	}
}

// watch journals the status changes of node n's current life, until the
// recording ends.
func (c *Cluster) watch(n *clusterNode) {
	r := c.rec
	r.mu.Lock()
	j, ctx, ended := r.j, r.ctx, r.ended
	r.mu.Unlock()
	if j == nil || ended {
		return
	}
	life := n.proc.Info().Life
	go j.Watch(ctx, n.proc, n.id, life, func(st *node.StatusJSON) {
		w := &r.watched[n.id]
		for old := w.Load(); st.ChangedUnixNS > old && !w.CompareAndSwap(old, st.ChangedUnixNS); old = w.Load() {
		}
	}, func(format string, args ...any) { c.say(LineNote, c.Since(time.Now()), format, args...) })
}

// add journals an event of node id (ignored by a kind that names no node)
// at time t, unless the run has not begun or has ended.
func (c *Cluster) add(kind trace.Kind, id int, t time.Time, text string) {
	r := c.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addLocked(kind, id, t, text)
}

// addLocked is add; r.mu is held. It says whether the event was journaled.
func (r *recording) addLocked(kind trace.Kind, id int, t time.Time, text string) bool {
	if r.j == nil || r.ended {
		return false
	}
	node := algo.NodeID(id)
	if !kind.HasNode() {
		node = 0
	}
	r.j.Add(trace.Event{At: max(r.j.Since(t), 0), Kind: kind, Node: node, Peer: algo.None, Text: text})
	return true
}

// crashed journals that node id's life ended at t (a kill, a clean stop,
// an exit of its own: what the checker knows as a crash), by what; an
// algorithm whose model has no crashes is then run outside its model.
func (c *Cluster) crashed(id int, t time.Time, what string) {
	r := c.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.addLocked(trace.Crashed, id, t, "") && !r.alg.Model.Crash && len(r.outside) < 8 {
		r.outside = append(r.outside, fmt.Sprintf("%s: a crash, and %s's model has none (Model.Crash is false)", what, r.alg.Name))
	}
}

// endRecording ends the recording at t, after the last poll: once the status
// streams have brought what that poll saw (a second at most), the journal
// passes what is left and the End, the streams are closed, and the
// checker gives its verdict. The trace file is closed; its error is
// returned.
func (c *Cluster) endRecording(t time.Time) (*Verdict, error) {
	r := c.rec
	r.mu.Lock()
	j, stop := r.j, r.stopWatch
	r.mu.Unlock()
	if j == nil {
		return nil, r.close()
	}
	j.Stop()
	want := make([]int64, len(c.nodes))
	c.mu.Lock()
	for i, n := range c.nodes {
		if n.answered() {
			want[i] = n.st.ChangedUnixNS
		}
	}
	c.mu.Unlock()
	for deadline := time.Now().Add(2 * traceWindow); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if !slices.ContainsFunc(c.nodes, func(n *clusterNode) bool { return r.watched[n.id].Load() < want[n.id] }) {
			break
		}
	}
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
	at := max(j.Since(t), 0)
	j.End(at)
	stop()
	rep := r.mon.Report()
	var ms metrics.Summary
	ms.FromCheck(r.mon, rep)
	v := &Verdict{OK: rep.ViolationCount == 0, Violations: ms.Violations, ViolationCount: rep.ViolationCount,
		Elections: ms.Elections, Unchecked: rep.Unchecked, LivenessJudged: rep.Unchecked == 0,
		StabilizationMS: msOf(r.header.Stabilization), LivenessMS: msOf(r.header.Liveness), EndMS: ms.EndMS,
		Events: r.events, LateEvents: j.Late(), TraceHash: fmt.Sprintf("%016x", r.hash.Sum()),
		Trace: c.cfg.Trace, OutsideModel: slices.Clone(r.outside)}
	return v, r.close()
}

// close ends and closes the trace file, if any; a second call does
// nothing.
func (r *recording) close() error {
	if r == nil {
		return nil
	}
	var err error
	if r.tw != nil {
		err = r.tw.Close()
		r.tw = nil
	}
	if r.file != nil {
		err = errors.Join(err, r.file.Close()) // a second Close does nothing
	}
	if err != nil {
		return fmt.Errorf("the trace %s: %w", r.path, err)
	}
	return nil
}
