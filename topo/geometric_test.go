package topo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteGeometric is the O(N^2) reference for buildGeometric.
func bruteGeometric(pos []Point, r float64) []Edge {
	var edges []Edge
	r2 := r * r
	for a := range pos {
		for b := a + 1; b < len(pos); b++ {
			dx := pos[a].X - pos[b].X
			dy := pos[a].Y - pos[b].Y
			if dx*dx+dy*dy <= r2 {
				edges = append(edges, Edge{id(a), id(b)})
			}
		}
	}
	return edges
}

func TestGeometricMatchesBruteForce(t *testing.T) {
	cases := []struct {
		n     int
		r     float64
		w, h  float64
		seeds int
	}{
		{1, 10, 1000, 1000, 2},
		{2, 2000, 1000, 1000, 3},         // range beyond the diagonal: one cell
		{50, 2000, 1000, 1000, 3},        // complete
		{300, 60, 1000, 1000, 5},         // 16x16 cells
		{300, 100, 1000, 1000, 5},        // exactly 10 cells a side (border rounding)
		{300, 250, 1000, 1000, 5},        // 3x3 cells, every cell a border cell
		{400, 30, 500, 200.5, 5},         // non-square area
		{400, 7, 100, 1000, 5},           // tall thin area
		{500, 0.01, 1000, 1000, 3},       // tiny range: cells capped by n
		{200, 1, 1e9, 1e9, 2},            // huge sparse area: cells capped
		{300, 0.5, 10, 10, 4},            // dense
		{257, 1000 / 3.0, 1000, 1000, 4}, // awkward side
		{1000, 45, 1000, 1000, 3},
	}
	for _, c := range cases {
		for seed := 0; seed < c.seeds; seed++ {
			g := buildGeometric(c.n, c.r, c.w, c.h, rand.New(rand.NewPCG(uint64(seed), 7)))
			want := bruteGeometric(g.Pos, c.r)
			slices.SortFunc(want, func(x, y Edge) int {
				if x.A != y.A {
					return int(x.A - y.A)
				}
				return int(x.B - y.B)
			})
			if got := g.Edges(); !slices.Equal(got, want) {
				t.Errorf("n=%d r=%v area %vx%v seed %d: %d edges, brute force %d", c.n, c.r, c.w, c.h, seed, len(got), len(want))
			}
			if len(g.Pos) != c.n || g.Width != c.w || g.Height != c.h {
				t.Errorf("n=%d: Pos %d, area %vx%v", c.n, len(g.Pos), g.Width, g.Height)
			}
			for _, p := range g.Pos {
				if !(p.X >= 0 && p.X <= c.w && p.Y >= 0 && p.Y <= c.h) {
					t.Fatalf("position %v outside %vx%v", p, c.w, c.h)
				}
			}
		}
	}
}

// TestGeometricBorderCells places points by hand on cell borders and at the
// area's edges, where rounding could put a pair within range two cells apart.
func TestGeometricBorderCells(t *testing.T) {
	// Range 100 in 1000x1000: cells of side ~100.
	pos := []Point{
		{0, 0}, {100, 0}, {200, 0}, {199.99999999, 0}, {300.00000001, 0},
		{999.9999999, 999.9999999}, {899.9999999, 999.9999999}, {1000, 1000}, {900, 1000},
		{500, 500}, {570.71067811865, 570.71067811865}, {429.29, 570.71}, {400, 400},
		{0, 1000}, {0, 900}, {100, 1000}, {1000, 0}, {1000, 100},
	}
	for _, r := range []float64{100, 99.99999999, 100.00000001, 50, 1000} {
		g := buildFromPositions(pos, r, 1000, 1000)
		want := bruteGeometric(pos, r)
		if got := g.Edges(); !slices.Equal(got, sortedEdges(want)) {
			t.Errorf("r=%v: edges %v, brute force %v", r, got, sortedEdges(want))
		}
	}
}

func sortedEdges(e []Edge) []Edge {
	return New(maxNode(e)+1, e).Edges()
}

func maxNode(e []Edge) int {
	m := 0
	for _, x := range e {
		m = max(m, int(x.A), int(x.B))
	}
	return m
}
