package topo

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func build(t *testing.T, spec string, seed uint64) *Graph {
	t.Helper()
	s, err := Parse(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Build(newRand(seed), "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkSimple verifies the graph invariants: sorted neighbour lists without
// self-loops or duplicates, symmetric adjacency.
func checkSimple(t *testing.T, spec string, g *Graph) {
	t.Helper()
	for v := 0; v < g.N(); v++ {
		nb := g.Neighbors(algo.NodeID(v))
		for i, u := range nb {
			if u == algo.NodeID(v) || (i > 0 && nb[i-1] >= u) || u < 0 || int(u) >= g.N() {
				t.Fatalf("%s: bad neighbour list of %d: %v", spec, v, nb)
			}
			if !g.HasEdge(u, algo.NodeID(v)) {
				t.Fatalf("%s: edge %d-%d not symmetric", spec, v, u)
			}
		}
	}
}

func TestCounts(t *testing.T) {
	cases := []struct {
		spec      string
		n, m      int
		connected bool
	}{
		{"line:1", 1, 0, true},
		{"line:2", 2, 1, true},
		{"line:17", 17, 16, true},
		{"ring:3", 3, 3, true},
		{"ring:100", 100, 100, true},
		{"star:1", 1, 0, true},
		{"star:2", 2, 1, true},
		{"star:50", 50, 49, true},
		{"complete:1", 1, 0, true},
		{"complete:2", 2, 1, true},
		{"complete:40", 40, 780, true},
		{"grid:1x1", 1, 0, true},
		{"grid:1x7", 7, 6, true},
		{"grid:7x1", 7, 6, true},
		{"grid:3x4", 12, 2*4 + 3*3, true},
		{"grid:30x20", 600, 29*20 + 30*19, true},
		{"tree:1", 1, 0, true},
		{"tree:2", 2, 1, true},
		{"tree:3", 3, 2, true},
		{"tree:1000", 1000, 999, true},
		{"layered:1", 3, 3, true},
		{"layered:2", 9, 3*(4-2) + 3, true},
		{"layered:4", 45, 3*(16-2) + 3, true},
		{"layered:10", 3 * 1023, 3*(1024-2) + 3, true},
		{"gnp:1:0.5", 1, 0, true},
		{"gnp:30:0", 30, 0, false},
		{"gnp:30:1", 30, 435, true},
		{"ba:2:1", 2, 1, true},
		{"ba:100:1", 100, 99, true}, // a tree
		{"ba:100:3", 100, 6 + 96*3, true},
		{"ba:500:5", 500, 15 + 494*5, true},
	}
	for _, c := range cases {
		for seed := uint64(0); seed < 3; seed++ {
			g := build(t, c.spec, seed)
			if g.N() != c.n || g.M() != c.m {
				t.Errorf("%s seed %d: %d nodes %d edges, want %d and %d", c.spec, seed, g.N(), g.M(), c.n, c.m)
			}
			checkSimple(t, c.spec, g)
			if _, k := g.Components(); c.connected && k != 1 {
				t.Errorf("%s seed %d: %d components", c.spec, seed, k)
			}
		}
	}
}

func TestShapes(t *testing.T) {
	has := func(g *Graph, a, b int) bool { return g.HasEdge(algo.NodeID(a), algo.NodeID(b)) }
	line := build(t, "line:5", 0)
	for v := 1; v < 5; v++ {
		if !has(line, v-1, v) {
			t.Errorf("line:5 lacks %d-%d", v-1, v)
		}
	}
	ring := build(t, "ring:5", 0)
	if !has(ring, 4, 0) || !has(ring, 0, 1) || ring.Degree(2) != 2 {
		t.Errorf("ring:5 edges %v", ring.Edges())
	}
	star := build(t, "star:6", 0)
	if star.Degree(0) != 5 || star.Degree(3) != 1 || !has(star, 3, 0) {
		t.Errorf("star:6 edges %v", star.Edges())
	}
	grid := build(t, "grid:4x3", 0)
	// (x, y) is y*4+x: (1,1)=5 has neighbours (0,1)=4, (2,1)=6, (1,0)=1, (1,2)=9.
	if got := grid.Neighbors(5); !slices.Equal(got, []algo.NodeID{1, 4, 6, 9}) {
		t.Errorf("grid:4x3 neighbours of 5: %v", got)
	}
	if got := grid.Neighbors(3); !slices.Equal(got, []algo.NodeID{2, 7}) {
		t.Errorf("grid:4x3 neighbours of 3 (corner (3,0)): %v", got)
	}
	if has(grid, 3, 4) {
		t.Errorf("grid:4x3 wraps a row: 3-4")
	}
}

func TestLayered(t *testing.T) {
	for l := 1; l <= 6; l++ {
		s, err := Parse("layered:"+strconv.Itoa(l), 0)
		if err != nil {
			t.Fatal(err)
		}
		size := 1<<l - 1
		if s.N != 3*size {
			t.Errorf("layered:%d: Spec.N %d, want %d", l, s.N, 3*size)
		}
		g, err := s.Build(nil, "")
		if err != nil {
			t.Fatal(err)
		}
		var want []Edge
		for tr := 0; tr < 3; tr++ {
			base := tr * size
			for i := 0; i < size; i++ {
				for _, c := range []int{2*i + 1, 2*i + 2} {
					if c < size {
						want = append(want, Edge{id(base + i), id(base + c)})
					}
				}
			}
		}
		want = append(want, Edge{0, id(size)}, Edge{0, id(2 * size)}, Edge{id(size), id(2 * size)})
		if got := g.Edges(); !slices.Equal(got, sortedEdges(want)) {
			t.Errorf("layered:%d edges %v, want %v", l, got, sortedEdges(want))
		}
		if g.N() != 3*size || g.M() != 3*(1<<l-2)+3 {
			t.Errorf("layered:%d: %d nodes %d edges", l, g.N(), g.M())
		}
	}
	// layered:4 by hand: 45 nodes, roots 0, 15, 30; node 16 is tree 1's
	// first child, its children 18 and 19.
	g := build(t, "layered:4", 0)
	if g.N() != 45 || g.M() != 45 {
		t.Errorf("layered:4: %d nodes %d edges", g.N(), g.M())
	}
	for _, e := range [][2]int{{0, 15}, {15, 30}, {0, 30}, {15, 16}, {15, 17}, {16, 18}, {16, 19}, {21, 29}, {36, 44}} {
		if !g.HasEdge(id(e[0]), id(e[1])) {
			t.Errorf("layered:4 lacks %d-%d", e[0], e[1])
		}
	}
	if g.Degree(0) != 4 || g.Degree(1) != 3 || g.Degree(14) != 1 || g.Degree(44) != 1 {
		t.Errorf("layered:4 degrees: %d %d %d %d", g.Degree(0), g.Degree(1), g.Degree(14), g.Degree(44))
	}
}

func TestTreeUniform(t *testing.T) {
	// On 4 labelled nodes there are 4^2 = 16 trees: 4 stars and 12 paths.
	// Count how often each appears.
	const runs = 16000
	counts := map[string]int{}
	rng := newRand(1)
	s := Spec{Kind: KindTree, N: 4}
	for range runs {
		g, err := s.Build(rng, "")
		if err != nil {
			t.Fatal(err)
		}
		key := ""
		for _, e := range g.Edges() {
			key += string(rune('0'+e.A)) + string(rune('0'+e.B)) + " "
		}
		counts[key]++
	}
	if len(counts) != 16 {
		t.Fatalf("%d distinct trees on 4 nodes, want 16: %v", len(counts), counts)
	}
	for k, c := range counts {
		// Expected 1000 each; sd about 31.
		if c < 850 || c > 1150 {
			t.Errorf("tree %s drawn %d times of %d, want about 1000", k, c, runs)
		}
	}
}

func TestGNPEdgeCount(t *testing.T) {
	for _, c := range []struct {
		n int
		p float64
	}{{2000, 0.01}, {3000, 0.002}, {500, 0.5}, {100000, 1e-5}, {400, 0.999}} {
		for seed := uint64(0); seed < 3; seed++ {
			g := build(t, Spec{Kind: KindGNP, N: c.n, P: c.p}.String(), seed)
			pairs := float64(c.n) * float64(c.n-1) / 2
			mean := pairs * c.p
			sd := math.Sqrt(pairs * c.p * (1 - c.p))
			if d := math.Abs(float64(g.M()) - mean); d > 5*sd+1 {
				t.Errorf("gnp:%d:%v seed %d: %d edges, expected %.0f ± %.0f", c.n, c.p, seed, g.M(), mean, sd)
			}
			checkSimple(t, "gnp", g)
		}
	}
	// Every pair is equally likely: over many small graphs, each of the 10
	// pairs of 5 nodes appears with frequency p.
	const runs = 20000
	var hits [5][5]int
	rng := newRand(3)
	for range runs {
		g, _ := Spec{Kind: KindGNP, N: 5, P: 0.3}.Build(rng, "")
		for _, e := range g.Edges() {
			hits[e.A][e.B]++
		}
	}
	for a := 0; a < 5; a++ {
		for b := a + 1; b < 5; b++ {
			// Expected 6000, sd about 65.
			if h := hits[a][b]; h < 5600 || h > 6400 {
				t.Errorf("gnp:5:0.3: pair %d-%d in %d of %d graphs, want about 6000", a, b, h, runs)
			}
		}
	}
}

func TestBADegrees(t *testing.T) {
	for _, c := range []struct{ n, m int }{{2, 1}, {10, 9}, {1000, 1}, {1000, 2}, {2000, 4}, {300, 50}} {
		for seed := uint64(0); seed < 3; seed++ {
			g := build(t, Spec{Kind: KindBA, N: c.n, M: c.m}.String(), seed)
			sum, minDeg, maxDeg := 0, g.N(), 0
			for v := 0; v < g.N(); v++ {
				d := g.Degree(algo.NodeID(v))
				sum += d
				minDeg = min(minDeg, d)
				maxDeg = max(maxDeg, d)
			}
			want := c.m*(c.m+1) + 2*(c.n-c.m-1)*c.m
			if sum != want || g.M()*2 != want {
				t.Errorf("ba:%d:%d: degree sum %d, want %d", c.n, c.m, sum, want)
			}
			if minDeg < c.m {
				t.Errorf("ba:%d:%d: min degree %d < M", c.n, c.m, minDeg)
			}
			if _, k := g.Components(); k != 1 {
				t.Errorf("ba:%d:%d: %d components", c.n, c.m, k)
			}
			// Preferential attachment grows hubs: in ba:1000:1 and
			// ba:2000:4 some node has far more than the mean degree.
			if c.n >= 1000 && maxDeg < 8*c.m {
				t.Errorf("ba:%d:%d: max degree %d, no hub", c.n, c.m, maxDeg)
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	for _, spec := range []string{"tree:500", "geometric:2000:40", "geometric:300:80:500x200.5", "gnp:1000:0.01", "ba:800:3"} {
		a := build(t, spec, 42)
		b := build(t, spec, 42)
		c := build(t, spec, 43)
		if !slices.Equal(a.Edges(), b.Edges()) || !slices.Equal(a.Pos, b.Pos) {
			t.Errorf("%s: two builds with the same seed differ", spec)
		}
		if slices.Equal(a.Edges(), c.Edges()) && slices.Equal(a.Pos, c.Pos) {
			t.Errorf("%s: seeds 42 and 43 give the same graph", spec)
		}
	}
	// The rng is consumed deterministically: building twice from one rng
	// continues the same stream.
	r1, r2 := newRand(9), newRand(9)
	s := Spec{Kind: KindGNP, N: 300, P: 0.05}
	for range 3 {
		a, _ := s.Build(r1, "")
		b, _ := s.Build(r2, "")
		if !slices.Equal(a.Edges(), b.Edges()) {
			t.Fatal("gnp: same rng state, different graphs")
		}
	}
}

func TestBuildRejects(t *testing.T) {
	cases := []struct {
		s    Spec
		want string
	}{
		{Spec{Kind: KindTree, N: 5}, "random source"},
		{Spec{Kind: "blob", N: 5}, "unknown kind"},
		{Spec{Kind: KindRing, N: 2}, "at least 3"},
		{Spec{Kind: KindLine}, "not positive"},
		{Spec{Kind: KindLine, N: MaxNodes + 1}, "limit"},
		{Spec{Kind: KindComplete, N: 100000}, "limit of 1000000000"},
		{Spec{Kind: KindGeometric, N: 10, Range: math.NaN()}, "range"},
		{Spec{Kind: KindGeometric, N: 10, Range: math.Inf(1)}, "range"},
		{Spec{Kind: KindGeometric, N: 10, Range: 1, Width: -1}, "area"},
		{Spec{Kind: KindGeometric, N: 10, Range: 1, Height: math.Inf(1)}, "area"},
		{Spec{Kind: KindGeometric, N: 1000000, Range: 100}, "limit"},
		{Spec{Kind: KindGNP, N: 10, P: math.NaN()}, "probability"},
		{Spec{Kind: KindGNP, N: 10, P: 1.5}, "probability"},
		{Spec{Kind: KindGNP, N: MaxNodes, P: 0.001}, "limit"},
		{Spec{Kind: KindBA, N: 10, M: 10}, "M < N"},
		{Spec{Kind: KindBA, N: 10, M: 0}, "M < N"},
		{Spec{Kind: KindBA, N: MaxNodes, M: 20}, "limit"},
		{Spec{Kind: KindGrid, W: 0, H: 3}, "W, H >= 1"},
		{Spec{Kind: KindGrid, W: 50000, H: 50000}, "limit"},
		{Spec{Kind: KindGrid, W: 3, H: 3, N: 8}, "9 nodes"},
		{Spec{Kind: KindLayered, L: 0}, "L >= 1"},
		{Spec{Kind: KindLayered, L: 30}, "limit"},
		{Spec{Kind: KindFile}, "PATH"},
	}
	for _, c := range cases {
		_, err := c.s.Build(nil, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build(%+v) = %v, want an error mentioning %q", c.s, err, c.want)
		}
	}
	// A zero geometric area is the default.
	g, err := Spec{Kind: KindGeometric, N: 10, Range: 100}.Build(newRand(1), "")
	if err != nil || g.Width != 1000 || g.Height != 1000 {
		t.Errorf("zero area: %v, %vx%v", err, g.Width, g.Height)
	}
}
