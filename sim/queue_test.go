package sim

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestQueueOrder checks the radix heap against the order it promises, (time,
// insertion sequence), with pushes interleaved with pops as the engine does
// them: never earlier than the last time popped. Time spreads from a few
// nanoseconds (many ties) to hours (every level of the heap).
func TestQueueOrder(t *testing.T) {
	for _, spread := range []int64{1, 3, 255, 256, 1 << 16, 5e6, 1 << 40, 1 << 50} {
		for seed := uint64(0); seed < 20; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(spread)))
			var q queue
			type rec struct {
				at  int64
				seq int32
			}
			var pending []rec // what the queue should hold
			now := int64(0)
			seq := int32(0)
			for step := 0; step < 3000; step++ {
				if len(pending) == 0 || rng.IntN(3) > 0 {
					at := now
					if rng.IntN(4) > 0 {
						at += rng.Int64N(spread)
					}
					q.push(event{at: at, slot: seq})
					pending = append(pending, rec{at, seq})
					seq++
					continue
				}
				sort.SliceStable(pending, func(i, j int) bool {
					if pending[i].at != pending[j].at {
						return pending[i].at < pending[j].at
					}
					return pending[i].seq < pending[j].seq
				})
				want := pending[0]
				pending = pending[1:]
				if pt := q.peekTime(); pt != want.at {
					t.Fatalf("spread %d seed %d step %d: peek %d, want %d", spread, seed, step, pt, want.at)
				}
				got := q.pop()
				if got.at != want.at || got.slot != want.seq {
					t.Fatalf("spread %d seed %d step %d: popped (%d, #%d), want (%d, #%d)", spread, seed, step, got.at, got.slot, want.at, want.seq)
				}
				now = got.at
				if q.len() != len(pending) {
					t.Fatalf("len %d, want %d", q.len(), len(pending))
				}
			}
		}
	}
}
