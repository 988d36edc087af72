package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/topo"
)

// Waypoint is the random waypoint model, as ns-2's setdest and ns-3's
// RandomWaypointMobilityModel use it: each node starts at a uniform random
// position, picks a uniform random destination in the area and a speed
// uniform in [MinSpeed, MaxSpeed], goes there in a straight line, pauses for
// Pause, and picks again.
type Waypoint struct {
	MinSpeed, MaxSpeed float64 // metres per second
	Pause              time.Duration
	Width, Height      float64
}

// Validate reports a model that cannot move.
func (w Waypoint) Validate() error {
	switch {
	case !(w.MinSpeed > 0) || !(w.MaxSpeed >= w.MinSpeed) || math.IsInf(w.MaxSpeed, 0):
		return fmt.Errorf("waypoint speeds %g..%g m/s: want 0 < MIN <= MAX", w.MinSpeed, w.MaxSpeed)
	case w.Pause < 0:
		return fmt.Errorf("waypoint pause %v is negative", w.Pause)
	case !(w.Width > 0) || !(w.Height > 0) || math.IsInf(w.Width, 0) || math.IsInf(w.Height, 0):
		return fmt.Errorf("waypoint area %gx%g is empty", w.Width, w.Height)
	}
	return nil
}

// Plan draws the movement of n nodes until the given time from rng, node by
// node, so that the same seed gives the same plan. Starting positions are
// those given (a network's own), or random when start is nil.
func (w Waypoint) Plan(n int, start []topo.Point, until time.Duration, rng *rand.Rand) (*Plan, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if err := checkStart(n, start); err != nil {
		return nil, err
	}
	p := &Plan{Tracks: make([]Track, n), Width: w.Width, Height: w.Height}
	for v := range p.Tracks {
		pos := topo.Point{X: rng.Float64() * w.Width, Y: rng.Float64() * w.Height}
		if start != nil {
			pos = start[v]
		}
		tr := Track{Start: pos}
		for t := time.Duration(0); t < until; {
			to := topo.Point{X: rng.Float64() * w.Width, Y: rng.Float64() * w.Height}
			speed := w.MinSpeed + rng.Float64()*(w.MaxSpeed-w.MinSpeed)
			sec := dist(pos, to) / speed * float64(time.Second)
			if !(sec < float64(math.MaxInt64-t)) || w.Pause > math.MaxInt64-t-time.Duration(sec) {
				// It arrives beyond the end of time.Duration: the last leg.
				tr.Legs = append(tr.Legs, Leg{Start: t, End: math.MaxInt64, From: pos, To: to})
				break
			}
			d := time.Duration(sec)
			tr.Legs = append(tr.Legs, Leg{Start: t, End: t + d, From: pos, To: to})
			t += max(d+w.Pause, 1) // (1: a leg shorter than a nanosecond still takes one)
			pos = to
		}
		p.Tracks[v] = tr
	}
	return p, nil
}
