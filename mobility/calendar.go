package mobility

import "time"

// wakeup is a pair, a < b, to look at again. ta and tb are the turns of a
// and b when it was scheduled: once either node has turned since, the pair
// has been looked at again (or is cells apart, where it cannot change), and
// the wake-up is stale.
type wakeup struct {
	a, b   int32
	ta, tb uint32
}

// calendar holds the wake-ups in buckets of one window length each, in a
// ring: a window takes every bucket up to the one its end falls in, and
// looks at those pairs, which may be a little early (a window that does not
// end on a bucket's end) but never late. A wake-up further away than the
// ring waits in its last bucket, and the pair is looked at then, early, and
// scheduled again.
//
// A bucket is a chain of fixed chunks, which go back to a common pool once
// taken: a bucket never grows by copying, and nothing is allocated once the
// pool covers the wake-ups pending.
type calendar struct {
	win    time.Duration
	ring   []bucket
	done   int64 // every bucket up to done has been taken
	chunks []*chunk
	next   []int32 // per chunk, the next one in its bucket or in the pool
	free   int32   // the first chunk of the pool (-1: none)
}

type chunk [chunkSize]wakeup

// bucket is a chain of chunks from head to tail, all full but the tail,
// whose wake-ups are fill.
type bucket struct {
	head, tail int32
	fill       []wakeup
}

const (
	ringSize  = 1024
	chunkSize = 256
)

func (c *calendar) reset(win time.Duration) {
	c.win, c.done = win, -1
	c.ring = make([]bucket, ringSize)
	for i := range c.ring {
		c.ring[i] = bucket{head: -1, tail: -1}
	}
	c.chunks, c.next, c.free = c.chunks[:0], c.next[:0], -1
}

// put schedules the wake-up w for the window that contains at, never in a
// bucket already taken. Bucket k holds the instants in ((k-1)·win, k·win].
func (c *calendar) put(w wakeup, at time.Duration) {
	k := max(c.done+1, min(c.done+ringSize-1, int64((at-1)/c.win)+1))
	b := &c.ring[k%ringSize]
	if len(b.fill) == cap(b.fill) {
		id := c.chunk()
		if b.tail < 0 {
			b.head = id
		} else {
			c.next[b.tail] = id
		}
		b.tail, b.fill = id, c.chunks[id][:0]
	}
	b.fill = append(b.fill, w)
}

// chunk takes a chunk from the pool, or makes one.
func (c *calendar) chunk() int32 {
	id := c.free
	if id >= 0 {
		c.free = c.next[id]
	} else {
		id = int32(len(c.chunks))
		c.chunks = append(c.chunks, new(chunk))
		c.next = append(c.next, -1)
	}
	c.next[id] = -1
	return id
}

// take appends to due the wake-ups of the buckets up to the one that t1
// falls in, chunk by chunk, and empties those buckets.
func (c *calendar) take(t1 time.Duration, due []span) []span {
	last := int64((t1-1)/c.win) + 1
	for k, n := c.done+1, 0; k <= last && n < ringSize; k, n = k+1, n+1 {
		b := &c.ring[k%ringSize]
		for id := b.head; id >= 0; id = c.next[id] {
			m := int32(chunkSize)
			if id == b.tail {
				m = int32(len(b.fill))
			}
			due = append(due, span{id, m})
		}
		*b = bucket{head: -1, tail: -1}
	}
	c.done = max(c.done, last)
	return due
}

// span is the first n wake-ups of chunk id.
type span struct{ id, n int32 }

func (c *calendar) wakeups(s span) []wakeup { return c.chunks[s.id][:s.n] }

// release gives back the chunks taken.
func (c *calendar) release(due []span) {
	for _, s := range due {
		c.next[s.id] = c.free
		c.free = s.id
	}
}
