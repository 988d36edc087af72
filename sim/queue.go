package sim

import (
	"cmp"
	"math/bits"
	"slices"
)

// eventKind is what a queued event does.
type eventKind uint8

const (
	evDeliver     eventKind = iota // slot: the message's slot in the flights; gen: link removals at sending (low 32 bits)
	evTimer                        // slot: timer number; gen: timer generation
	evAction                       // slot: index into the timeline
	evMove                         // the motion's next change (Engine.change)
	evBroadcast                    // node: the sender's record; slot as evDeliver (the links' since say who heard it)
	evLateDeliver                  // a message a slow node handles late (gray.go): node: its record; slot as evDeliver; gen: the node's crashes then
	evLateTimer                    // a timer's expiry a slow node handles late: as evTimer
	evValues                       // the value model's next step (valuemodel.go)
)

// event is one entry of the queue. It is kept small (24 bytes) because the
// queue holds every message in flight: millions in a large wave.
type event struct {
	at   int64
	node int32
	gen  uint32
	slot int32
	kind eventKind
}

// queue is the event queue: it hands events out in (time, insertion
// sequence) order, the order the simulator promises, given that no event is
// pushed earlier than the last one taken out (simulated time never goes
// backwards).
//
// It has two parts. The near future, where messages land (a few
// milliseconds ahead), is a wheel of slots of 2^wheelBits ns each: an event
// is appended to its slot, and a slot is sorted by time (stably, so that
// ties keep insertion order) when the clock reaches it. Under constant
// delays a slot is already in order and is only checked. Everything beyond
// the wheel (timers, scheduled faults) waits in a radix heap, the far
// future, and moves into its slot when the wheel comes within reach of it.
//
// A radix heap alone, as the engine had, moved each event down through its
// buckets several times before it came out: once or twice under constant
// delays, where times tie, and around eight times under random ones, where
// nanosecond times never tie, each move a pass over the bucket.
//
// Why the order holds: an event of the far future moves into slot s when s
// enters the wheel, and from then on every event at a time of s is pushed
// into s directly. So a slot holds first the events that came from the far
// future, in (time, sequence) order, then the events pushed into it, in
// sequence order, all later in sequence than those before them; a stable
// sort by time then gives (time, sequence) order. The slot being taken out
// is kept sorted: an event pushed into it, the latest in sequence, goes
// after every event of the same or an earlier time.
//
// The slot being taken out is either left in its blocks (chain), when it
// was in order already, or copied out and sorted (cur).
type queue struct {
	n    int
	base int64 // start of the slot being taken out; a multiple of the slot length
	// chain holds the slot being taken out when it came in order; its
	// events before head have been taken out. Otherwise chain is empty and
	// the slot is cur.
	chain bucket
	cur   []event
	head  int // events of chain's first block, or of cur, taken out
	slots [wheelSlots]bucket
	// used has bit i set when slots[i] holds events.
	used [wheelSlots / 64]uint64
	far  radix
	pool pool
	tmp  []event // room for sorting a slot
}

const (
	// wheelBits sets the slot length: 2^16 ns, 65.5 µs. Random delays of
	// milliseconds then put a few to a few hundred events in a slot.
	wheelBits = 16
	// wheelSlots is the wheel's size: 256 slots, 16.8 ms, beyond the
	// message delays of the usual scenarios.
	wheelSlots = 256
	wheelSpan  = wheelSlots << wheelBits
)

func (q *queue) len() int { return q.n }

// end is the first time beyond the wheel: events from end on go to the far
// future.
func (q *queue) end() int64 { return q.base + wheelSpan }

func (q *queue) push(e event) {
	q.n++
	switch {
	case e.at < q.base+1<<wheelBits:
		q.pushCur(e)
	case e.at < q.end():
		i := int(e.at>>wheelBits) & (wheelSlots - 1)
		q.pool.add(&q.slots[i], e)
		q.used[i/64] |= 1 << (i % 64)
	default:
		q.far.push(e, &q.pool)
	}
}

// pushCur adds an event to the slot being taken out: after every event of
// the same or an earlier time.
func (q *queue) pushCur(e event) {
	if c := &q.chain; !c.empty() {
		if c.last.ev[c.tail-1].at <= e.at {
			q.pool.add(c, e) // the usual case: at the end
			return
		}
		// Out of order: copy what is left of the chain out, to insert.
		q.cur = q.pool.take(c, q.head, q.cur[:0])
		q.head = 0
	}
	if k := len(q.cur); k == q.head || q.cur[k-1].at <= e.at {
		q.cur = append(q.cur, e)
		return
	}
	i, _ := slices.BinarySearchFunc(q.cur[q.head:], e.at+1, func(x event, t int64) int { return cmp.Compare(x.at, t) })
	q.cur = slices.Insert(q.cur, q.head+i, e)
}

// pop removes and returns the earliest event. The queue must not be empty.
func (q *queue) pop() event {
	if q.chain.empty() && q.head == len(q.cur) {
		q.advance()
	}
	q.n--
	if c := &q.chain; !c.empty() {
		bl := c.first
		e := bl.ev[q.head]
		q.head++
		if bl == c.last {
			if q.head == c.tail {
				q.pool.release(bl, bl)
				*c = bucket{}
				q.head = 0
			}
		} else if q.head == blockLen {
			c.first = bl.next
			q.pool.release(bl, bl)
			q.head = 0
		}
		return e
	}
	e := q.cur[q.head]
	q.head++
	return e
}

// next returns the event that pop would return, if it lies in the slot
// being taken out (nil otherwise): a look ahead, to prefetch what it needs.
func (q *queue) next() *event {
	if c := &q.chain; !c.empty() {
		return &c.first.ev[q.head]
	}
	if q.head < len(q.cur) {
		return &q.cur[q.head]
	}
	return nil
}

// peekTime returns the time of the earliest event. The queue must not be
// empty.
func (q *queue) peekTime() int64 {
	if q.chain.empty() && q.head == len(q.cur) {
		q.advance()
	}
	if c := &q.chain; !c.empty() {
		return c.first.ev[q.head].at
	}
	return q.cur[q.head].at
}

// advance moves the wheel on to the next slot that holds events, bringing
// in the events of the far future that come within its reach, and makes
// that slot the one taken out. The slot taken out must be empty, and the
// queue not.
func (q *queue) advance() {
	q.cur, q.head = q.cur[:0], 0
	if next, ok := q.nextUsed(); ok {
		q.base = next
	} else {
		// The wheel is empty: jump to the earliest event of the far future.
		q.base = q.far.min(&q.pool) &^ (1<<wheelBits - 1)
	}
	// Slots between the old end and the new one were empty (their places
	// on the wheel are those of the slots just passed): fill them.
	q.far.drainBelow(q.end(), &q.pool, func(e event) {
		i := int(e.at>>wheelBits) & (wheelSlots - 1)
		q.pool.add(&q.slots[i], e)
		q.used[i/64] |= 1 << (i % 64)
	})
	i := int(q.base>>wheelBits) & (wheelSlots - 1)
	q.used[i/64] &^= 1 << (i % 64)
	if q.slots[i].inOrder() {
		q.chain, q.slots[i] = q.slots[i], bucket{}
		return
	}
	q.cur = q.pool.take(&q.slots[i], 0, q.cur)
	q.sortSlot()
}

// sortSlot sorts cur, one slot's events, by time, stably. A slot of a few
// events is sorted by insertion and a larger one by a radix sort on the
// time within the slot (16 bits, two passes of a byte), which is stable and
// linear: thousands of events share a slot under random delays on large
// networks.
func (q *queue) sortSlot() {
	ev := q.cur
	if len(ev) <= 32 {
		for i := 1; i < len(ev); i++ {
			for j := i; j > 0 && ev[j].at < ev[j-1].at; j-- {
				ev[j], ev[j-1] = ev[j-1], ev[j]
			}
		}
		return
	}
	q.tmp = slices.Grow(q.tmp[:0], len(ev))[:len(ev)]
	radixPass(ev, q.tmp, 0)
	radixPass(q.tmp, ev, 8)
}

// radixPass moves src into dst in stable order of byte shift/8 of each
// event's time (its time within the slot: the slot length is 2^16).
func radixPass(src, dst []event, shift uint) {
	var count [257]int
	for _, e := range src {
		count[int(uint8(e.at>>shift))+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	for _, e := range src {
		b := uint8(e.at >> shift)
		dst[count[b]] = e
		count[b]++
	}
}

// nextUsed returns the start of the first slot after base that holds
// events, if any.
func (q *queue) nextUsed() (int64, bool) {
	from := int(q.base>>wheelBits)&(wheelSlots-1) + 1 // wheel position after base
	for k := 0; k < wheelSlots-1; {
		i := (from + k) & (wheelSlots - 1)
		w := q.used[i/64] >> (i % 64)
		if w == 0 {
			k += 64 - i%64
			continue
		}
		k += bits.TrailingZeros64(w)
		if k >= wheelSlots-1 {
			break
		}
		return q.base + int64(k+1)<<wheelBits, true
	}
	return 0, false
}

// radix is a radix heap: a monotone priority queue. Events are kept in
// buckets by the highest bit in which their time differs from last, a time
// no later than any of them: push is O(1), and an event moves down at most
// 64 buckets over its life. Every bucket keeps its events in insertion order
// (pushes append; a bucket is only refilled from a higher one when it and
// every bucket below are empty, and refilling preserves order), so events
// come out in (time, insertion) order.
type radix struct {
	last    int64
	buckets [65]bucket
}

// push adds an event. Its time must not be before last.
func (r *radix) push(e event, p *pool) {
	p.add(&r.buckets[bits.Len64(uint64(e.at^r.last))], e)
}

// min returns the earliest time held, bringing its events down to bucket 0.
// The heap must not be empty.
func (r *radix) min(p *pool) int64 {
	if r.buckets[0].empty() {
		i := 1
		for r.buckets[i].empty() {
			i++
		}
		r.refill(i, r.bucketMin(i), p)
	}
	return r.last
}

// drainBelow hands every event earlier than limit to f, in (time,
// insertion) order, and leaves last at or before limit, so that any time
// from limit on may still be pushed.
func (r *radix) drainBelow(limit int64, p *pool, f func(event)) {
	for {
		if !r.buckets[0].empty() {
			if r.last >= limit {
				return
			}
			p.drain(&r.buckets[0], f)
		}
		i := 1
		for i < len(r.buckets) && r.buckets[i].empty() {
			i++
		}
		if i == len(r.buckets) {
			return
		}
		// Every event of bucket i shares last's bits above bit i-1 and has
		// bit i-1 set.
		if lo := r.last&^(1<<(i-1)-1) | 1<<(i-1); lo >= limit {
			return
		}
		// Refill around a pivot no later than limit: any time between last
		// and the bucket's minimum shares the bits above bit i-1 that place
		// the other buckets, so they stay where they are.
		r.refill(i, min(r.bucketMin(i), limit), p)
	}
}

// bucketMin returns the earliest time in bucket i.
func (r *radix) bucketMin(i int) int64 {
	b := &r.buckets[i]
	m := b.first.ev[0].at
	for bl := b.first; bl != nil; bl = bl.next {
		for _, e := range b.in(bl) {
			m = min(m, e.at)
		}
	}
	return m
}

// refill redistributes bucket i around pivot, which must lie between last
// and the bucket's earliest time, and makes pivot the new last.
func (r *radix) refill(i int, pivot int64, p *pool) {
	src := r.buckets[i]
	r.buckets[i] = bucket{}
	r.last = pivot
	for bl := src.first; bl != nil; bl = bl.next {
		for _, e := range src.in(bl) {
			p.add(&r.buckets[bits.Len64(uint64(e.at^pivot))], e)
		}
	}
	p.release(src.first, src.last)
}

// Buckets and slots are chains of fixed-size blocks drawn from a pool, not
// slices grown by append. A wave fills a bucket with millions of events and
// then empties it, and which buckets fill changes all the time: growing
// slices copied every event again at each doubling, in every bucket that
// grew (half the queue's time on a 1M-node run), and left the old arrays as
// garbage. Blocks are filled once, never copied, and reused as soon as they
// are emptied.

// blockLen is the events a block holds: 6 KiB, large enough that following
// the chain costs nothing, small enough that the wheel's slots, each with a
// block partly filled, stay within a few megabytes.
const blockLen = 256

type block struct {
	ev   [blockLen]event
	next *block
}

// bucket is a chain of blocks, oldest first; every block but the last is
// full.
type bucket struct {
	first, last *block
	tail        int // events in the last block
}

func (b *bucket) empty() bool { return b.first == nil }

// in returns the events held in bl, one of b's blocks.
func (b *bucket) in(bl *block) []event {
	if bl == b.last {
		return bl.ev[:b.tail]
	}
	return bl.ev[:]
}

// pool hands out blocks and takes back emptied ones.
type pool struct{ free *block }

func (p *pool) get() *block {
	bl := p.free
	if bl == nil {
		return new(block)
	}
	p.free = bl.next
	bl.next = nil
	return bl
}

// release takes back a chain of blocks.
func (p *pool) release(first, last *block) {
	last.next = p.free
	p.free = first
}

func (p *pool) add(b *bucket, e event) {
	if b.last == nil {
		bl := p.get()
		b.first, b.last, b.tail = bl, bl, 0
	} else if b.tail == blockLen {
		bl := p.get()
		b.last.next = bl
		b.last, b.tail = bl, 0
	}
	b.last.ev[b.tail] = e
	b.tail++
}

// inOrder reports whether b's events are in order of time.
func (b *bucket) inOrder() bool {
	prev := b.first.ev[0].at
	for bl := b.first; bl != nil; bl = bl.next {
		for _, e := range b.in(bl) {
			if e.at < prev {
				return false
			}
			prev = e.at
		}
	}
	return true
}

// take appends b's events, but for the first skip of them, to dst, empties
// b, and returns dst.
func (p *pool) take(b *bucket, skip int, dst []event) []event {
	if b.empty() {
		return dst
	}
	for bl := b.first; bl != nil; bl = bl.next {
		dst = append(dst, b.in(bl)[skip:]...)
		skip = 0
	}
	p.release(b.first, b.last)
	*b = bucket{}
	return dst
}

// drain hands b's events to f, in order, and empties b.
func (p *pool) drain(b *bucket, f func(event)) {
	src := *b
	*b = bucket{}
	for bl := src.first; bl != nil; bl = bl.next {
		for _, e := range src.in(bl) {
			f(e)
		}
	}
	p.release(src.first, src.last)
}
