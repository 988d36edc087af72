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
package behind

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// batchLen is the number of events in a batch, and batches how many batches
// exist: the emitter runs at most batches-1 batches ahead of the
// observers, then waits for them.
const (
	batchLen = 4096
	batches  = 4
)

// slim is an event without the fields of message traffic, in 32 bytes:
// half a cache line to cross from one core to the other. word holds Value
// (NodeAdded, ValueChanged), the Index of a StatusChanged (with its Leader
// in leader and its State in state), or the place of Text in the batch's
// texts (Reported).
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

func pack(e *trace.Event, texts *[]string) slim {
	s := slim{at: e.At, node: e.Node, peer: e.Peer, kind: e.Kind}
	switch e.Kind {
	case trace.StatusChanged:
		s.word = uint64(e.Status.Index.Num) | uint64(uint32(e.Status.Index.ID))<<32
		s.leader, s.state = e.Status.Leader, e.Status.State
	case trace.Reported:
		s.word = uint64(len(*texts))
		*texts = append(*texts, e.Text)
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

func (s *slim) unpack(texts []string) trace.Event {
	e := trace.Event{At: s.at, Kind: s.kind, Node: s.node, Peer: s.peer, Moved: s.flags&moved != 0, Quiescent: s.flags&quiet != 0}
	switch s.kind {
	case trace.StatusChanged:
		e.Status = algo.Status{Leader: s.leader, State: s.state, Index: algo.Index{Num: uint32(s.word), ID: algo.NodeID(int32(s.word >> 32))}}
	case trace.Reported:
		e.Text = texts[s.word]
	default:
		e.Value = int64(s.word)
	}
	return e
}

type batch struct {
	events []slim
	texts  []string
}

// Pipe is a trace.Observer that passes the events kept to its observers on
// another goroutine. Wait must be called before the observers' results are
// read, and Close (or Wait) before the Pipe is dropped.
type Pipe struct {
	obs   []trace.Observer
	keep  [256]bool // by trace.Kind, a byte
	cur   *batch
	full  chan *batch
	free  chan *batch
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
	p := &Pipe{
		obs:  obs,
		full: make(chan *batch, batches),
		free: make(chan *batch, batches),
		done: make(chan any, 1),
	}
	for k := range 256 {
		p.keep[k] = keep(trace.Kind(k))
	}
	for _, k := range []trace.Kind{trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired} {
		if p.keep[k] {
			panic(fmt.Sprintf("behind: %s events cannot go behind", k))
		}
	}
	for range batches - 1 {
		p.free <- &batch{events: make([]slim, 0, batchLen)}
	}
	p.cur = &batch{events: make([]slim, 0, batchLen)}
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
	b := p.cur
	b.events = append(b.events, pack(e, &b.texts))
	if len(b.events) == batchLen {
		p.send()
	}
}

// send hands the current batch to the goroutine and takes a free one.
func (p *Pipe) send() {
	p.full <- p.cur
	select {
	case p.cur = <-p.free:
	case v := <-p.done:
		// The observers' goroutine died: its panic is theirs to report,
		// here, in the emitter's goroutine.
		p.ended = true
		panic(v)
	}
}

// run hands the batches' events to the observers until the Pipe closes.
func (p *Pipe) run() {
	defer func() { p.done <- recover() }()
	var e trace.Event
	for b := range p.full {
		for i := range b.events {
			e = b.events[i].unpack(b.texts)
			for _, o := range p.obs {
				o.Observe(&e)
			}
		}
		b.events, b.texts = b.events[:0], b.texts[:0]
		p.free <- b
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
	if len(p.cur.events) > 0 {
		p.full <- p.cur
	}
	close(p.full)
	if v := <-p.done; v != nil {
		panic(v)
	}
}

// Close stops the Pipe where it is (an emitter that failed): the observers
// see no more events, and their goroutine ends.
func (p *Pipe) Close() {
	if p.ended {
		return
	}
	p.ended = true
	close(p.full)
	<-p.done
}
