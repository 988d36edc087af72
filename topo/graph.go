// Package topo builds the networks elect runs on: an immutable undirected graph
// in compressed adjacency form (one offsets array, one neighbours array) so that
// a million nodes with ten neighbours each take tens of megabytes, the
// generators behind the topology specs (line:N, grid:WxH, geometric:N:RANGE,
// ...), and the parser of those specs.
//
// It imports algo and layer 0 only: no engine, judge or driver
// (docs/architecture.md).
package topo

import (
	"slices"

	"github.com/electgo/elect/algo"
)

// Point is a position in the plane, in metres.
type Point struct{ X, Y float64 }

// Edge is an undirected edge between two distinct nodes.
type Edge struct{ A, B algo.NodeID }

// Graph is an undirected simple graph on nodes 0..N()-1. Neighbour lists are
// sorted ascending. A Graph is never modified after it is built; the simulator
// keeps its own mutable view of which links are up.
type Graph struct {
	off []int         // neighbours of v are adj[off[v]:off[v+1]]
	adj []algo.NodeID //
	// Pos holds node positions for graphs that have them (geometric); nil
	// otherwise.
	Pos []Point
	// Width and Height are the area the positions lie in, when Pos is set.
	Width, Height float64
}

// New builds a graph on n nodes from an edge list. Self-loops are dropped and
// duplicate edges (in either direction) kept once. Endpoints must lie in
// [0, n); New panics otherwise, as generators produce them.
func New(n int, edges []Edge) *Graph { return fromChunks(n, [][]Edge{edges}) }

// N is the number of nodes.
func (g *Graph) N() int { return len(g.off) - 1 }

// M is the number of undirected edges.
func (g *Graph) M() int { return len(g.adj) / 2 }

// Neighbors returns v's neighbours in ascending order. The slice is shared:
// don't modify it.
func (g *Graph) Neighbors(v algo.NodeID) []algo.NodeID {
	return g.adj[g.off[v]:g.off[v+1]:g.off[v+1]]
}

// Degree is the number of v's neighbours.
func (g *Graph) Degree(v algo.NodeID) int { return g.off[v+1] - g.off[v] }

// HasEdge reports whether a and b are adjacent.
func (g *Graph) HasEdge(a, b algo.NodeID) bool {
	_, ok := slices.BinarySearch(g.Neighbors(a), b)
	return ok
}

// Edges returns every edge once, with A < B, in ascending order of (A, B).
func (g *Graph) Edges() []Edge {
	out := make([]Edge, 0, g.M())
	for v := 0; v < g.N(); v++ {
		for _, u := range g.Neighbors(algo.NodeID(v)) {
			if algo.NodeID(v) < u {
				out = append(out, Edge{algo.NodeID(v), u})
			}
		}
	}
	return out
}

// Components labels the connected components: comp[v] is the index of v's
// component, numbered in order of their smallest node; it also returns their
// count.
func (g *Graph) Components() (comp []int32, count int) {
	n := g.N()
	comp = make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	queue := make([]algo.NodeID, 0, 64)
	for s := 0; s < n; s++ {
		if comp[s] >= 0 {
			continue
		}
		c := int32(count)
		count++
		comp[s] = c
		queue = append(queue[:0], algo.NodeID(s))
		for len(queue) > 0 {
			v := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, u := range g.Neighbors(v) {
				if comp[u] < 0 {
					comp[u] = c
					queue = append(queue, u)
				}
			}
		}
	}
	return comp, count
}
