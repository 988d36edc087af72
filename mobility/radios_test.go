package mobility

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// A strong transmitter passes a weak one: the weak node hears the strong
// one first (the link comes up carrying one way), both hear each other
// while close, and the weak one's voice fades first as they part.
func TestRadiosKnown(t *testing.T) {
	p := &Plan{Tracks: []Track{
		{Start: pt(0, 0)}, // weak: 100 m
		{Start: pt(300, 0), Legs: []Leg{{Start: 0, End: 60 * s, From: pt(300, 0), To: pt(-300, 0)}}}, // strong: 200 m, at 10 m/s
	}, Width: 1000, Height: 1000}
	rs, err := NewRadios(p, []float64{100, 200})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Graph().M() != 0 || len(rs.Cut()) != 0 {
		t.Fatalf("at 0: %d links, cut %v; want none", rs.Graph().M(), rs.Cut())
	}
	var got []string
	for {
		c, ok := rs.Next()
		if !ok {
			break
		}
		got = append(got, c.String())
	}
	// 1 reaches 0 at x=200 (t=10 s): the link comes up, 0 -> 1 cut first;
	// 0 reaches 1 at x=100 (20 s); 0's voice is lost at x=-100 (40 s); 1's at
	// x=-200 (50 s), taking the link down, and 0 -> 1 whole again after.
	// A pair is in its new state from the first nanosecond after a crossing
	// (at the crossing itself it is still at the range: in).
	want := []string{"10s 0->1 down", "10s 0-1 up", "20s 0->1 up", "40.000000001s 0->1 down", "50.000000001s 0-1 down", "50.000000001s 0->1 up"}
	if len(got) != len(want) {
		t.Fatalf("changes %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// Against the distances: at random instants, away from every range by a
// micrometre, direction u -> v carries exactly while their distance is at
// most u's range, and a link is up while either direction carries.
func TestRadiosReference(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		p := referencePlan(t, seed)
		rng := rand.New(rand.NewPCG(seed, 5))
		ranges := make([]float64, len(p.Tracks))
		for v := range ranges {
			ranges[v] = []float64{60, 120, 200}[rng.IntN(3)]
		}
		rs, err := NewRadios(p, ranges)
		if err != nil {
			t.Fatal(err)
		}
		cut := map[[2]algo.NodeID]bool{} // directions cut
		up := map[[2]algo.NodeID]bool{}  // links, lower id first
		for _, e := range rs.Graph().Edges() {
			up[[2]algo.NodeID{e.A, e.B}] = true
		}
		for _, d := range rs.Cut() {
			cut[[2]algo.NodeID{d.A, d.B}] = true
		}
		var changes []Change
		for {
			c, ok := rs.Next()
			if !ok || c.At > 220*s {
				break
			}
			changes = append(changes, c)
		}
		checked := 0
		next := 0
		for at := time.Duration(0); at < 220*s; at += time.Duration(rng.Int64N(int64(2 * s))) {
			for ; next < len(changes) && changes[next].At <= at; next++ {
				c := changes[next]
				pair := [2]algo.NodeID{c.A, c.B}
				switch c.Way {
				case 0:
					up[pair] = c.Up
				case 1:
					cut[pair] = !c.Up
				case 2:
					cut[[2]algo.NodeID{c.B, c.A}] = !c.Up
				}
			}
			pos := p.Positions(at)
			for u := range pos {
				for v := range pos {
					if u == v {
						continue
					}
					d := math.Hypot(pos[u].X-pos[v].X, pos[u].Y-pos[v].Y)
					if math.Abs(d-ranges[u]) < 1e-6 || math.Abs(d-ranges[v]) < 1e-6 {
						continue
					}
					dir := [2]algo.NodeID{algo.NodeID(u), algo.NodeID(v)}
					a, b := min(u, v), max(u, v)
					linked := up[[2]algo.NodeID{algo.NodeID(a), algo.NodeID(b)}]
					if want := d <= ranges[u]; (linked && !cut[dir]) != want {
						t.Fatalf("seed %d at %v: %d -> %d (distance %.3f, range %g) carries %v, want %v", seed, at, u, v, d, ranges[u], linked && !cut[dir], want)
					}
					if !linked && cut[dir] {
						t.Fatalf("seed %d at %v: %d -> %d is cut on a link that is down", seed, at, u, v)
					}
					if want := d <= math.Max(ranges[u], ranges[v]); linked != want {
						t.Fatalf("seed %d at %v: link %d-%d (distance %.3f) up %v, want %v", seed, at, a, b, d, linked, want)
					}
					checked++
				}
			}
		}
		if checked < 10000 || len(changes) < 50 {
			t.Errorf("seed %d: only %d checks over %d changes", seed, checked, len(changes))
		}
	}
}
