package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

type pairKey struct{ a, b algo.NodeID }

// changesUntil pulls every change up to until (and the first one after, to
// see that they come in order).
func changesUntil(t *testing.T, r *Radio, until time.Duration) []Change {
	t.Helper()
	var out []Change
	for {
		c, ok := r.Next()
		if !ok {
			return out
		}
		if k := len(out); k > 0 {
			p := out[k-1]
			if c.At < p.At || c.At == p.At && (c.A < p.A || c.A == p.A && c.B < p.B) {
				t.Fatalf("changes out of order: %v after %v", c, p)
			}
		}
		if c.A >= c.B || c.At <= 0 {
			t.Fatalf("malformed change %v", c)
		}
		if c.At > until {
			return out
		}
		out = append(out, c)
	}
}

// byPair groups changes by pair and checks that each pair's alternate from
// its state in g.
func byPair(g *topo.Graph, cs []Change) (map[pairKey][]Change, error) {
	m := map[pairKey][]Change{}
	for _, c := range cs {
		k := pairKey{c.A, c.B}
		up := g.HasEdge(c.A, c.B)
		if l := m[k]; len(l) > 0 {
			up = l[len(l)-1].Up
		}
		if c.Up == up {
			return nil, fmt.Errorf("%v: the pair is already %s", c, map[bool]string{true: "up", false: "down"}[up])
		}
		m[k] = append(m[k], c)
	}
	return m, nil
}

func mustRadio(t testing.TB, p *Plan, rng float64) *Radio {
	t.Helper()
	r, err := NewRadio(p, rng)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func pt(x, y float64) topo.Point { return topo.Point{X: x, Y: y} }

// ns converts seconds to a Duration, rounding up as Radio does.
func ns(sec float64) time.Duration { return time.Duration(math.Ceil(sec * 1e9)) }

// Hand-made plans with known answers.
func TestRadioKnown(t *testing.T) {
	still := Track{Start: pt(0, 0)}
	for _, c := range []struct {
		name  string
		b     Track
		rng   float64
		init  bool
		want  []Change // A=0, B=1 implied
		extra []Track
	}{
		{
			name: "approach at 3 m/s, pass through, leave",
			// From x=300 to x=-300 at 3 m/s from t=0: within 100 m for x in
			// [-100, 100], t in [200/3, 400/3] s.
			b:    Track{Start: pt(300, 0), Legs: []Leg{{Start: 0, End: 200 * s, From: pt(300, 0), To: pt(-300, 0)}}},
			rng:  100,
			want: []Change{{At: ns(200.0 / 3), Up: true}, {At: ns(400.0 / 3)}},
		},
		{
			name: "passes by 60 m away at 10 m/s",
			// y = 60, x from -200 to 200: in range while |x| <= 80, t in [12, 28] s.
			b:    Track{Start: pt(-200, 60), Legs: []Leg{{Start: 0, End: 40 * s, From: pt(-200, 60), To: pt(200, 60)}}},
			rng:  100,
			want: []Change{{At: 12 * s, Up: true}, {At: 28 * s}},
		},
		{
			name: "comes in, pauses in range for a minute, leaves",
			b: Track{Start: pt(250, 0), Legs: []Leg{
				{Start: 5 * s, End: 25 * s, From: pt(250, 0), To: pt(50, 0)},    // in at x=100: 20 s
				{Start: 85 * s, End: 105 * s, From: pt(50, 0), To: pt(50, 200)}, // out at y=sqrt(100²-50²)
			}},
			rng:  100,
			want: []Change{{At: 20 * s, Up: true}, {At: 85*s + ns(math.Sqrt(7500)/10)}},
		},
		{
			name: "starts in range and walks away",
			b:    Track{Start: pt(10, 0), Legs: []Leg{{Start: 1 * s, End: 1001 * s, From: pt(10, 0), To: pt(1010, 0)}}},
			rng:  100, init: true,
			want: []Change{{At: 91 * s}},
		},
		{
			name: "a touch at exactly the range yields nothing",
			// At 7 m/s along y=100, touching at 215/7 s: within a window
			// (windows of 100/(4*7) s).
			b:   Track{Start: pt(-215, 100), Legs: []Leg{{Start: 0, End: 60 * s, From: pt(-215, 100), To: pt(205, 100)}}},
			rng: 100,
		},
		{
			name: "a touch on a whole nanosecond at the end of a window: up, and down a nanosecond later",
			// At 10 m/s, windows of 2.5 s: the touch at 20 s ends the
			// eighth.
			b:    Track{Start: pt(-200, 100), Legs: []Leg{{Start: 0, End: 40 * s, From: pt(-200, 100), To: pt(200, 100)}}},
			rng:  100,
			want: []Change{{At: 20 * s, Up: true}, {At: 20*s + 1}},
		},
		{
			name: "a jump into range, a jump out",
			b: Track{Start: pt(500, 0), Legs: []Leg{
				{Start: 7 * s, End: 7 * s, From: pt(500, 0), To: pt(50, 0)},
				{Start: 9 * s, End: 9 * s, From: pt(50, 0), To: pt(-500, 0)},
			}},
			rng:  100,
			want: []Change{{At: 7 * s, Up: true}, {At: 9 * s}},
		},
		{
			name: "still, far away: nothing",
			b:    Track{Start: pt(500, 0)},
			rng:  100,
		},
		{
			name: "moving in parallel, in range: nothing",
			b:    Track{Start: pt(0, 50), Legs: []Leg{{Start: 0, End: 100 * s, From: pt(0, 50), To: pt(1000, 50)}}},
			rng:  100, init: true,
			extra: []Track{{Start: pt(0, 0), Legs: []Leg{{Start: 0, End: 100 * s, From: pt(0, 0), To: pt(1000, 0)}}}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Plan{Tracks: []Track{still, c.b}, Width: 1000, Height: 1000}
			if c.extra != nil {
				p.Tracks = append(c.extra, c.b)
			}
			r := mustRadio(t, p, c.rng)
			if g := r.Graph(); g.HasEdge(0, 1) != c.init || g.N() != 2 || g.Pos[1] != p.Tracks[1].At(0) || g.Width != 1000 {
				t.Fatalf("graph at 0: edge %v, want %v; %d nodes; pos %v", g.HasEdge(0, 1), c.init, g.N(), g.Pos)
			}
			if r.Plan() != p || r.Positions(30 * s)[1] != p.Tracks[1].At(30*s) {
				t.Fatal("Plan or Positions is not the plan's")
			}
			got := changesUntil(t, r, math.MaxInt64)
			if len(got) != len(c.want) {
				t.Fatalf("changes %v, want %v", got, c.want)
			}
			for i, w := range c.want {
				w.A, w.B = 0, 1
				if d := got[i].At - w.At; got[i].Up != w.Up || got[i].A != 0 || got[i].B != 1 || d < -1 || d > 1 {
					t.Errorf("change %d: %v, want %v (1 ns either way)", i, got[i], w)
				}
			}
			if _, ok := r.Next(); ok {
				t.Error("Next after the end returned a change")
			}
		})
	}
}

func TestRadioStatic(t *testing.T) {
	p, err := Static{Width: 1000, Height: 1000}.Plan(200, nil, 0, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	r := mustRadio(t, p, 150)
	if c, ok := r.Next(); ok {
		t.Fatalf("a still plan changes: %v", c)
	}
	g := r.Graph()
	for a := range 200 {
		for b := a + 1; b < 200; b++ {
			if want := dist(p.Tracks[a].Start, p.Tracks[b].Start) <= 150; g.HasEdge(algo.NodeID(a), algo.NodeID(b)) != want {
				t.Fatalf("edge %d-%d: %v, want %v", a, b, !want, want)
			}
		}
	}
	if g.M() == 0 || g.M() == 200*199/2 {
		t.Fatalf("%d edges: a poor test", g.M())
	}
}

func TestNewRadioErrors(t *testing.T) {
	ok := &Plan{Tracks: []Track{{}}}
	for _, c := range []struct {
		p    *Plan
		r    float64
		want string
	}{
		{ok, 0, "positive"}, {ok, -1, "positive"}, {ok, math.NaN(), "positive"}, {ok, math.Inf(1), "positive"},
		{&Plan{}, 1, "no nodes"}, {nil, 1, "no nodes"},
		{&Plan{Tracks: []Track{{Start: pt(math.NaN(), 0)}}}, 1, "node 0 starts"},
		{&Plan{Tracks: []Track{{}, {Legs: []Leg{{Start: 2 * s, End: 1 * s}}}}}, 1, "node 1 leg 0 ends"},
		{&Plan{Tracks: []Track{{Legs: []Leg{{Start: 0, End: 2 * s}, {Start: 1 * s, End: 3 * s}}}}}, 1, "before leg 0 ends"},
		{&Plan{Tracks: []Track{{Legs: []Leg{{To: pt(0, math.Inf(1))}}}}}, 1, "node 0 leg 0 goes"},
	} {
		if _, err := NewRadio(c.p, c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewRadio(range %v): %v, want an error with %q", c.r, err, c.want)
		}
	}
}

// refChanges is the reference: for every pair, its in-range intervals
// solved on each piece between the breakpoints of both tracks (every leg
// start and end), in seconds, straight from the legs, O(n²) pairs, no
// windows, no grid, no skipping. Intervals that touch are merged; those that
// start and end in the same nanosecond are dropped, as Radio drops them.
func refChanges(p *Plan, rng float64, until time.Duration) (init map[pairKey]bool, ch map[pairKey][]Change) {
	init, ch = map[pairKey]bool{}, map[pairKey][]Change{}
	end := until.Seconds()
	for a := range p.Tracks {
		for b := a + 1; b < len(p.Tracks); b++ {
			ta, tb := &p.Tracks[a], &p.Tracks[b]
			cuts := []float64{0, end}
			for _, tr := range []*Track{ta, tb} {
				for _, l := range tr.Legs {
					for _, c := range []time.Duration{l.Start, l.End} {
						if c > 0 && c < until {
							cuts = append(cuts, c.Seconds())
						}
					}
				}
			}
			slices.Sort(cuts)
			cuts = slices.Compact(cuts)
			type span struct{ lo, hi float64 }
			var in []span
			for k := 0; k+1 < len(cuts); k++ {
				t0, t1 := cuts[k], cuts[k+1]
				d0 := sub(tb.At(sec(t0)), ta.At(sec(t0)))
				d1 := sub(tb.At(sec(t1)), ta.At(sec(t1)))
				v := topo.Point{X: (d1.X - d0.X) / (t1 - t0), Y: (d1.Y - d0.Y) / (t1 - t0)}
				// |d0 + v·(t-t0)|² = R²
				qa := v.X*v.X + v.Y*v.Y
				qb := 2 * (d0.X*v.X + d0.Y*v.Y)
				qc := d0.X*d0.X + d0.Y*d0.Y - rng*rng
				var lo, hi float64
				if qa == 0 {
					if qc > 0 {
						continue
					}
					lo, hi = t0, t1
				} else {
					disc := qb*qb - 4*qa*qc
					if disc <= 0 {
						continue
					}
					r1 := (-qb - math.Sqrt(disc)) / (2 * qa)
					r2 := (-qb + math.Sqrt(disc)) / (2 * qa)
					lo, hi = math.Max(t0, t0+r1), math.Min(t1, t0+r2)
					if lo > hi {
						continue
					}
				}
				if n := len(in); n > 0 && lo-in[n-1].hi < 1e-9 {
					in[n-1].hi = hi
				} else {
					in = append(in, span{lo, hi})
				}
			}
			key := pairKey{algo.NodeID(a), algo.NodeID(b)}
			for i, sp := range in {
				if i == 0 && sp.lo == 0 {
					init[key] = true
				} else if ns(sp.lo) == ns(sp.hi) && sp.hi < end {
					continue
				} else {
					ch[key] = append(ch[key], Change{At: ns(sp.lo), A: key.a, B: key.b, Up: true})
				}
				if sp.hi < end {
					ch[key] = append(ch[key], Change{At: ns(sp.hi), A: key.a, B: key.b})
				}
			}
		}
	}
	return init, ch
}

func sub(a, b topo.Point) topo.Point { return topo.Point{X: a.X - b.X, Y: a.Y - b.Y} }
func sec(v float64) time.Duration    { return time.Duration(math.Round(v * 1e9)) }

// referencePlan is the seed-th plan of the reference test, of 30 nodes over
// 230 s: random waypoint at 1-20 m/s, slow waypoint without pauses in a long
// strip, or a random walk; and in every other plan, a few nodes that never
// move, and a few that start moving late; and in every fifth, everybody
// still for 50 s, in negative coordinates.
func referencePlan(t *testing.T, seed uint64) *Plan {
	rng := rand.New(rand.NewPCG(seed, 77))
	var p *Plan
	var err error
	switch seed % 3 {
	case 0:
		p, err = Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * s, Width: 800, Height: 600}.Plan(30, nil, 230*s, rng)
	case 1:
		p, err = Waypoint{MinSpeed: 0.5, MaxSpeed: 5, Width: 1500, Height: 300}.Plan(30, nil, 230*s, rng)
	case 2:
		p, err = Walk{MinSpeed: 1, MaxSpeed: 15, Interval: 5 * s, Width: 700, Height: 700}.Plan(30, nil, 230*s, rng)
	}
	if err != nil {
		t.Fatal(err)
	}
	if seed%5 == 4 {
		// Nobody moves for the first 50 s, in an area of negative
		// coordinates.
		for v := range p.Tracks {
			tr := &p.Tracks[v]
			tr.Start = pt(tr.Start.X-5000, tr.Start.Y-3000)
			for i := range tr.Legs {
				l := &tr.Legs[i]
				l.Start, l.End = l.Start+50*s, l.End+50*s
				l.From, l.To = pt(l.From.X-5000, l.From.Y-3000), pt(l.To.X-5000, l.To.Y-3000)
			}
		}
	}
	if seed%2 == 1 {
		for v := 0; v < 4; v++ {
			p.Tracks[v].Legs = nil
		}
		for v := 4; v < 8; v++ {
			tr := &p.Tracks[v]
			k := len(tr.Legs) / 2
			tr.Start, tr.Legs = tr.Legs[k].From, tr.Legs[k:]
		}
	}
	return p
}

// againstReference checks the changes of r up to until, which follows p at
// range rng (r may be made with another range, to see this check fail),
// against the reference, change by change, and its state at random
// instants against the distances then, away from the range by a
// micrometre. It returns the number of changes and the largest difference of
// instants.
func againstReference(t *testing.T, p *Plan, r *Radio, rng float64, until time.Duration, seed uint64) (int, time.Duration, error) {
	n := len(p.Tracks)
	got := changesUntil(t, r, until)
	gotBy, err := byPair(r.Graph(), got)
	if err != nil {
		return 0, 0, err
	}
	init, want := refChanges(p, rng, until)
	total, worst := 0, time.Duration(0)
	for a := range n {
		for b := a + 1; b < n; b++ {
			k := pairKey{algo.NodeID(a), algo.NodeID(b)}
			if r.Graph().HasEdge(k.a, k.b) != init[k] {
				return 0, 0, fmt.Errorf("pair %v at 0: %v, reference %v", k, !init[k], init[k])
			}
			g, w := gotBy[k], want[k]
			if len(g) != len(w) {
				return 0, 0, fmt.Errorf("pair %v: %d changes\n%v\nreference %d\n%v", k, len(g), g, len(w), w)
			}
			for i := range g {
				d := max(g[i].At-w[i].At, w[i].At-g[i].At)
				worst = max(worst, d)
				if g[i].Up != w[i].Up || d > 10 {
					return 0, 0, fmt.Errorf("pair %v change %d: %v, reference %v", k, i, g[i], w[i])
				}
			}
			total += len(g)
		}
	}
	state := map[pairKey]bool{}
	for _, e := range r.Graph().Edges() {
		state[pairKey{e.A, e.B}] = true
	}
	rnd := rand.New(rand.NewPCG(seed, 1))
	times := make([]time.Duration, 40)
	for i := range times {
		times[i] = time.Duration(rnd.Int64N(int64(until)))
	}
	slices.Sort(times)
	next := 0
	for _, at := range times {
		for ; next < len(got) && got[next].At <= at; next++ {
			state[pairKey{got[next].A, got[next].B}] = got[next].Up
		}
		pos := p.Positions(at)
		for a := range n {
			for b := a + 1; b < n; b++ {
				d := dist(pos[a], pos[b])
				if math.Abs(d-rng) < 1e-6 {
					continue
				}
				if state[pairKey{algo.NodeID(a), algo.NodeID(b)}] != (d <= rng) {
					return 0, 0, fmt.Errorf("at %v: pair %d-%d %.9f m apart, state %v", at, a, b, d, !(d <= rng))
				}
			}
		}
	}
	return total, worst, nil
}

// Radio against the reference on random plans.
func TestRadioReference(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	if v, err := strconv.Atoi(os.Getenv("RADIO_SEEDS")); err == nil {
		seeds = v // a long search: RADIO_SEEDS=5000 go test -run RadioReference
	}
	total := 0
	worst := time.Duration(0)
	for seed := range uint64(seeds) {
		p := referencePlan(t, seed)
		rng, until := 200.0, 200*s
		if seed%4 == 3 {
			rng = 75
		}
		n, w, err := againstReference(t, p, mustRadio(t, p, rng), rng, until, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		total, worst = total+n, max(worst, w)
	}
	t.Logf("%d changes agree with the reference, the farthest %v apart", total, worst)
	if total < 300*seeds {
		t.Errorf("only %d changes: a weak test", total)
	}
	// The check can fail: a radio a millimetre off, or one that loses a
	// single change, is caught.
	p := referencePlan(t, 0)
	if _, _, err := againstReference(t, p, mustRadio(t, p, 200.001), 200, 200*s, 0); err == nil {
		t.Error("a radio of 200.001 m passes for one of 200 m")
	}
	r := mustRadio(t, p, 200)
	r.Next()
	if _, _, err := againstReference(t, p, r, 200, 200*s, 0); err == nil {
		t.Error("a radio that loses its first change passes")
	}
}

// The same plan gives the same changes, twice.
func TestRadioDeterministic(t *testing.T) {
	w := Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * s, Width: 2000, Height: 2000}
	p, err := w.Plan(400, nil, 100*s, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	run := func() string {
		r := mustRadio(t, p, 250)
		var b strings.Builder
		for _, e := range r.Graph().Edges() {
			fmt.Fprintln(&b, e)
		}
		for _, c := range changesUntil(t, r, math.MaxInt64) {
			fmt.Fprintln(&b, c)
		}
		return b.String()
	}
	one, two := run(), run()
	if one != two {
		t.Fatal("the same plan, different changes")
	}
	if n := strings.Count(one, "up"); n < 100 {
		t.Fatalf("%d ups: a weak test", n)
	}
}
