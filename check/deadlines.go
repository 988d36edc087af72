package check

import (
	"container/heap"
	"time"
)

// A deadline is a component's stabilisation or liveness bound, set at its
// birth; it dies with the component's generation.
type deadline struct {
	at       time.Duration
	born     uint64 // the component's birth order, for ties
	comp     int32
	gen      uint32
	liveness bool
}

// before orders deadlines by time, then by the birth of their component (not
// by its index, which depends on how components were allocated), then
// safety before liveness, so that the order of the violations at one
// instant does not depend on how the components were maintained.
func (d deadline) before(e deadline) bool {
	if d.at != e.at {
		return d.at < e.at
	}
	if d.born != e.born {
		return d.born < e.born
	}
	return !d.liveness && e.liveness
}

// dueQueue holds the pending deadlines. They can be many (two for each of
// the components a large network starts with; under mobility, with
// fullRebuild, two for every link change of the last Liveness, see
// schedule), so a heap's O(log n) would weigh on every birth. But a
// deadline is set at since + a fixed bound, since is the
// instant just closed, and instants come in order: each kind of deadline
// arrives in order (time, then birth), so a first-in first-out queue per
// kind holds them sorted at O(1). A deadline out of order (events going back
// in time) goes to a heap instead. The next deadline is the least of the
// three heads.
type dueQueue struct {
	fifo [2][]deadline // safety, liveness
	head [2]int        // fifo[k][head[k]:] is pending
	late deadlineHeap
}

func (q *dueQueue) push(d deadline) {
	k := 0
	if d.liveness {
		k = 1
	}
	f := q.fifo[k]
	if n := len(f); n > q.head[k] && d.before(f[n-1]) {
		heap.Push(&q.late, d)
		return
	}
	if q.head[k] > 1024 && q.head[k] > len(f)/2 {
		// Reclaim the space of the deadlines run.
		f = f[:copy(f, f[q.head[k]:])]
		q.head[k] = 0
	}
	q.fifo[k] = append(f, d)
}

// next removes and returns the least pending deadline, if it is before t.
func (q *dueQueue) next(t time.Duration) (deadline, bool) {
	from := -1 // the fifo holding the least, or 2 for late
	var least deadline
	for k := range q.fifo {
		if h := q.head[k]; h < len(q.fifo[k]) && (from < 0 || q.fifo[k][h].before(least)) {
			from, least = k, q.fifo[k][h]
		}
	}
	if len(q.late) > 0 && (from < 0 || q.late[0].before(least)) {
		from, least = 2, q.late[0]
	}
	if from < 0 || least.at >= t {
		return deadline{}, false
	}
	if from == 2 {
		heap.Pop(&q.late)
	} else {
		q.head[from]++
	}
	return least, true
}

// deadlineHeap is a container/heap of deadlines.
type deadlineHeap []deadline

func (d deadlineHeap) Len() int           { return len(d) }
func (d deadlineHeap) Less(i, j int) bool { return d[i].before(d[j]) }
func (d deadlineHeap) Swap(i, j int)      { d[i], d[j] = d[j], d[i] }
func (d *deadlineHeap) Push(x any)        { *d = append(*d, x.(deadline)) }
func (d *deadlineHeap) Pop() any {
	old := *d
	x := old[len(old)-1]
	*d = old[:len(old)-1]
	return x
}
