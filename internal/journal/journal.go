// Package journal puts the events of a run of real nodes in time order and
// hands them to the observers (the checker, counters, a trace file), as the
// simulator's engine does: what `elect emulate` and `elect cluster` share.
//
// Events come from many goroutines: the driver's own actions (a kill, a
// restart, an election asked), stamped when it takes them, and the nodes'
// status changes, stamped by the nodes themselves (the same clock: one
// machine) but read a little later from their /status/stream (Watch). A
// Journal holds each event for a window before passing it on, so that a late
// reader still lands in order; an event later than that is passed on at the
// time of the last one passed (and counted in Late).
//
// It serves the drivers of real nodes (docs/architecture.md, layer 4): it
// imports trace, node and supervisor, and no driver.
package journal

import (
	"container/heap"
	"sync"
	"time"

	"github.com/electgo/elect/trace"
)

// Journal is a run's events on their way to its observers, in time order.
type Journal struct {
	mu        sync.Mutex
	window    time.Duration
	t0        time.Time
	q         eventHeap
	seq       uint64
	passed    time.Duration // the time of the last event passed on
	late      int
	observers []trace.Observer

	halt, halted chan struct{} // see Start
	stopOnce     sync.Once
}

type queued struct {
	e   trace.Event
	seq uint64 // ties keep the order of arrival
}

type eventHeap []queued

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].e.At != h[j].e.At {
		return h[i].e.At < h[j].e.At
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *eventHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// New is the journal of a run whose time 0 is t0: it holds events for
// window before passing them on to observers, in their order.
func New(t0 time.Time, window time.Duration, observers []trace.Observer) *Journal {
	return &Journal{t0: t0, window: window, observers: observers}
}

// Since is the run time of t.
func (j *Journal) Since(t time.Time) time.Duration { return t.Sub(j.t0) }

// Add queues an event; its At is its run time.
func (j *Journal) Add(e trace.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	heap.Push(&j.q, queued{e, j.seq})
}

// Pass hands on, in order, the events up to run time upTo.
func (j *Journal) Pass(upTo time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for len(j.q) > 0 && j.q[0].e.At <= upTo {
		q := heap.Pop(&j.q).(queued)
		e := q.e
		if e.At < j.passed {
			e.At = j.passed
			j.late++
		}
		j.passed = e.At
		for _, o := range j.observers {
			o.Observe(&e)
		}
	}
}

// Late counts the events passed on later than their time: at the time of
// an event passed before them.
func (j *Journal) Late() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.late
}

// Start passes events on as their window closes, on a goroutine of its
// own, until Stop.
func (j *Journal) Start() {
	j.halt, j.halted = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(j.halted)
		tick := time.NewTicker(j.window / 4)
		defer tick.Stop()
		for {
			select {
			case <-j.halt:
				return
			case now := <-tick.C:
				j.Pass(j.Since(now) - j.window)
			}
		}
	}()
}

// Stop ends what Start began and returns once it has ended; stopping
// twice is stopping once, and stopping a journal never started does
// nothing.
func (j *Journal) Stop() {
	if j.halt == nil {
		return
	}
	j.stopOnce.Do(func() { close(j.halt) })
	<-j.halted
}

// End passes every event left up to run time at (an event at exactly at
// included), then an End event at at, and keeps what is later.
func (j *Journal) End(at time.Duration) {
	j.Pass(at)
	j.mu.Lock()
	j.seq++
	heap.Push(&j.q, queued{trace.Event{At: at, Kind: trace.End, Peer: -1}, j.seq})
	j.mu.Unlock()
	j.Pass(at)
}

// Header is h, the header of a run's trace, as a run of real nodes writes
// it: less what concerns messages, of which real nodes' traces hold no
// events (no message bound applies).
func Header(h trace.Header) trace.Header {
	h.MessageBound, h.MaxDelay = "", 0
	return h
}
