package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestQueueOrder checks the queue against the order it promises, (time,
// insertion sequence), with pushes interleaved with pops as the engine does
// them: never earlier than the last time popped. Time spreads from a few
// nanoseconds (many ties) to hours (every level of the far future's heap);
// the mixed cases put each push at the same time, within the slot, on the
// wheel, or beyond it, in one run.
func TestQueueOrder(t *testing.T) {
	type gen struct {
		name string
		next func(rng *rand.Rand) int64 // an offset from now
	}
	var gens []gen
	for _, spread := range []int64{1, 3, 255, 256, 1 << 16, 5e6, 1 << 24, 3 << 23, 1 << 25, 1e9, 1 << 40, 1 << 50} {
		gens = append(gens, gen{fmt.Sprint("spread ", spread), func(rng *rand.Rand) int64 {
			if rng.IntN(4) == 0 {
				return 0
			}
			return rng.Int64N(spread)
		}})
	}
	scales := []int64{0, 1, 1 << wheelBits, wheelSpan, 3 * wheelSpan, 1e9, 3600e9}
	gens = append(gens, gen{"mixed", func(rng *rand.Rand) int64 {
		s := scales[rng.IntN(len(scales))]
		if s == 0 {
			return 0
		}
		return rng.Int64N(s)
	}}, gen{"constant and timers", func(rng *rand.Rand) int64 {
		switch rng.IntN(6) {
		case 0:
			return 500e6 + rng.Int64N(3)*1e6
		case 1:
			return 0
		}
		return 3e6
	}})
	for _, g := range gens {
		for seed := uint64(0); seed < 20; seed++ {
			rng := rand.New(rand.NewPCG(seed, 7))
			var q queue
			type rec struct {
				at  int64
				seq int32
			}
			var pending []rec // what the queue should hold
			now := int64(0)
			seq := int32(0)
			for step := 0; step < 5000; step++ {
				if len(pending) == 0 || rng.IntN(3) > 0 {
					at := now + g.next(rng)
					q.push(event{at: at, slot: seq})
					// pending stays in (time, sequence) order: the latest
					// in sequence goes after every event not later.
					i := sort.Search(len(pending), func(i int) bool { return pending[i].at > at })
					pending = slices.Insert(pending, i, rec{at, seq})
					seq++
					continue
				}
				want := pending[0]
				pending = pending[1:]
				if rng.IntN(2) == 0 { // the engine peeks before it pops; pop alone works too
				} else if pt := q.peekTime(); pt != want.at {
					t.Fatalf("%s seed %d step %d: peek %d, want %d", g.name, seed, step, pt, want.at)
				}
				got := q.pop()
				if got.at != want.at || got.slot != want.seq {
					t.Fatalf("%s seed %d step %d: popped (%d, #%d), want (%d, #%d)", g.name, seed, step, got.at, got.slot, want.at, want.seq)
				}
				now = got.at
				if q.len() != len(pending) {
					t.Fatalf("len %d, want %d", q.len(), len(pending))
				}
			}
		}
	}
}
