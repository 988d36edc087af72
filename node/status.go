package node

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Status is a node's state as its users see it.
type Status struct {
	ID        algo.NodeID
	Value     int64
	Algorithm string
	Cluster   uint32
	// Leader is the node this one follows (algo.None: none), State its
	// phase (Norm, Elect, Wait). A leader is only meaningful in Norm.
	Leader algo.NodeID
	State  algo.State
	// ElectionIndex is the number of the newest election this node has
	// taken part in. It never decreases at a node, across recoveries too,
	// but a leader can lead without a new election (a paused leader taking
	// its followers back by heartbeat), so it is not a fencing token:
	// FencingToken is.
	ElectionIndex uint64
	// Computation is the algorithm's computation index <num, id> behind
	// ElectionIndex.
	Computation algo.Index
	// Neighbors are the nodes this one currently hears, ascending.
	Neighbors []algo.NodeID
	// Changed is when this status last changed.
	Changed time.Time
	// Pulse is, for a synchronous algorithm run over the synchronizer
	// (pulses.go), the pulse in which this status last changed: the pulse
	// of a decision, as the simulator's clock gives it in PulseLengths.
	// Zero for other algorithms.
	Pulse int64
	// FencingToken is, while the node leads, its token (fence.go): above
	// every token the node has issued or heard of when it took it, and
	// persisted before it was reported. A resource that refuses tokens
	// below the highest it has seen refuses a deposed leader. For a node
	// that does not lead, the highest token it knows of.
	FencingToken uint64
	// Fenced says the node holds a token of its own: it leads and could
	// persist its token.
	Fenced bool
	// Starting says the node's machine has not booted yet: Run has not
	// started, or the node is still finding its neighbours (a hello
	// interval, longer where it waits for its listed peers). It has no
	// leader then, and its State (Norm) is no phase of the algorithm's;
	// ElectionIndex and FencingToken are already those it recovered from
	// its state directory.
	Starting bool
}

// Leading reports whether the node is the leader: in Norm, following
// itself, with a fencing token of its own (a node that cannot persist its
// token does not lead as far as its users are told).
func (s Status) Leading() bool { return s.State == algo.Norm && s.Leader == s.ID && s.Fenced }

// HasLeader reports whether the node follows a leader (in Norm).
func (s Status) HasLeader() bool { return s.State == algo.Norm && s.Leader != algo.None }

// same reports whether s and t differ in nothing a subscriber is told of.
func (s Status) same(t Status) bool {
	return s.Leader == t.Leader && s.State == t.State && s.ElectionIndex == t.ElectionIndex &&
		s.Value == t.Value && s.FencingToken == t.FencingToken && s.Fenced == t.Fenced && s.Starting == t.Starting &&
		slices.Equal(s.Neighbors, t.Neighbors)
}

// after runs after every input the machine handled: it reads the machine's
// status, publishes a change, keeps leadership callbacks and the saved
// state in step.
func (n *Node) after() {
	st := n.m.Status()
	next := n.last
	next.Starting = false // after runs once the machine has booted
	next.Leader, next.State, next.Value = st.Leader, st.State, n.value
	next.Computation = st.Index
	next.ElectionIndex = max(n.last.ElectionIndex, uint64(st.Index.Num))
	if !slices.Equal(next.Neighbors, n.up) {
		next.Neighbors = slices.Clone(n.up)
	}
	// Saved before it is told: a status a subscriber acts on is on disk.
	n.persist(next.ElectionIndex)
	n.fencing(&next)
	if !next.same(n.last) {
		if n.sync != nil {
			next.Pulse = n.sync.pulse
		}
		n.changed(n.last, next)
	}
}

// changed publishes a new status and acts on what changed.
func (n *Node) changed(prev, next Status) {
	now := time.Now()
	next.Changed = now
	n.last = next
	n.metrics.observe(prev, next, now)
	if next.State == algo.Elect && (prev.State != algo.Elect || next.Computation != prev.Computation) {
		n.metrics.elections.Add(1)
	}
	if next.HasLeader() && (!prev.HasLeader() || prev.Leader != next.Leader) {
		n.log.Info("leader", "leader", next.Leader, "election_index", next.ElectionIndex)
		if next.Leader != n.lastLeader {
			if n.lastLeader != algo.None {
				n.metrics.leaderChanges.Add(1)
			}
			n.lastLeader = next.Leader
			if cb := n.cfg.Callbacks.OnNewLeader; cb != nil {
				n.pub.call(func() { cb(next.Leader) })
			}
		}
	}
	switch {
	case next.Leading() && n.leading == nil:
		ctx, cancel := context.WithCancel(n.runCtx)
		n.leading = cancel
		if cb := n.cfg.Callbacks.OnStartedLeading; cb != nil {
			// Started from the callback goroutine, after the OnNewLeader
			// queued before it; it runs on a goroutine of its own.
			n.pub.call(func() { go cb(ctx) })
		}
	case !next.Leading() && n.leading != nil:
		n.stopLeading()
	}
	n.pub.publish(next)
}

// stopLeading cancels the leader's context at once (a fencing matter: the
// application must stop acting as leader now), then queues the callback.
func (n *Node) stopLeading() {
	if n.leading == nil {
		return
	}
	n.leading()
	n.leading = nil
	if cb := n.cfg.Callbacks.OnStoppedLeading; cb != nil {
		n.pub.call(cb)
	}
}

// persist writes the machine's state, the election index and the fence
// when they changed since last written. A failure is counted, logged once
// until a save works again, and makes the node unhealthy (/healthz) and
// silent to the others (fence.go) until then; a leader's token is never
// reported unless it was saved.
func (n *Node) persist(index uint64) error {
	if n.cfg.StateDir == "" || !n.booted {
		return nil
	}
	b := n.m.Save()
	if bytes.Equal(b, n.saved) && index == n.savedIndex && n.fence == n.savedFence && !n.heardDirty && n.saveErr.Load() == nil {
		return nil
	}
	heard := n.heardTops()
	err := n.state.Store(runtime.Saved{Algorithm: n.alg.Name, ID: n.cfg.ID, Cluster: n.cfg.Cluster,
		ElectionIndex: index, Fence: n.fence, Heard: heard, Machine: b})
	if err != nil {
		n.metrics.saveErrors.Add(1)
		if n.saveErr.Swap(&err) == nil {
			n.log.Error("saving state failed: unhealthy, leading no more and silent to the other nodes (a crashed node to them), until a save works", "file", n.state.Path(), "err", err)
		}
		return err
	}
	if n.saveErr.Swap(nil) != nil {
		n.log.Info("saving state works again: speaking to the other nodes again", "file", n.state.Path())
	}
	n.saved, n.savedIndex, n.savedFence, n.heardDirty, n.savedHeard = b, index, n.fence, false, heard
	return nil
}

// storable checks, before the node sends anything, that its state
// directory takes a save; Run refuses to start when it does not, with the
// error. A node restarted on a full or read-only file system used to run
// as if nothing were wrong until its first save failed (issue 31, C);
// running silent (fence.go) would keep it out of the cluster with no more
// said than a failing /healthz. Exiting loses nothing: nothing in memory is
// newer than the disk yet, unlike at a running node, which stays up,
// silent, to keep its newer state until a save works. The state it
// recovered is written again as it was (the very save that must work);
// with none, a probe file of a page is written, synced and removed, so
// that a fresh node still boots with no state file (Start, not Restart).
func (n *Node) storable(saved *runtime.Saved) error {
	if n.cfg.StateDir == "" {
		return nil
	}
	var err error
	if saved != nil {
		err = n.state.Store(*saved)
	} else {
		err = probeDir(string(n.state))
	}
	if err != nil {
		n.metrics.saveErrors.Add(1)
		return fmt.Errorf("node %d: cannot save state in %s, so not started (a node that cannot keep its state must not lead): %w", n.cfg.ID, n.state, err)
	}
	return nil
}

// probeDir checks that dir (made if missing) takes a new file of a page,
// synced, as a save writes one; the file is removed.
func probeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe.*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, 4096))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// publisher hands statuses to subscribers and runs callbacks, in order, on
// a goroutine of its own so that a slow subscriber or callback never
// stalls the node.
type publisher struct {
	mu     sync.Mutex
	cur    Status
	subs   []chan Status
	closed bool
	queue  []func()
	wake   chan struct{}
}

// subscriberBuffer is how many statuses a subscriber may fall behind by
// before it loses the oldest; it never loses the newest.
const subscriberBuffer = 64

func (p *publisher) init(s Status) {
	p.cur = s
	p.wake = make(chan struct{}, 1)
	go p.run()
}

// publish makes s the current status and offers it to every subscriber.
func (p *publisher) publish(s Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur = s
	for _, ch := range p.subs {
		offer(ch, s)
	}
}

// offer sends s on ch, dropping the oldest waiting status when ch is full.
// Only the publisher sends, under its lock, so the second send cannot block.
func offer(ch chan Status, s Status) {
	select {
	case ch <- s:
	default:
		select {
		case <-ch:
		default:
		}
		ch <- s
	}
}

// subscribe returns a channel that receives the current status now and
// every change after; it is closed when ctx ends or the node stops.
func (p *publisher) subscribe(ctx context.Context) <-chan Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan Status, subscriberBuffer)
	ch <- p.cur
	if p.closed {
		close(ch)
		return ch
	}
	p.subs = append(p.subs, ch)
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		defer p.mu.Unlock()
		if i := slices.Index(p.subs, ch); i >= 0 {
			p.subs = slices.Delete(p.subs, i, i+1)
			close(ch)
		}
	}()
	return ch
}

func (p *publisher) current() Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur
}

// call queues f for the callback goroutine.
func (p *publisher) call(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.queue = append(p.queue, f)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run calls the queued callbacks in order, until close.
func (p *publisher) run() {
	for range p.wake {
		for {
			p.mu.Lock()
			if len(p.queue) == 0 {
				p.mu.Unlock()
				break
			}
			f := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			f()
		}
	}
}

// close ends every subscription; queued callbacks still run.
func (p *publisher) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	for _, ch := range p.subs {
		close(ch)
	}
	p.subs = nil
	close(p.wake)
}
