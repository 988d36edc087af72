package mobility

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkRadio: 10,000 nodes under random waypoint (1 to 20 m/s, pauses of
// 2 s) in the square where a range of 250 m gives 10 neighbours on average,
// every change of the links over 600 s of plan time. Measured when it was
// written, on a 2-core VM: 2.05-2.08 s per op for 2,750,929 changes, about
// 750 ns per change (mean degree 9.85). Since pairs are watched (watch.go),
// the same changes: 0.42-0.45 s per op, 155-165 ns per change, against
// 1.7-1.96 s for the windowed search run alternately on the same VM (4.2
// times, the median of the pairs of runs).
func BenchmarkRadio(b *testing.B) {
	const n, rng, deg = 10_000, 250.0, 10.0
	const until = 600 * time.Second
	side := math.Sqrt(math.Pi * rng * rng * (n - 1) / deg)
	w := Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: side, Height: side}
	p, err := w.Plan(n, nil, until, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	changes := 0
	for b.Loop() {
		r, err := NewRadio(p, rng)
		if err != nil {
			b.Fatal(err)
		}
		changes = 0
		for {
			c, ok := r.Next()
			if !ok || c.At > until {
				break
			}
			changes++
		}
	}
	b.ReportMetric(float64(changes), "changes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(changes), "ns/change")
	b.ReportMetric(float64(2*linksAt0(p, rng))/n, "degree")
}

// linksAt0 counts the links of a plan at time 0.
func linksAt0(p *Plan, rng float64) int {
	r, err := NewRadio(p, rng)
	if err != nil {
		return 0
	}
	return r.Graph().M()
}
