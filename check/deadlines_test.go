package check

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestDueQueue: the queue gives the deadlines in the order of a sorted list,
// whether they arrive in order (the FIFOs), with ties, or out of order (the
// heap), across the reclaiming of FIFO space.
func TestDueQueue(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var q dueQueue
		var want []deadline // pending, sorted
		var born uint64
		used := map[uint64]bool{}
		at, now := time.Duration(0), time.Duration(0)
		for range 20000 {
			switch k := rng.IntN(10); {
			case k < 6:
				switch rng.IntN(4) {
				case 0:
					at += time.Duration(rng.IntN(3))
				case 1:
					at -= time.Duration(rng.IntN(10)) // out of order
				}
				// Births are unique, and usually in order.
				born += 1000
				b := born
				if rng.IntN(5) == 0 {
					b -= uint64(1 + rng.IntN(int(born)-1))
				}
				if used[b] {
					continue
				}
				used[b] = true
				// A birth's two deadlines, or one, possibly at one time.
				for _, live := range [][]bool{{false}, {true}, {false, true}}[rng.IntN(3)] {
					d := deadline{at: at + time.Duration(rng.IntN(2))*5, born: b, liveness: live, comp: int32(rng.IntN(50))}
					q.push(d)
					i, _ := slices.BinarySearchFunc(want, d, func(a, b deadline) int {
						if a.before(b) {
							return -1
						}
						return 1
					})
					want = slices.Insert(want, i, d)
				}
			default: // run the deadlines before now, as settle does
				now = max(now, at+time.Duration(rng.IntN(12)-8))
				for {
					got, ok := q.next(now)
					wantOK := len(want) > 0 && want[0].at < now
					if ok != wantOK || (ok && got != want[0]) {
						t.Fatalf("seed %d: next(%v) = %+v %v, want %+v", seed, now, got, ok, want[:min(1, len(want))])
					}
					if !ok {
						break
					}
					want = want[1:]
				}
			}
		}
	}
}
