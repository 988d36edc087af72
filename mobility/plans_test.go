package mobility

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/topo"
)

// testPlans is the seed-th of the small plans that tell the radio's
// changes apart, in turn of ten kinds: random waypoint; random walk; nodes
// so fast that windows are a millisecond; a tiny area where everybody is in
// range; a huge area far from the origin (or, in every other plan, a range
// of 30 cm 10,000 km away); jumps (legs that start away from their node,
// zero-length legs, some in the first window), nodes that never move and
// nodes that start late; nodes on a 100 m lattice moving along its lines
// (ranges touched exactly); long pauses; nodes on the edges of the radio's
// cells, moving along them (cellPlan); and plans at the end of time.
func testPlans(t testing.TB, seed uint64) (name string, p *Plan, rng float64, until time.Duration) {
	rnd := rand.New(rand.NewPCG(seed, 4242))
	kind := seed % 10
	n := 16 + rnd.IntN(48)
	var err error
	rng, until = 100, 300*time.Second
	switch kind {
	case 0:
		p, err = Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: 1000, Height: 1000}.Plan(n, nil, until, rnd)
	case 1:
		p, err = Walk{MinSpeed: 0, MaxSpeed: 15, Interval: 3 * time.Second, Width: 800, Height: 500}.Plan(n, nil, until, rnd)
	case 2:
		p, err = Waypoint{MinSpeed: 1000, MaxSpeed: 400000, Pause: time.Millisecond, Width: 3000, Height: 3000}.Plan(n, nil, 2*time.Second, rnd)
		rng, until = 250, 2*time.Second
	case 3:
		p, err = Waypoint{MinSpeed: 0.1, MaxSpeed: 3, Pause: time.Second, Width: 5, Height: 5}.Plan(n, nil, until, rnd)
		rng = 4
	case 4:
		p, err = Waypoint{MinSpeed: 100, MaxSpeed: 3000, Width: 3e6, Height: 2e6}.Plan(n, nil, until, rnd)
		rng = 2e5
		if seed%20 == 14 {
			p, err = Waypoint{MinSpeed: 0.001, MaxSpeed: 0.01, Width: 3, Height: 2}.Plan(n, nil, until, rnd)
			rng = 0.3
		}
		for v := range p.Tracks {
			shiftTrack(&p.Tracks[v], 1e7, -3e7, 0)
		}
	case 5:
		p, err = Waypoint{MinSpeed: 1, MaxSpeed: 10, Pause: 3 * time.Second, Width: 600, Height: 600}.Plan(n, nil, until, rnd)
		jumpy(p, rnd)
	case 6:
		p = latticePlan(n, until, rnd)
	case 7:
		p, err = Waypoint{MinSpeed: 0.5, MaxSpeed: 2, Pause: 40 * time.Second, Width: 400, Height: 400}.Plan(n, nil, until, rnd)
		rng = 60
	case 8:
		p, rng = cellPlan(n, until, rnd)
	case 9:
		p, err = Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: 1000, Height: 1000}.Plan(n, nil, until, rnd)
		end := time.Duration(math.MaxInt64) - until - time.Second
		for v := range p.Tracks {
			shiftTrack(&p.Tracks[v], 0, 0, end)
		}
		until = math.MaxInt64
	}
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("plan%d-kind%d-n%d", seed, kind, n), p, rng, until
}

// shiftTrack moves a track by (dx, dy) and dt later (legs that end beyond
// the end of time are cut there).
func shiftTrack(tr *Track, dx, dy float64, dt time.Duration) {
	tr.Start = pt(tr.Start.X+dx, tr.Start.Y+dy)
	legs := tr.Legs[:0]
	for _, l := range tr.Legs {
		if l.Start > math.MaxInt64-dt {
			break
		}
		l.From, l.To = pt(l.From.X+dx, l.From.Y+dy), pt(l.To.X+dx, l.To.Y+dy)
		l.Start += dt
		l.End = l.Start + min(l.End-(l.Start-dt), math.MaxInt64-l.Start)
		legs = append(legs, l)
	}
	tr.Legs = legs
}

// jumpy makes a plan jump: in every fifth node none moves, in others legs
// start away from where the node is, in others a zero-length leg follows a
// leg, or a leg starts halfway through the plan; and a few nodes jump in
// the first window (in 100 ms and then 1 s).
func jumpy(p *Plan, rnd *rand.Rand) {
	for v := range p.Tracks {
		tr := &p.Tracks[v]
		switch v % 6 {
		case 0:
			tr.Legs = nil
		case 1:
			for i := range tr.Legs {
				if rnd.IntN(3) == 0 {
					tr.Legs[i].From = pt(rnd.Float64()*600, rnd.Float64()*600)
				}
			}
		case 2:
			var legs []Leg
			for _, l := range tr.Legs {
				legs = append(legs, l)
				if rnd.IntN(2) == 0 && l.End < math.MaxInt64-time.Second {
					legs = append(legs, Leg{Start: l.End, End: l.End, From: l.To, To: pt(rnd.Float64()*600, rnd.Float64()*600)})
					break
				}
			}
			tr.Legs = legs
		case 3:
			k := len(tr.Legs) / 2
			tr.Start, tr.Legs = tr.Legs[k].From, tr.Legs[k:]
		case 4:
			// Still for 100 ms, a jump at 200 ms, and one at 1 s to a leg
			// back: all in the first window.
			a, b := pt(rnd.Float64()*600, rnd.Float64()*600), pt(rnd.Float64()*600, rnd.Float64()*600)
			tr.Legs = []Leg{
				{Start: 0, End: 100 * time.Millisecond, From: tr.Start, To: tr.Start},
				{Start: 200 * time.Millisecond, End: 200 * time.Millisecond, From: tr.Start, To: a},
				{Start: time.Second, End: 30 * time.Second, From: b, To: tr.Start},
			}
		}
	}
}

// latticePlan has nodes on a 100 m lattice moving along its lines, whole
// seconds apart: ranges of 100 m are touched exactly and often.
func latticePlan(n int, until time.Duration, rnd *rand.Rand) *Plan {
	p := &Plan{Tracks: make([]Track, n), Width: 1000, Height: 1000}
	for v := range p.Tracks {
		at := pt(float64(rnd.IntN(11)*100), float64(rnd.IntN(11)*100))
		tr := Track{Start: at}
		for t := time.Duration(rnd.IntN(5)) * time.Second; t < until; {
			to := at
			if rnd.IntN(2) == 0 {
				to.X = float64(rnd.IntN(11) * 100)
			} else {
				to.Y = float64(rnd.IntN(11) * 100)
			}
			d := time.Duration(rnd.IntN(20)+1) * time.Second
			tr.Legs = append(tr.Legs, Leg{Start: t, End: t + d, From: at, To: to})
			at = to
			t += d + time.Duration(rnd.IntN(3))*time.Second
		}
		p.Tracks[v] = tr
	}
	return p
}

// cellPlan has nodes on the edges and corners of the cells of its radio,
// moving along them at 10 m/s at most: a node at rest at (1e4, 1e4) and
// one going at exactly 10 m/s fix the cells' side.
func cellPlan(n int, until time.Duration, rnd *rand.Rand) (*Plan, float64) {
	const rng = 100.0
	fixed := []Track{
		{Start: pt(1e4, 1e4)},
		{Start: pt(0, 0), Legs: []Leg{{Start: 0, End: 10 * time.Second, From: pt(0, 0), To: pt(100, 0)}}},
	}
	side := cellSide(rng, 10, 1e4)
	p := &Plan{Tracks: append([]Track(nil), fixed...), Width: 10 * side, Height: 10 * side}
	corner := func() topo.Point { return pt(float64(rnd.IntN(8))*side, float64(rnd.IntN(8))*side) }
	for len(p.Tracks) < n {
		at := corner()
		tr := Track{Start: at}
		for t := time.Duration(rnd.IntN(3)) * time.Second; t < until; {
			to := at
			if rnd.IntN(2) == 0 {
				to.X = float64(rnd.IntN(8)) * side
			} else {
				to.Y = float64(rnd.IntN(8)) * side
			}
			d := time.Duration(math.Ceil(dist(at, to) / 10 * 1e9))
			if d == 0 {
				d = time.Second
			}
			tr.Legs = append(tr.Legs, Leg{Start: t, End: t + d, From: at, To: to})
			at = to
			t += d + time.Duration(rnd.IntN(2000))*time.Millisecond
		}
		p.Tracks = append(p.Tracks, tr)
	}
	return p, rng
}

// cellSide is the side of a radio's cells (watch.init) at range rng, for a
// plan whose fastest leg goes at vmax m/s and whose farthest coordinate is
// extent, where the window is not clamped.
func cellSide(rng, vmax, extent float64) float64 {
	win := time.Duration(rng / (4 * vmax) * float64(time.Second))
	eps := 1e-6*(1+rng) + 1e-9*extent
	tmax := vmax * win.Seconds() * (1 + 1e-9)
	return (rng + 4*eps + tmax + 2*eps) * (1 + 1e-6)
}

// streamHash hashes a radio's links at time 0 and every change up to
// until.
func streamHash(t testing.TB, p *Plan, rng float64, until time.Duration) (string, int) {
	r, err := NewRadio(p, rng)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for _, e := range r.Graph().Edges() {
		fmt.Fprintf(h, "%d %d\n", e.A, e.B)
	}
	n := 0
	for {
		c, ok := r.Next()
		if !ok || c.At > until {
			break
		}
		fmt.Fprintf(h, "%d %d %d %v\n", c.At, c.A, c.B, c.Up)
		n++
	}
	return fmt.Sprintf("%016x", h.Sum64()), n
}

// goldenPlans are the plans whose changes testdata/radio-streams.txt holds:
// the small plans, the reference test's, and 2,000 waypoint nodes at the
// benchmark's density for 60 s.
func goldenPlans(t *testing.T, yield func(name string, p *Plan, rng float64, until time.Duration)) {
	for seed := range uint64(200) {
		yield(testPlans(t, seed))
	}
	for seed := range uint64(100) {
		rng := 200.0
		if seed%4 == 3 {
			rng = 75
		}
		yield(fmt.Sprintf("reference%d", seed), referencePlan(t, seed), rng, math.MaxInt64)
	}
	const n, rng, deg = 2000, 250.0, 10.0
	side := math.Sqrt(math.Pi * rng * rng * (n - 1) / deg)
	w := Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: side, Height: side}
	p, err := w.Plan(n, nil, 60*time.Second, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	yield("waypoint2000", p, rng, 60*time.Second)
}

// The changes are those the radio gave before it watched pairs (commit
// 190afc6, which solved every pair near enough in every window), bit for
// bit: same instants, pairs and order. RADIO_GOLDEN=path writes the file
// anew from the radio at hand.
func TestRadioStreamsUnchanged(t *testing.T) {
	const file = "testdata/radio-streams.txt"
	if out := os.Getenv("RADIO_GOLDEN"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		goldenPlans(t, func(name string, p *Plan, rng float64, until time.Duration) {
			h, n := streamHash(t, p, rng, until)
			fmt.Fprintf(f, "%s %s %d\n", name, h, n)
		})
		return
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if name, rest, ok := strings.Cut(sc.Text(), " "); ok {
			want[name] = rest
		}
	}
	plans, total := 0, 0
	goldenPlans(t, func(name string, p *Plan, rng float64, until time.Duration) {
		h, n := streamHash(t, p, rng, until)
		if got := fmt.Sprintf("%s %d", h, n); got != want[name] {
			t.Errorf("%s: changes %s, want %q", name, got, want[name])
		}
		plans, total = plans+1, total+n
	})
	if plans != len(want) {
		t.Errorf("%d plans, %s has %d", plans, file, len(want))
	}
	t.Logf("%d plans, %d changes as before", plans, total)
}
