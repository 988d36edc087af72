package sim

import (
	"fmt"
	"runtime/debug"

	"github.com/electgo/elect/trace"
)

// pipe runs the trace hash and the observers on a goroutine of their own, a
// batch of events behind the engine (Config.Pipeline). The engine fills a
// batch in place, as it would fill its one staging event, and hands it over
// when full; the other goroutine folds each event into the hash and passes
// it to every observer, in order, then hands the batch back. Events are
// values and a message's Peers and Data never change once sent
// (algo.Env.Send), so a batch read later reads what the engine wrote: the
// observers see the same events in the same order and the hash is the
// same, on a second core.
type pipe struct {
	batch []trace.Event // being filled by the engine
	full  chan []trace.Event
	free  chan []trace.Event
	done  chan struct{}
	hash  trace.Hasher // the consumer's until done is closed
	// failed is what an observer panicked with: the consumer then skips
	// the rest, and the engine panics with it when it stops (see stop).
	failed any
	closed bool
}

const (
	// pipeBatch events make a batch: 1,024 are about 180 KiB, enough that
	// a handover (two channel operations) is a small part of a batch's
	// work and few enough that batches in rotation stay in the caches.
	pipeBatch = 1024
	// pipeBatches are in rotation: one being filled, the others queued or
	// being observed.
	pipeBatches = 4
)

func newPipe(observers []trace.Observer, hash trace.Hasher) *pipe {
	p := &pipe{
		full: make(chan []trace.Event, pipeBatches),
		free: make(chan []trace.Event, pipeBatches),
		done: make(chan struct{}),
		hash: hash,
	}
	for range pipeBatches - 1 {
		p.free <- make([]trace.Event, 0, pipeBatch)
	}
	p.batch = make([]trace.Event, 0, pipeBatch)
	go p.observe(observers)
	return p
}

// next returns the next event of the batch to fill; the engine fills it and
// then calls sent.
func (p *pipe) next() *trace.Event {
	p.batch = p.batch[:len(p.batch)+1]
	return &p.batch[len(p.batch)-1]
}

// sent ends the event next returned: a full batch goes to the observers.
func (p *pipe) sent() {
	if len(p.batch) == pipeBatch {
		p.full <- p.batch
		p.batch = <-p.free
	}
}

// observe is the consumer: it runs until the engine closes full.
func (p *pipe) observe(observers []trace.Observer) {
	defer close(p.done)
	for b := range p.full {
		if p.failed == nil {
			p.run(b, observers)
		}
		clear(b) // let the collector have the messages' Peers and Data
		p.free <- b[:0]
	}
}

// run observes one batch, keeping a panic of an observer for the engine.
func (p *pipe) run(b []trace.Event, observers []trace.Observer) {
	defer func() {
		if r := recover(); r != nil {
			p.failed = fmt.Sprintf("%v\n\n(an observer's panic, behind the engine:)\n%s", r, debug.Stack())
		}
	}()
	for i := range b {
		ev := &b[i]
		p.hash.Add(ev)
		for _, o := range observers {
			o.Observe(ev)
		}
	}
}

// stop hands over the last batch, waits until every event is observed and
// returns the hash. An observer's panic comes out here, on the engine's
// goroutine, where a caller can recover it as it would without the pipe.
func (p *pipe) stop() trace.Hasher {
	if !p.closed {
		p.closed = true
		if len(p.batch) > 0 {
			p.full <- p.batch
		}
		close(p.full)
	}
	<-p.done
	if p.failed != nil {
		panic(p.failed)
	}
	return p.hash
}

// abandon lets the consumer go when the engine stops without stop (it
// panicked): the batches queued are still observed, the rest dropped.
func (p *pipe) abandon() {
	if !p.closed {
		p.closed = true
		close(p.full)
	}
}
