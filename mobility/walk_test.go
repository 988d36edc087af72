package mobility

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/topo"
)

// Random walk: legs joined end to start, inside the area, at a speed within
// bounds, a new direction every interval, bounces at the borders, the same
// plan from the same seed.
func TestWalk(t *testing.T) {
	w := Walk{MinSpeed: 2, MaxSpeed: 20, Interval: 3 * s, Width: 200, Height: 100}
	p, err := w.Plan(30, nil, 300*s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	bounces := 0
	for v, tr := range p.Tracks {
		if len(tr.Legs) < 100 {
			t.Fatalf("node %d: %d legs in 100 intervals", v, len(tr.Legs))
		}
		pos, at := tr.Start, time.Duration(0)
		for i, l := range tr.Legs {
			if l.From != pos || l.Start != at || l.End <= l.Start {
				t.Fatalf("node %d leg %d %+v: does not go on from %v at %v", v, i, l, pos, at)
			}
			for _, q := range []topo.Point{l.From, l.To} {
				if q.X < 0 || q.X > 200 || q.Y < 0 || q.Y > 100 {
					t.Fatalf("node %d leg %d leaves the area: %v", v, i, q)
				}
			}
			if sp := l.Speed(); sp < 2*(1-1e-6) || sp > 20*(1+1e-6) {
				// Legs of a few nanoseconds carry rounding: check the longer ones.
				if l.End-l.Start > time.Millisecond {
					t.Errorf("node %d leg %d: speed %v", v, i, sp)
				}
			}
			if l.End%(3*s) != 0 {
				bounces++
				if q := l.To; q.X != 0 && q.X != 200 && q.Y != 0 && q.Y != 100 {
					t.Errorf("node %d leg %d ends at %v, inside an interval, off the borders", v, i, q)
				}
			}
			pos, at = l.To, l.End
		}
		if at < 300*s {
			t.Errorf("node %d: legs end at %v, before 300s", v, at)
		}
	}
	if bounces < 100 {
		t.Errorf("%d bounces: a weak test", bounces)
	}
	q, _ := w.Plan(30, nil, 300*s, rand.New(rand.NewPCG(1, 2)))
	samePlan(t, p, q)
}

// A node heading straight at a wall comes back along its way.
func TestWalkBounce(t *testing.T) {
	w := Walk{MinSpeed: 10, MaxSpeed: 10, Interval: 10 * s, Width: 100, Height: 100}
	legs, end := w.bounce(nil, topo.Point{X: 80, Y: 50}, 0, 10, 0)
	if len(legs) != 2 || legs[0].End != 2*s || legs[0].To != (topo.Point{X: 100, Y: 50}) || !near(end, topo.Point{X: 20, Y: 50}) || legs[1].End != 10*s {
		t.Fatalf("legs %+v, end %v", legs, end)
	}
	// Into a corner at 45 degrees, there after sqrt(2) s: both components
	// turn at once.
	v := 10 / math.Sqrt2
	legs, end = w.bounce(nil, topo.Point{X: 90, Y: 90}, 0, v, v)
	if len(legs) != 2 || legs[0].To != (topo.Point{X: 100, Y: 100}) || !near(end, topo.Point{X: 100 - (10-math.Sqrt2)*v, Y: 100 - (10-math.Sqrt2)*v}) {
		t.Fatalf("corner: legs %+v, end %v", legs, end)
	}
}

func TestWalkErrors(t *testing.T) {
	ok := Walk{MinSpeed: 1, MaxSpeed: 2, Interval: s, Width: 10, Height: 10}
	for _, c := range []struct {
		w    Walk
		want string
	}{
		{Walk{MinSpeed: -1, MaxSpeed: 2, Interval: s, Width: 1, Height: 1}, "speeds"},
		{Walk{MinSpeed: 0, MaxSpeed: 0, Interval: s, Width: 1, Height: 1}, "speeds"},
		{Walk{MinSpeed: 3, MaxSpeed: 2, Interval: s, Width: 1, Height: 1}, "speeds"},
		{Walk{MinSpeed: 1, MaxSpeed: math.NaN(), Interval: s, Width: 1, Height: 1}, "speeds"},
		{Walk{MinSpeed: 1, MaxSpeed: 2, Width: 1, Height: 1}, "interval"},
		{Walk{MinSpeed: 1, MaxSpeed: 2, Interval: s, Width: 1}, "area"},
	} {
		if _, err := c.w.Plan(1, nil, s, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.w, err, c.want)
		}
	}
	if _, err := ok.Plan(2, []topo.Point{{}}, s, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("2 nodes, 1 start: accepted")
	}
	if _, err := (Walk{MinSpeed: 1, MaxSpeed: 2, Interval: 1, Width: 1, Height: 1}).Plan(1000, nil, time.Hour, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "legs, more than") {
		t.Errorf("a plan of 3.6e15 legs: %v", err)
	}
	// Starts outside the area are moved in.
	p, err := ok.Plan(1, []topo.Point{{X: -5, Y: 50}}, s, rand.New(rand.NewPCG(1, 1)))
	if err != nil || p.Tracks[0].Start != (topo.Point{X: 0, Y: 10}) {
		t.Errorf("a start outside: %v, %v", p, err)
	}
}
