package torture

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// Timing-free algorithms (Model.Asynchronous) are drawn clocks up to this
// far from true time, and slowness up to this late, in their model.
const (
	anyDrift = 0.5
	anySlow  = 2 * time.Second
)

// gray draws the gray failures f allows: links cut one way (not on moving
// nodes, which have no fixed links), clock rates and jumps, slow spells.
func gray(f Faults, edges []topo.Edge, moving bool, n int, rng *rand.Rand, at func(time.Duration) time.Duration, add func(sim.Action)) {
	if f.OneWay && !moving {
		for range rng.IntN(3) {
			if len(edges) == 0 {
				break
			}
			k := edges[rng.IntN(len(edges))]
			if rng.IntN(2) == 0 {
				k.A, k.B = k.B, k.A
			}
			t := at(500 * time.Millisecond)
			add(sim.Action{At: t, Kind: sim.Cut, Link: k})
			if rng.IntN(3) != 0 {
				add(sim.Action{At: at(t + time.Millisecond), Kind: sim.Uncut, Link: k})
			}
		}
	}
	node := func() []algo.NodeID { return []algo.NodeID{algo.NodeID(rng.IntN(n))} }
	if f.Drift > 0 {
		for range rng.IntN(3) {
			d := f.DriftFrom + (f.Drift-f.DriftFrom)*rng.Float64()
			rate := 1 + d
			if rng.IntN(2) == 0 { // as far slow as fast, and never stopped
				rate = 1 - d
				if d >= 0.9 {
					rate = 1 / (1 + d)
				}
			}
			add(sim.Action{At: at(0), Kind: sim.Clock, Nodes: node(), Rate: math.Round(rate*1000) / 1000})
		}
	}
	if f.Jumps {
		for range rng.IntN(2) {
			j := time.Duration(1+rng.Int64N(int64(time.Hour/time.Millisecond))) * time.Millisecond
			if rng.IntN(2) == 0 {
				j = -j
			}
			add(sim.Action{At: at(0), Kind: sim.Clock, Nodes: node(), Jump: j})
		}
	}
	if f.Slow > 0 {
		for range rng.IntN(2) {
			by := f.SlowFrom + time.Duration(rng.Int64N(int64(f.Slow-f.SlowFrom)+1))
			by = max(by/time.Millisecond*time.Millisecond, time.Millisecond)
			span := time.Duration(1+rng.IntN(10)) * time.Second
			add(sim.Action{At: at(0), Kind: sim.Slow, Nodes: node(), By: by, For: span})
		}
	}
}
