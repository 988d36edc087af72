package topo

import (
	"math"
	"math/rand/v2"
)

// buildGeometric builds the unit-disk graph of n points uniform in the w by h
// area, joining every pair at distance <= r.
//
// The points are bucketed into a grid of cells at least r on a side (a
// counting sort into flat arrays, no per-node allocation), so that a pair
// within range lies in the same or in adjacent cells; each cell is compared
// with itself and with four of its eight neighbours (right, and the three
// below), so that every adjacent pair of cells is visited once.
func buildGeometric(n int, r, w, h float64, rng *rand.Rand) *Graph {
	pos := make([]Point, n)
	for i := range pos {
		x := rng.Float64() * w
		y := rng.Float64() * h
		pos[i] = Point{x, y}
	}
	return buildFromPositions(pos, r, w, h)
}

// buildFromPositions builds the unit-disk graph of the given positions, all
// within the w by h area.
func buildFromPositions(pos []Point, r, w, h float64) *Graph {
	n := len(pos)
	cx, cy := cellGrid(n, r, w, h)
	cw, ch := w/float64(cx), h/float64(cy) // >= r
	cellOf := func(p Point) int {
		i := min(int(p.X/cw), cx-1)
		j := min(int(p.Y/ch), cy-1)
		return j*cx + i
	}

	// Counting sort of the points by cell. After the placement pass, the
	// points of cell c are sorted[start[c]:start[c+1]], in ascending id order.
	ncell := cx * cy
	start := make([]int32, ncell+1)
	for _, p := range pos {
		start[cellOf(p)]++
	}
	sum := int32(0)
	for c := 0; c < ncell; c++ {
		sum += start[c]
		start[c] = sum // end of cell c, for now
	}
	start[ncell] = sum
	sorted := make([]Point, n)
	ids := make([]int32, n)
	for i := n - 1; i >= 0; i-- {
		c := cellOf(pos[i])
		start[c]--
		k := start[c]
		sorted[k] = pos[i]
		ids[k] = int32(i)
	}

	expect := float64(n) * float64(n-1) / 2 * min(1, math.Pi*(r/w)*(r/h))
	edges := make([]Edge, 0, int(expect+4*math.Sqrt(expect)+64))
	r2 := r * r

	// pairs appends the edges between cell a's points and cell b's points
	// (b after a).
	pairs := func(a0, a1, b0, b1 int32) {
		for i := a0; i < a1; i++ {
			p := sorted[i]
			for j := b0; j < b1; j++ {
				dx := p.X - sorted[j].X
				dy := p.Y - sorted[j].Y
				if dx*dx+dy*dy <= r2 {
					edges = append(edges, Edge{id(int(ids[i])), id(int(ids[j]))})
				}
			}
		}
	}
	for y := 0; y < cy; y++ {
		for x := 0; x < cx; x++ {
			c := y*cx + x
			a0, a1 := start[c], start[c+1]
			if a0 == a1 {
				continue
			}
			// Within the cell.
			for i := a0; i < a1; i++ {
				pairs(i, i+1, i+1, a1)
			}
			if x+1 < cx {
				pairs(a0, a1, start[c+1], start[c+2])
			}
			if y+1 < cy {
				d := c + cx
				lo, hi := d, d+1
				if x > 0 {
					lo--
				}
				if x+1 < cx {
					hi++
				}
				// Cells lo..hi-1 of the next row are contiguous in sorted.
				pairs(a0, a1, start[lo], start[hi])
			}
		}
	}

	g := New(n, edges)
	g.Pos = pos
	g.Width, g.Height = w, h
	return g
}

// cellGrid chooses the bucket grid: cx by cy cells, each at least r wide and
// high, and no more cells than a few per point, so that a tiny range in a
// huge area cannot ask for more cells than memory holds.
func cellGrid(n int, r, w, h float64) (cx, cy int) {
	// A hair over r, so that rounding in p.X/cw cannot put two points within
	// range two cells apart.
	side := r * (1 + 1e-6)
	maxCells := 2*n + 16
	fx := math.Floor(w / side)
	fy := math.Floor(h / side)
	fx = max(1, min(fx, float64(maxCells)))
	fy = max(1, min(fy, float64(maxCells)))
	if fx*fy > float64(maxCells) {
		f := math.Sqrt(float64(maxCells) / (fx * fy))
		fx = max(1, math.Floor(fx*f))
		fy = max(1, math.Floor(fy*f))
	}
	return int(fx), int(fy)
}
