package sim

import (
	"math"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// layout orders nodes for memory, not for behaviour: the engine keeps node
// records, neighbour lists and machines in this order so that nodes near one
// another in the network sit near one another in memory. A wave or a flood
// then sweeps memory instead of jumping about it; on a million-node random
// geometric network, where ids are scattered over the area, that halves the
// run time. Nothing observable depends on it: boot order, event order and
// every id a machine or an observer sees are the same for any layout.
//
// Networks with positions are laid out cell by cell, row by row, in cells of
// about four nodes; others keep id order, which is already local for the
// regular families (line, ring, grid, layered).
func layout(g *topo.Graph) []algo.NodeID {
	n := g.N()
	order := make([]algo.NodeID, n)
	if g.Pos == nil || g.Width <= 0 || g.Height <= 0 {
		for i := range order {
			order[i] = algo.NodeID(i)
		}
		return order
	}
	side := 2 * math.Sqrt(g.Width*g.Height/float64(n))
	cols := int(g.Width/side) + 1
	rows := int(g.Height/side) + 1
	cell := func(p topo.Point) int {
		x := min(max(int(p.X/side), 0), cols-1)
		y := min(max(int(p.Y/side), 0), rows-1)
		return y*cols + x
	}
	// Counting sort by cell: stable, so ties keep id order.
	start := make([]int32, rows*cols+1)
	for _, p := range g.Pos {
		start[cell(p)+1]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	for v, p := range g.Pos {
		c := cell(p)
		order[start[c]] = algo.NodeID(v)
		start[c]++
	}
	return order
}
