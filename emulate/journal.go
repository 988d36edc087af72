package emulate

import (
	"container/heap"
	"sync"
	"time"

	"github.com/electgo/elect/trace"
)

// journal puts the emulated run's events in time order and hands them to
// the observers (the checker, the counters, a trace file), as the
// simulator's engine does. Events come from many goroutines: the
// emulator's own actions, stamped when it takes them, and the nodes'
// status changes, stamped by the nodes themselves (the same clock: one
// machine) but read a little later. The journal holds each event for
// window before passing it on, so that a late reader still lands in order;
// an event later than that is passed on at the time of the last one passed
// (and counted in late).
type journal struct {
	mu        sync.Mutex
	window    time.Duration
	t0        time.Time
	q         eventHeap
	seq       uint64
	passed    time.Duration // the time of the last event passed on
	late      int
	observers []trace.Observer

	halt, halted chan struct{} // see start
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

func newJournal(t0 time.Time, window time.Duration, observers []trace.Observer) *journal {
	return &journal{t0: t0, window: window, observers: observers}
}

// since is the run time of t.
func (j *journal) since(t time.Time) time.Duration { return t.Sub(j.t0) }

// add queues an event; its At is its run time.
func (j *journal) add(e trace.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	heap.Push(&j.q, queued{e, j.seq})
}

// pass hands on, in order, the events up to run time upTo.
func (j *journal) pass(upTo time.Duration) {
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

// start passes events on as their window closes, on a goroutine of its
// own, until stop.
func (j *journal) start() {
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
				j.pass(j.since(now) - j.window)
			}
		}
	}()
}

// stop ends what start began and returns once it has ended; stopping
// twice is stopping once.
func (j *journal) stop() {
	j.stopOnce.Do(func() { close(j.halt) })
	<-j.halted
}

// end passes every event left and closes the run at run time at.
func (j *journal) end(at time.Duration) {
	j.pass(at)
	j.mu.Lock()
	j.seq++
	heap.Push(&j.q, queued{trace.Event{At: at, Kind: trace.End, Peer: -1}, j.seq})
	j.mu.Unlock()
	j.pass(at)
}
