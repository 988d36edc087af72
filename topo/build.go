package topo

import (
	"fmt"
	"math/rand/v2"

	"github.com/electgo/elect/algo"
)

// Build generates the graph of s.
//
// rng is used by the random families only (tree, geometric, gnp, ba) and may be
// nil for the others. It is consumed deterministically: the same spec and the
// same rng state give the identical graph, with the same edges and, for
// geometric, the same positions.
//
// baseDir resolves a relative file:PATH (normally the directory of the
// scenario file); "" means the working directory. The file holds one edge
// "a b" per line (whitespace-separated non-negative integer ids); '#' starts a
// comment that runs to the end of the line; blank lines are ignored; the node
// count is the largest id + 1 unless a line "nodes K" (anywhere in the file)
// declares K nodes, in which case every id must be below K. Self-loops are
// errors, duplicate edges are kept once. Errors name the file and line.
func (s Spec) Build(rng *rand.Rand, baseDir string) (*Graph, error) {
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("topology %q: %w", s.String(), err)
	}
	switch s.Kind {
	case KindTree, KindGeometric, KindGNP, KindBA:
		if rng == nil {
			return nil, fmt.Errorf("topology %q: %s needs a random source, got a nil rng", s.String(), s.Kind)
		}
	}
	switch s.Kind {
	case KindLine:
		return buildLine(s.N), nil
	case KindRing:
		return buildRing(s.N), nil
	case KindStar:
		return buildStar(s.N), nil
	case KindComplete:
		return buildComplete(s.N), nil
	case KindGrid:
		return buildGrid(s.W, s.H), nil
	case KindLayered:
		return buildLayered(s.L), nil
	case KindTree:
		return buildTree(s.N, rng), nil
	case KindGNP:
		return buildGNP(s.N, s.P, rng), nil
	case KindBA:
		return buildBA(s.N, s.M, rng), nil
	case KindGeometric:
		w, h := s.area()
		return buildGeometric(s.N, s.Range, w, h, rng), nil
	case KindFile:
		return readEdgeFile(s.Path, baseDir)
	}
	panic("unreachable: check accepted kind " + string(s.Kind))
}

func id(v int) algo.NodeID { return algo.NodeID(v) }

func buildLine(n int) *Graph {
	edges := make([]Edge, 0, n-1)
	for v := 1; v < n; v++ {
		edges = append(edges, Edge{id(v - 1), id(v)})
	}
	return New(n, edges)
}

func buildRing(n int) *Graph {
	edges := make([]Edge, 0, n)
	for v := 1; v < n; v++ {
		edges = append(edges, Edge{id(v - 1), id(v)})
	}
	edges = append(edges, Edge{id(n - 1), 0})
	return New(n, edges)
}

func buildStar(n int) *Graph {
	edges := make([]Edge, 0, n-1)
	for v := 1; v < n; v++ {
		edges = append(edges, Edge{0, id(v)})
	}
	return New(n, edges)
}

func buildComplete(n int) *Graph {
	edges := make([]Edge, 0, n*(n-1)/2)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			edges = append(edges, Edge{id(a), id(b)})
		}
	}
	return New(n, edges)
}

// buildGrid builds the w by h 4-neighbour lattice, node (x, y) being y*w+x.
func buildGrid(w, h int) *Graph {
	edges := make([]Edge, 0, (w-1)*h+w*(h-1))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := y*w + x
			if x+1 < w {
				edges = append(edges, Edge{id(v), id(v + 1)})
			}
			if y+1 < h {
				edges = append(edges, Edge{id(v), id(v + w)})
			}
		}
	}
	return New(w*h, edges)
}

// buildLayered builds layered:l: three complete binary trees of l levels in
// heap order, tree t at ids t*(2^l-1)..., roots joined in a triangle.
func buildLayered(l int) *Graph {
	size := 1<<l - 1
	n := 3 * size
	edges := make([]Edge, 0, 3*(size-1)+3)
	for t := 0; t < 3; t++ {
		base := t * size
		for i := 1; i < size; i++ {
			edges = append(edges, Edge{id(base + (i-1)/2), id(base + i)})
		}
	}
	edges = append(edges, Edge{0, id(size)}, Edge{id(size), id(2 * size)}, Edge{0, id(2 * size)})
	return New(n, edges)
}
