package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/topo"
)

// Walk is the random walk model, as ns-3's RandomWalk2dMobilityModel runs it
// in time mode: every Interval each node picks a direction uniform in
// [0, 2π) and a speed uniform in [MinSpeed, MaxSpeed], and goes straight on
// for the interval, bouncing off the borders of the area (the component of
// its velocity across the border is reversed). A leg ends wherever the node
// meets a border, so that every leg lies inside the area.
type Walk struct {
	MinSpeed, MaxSpeed float64 // metres per second
	Interval           time.Duration
	Width, Height      float64
}

// maxWalkLegs bounds the size of a walk's plan (legs of 48 bytes, not
// counting bounces), so that a typo cannot ask for more memory than a
// machine has.
const maxWalkLegs = 100_000_000

// Validate reports a model that cannot run.
func (w Walk) Validate() error {
	switch {
	case !(w.MinSpeed >= 0) || !(w.MaxSpeed >= w.MinSpeed) || !(w.MaxSpeed > 0) || math.IsInf(w.MaxSpeed, 0):
		return fmt.Errorf("walk speeds %g..%g m/s: want 0 <= MIN <= MAX, MAX > 0", w.MinSpeed, w.MaxSpeed)
	case w.Interval <= 0:
		return fmt.Errorf("walk interval %v: want a positive duration", w.Interval)
	case !(w.Width > 0) || !(w.Height > 0) || math.IsInf(w.Width, 0) || math.IsInf(w.Height, 0):
		return fmt.Errorf("walk area %gx%g is empty", w.Width, w.Height)
	}
	return nil
}

// Plan draws the movement of n nodes until the given time from rng, node by
// node, so that the same seed gives the same plan. Starting positions are
// those given (a network's own, moved into the area if they lie outside it),
// or uniform random when start is nil.
func (w Walk) Plan(n int, start []topo.Point, until time.Duration, rng *rand.Rand) (*Plan, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if err := checkStart(n, start); err != nil {
		return nil, err
	}
	if legs := float64(n) * math.Ceil(float64(until)/float64(w.Interval)); legs > maxWalkLegs {
		return nil, fmt.Errorf("walk: %d nodes for %v, a leg every %v: %.3g legs, more than %g", n, until, w.Interval, legs, float64(maxWalkLegs))
	}
	p := &Plan{Tracks: make([]Track, n), Width: w.Width, Height: w.Height}
	for v := range p.Tracks {
		pos := topo.Point{X: rng.Float64() * w.Width, Y: rng.Float64() * w.Height}
		if start != nil {
			pos = w.inside(start[v])
		}
		tr := Track{Start: pos}
		for t := time.Duration(0); t < until && t <= math.MaxInt64-w.Interval; t += w.Interval {
			dir := rng.Float64() * 2 * math.Pi
			speed := w.MinSpeed + rng.Float64()*(w.MaxSpeed-w.MinSpeed)
			tr.Legs, pos = w.bounce(tr.Legs, pos, t, speed*math.Cos(dir), speed*math.Sin(dir))
		}
		p.Tracks[v] = tr
	}
	return p, nil
}

// bounce appends the legs of one interval from t: from pos at velocity
// (vx, vy), reflected at the borders. Leg ends are rounded to the
// nanosecond from the interval's start; a piece shorter than that joins the
// next one, so that legs stay joined end to start (a last sliver is
// dropped: the node stays where its last leg ends).
func (w Walk) bounce(legs []Leg, pos topo.Point, t time.Duration, vx, vy float64) ([]Leg, topo.Point) {
	total := w.Interval.Seconds()
	elapsed := 0.0
	from, fromT := pos, t
	for bounces := 0; ; bounces++ {
		left := total - elapsed
		tx, ty := toBorder(pos.X, vx, w.Width), toBorder(pos.Y, vy, w.Height)
		hit := math.Min(tx, ty)
		hx, hy := tx == hit, ty == hit
		if hit >= left || bounces > 64 { // (64: grazing a corner for ever)
			hit, hx, hy = left, false, false
		}
		next := topo.Point{X: pos.X + vx*hit, Y: pos.Y + vy*hit}
		elapsed += hit
		end := t + time.Duration(math.Round(elapsed*float64(time.Second)))
		if hx {
			next.X = borderOf(vx, w.Width)
			vx = -vx
		}
		if hy {
			next.Y = borderOf(vy, w.Height)
			vy = -vy
		}
		if !hx && !hy {
			end = t + w.Interval
		}
		next = w.inside(next)
		if end > fromT && next != from {
			legs = append(legs, Leg{Start: fromT, End: end, From: from, To: next})
			from, fromT = next, end
		}
		pos = next
		if !hx && !hy {
			return legs, from
		}
	}
}

// toBorder is how long a coordinate x moving at v takes to reach 0 or
// size; +Inf when it does not move that way.
func toBorder(x, v, size float64) float64 {
	switch {
	case v > 0:
		return math.Max(0, (size-x)/v)
	case v < 0:
		return math.Max(0, x/-v)
	}
	return math.Inf(1)
}

// borderOf is the border a coordinate moving at v meets.
func borderOf(v, size float64) float64 {
	if v > 0 {
		return size
	}
	return 0
}

// inside moves a point into the area.
func (w Walk) inside(p topo.Point) topo.Point {
	return topo.Point{X: math.Max(0, math.Min(w.Width, p.X)), Y: math.Max(0, math.Min(w.Height, p.Y))}
}

// Static is the model of nodes that never move.
type Static struct {
	Width, Height float64
}

// Plan places n nodes, at the positions given or, when start is nil,
// uniform random in the area; until is ignored (a still track lasts).
func (st Static) Plan(n int, start []topo.Point, until time.Duration, rng *rand.Rand) (*Plan, error) {
	if start == nil && (!(st.Width > 0) || !(st.Height > 0) || math.IsInf(st.Width, 0) || math.IsInf(st.Height, 0)) {
		return nil, fmt.Errorf("static area %gx%g is empty", st.Width, st.Height)
	}
	if err := checkStart(n, start); err != nil {
		return nil, err
	}
	p := &Plan{Tracks: make([]Track, n), Width: st.Width, Height: st.Height}
	for v := range p.Tracks {
		if start != nil {
			p.Tracks[v].Start = start[v]
		} else {
			p.Tracks[v].Start = topo.Point{X: rng.Float64() * st.Width, Y: rng.Float64() * st.Height}
		}
	}
	return p, nil
}

// checkStart refuses a negative node count and starting positions that are
// not one per node.
func checkStart(n int, start []topo.Point) error {
	switch {
	case n < 0:
		return fmt.Errorf("%d nodes", n)
	case start != nil && len(start) != n:
		return fmt.Errorf("%d starting positions for %d nodes", len(start), n)
	}
	return nil
}
