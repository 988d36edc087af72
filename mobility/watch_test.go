package mobility

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// windowed is the search the radio did before it watched pairs, kept as the
// watch's oracle: in every window, every pair with a moving node that
// passes the skip test is solved, from the state its last change left it
// in; the window's changes are sorted by comparison. It lays out the paths
// as the radio does (paths), and solves as it does (solve): what it checks
// is which pairs the watch solves and the states it solves them from.
func windowed(t *testing.T, p *Plan, rng float64, until time.Duration) (*topo.Graph, []Change) {
	r := mustRadio(t, p, rng)
	n := len(p.Tracks)
	in := make([][]bool, n)
	for a := range in {
		in[a] = make([]bool, n)
	}
	for _, e := range r.Graph().Edges() {
		in[e.A][e.B] = true
	}
	var out []Change
	for r.first != math.MaxInt64 {
		t0, t1 := r.t0, time.Duration(math.MaxInt64)
		if r.first < math.MaxInt64-r.win {
			t1 = r.first + r.win
		}
		r.paths(t0, t1)
		r.evs = r.evs[:0]
		for a := range int32(n) {
			for b := a + 1; b < int32(n); b++ {
				na, nb := &r.nodes[a], &r.nodes[b]
				if na.travel == 0 && nb.travel == 0 || !r.mayChange(na, nb) {
					continue
				}
				var ba, bb [2]stop
				in[a][b] = r.solve(a, b, r.stops(a, &ba, t0, t1), r.stops(b, &bb, t0, t1), in[a][b], t0, t1)
			}
		}
		slices.SortFunc(r.evs, func(x, y Change) int {
			return cmp.Or(cmp.Compare(x.At, y.At), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
		})
		for _, c := range r.evs {
			if c.At > until {
				return r.Graph(), out
			}
			out = append(out, c)
		}
		r.t0 = t1
	}
	return r.Graph(), out
}

// The radio's changes are the windowed search's, bit for bit, on plans of
// every kind (testPlans); WATCH_SEEDS=n tries n plans.
func TestRadioMatchesWindowed(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 40
	}
	if v, err := strconv.Atoi(os.Getenv("WATCH_SEEDS")); err == nil {
		seeds = v
	}
	total := 0
	for seed := range uint64(seeds) {
		name, p, rng, until := testPlans(t, seed)
		g, want := windowed(t, p, rng, until)
		r := mustRadio(t, p, rng)
		if !slices.Equal(r.Graph().Edges(), g.Edges()) {
			t.Fatalf("%s: links at 0 differ", name)
		}
		got := changesUntil(t, r, until)
		if len(got) != len(want) {
			t.Errorf("%s: %d changes, the windowed search %d", name, len(got), len(want))
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%s: change %d is %v, the windowed search's %v", name, i, got[i], want[i])
			}
		}
		total += len(want)
	}
	t.Logf("%d changes in %d plans", total, seeds)
	if total < 100*seeds {
		t.Errorf("only %d changes: a weak test", total)
	}
}

// cellPlan's nodes are on the radio's cell edges indeed.
func TestCellPlanOnEdges(t *testing.T) {
	p, rng := cellPlan(30, time.Minute, rand.New(rand.NewPCG(1, 2)))
	r := mustRadio(t, p, rng)
	if side := cellSide(rng, 10, 1e4); r.w.g.side != side {
		t.Fatalf("cells of %v m, cellSide says %v", r.w.g.side, side)
	}
	for _, tr := range p.Tracks[2:] {
		if kx, ky := math.Round(tr.Start.X/r.w.g.side), math.Round(tr.Start.Y/r.w.g.side); tr.Start != pt(kx*r.w.g.side, ky*r.w.g.side) {
			t.Fatalf("%v is not on a corner of a cell", tr.Start)
		}
	}
}

// Two points at most a side apart are in the same or adjacent cells, and
// the grid's lists follow moves.
func TestCells(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct{ side, scale float64 }{{312.5, 1e4}, {0.3, 1e7}, {2e5, 3e7}, {1, 1e300}} {
		var g cells
		g.reset(2, c.side)
		for range 10000 {
			p := pt((rnd.Float64()-0.5)*c.scale, (rnd.Float64()-0.5)*c.scale)
			if rnd.IntN(4) == 0 { // on an edge
				p.X = math.Round(p.X/c.side) * c.side
			}
			a := rnd.Float64() * 2 * math.Pi
			q := pt(p.X+c.side*math.Cos(a), p.Y+c.side*math.Sin(a))
			if dist(p, q) > c.side {
				continue
			}
			x, y := g.coords(p)
			x2, y2 := g.coords(q)
			if !adjacentCells(x, y, x2, y2) {
				t.Fatalf("side %v: %v in cell (%d, %d), %v %v away in (%d, %d)", c.side, p, x, y, q, dist(p, q), x2, y2)
			}
		}
	}
	var g cells
	g.reset(3, 10)
	g.put(0, g.get(0, 0), 0, 0)
	g.put(1, g.get(0, 0), 0, 0)
	g.put(2, g.get(1, 0), 1, 0)
	g.move(0, 1, 0, 1) // to a neighbour
	g.move(1, 50, -7, 1)
	g.move(2, 0, 0, 1)
	for v, want := range [][2]int64{{1, 0}, {50, -7}, {0, 0}} {
		at := g.at[v]
		if at.x != want[0] || at.y != want[1] || g.list[at.c].nodes[at.slot] != int32(v) || g.list[at.c].x != want[0] || g.list[at.c].y != want[1] {
			t.Fatalf("node %d at %+v, want cell %v", v, at, want)
		}
	}
	if g.prev[1] != [2]int64{0, 0} || g.moved[1] != 1 {
		t.Fatalf("node 1 came from %v in window %d", g.prev[1], g.moved[1])
	}
	if c := g.list[g.at[0].c]; c.nb[3] != g.at[2].c || g.list[g.at[2].c].nb[5] != g.at[0].c {
		t.Fatal("cells (0, 0) and (1, 0) are not neighbours")
	}
}

// A wake-up is taken in the window that contains its instant or earlier,
// never later, however far it is and however windows jump.
func TestCalendar(t *testing.T) {
	const win = 3 * time.Second
	rnd := rand.New(rand.NewPCG(4, 4))
	var c calendar
	c.reset(win)
	pending := map[int32]time.Duration{}
	next := int32(0)
	t1 := time.Duration(0)
	for step := 0; step < 3000; step++ {
		// Windows of one length, or much longer after a gap.
		t0 := t1
		t1 = t0 + win
		if rnd.IntN(50) == 0 {
			t1 += time.Duration(rnd.Int64N(int64(5000 * win)))
		}
		for _, sp := range c.take(t1, nil) {
			for _, e := range c.wakeups(sp) {
				if at, ok := pending[e.a]; !ok {
					t.Fatalf("wake-up %d taken twice", e.a)
				} else if at <= t0 {
					t.Fatalf("wake-up %d for %v taken in (%v, %v]: late", e.a, at, t0, t1)
				}
				delete(pending, e.a)
			}
			c.release([]span{sp})
		}
		for id, at := range pending {
			if at <= t1 {
				t.Fatalf("wake-up %d for %v not taken by %v", id, at, t1)
			}
		}
		for range rnd.IntN(40) {
			at := t1 + 1 + time.Duration(rnd.Int64N(int64(3000*win)))
			if rnd.IntN(10) == 0 {
				at = t1 + time.Duration(rnd.Int64N(int64(win)))
			}
			c.put(wakeup{a: next}, at)
			pending[next] = at
			next++
		}
	}
	// The end of time.
	c.reset(win)
	t1 = math.MaxInt64 - 2*win
	c.take(t1, nil)
	c.put(wakeup{a: 1}, math.MaxInt64-1)
	c.put(wakeup{a: 2}, t1+1)
	taken := 0
	for _, sp := range c.take(math.MaxInt64, nil) {
		taken += len(c.wakeups(sp))
	}
	if taken != 2 {
		t.Fatalf("%d wake-ups taken at the end of time, want 2", taken)
	}
}

// nearR is never later than the first instant at which the distance is
// within the band, and finds it within a hair where it is.
func TestNearR(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	w := watch{band: 1e-3}
	const rng = 100.0
	w.ro2, w.ri2 = (rng+w.band)*(rng+w.band), (rng-w.band)*(rng-w.band)
	for range 20000 {
		d := pt((rnd.Float64()-0.5)*400, (rnd.Float64()-0.5)*400)
		v := pt((rnd.Float64()-0.5)*4e-8, (rnd.Float64()-0.5)*4e-8) // up to 20 m/s
		if rnd.IntN(10) == 0 {
			v = pt(0, 0)
		}
		t0 := time.Duration(rnd.Int64N(1e12))
		lin := t0 + time.Duration(rnd.Int64N(1e12))
		at := w.nearR(d.X, d.Y, v.X, v.Y, t0, lin)
		if at < t0 || at > lin {
			t.Fatalf("d %v v %v: %v outside [%v, %v]", d, v, at, t0, lin)
		}
		// The true first instant within the band, by bisection over
		// the stretch where the distance falls (or at t0).
		dAt := func(u float64) float64 { return math.Hypot(d.X+v.X*u, d.Y+v.Y*u) }
		inBand := func(u float64) bool { return math.Abs(dAt(u)-rng) <= w.band }
		horizon := float64(lin - t0)
		first := math.Inf(1)
		const steps = 4000
		for i := 0; i <= steps; i++ {
			if u := horizon * float64(i) / steps; inBand(u) {
				first = u
				break
			}
		}
		if !math.IsInf(first, 1) && float64(at-t0) > first+1 {
			t.Fatalf("d %v v %v: band at +%v ns, nearR says +%v", d, v, first, at-t0)
		}
		if at < lin && !math.IsInf(first, 1) {
			continue
		}
		if at < lin && at > t0 {
			// Not found by sampling: it must be a brush within a step.
			if u := float64(at - t0); math.Abs(dAt(u)-rng) > w.band+math.Hypot(v.X, v.Y)*horizon/steps {
				t.Fatalf("d %v v %v: nearR says +%v, where the distance is %v", d, v, at-t0, dAt(u))
			}
		}
	}
}

// sortChanges orders by (At, A, B) and drops copies, by radix or, for a
// window too long or nodes too many, by comparison.
func TestSortChanges(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 6))
	var s sorter
	for _, c := range []struct {
		n      int
		t0, t1 time.Duration
		same   bool // many changes at one instant
	}{
		{100, 0, 3 * time.Second, false},
		{10000, 5 * time.Second, 8 * time.Second, false},
		{10000, 5 * time.Second, 8 * time.Second, true},
		{40000, 0, 3 * time.Second, false},            // 2*16 + 32 bits: indices alongside
		{70000, 0, 3 * time.Second, false},            // 2*17 + 32 bits: by comparison
		{1000, 0, math.MaxInt64 / 2, false},           // a long window
		{2, math.MaxInt64 - 10, math.MaxInt64, false}, // at the end of time
	} {
		var evs []Change
		for range 5000 {
			a := algo.NodeID(rnd.IntN(c.n - 1))
			b := a + 1 + algo.NodeID(rnd.IntN(c.n-1-int(a)))
			at := c.t0 + 1 + time.Duration(rnd.Int64N(int64(c.t1-c.t0)))
			if c.same {
				at = c.t0 + 1
			}
			// (A pair's state at an instant is one: Up follows from the rest.)
			ch := Change{At: at, A: a, B: b, Up: (int64(at)^int64(a)*7^int64(b)*13)&1 == 0}
			evs = append(evs, ch)
			if rnd.IntN(10) == 0 {
				evs = append(evs, ch) // a copy
			}
		}
		want := slices.Clone(evs)
		slices.SortFunc(want, func(x, y Change) int {
			return cmp.Or(cmp.Compare(x.At, y.At), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B), cmp.Compare(boolInt(x.Up), boolInt(y.Up)))
		})
		want = slices.CompactFunc(want, func(x, y Change) bool { return x.At == y.At && x.A == y.A && x.B == y.B })
		got := sortChanges(evs, c.n, c.t0, c.t1, &s)
		if !slices.Equal(got, want) {
			t.Fatalf("n %d, window (%v, %v]: sorted wrong", c.n, c.t0, c.t1)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
