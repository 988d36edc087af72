package sim

import "math/bits"

// eventKind is what a queued event does.
type eventKind uint8

const (
	evDeliver eventKind = iota // slot: message slab index; gen: link removals at sending
	evTimer                    // slot: timer number; gen: timer generation
	evAction                   // slot: index into the timeline
	evMove                     // the motion's next change (Engine.change)
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

// queue is a radix heap: a monotone priority queue for virtual time. Simulated
// time never goes backwards (every event is scheduled at or after the time of
// the last one taken out), which lets it replace a binary heap's O(log n)
// sift with buckets by the highest bit in which an event's time differs from
// the last time taken out: push is O(1), and an event moves down at most 64
// buckets over its life (in practice two or three).
//
// Ties are broken by insertion order, which is the (time, sequence) order the
// simulator promises: every bucket holds its events in insertion order (pushes
// append; a bucket is only refilled from a higher one when it and every
// bucket below are empty, and refilling preserves order), so bucket 0, whose
// events all share the same time, pops them first in, first out.
//
// Buckets are chains of fixed-size blocks drawn from a free list, not slices
// grown by append. A wave fills a bucket with millions of events and then
// empties it, and which buckets fill changes from one refill to the next:
// growing slices copied every event again at each doubling, in every bucket
// that grew (half the queue's time on a 1M-node run), and left the old
// arrays as garbage. Blocks are filled once, never copied, and reused as
// soon as they are emptied.
type queue struct {
	last    int64
	buckets [65]bucket
	head    int // events of buckets[0]'s first block before head have been popped
	n       int
	free    *block // emptied blocks, for reuse
}

// blockLen is the events a block holds: 24 KiB, large enough that following
// the chain costs nothing, small enough that a bucket holding a few events
// wastes little.
const blockLen = 1024

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

func (q *queue) len() int { return q.n }

func (q *queue) newBlock() *block {
	bl := q.free
	if bl == nil {
		return new(block)
	}
	q.free = bl.next
	bl.next = nil
	return bl
}

// release returns a chain of emptied blocks to the free list.
func (q *queue) release(first, last *block) {
	last.next = q.free
	q.free = first
}

func (q *queue) add(b *bucket, e event) {
	if b.last == nil {
		bl := q.newBlock()
		b.first, b.last, b.tail = bl, bl, 0
	} else if b.tail == blockLen {
		bl := q.newBlock()
		b.last.next = bl
		b.last, b.tail = bl, 0
	}
	b.last.ev[b.tail] = e
	b.tail++
}

func (q *queue) push(e event) {
	q.add(&q.buckets[bits.Len64(uint64(e.at^q.last))], e)
	q.n++
}

// pop removes and returns the earliest event. The queue must not be empty.
func (q *queue) pop() event {
	b := &q.buckets[0]
	if b.empty() {
		q.refill()
	}
	bl := b.first
	e := bl.ev[q.head]
	q.head++
	if bl == b.last {
		if q.head == b.tail {
			// Bucket 0 is empty: its block goes back for reuse.
			b.first, b.last = nil, nil
			q.release(bl, bl)
			q.head = 0
		}
	} else if q.head == blockLen {
		b.first = bl.next
		q.release(bl, bl)
		q.head = 0
	}
	q.n--
	return e
}

// peekTime returns the time of the earliest event. The queue must not be
// empty.
func (q *queue) peekTime() int64 {
	if q.buckets[0].empty() {
		q.refill()
	}
	return q.buckets[0].first.ev[q.head].at
}

// refill moves the lowest non-empty bucket down around its minimum time.
// Bucket 0 must be empty.
func (q *queue) refill() {
	i := 1
	for q.buckets[i].empty() {
		i++
	}
	src := q.buckets[i]
	q.buckets[i] = bucket{}
	min := src.first.ev[0].at
	for bl := src.first; bl != nil; bl = bl.next {
		n := blockLen
		if bl == src.last {
			n = src.tail
		}
		for _, e := range bl.ev[:n] {
			if e.at < min {
				min = e.at
			}
		}
	}
	q.last = min
	for bl := src.first; bl != nil; bl = bl.next {
		n := blockLen
		if bl == src.last {
			n = src.tail
		}
		for _, e := range bl.ev[:n] {
			q.add(&q.buckets[bits.Len64(uint64(e.at^min))], e)
		}
	}
	q.release(src.first, src.last)
}
