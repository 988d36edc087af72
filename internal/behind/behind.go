// Package behind runs trace observers on a second core, behind the emitter.
//
// An observer that judges the run (the checker) costs the engine a cache
// miss or two on every event it reads, and nothing the engine does waits for
// its verdict. Behind it, the engine only writes each event the observers
// need into a batch, in 32 bytes; a goroutine reads the batches in order and
// hands the events to the observers, one at a time, in the order they were
// emitted: an observer sees exactly what it would have seen in line, and so
// reports exactly the same.
//
// Only the events the observers ask for are passed (keep), and message
// traffic (Sent, Delivered, Dropped) and timer expiries never are: they are
// most of a run's events and carry the largest fields. An earlier try that
// passed every event whole to every observer was slower than running them
// in line.
//
// It imports algo, trace and internal/batches, never sim or a driver
// (docs/architecture.md).
package behind

import (
	"fmt"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/batches"
	"github.com/electgo/elect/trace"
)

// batchLen is the number of events in a batch, and batchCount how many
// batches may exist: the emitter runs at most batchCount-1 batches ahead of
// the observers (64 MB), then waits for them. The checker's work comes in
// bursts (its first search of the whole network, 0.7 s on a million
// nodes), through which the engine runs on rather than wait.
const (
	batchLen   = 4096
	batchCount = 512
)

// slim is an event without the fields of message traffic, in 32 bytes:
// half a cache line to cross from one core to the other. word holds Value
// (NodeAdded, ValueChanged), the Index of a StatusChanged (with its Leader
// in leader and its State in state), or the number of a Reported event's
// Text in the Pipe's texts.
type slim struct {
	at     time.Duration
	word   uint64
	leader algo.NodeID
	node   algo.NodeID
	peer   algo.NodeID
	kind   trace.Kind
	state  algo.State
	flags  uint8 // moved, quiet
}

const (
	moved = 1 << iota
	quiet
)

func pack(e *trace.Event, texts *textStore) slim {
	s := slim{at: e.At, node: e.Node, peer: e.Peer, kind: e.Kind}
	switch e.Kind {
	case trace.StatusChanged:
		s.word = uint64(e.Status.Index.Num) | uint64(uint32(e.Status.Index.ID))<<32
		s.leader, s.state = e.Status.Leader, e.Status.State
	case trace.Reported, trace.Panicked, trace.Acted:
		s.word = texts.add(e.Text)
	default:
		s.word = uint64(e.Value)
	}
	if e.Moved {
		s.flags |= moved
	}
	if e.Quiescent {
		s.flags |= quiet
	}
	return s
}

func (s *slim) unpack(texts *textStore) trace.Event {
	e := trace.Event{At: s.at, Kind: s.kind, Node: s.node, Peer: s.peer, Moved: s.flags&moved != 0, Quiescent: s.flags&quiet != 0}
	switch s.kind {
	case trace.StatusChanged:
		e.Status = algo.Status{Leader: s.leader, State: s.state, Index: algo.Index{Num: uint32(s.word), ID: algo.NodeID(int32(s.word >> 32))}}
	case trace.Reported, trace.Panicked, trace.Acted:
		e.Text = texts.take(s.word)
	default:
		e.Value = int64(s.word)
	}
	return e
}

// textStore keeps the texts of Reported events, which are rare, from the
// emitter's goroutine until the observers' goroutine takes them, by number.
type textStore struct {
	mu    sync.Mutex
	next  uint64
	texts map[uint64]string
}

func (t *textStore) add(text string) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.texts == nil {
		t.texts = map[uint64]string{}
	}
	t.next++
	t.texts[t.next] = text
	return t.next
}

// take returns text number i and forgets it: each is read once.
func (t *textStore) take(i uint64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := t.texts[i]
	delete(t.texts, i)
	return text
}

// Pipe is a trace.Observer that passes the events kept to its observers on
// another goroutine. Wait must be called before the observers' results are
// read, and Close (or Wait) before the Pipe is dropped.
type Pipe struct {
	obs   []trace.Observer
	keep  [256]bool // by trace.Kind, a byte
	line  *batches.Line[slim]
	texts textStore
	done  chan any // the goroutine's panic, or nil, when it ends
	ended bool
	// announcing is set while the initial link_up events are skipped
	// (SkipInitialLinks) and none but they and node_added have come.
	announcing bool
}

// New starts a Pipe to obs (called in this order for each event), for the
// kinds of event keep accepts. keep must refuse message traffic and timer
// expiries (Sent, Delivered, Dropped, TimerFired).
func New(keep func(trace.Kind) bool, obs ...trace.Observer) *Pipe {
	p := &Pipe{obs: obs, line: batches.New[slim](batchLen, batchCount), done: make(chan any, 1)}
	for k := range 256 {
		p.keep[k] = keep(trace.Kind(k))
	}
	for _, k := range []trace.Kind{trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired} {
		if p.keep[k] {
			panic(fmt.Sprintf("behind: %s events cannot go behind", k))
		}
	}
	go p.run()
	return p
}

// Arrange passes the layout on to the observers that keep per-node state in
// it (trace.Arranger). The emitter calls it before the first event, so the
// observers have it before their goroutine hands them anything.
func (p *Pipe) Arrange(rank []int32) {
	for _, o := range p.obs {
		if a, ok := o.(trace.Arranger); ok {
			a.Arrange(rank)
		}
	}
}

// SkipInitialLinks leaves out the link_up events with which an emitter
// announces its network at time 0 (those before any event but link_up and
// node_added at 0), for observers that are given the network otherwise and
// skip them (check.Config.Network): on a large network they are most of the
// events that would cross. Called before the first event.
func (p *Pipe) SkipInitialLinks() { p.announcing = true }

// Observe adds e to the current batch if it is kept, and sends the batch
// on when it is full.
func (p *Pipe) Observe(e *trace.Event) {
	if p.announcing {
		switch {
		case e.At != 0 || e.Kind != trace.LinkUp && e.Kind != trace.NodeAdded:
			p.announcing = false
		case e.Kind == trace.LinkUp:
			return
		}
	}
	if !p.keep[e.Kind] {
		return
	}
	if !p.line.Put(pack(e, &p.texts)) {
		// The observers' goroutine died: its panic is theirs to report,
		// here, in the emitter's goroutine.
		p.ended = true
		panic(p.line.LeftWith())
	}
}

// run hands the batches' events to the observers until the line closes.
func (p *Pipe) run() {
	defer func() {
		v := batches.Recovered(recover())
		if v != nil {
			p.line.Leave(v)
		}
		p.done <- v
	}()
	var e trace.Event // one, reused: an event handed to observers escapes
	for {
		b, ok := p.line.Next()
		if !ok {
			return
		}
		for i := range b {
			e = b[i].unpack(&p.texts)
			for _, o := range p.obs {
				o.Observe(&e)
			}
		}
	}
}

// Wait hands the observers the events still in the current batch and
// returns once they have seen every event; a panic of theirs is raised
// here. The Pipe takes no event after it.
func (p *Pipe) Wait() {
	if p.ended {
		return
	}
	p.ended = true
	p.line.Close(nil)
	if v := <-p.done; v != nil {
		panic(v)
	}
}

// Close ends the Pipe (an emitter that failed): the observers' goroutine
// ends once it has handed over what it was given, and a panic of theirs is
// dropped.
func (p *Pipe) Close() {
	if p.ended {
		return
	}
	p.ended = true
	p.line.Close(nil)
	<-p.done
}
