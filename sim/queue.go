package sim

import "math/bits"

// eventKind is what a queued event does.
type eventKind uint8

const (
	evDeliver eventKind = iota // slot: message slab index; gen: link incarnation
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
type queue struct {
	last    int64
	buckets [65][]event
	head    int // events of buckets[0] before head have been popped
	n       int
}

func (q *queue) len() int { return q.n }

func (q *queue) push(e event) {
	b := bits.Len64(uint64(e.at ^ q.last))
	q.buckets[b] = append(q.buckets[b], e)
	q.n++
}

// pop removes and returns the earliest event. The queue must not be empty.
func (q *queue) pop() event {
	if q.head == len(q.buckets[0]) {
		q.refill()
	}
	e := q.buckets[0][q.head]
	q.head++
	q.n--
	return e
}

// peekTime returns the time of the earliest event. The queue must not be
// empty.
func (q *queue) peekTime() int64 {
	if q.head == len(q.buckets[0]) {
		q.refill()
	}
	return q.buckets[0][q.head].at
}

// refill moves the lowest non-empty bucket down around its minimum time.
func (q *queue) refill() {
	q.buckets[0] = q.buckets[0][:0]
	q.head = 0
	i := 1
	for len(q.buckets[i]) == 0 {
		i++
	}
	src := q.buckets[i]
	min := src[0].at
	for _, e := range src[1:] {
		if e.at < min {
			min = e.at
		}
	}
	q.last = min
	for _, e := range src {
		b := bits.Len64(uint64(e.at ^ min))
		q.buckets[b] = append(q.buckets[b], e)
	}
	q.buckets[i] = src[:0]
}
