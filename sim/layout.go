package sim

import (
	"math"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// arrangeMin is the smallest network whose observers are told the layout
// (trace.Arranger). Below it their per-node arrays stay in the caches
// whatever the order, and looking a node's place up can only cost. Above
// it, it pays: the 100k-node echo file ran 1.085x slower with observers
// told only from 262,144 nodes on (9 alternating pairs).
const arrangeMin = 1 << 16

// layout orders nodes for memory, not for behaviour: the engine keeps node
// records, neighbour lists and machines in this order, and tells observers
// that keep per-node state (trace.Arranger) to do the same, so that nodes
// near one another in the network sit near one another in memory. A wave or
// a flood then sweeps memory instead of jumping about it; on a million-node
// geometric network whose ids are scattered over the area, that halves the
// run time. Nothing observable depends on it: boot order, event order and
// every id a machine or an observer sees are the same for any layout.
//
// Networks with positions are laid out cell by cell, row by row, in cells of
// about four nodes. Others are laid out in breadth-first order, component by
// component, unless their ids are already about as local (the regular
// families: line, ring, grid, layered), which keep id order.
func layout(g *topo.Graph) []algo.NodeID {
	if g.Pos != nil && g.Width > 0 && g.Height > 0 {
		return cellOrder(g)
	}
	order := breadthFirst(g)
	place := make([]int32, len(order))
	for k, v := range order {
		place[v] = int32(k)
	}
	if 2*spread(g, place) < spread(g, nil) {
		return order
	}
	for i := range order {
		order[i] = algo.NodeID(i)
	}
	return order
}

// cellOrder sorts nodes by the grid cell of their position.
func cellOrder(g *topo.Graph) []algo.NodeID {
	n := g.N()
	order := make([]algo.NodeID, n)
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

// breadthFirst lists the nodes in breadth-first order from the smallest id
// of each component, neighbours in ascending id: the order of a wave, which
// keeps most links between nodes a few records apart (a band about as wide
// as the largest level). The order slice is its own queue.
func breadthFirst(g *topo.Graph) []algo.NodeID {
	n := g.N()
	order := make([]algo.NodeID, 0, n)
	seen := make([]bool, n)
	for s := range n {
		if seen[s] {
			continue
		}
		seen[s] = true
		order = append(order, algo.NodeID(s))
		for i := len(order) - 1; i < len(order); i++ {
			for _, u := range g.Neighbors(order[i]) {
				if !seen[u] {
					seen[u] = true
					order = append(order, u)
				}
			}
		}
	}
	return order
}

// spreadSample is how many nodes spread looks at.
const spreadSample = 4096

// spread estimates how far apart a layout puts the ends of a link: the mean
// distance between their places (place[v], or v itself when place is nil)
// over the links of a sample of nodes spaced evenly through the ids.
func spread(g *topo.Graph, place []int32) float64 {
	at := func(v algo.NodeID) float64 {
		if place == nil {
			return float64(v)
		}
		return float64(place[v])
	}
	var sum, links float64
	for v := 0; v < g.N(); v += max(1, g.N()/spreadSample) {
		for _, u := range g.Neighbors(algo.NodeID(v)) {
			sum += math.Abs(at(u) - at(algo.NodeID(v)))
			links++
		}
	}
	return sum / max(links, 1)
}
