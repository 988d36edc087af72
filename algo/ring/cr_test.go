package ring_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/electgo/elect/runner/runtest"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

func crScenario(n int, seed uint64) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Params = "chang-roberts", fmt.Sprintf("ring:%d", n), seed, nil
	s.Duration = 0
	return s
}

// TestChangRobertsOrders: identities decreasing along the ring (node v has
// value n-v) cost n(n+1)/2 election messages; increasing, 2n-1; the
// announcement n more.
func TestChangRobertsOrders(t *testing.T) {
	for _, n := range []int{3, 10, 50} {
		for _, dec := range []bool{true, false} {
			t.Run(fmt.Sprint(n, dec), func(t *testing.T) {
				s := crScenario(n, 1)
				s.Values = sim.Values{Explicit: map[algo.NodeID]int64{}}
				for v := range n {
					x := int64(v)
					if dec {
						x = int64(n - v)
					}
					s.Values.Explicit[algo.NodeID(v)] = x
				}
				sum := run(t, s)
				want := uint64(2*n - 1)
				if dec {
					want = uint64(n * (n + 1) / 2)
				}
				if by := sum.Messages.ByType; by["election"] != want || by["elected"] != uint64(n) {
					t.Errorf("messages %v, want %d election and %d elected", by, want, n)
				}
				runtest.FollowBest(t, sum)
			})
		}
	}
}

// TestChangRobertsAverage: over random identity orders the election
// messages average n*H_n.
func TestChangRobertsAverage(t *testing.T) {
	const n, seeds = 24, 400
	total := 0.0
	for seed := uint64(1); seed <= seeds; seed++ {
		s := crScenario(n, seed)
		s.Delay = sim.Delay{Kind: sim.Uniform, A: 1e6, B: 7e6}
		sum := run(t, s)
		runtest.FollowBest(t, sum)
		total += float64(sum.Messages.ByType["election"])
	}
	h := 0.0
	for k := 1; k <= n; k++ {
		h += 1 / float64(k)
	}
	mean, want := total/seeds, n*h
	t.Logf("mean %.2f election messages, n*H_n = %.2f", mean, want)
	if math.Abs(mean-want) > 0.05*want {
		t.Errorf("mean %.2f, want n*H_n = %.2f within 5%%", mean, want)
	}
}
