package sim

import (
	"math/rand/v2"
	"testing"
)

// BenchQueue runs the queue benchmark from inside the package: pending
// events are kept at about 100,000, each pop followed by a push at the
// popped time plus next().
func BenchQueue(b *testing.B, next func(*rand.Rand) int64) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q queue
	for i := range 100_000 {
		q.push(event{at: next(rng), slot: int32(i)})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := q.pop()
		q.push(event{at: e.at + next(rng), slot: e.slot})
	}
}
