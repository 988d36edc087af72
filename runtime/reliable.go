package runtime

import (
	"time"
)

// Reliable is a reliable FIFO link to one neighbour over datagrams that may
// be lost, duplicated and reordered: what the algorithms whose model assumes
// reliable FIFO links need under them on a real network (issue 19), the way
// TCP gives it over IP. Each message travels in a numbered frame; the
// receiver delivers frames in number order, each once, holding back those
// that arrive early, and acknowledges cumulatively (every frame below Ack
// has arrived), on its own frames where it has any to send and on a bare
// acknowledgement otherwise. The sender keeps at most Window frames
// unacknowledged, queues the rest, and sends a frame again when its
// acknowledgement is late, waiting twice as long each time (from RTO up to
// MaxRTO); a frame sent Tries times without an acknowledgement fails the
// link, which its owner reports as the neighbour going down.
//
// A Reliable is a pure state machine: the time comes in as an argument, the
// frames to transmit come out, and nothing here reads a clock, sleeps or
// touches a socket, so that tests drive it through any schedule of loss and
// delay, exactly.
//
// Each side of a link numbers its frames from 0 in an epoch of its own (a
// node takes a higher one at each start): a frame from a higher epoch of
// the neighbour means it restarted, and the link starts over in both
// directions, as a crash loses what was in flight. The neighbour learns of
// our restart the same way, from our next frame, a bare acknowledgement
// at the latest: until then its frames, numbered for our earlier life, are
// beyond our window and dropped.
type Reliable[T any] struct {
	cfg   ReliableConfig
	epoch uint64 // ours

	// Sending: frames numbered from 0 in this epoch. inFlight holds the
	// unacknowledged ones in order, waiting those the window holds back.
	next     uint32
	inFlight []pending[T]
	waiting  []T

	// Receiving: the neighbour's epoch (known once a frame came), the next
	// number to deliver, the frames that came ahead of it, and whether an
	// acknowledgement is owed.
	theirs  uint64
	known   bool
	expect  uint32
	early   map[uint32]T
	ackOwed bool

	failed bool
	stats  ReliableStats
}

// ReliableConfig bounds a Reliable's sending.
type ReliableConfig struct {
	Window int           // frames unacknowledged at most
	RTO    time.Duration // the first wait for an acknowledgement
	MaxRTO time.Duration // the longest wait, which doubling stops at
	Tries  int           // transmissions of one frame before the link fails
}

// DefaultReliable suits a LAN or an emulated network: a lost frame is sent
// again after 200 ms, then 400 ms, 800 ms and every 1.6 s, and the link
// fails after 12 transmissions (about 16 s without an acknowledgement).
// At 20% loss each way, and losses independent, a transmission goes
// unanswered with probability 1-0.8² = 0.36 at most (a later frame's
// acknowledgement can stand for a lost one), and twelve in a row with
// 0.36¹² ≈ 5·10⁻⁶: a computed bound, not a measured rate.
var DefaultReliable = ReliableConfig{Window: 64, RTO: 200 * time.Millisecond, MaxRTO: 1600 * time.Millisecond, Tries: 12}

// ReliableStats counts a link's work apart from the algorithm's messages,
// so that a comparison with the simulator compares like with like.
type ReliableStats struct {
	Sent        uint64 // frames carrying a message, first transmissions
	Retransmits uint64 // frames carrying a message, sent again
	Acks        uint64 // bare acknowledgements sent
	Duplicates  uint64 // frames received that were delivered already
	Early       uint64 // frames received ahead of their turn, held back
}

// Frame is what a Reliable transmits: a message (Data) numbered Seq, or a
// bare acknowledgement. Every frame acknowledges the neighbour's frames
// below Ack in its epoch Theirs (zero before one came).
type Frame[T any] struct {
	FrameHeader
	Payload T // the message, when Data
}

// FrameHeader is a frame's numbers.
type FrameHeader struct {
	Epoch  uint64 // the sender's
	Theirs uint64 // the epoch Ack refers to
	Ack    uint32
	Seq    uint32
	Data   bool
}

type pending[T any] struct {
	seq     uint32
	payload T
	due     time.Time // when it is sent again
	rto     time.Duration
	tries   int
}

// NewReliable returns a link that numbers its frames in epoch, carrying
// messages of type T.
func NewReliable[T any](cfg ReliableConfig, epoch uint64) *Reliable[T] {
	return &Reliable[T]{cfg: cfg, epoch: epoch}
}

// Send queues a message and returns the frames to transmit now: the
// message's own, unless the window is full.
func (r *Reliable[T]) Send(payload T, now time.Time) []Frame[T] {
	r.waiting = append(r.waiting, payload)
	return r.fill(now, nil)
}

// fill moves waiting messages into the window, appending their frames to
// out.
func (r *Reliable[T]) fill(now time.Time, out []Frame[T]) []Frame[T] {
	for len(r.waiting) > 0 && len(r.inFlight) < r.cfg.Window {
		p := pending[T]{seq: r.next, payload: r.waiting[0], due: now.Add(r.cfg.RTO), rto: r.cfg.RTO, tries: 1}
		r.waiting = r.waiting[1:]
		r.next++
		r.inFlight = append(r.inFlight, p)
		r.stats.Sent++
		out = append(out, r.frame(p))
	}
	if len(out) > 0 {
		r.ackOwed = false // the frames carry it
	}
	return out
}

func (r *Reliable[T]) frame(p pending[T]) Frame[T] {
	return Frame[T]{FrameHeader{Epoch: r.epoch, Theirs: r.theirs, Ack: r.expect, Seq: p.seq, Data: true}, p.payload}
}

// Receive takes a frame from the neighbour. It returns the messages now
// deliverable, in order, and the frames to transmit: those the
// acknowledgement let into the window, or a bare acknowledgement if a
// message came and nothing else goes back.
func (r *Reliable[T]) Receive(f Frame[T], now time.Time) (deliver []T, out []Frame[T]) {
	switch {
	case !r.known:
		r.theirs, r.known = f.Epoch, true // first contact: what we sent stands
	case f.Epoch < r.theirs:
		return nil, nil // a frame of an earlier life of the neighbour
	case f.Epoch > r.theirs:
		r.restart(f.Epoch)
	}
	if f.Theirs == r.epoch {
		r.acknowledged(f.Ack)
	}
	if f.Data {
		deliver = r.accept(f)
	}
	out = r.fill(now, nil)
	if r.ackOwed {
		r.ackOwed = false
		r.stats.Acks++
		out = append(out, Frame[T]{FrameHeader: FrameHeader{Epoch: r.epoch, Theirs: r.theirs, Ack: r.expect}})
	}
	return deliver, out
}

// restart starts the link over for a new epoch of the neighbour: what was
// in flight either way belonged to its earlier life.
func (r *Reliable[T]) restart(theirs uint64) {
	r.theirs, r.known = theirs, true
	r.expect, r.early, r.ackOwed = 0, nil, false
	r.next, r.inFlight, r.waiting = 0, nil, nil
}

// acknowledged drops the frames below ack from the window.
func (r *Reliable[T]) acknowledged(ack uint32) {
	i := 0
	for i < len(r.inFlight) && r.inFlight[i].seq < ack {
		i++
	}
	r.inFlight = r.inFlight[i:]
}

// accept takes a data frame: it delivers it and the frames held back after
// it if it is the next, holds it back if it is early, and drops it if it
// was delivered already. An acknowledgement is owed either way.
func (r *Reliable[T]) accept(f Frame[T]) []T {
	r.ackOwed = true
	switch {
	case f.Seq < r.expect:
		r.stats.Duplicates++
		return nil
	case f.Seq > r.expect:
		if f.Seq-r.expect > uint32(max(r.cfg.Window, 1)) {
			return nil // beyond any window: not from this epoch's sender
		}
		if r.early == nil {
			r.early = map[uint32]T{}
		}
		if _, dup := r.early[f.Seq]; dup {
			r.stats.Duplicates++
		} else {
			r.early[f.Seq] = f.Payload
			r.stats.Early++
		}
		return nil
	}
	deliver := []T{f.Payload}
	r.expect++
	for {
		p, ok := r.early[r.expect]
		if !ok {
			return deliver
		}
		delete(r.early, r.expect)
		deliver = append(deliver, p)
		r.expect++
	}
}

// Tick sends again the frames whose acknowledgement is late at now, and
// returns them; once a frame has been sent Tries times without one, the
// link has failed (Failed), and Tick returns nothing more.
func (r *Reliable[T]) Tick(now time.Time) []Frame[T] {
	if r.failed {
		return nil
	}
	var out []Frame[T]
	for i := range r.inFlight {
		p := &r.inFlight[i]
		if now.Before(p.due) {
			continue
		}
		if p.tries >= r.cfg.Tries {
			r.failed = true
			return nil
		}
		p.tries++
		p.rto = min(2*p.rto, r.cfg.MaxRTO)
		p.due = now.Add(p.rto)
		r.stats.Retransmits++
		out = append(out, r.frame(*p))
	}
	if len(out) > 0 {
		r.ackOwed = false
	}
	return out
}

// Next is when Tick has something to do next; false when nothing waits for
// an acknowledgement.
func (r *Reliable[T]) Next() (time.Time, bool) {
	if r.failed || len(r.inFlight) == 0 {
		return time.Time{}, false
	}
	next := r.inFlight[0].due
	for _, p := range r.inFlight[1:] {
		if p.due.Before(next) {
			next = p.due
		}
	}
	return next, true
}

// Settled reports whether every message sent so far has been acknowledged:
// none in flight, none held back by the window. A synchronizer's pulse
// ends when its links are settled.
func (r *Reliable[T]) Settled() bool { return len(r.inFlight) == 0 && len(r.waiting) == 0 }

// Failed reports whether a frame went unacknowledged Tries times.
func (r *Reliable[T]) Failed() bool { return r.failed }

// Stats returns the link's counts so far.
func (r *Reliable[T]) Stats() ReliableStats { return r.stats }
