package topo

import (
	"math"
	"math/rand/v2"
)

// buildTree builds a uniformly random labelled tree on n nodes by decoding a
// uniformly random Prüfer sequence in O(n).
func buildTree(n int, rng *rand.Rand) *Graph {
	if n < 2 {
		return New(n, nil)
	}
	seq := make([]int32, n-2)
	degree := make([]int32, n) // 1 + occurrences in the rest of seq
	for i := range degree {
		degree[i] = 1
	}
	for i := range seq {
		v := int32(rng.IntN(n))
		seq[i] = v
		degree[v]++
	}
	edges := make([]Edge, 0, n-1)
	// ptr scans for the smallest leaf not yet removed; leaf is the current
	// smallest leaf, which can fall below ptr when a node becomes a leaf.
	ptr := 0
	for degree[ptr] != 1 {
		ptr++
	}
	leaf := ptr
	for _, v := range seq {
		edges = append(edges, Edge{id(leaf), id(int(v))})
		degree[v]--
		if degree[v] == 1 && int(v) < ptr {
			leaf = int(v)
			continue
		}
		ptr++
		for degree[ptr] != 1 {
			ptr++
		}
		leaf = ptr
	}
	edges = append(edges, Edge{id(leaf), id(n - 1)})
	return New(n, edges)
}

// buildGNP builds G(n, p) in O(n + m) by geometric skipping over the pairs
// (Batagelj & Brandes 2005, algorithm G(n,p) for undirected graphs): the gap
// to the next edge among the pairs (v, w), w < v, in row-major order is
// geometrically distributed.
func buildGNP(n int, p float64, rng *rand.Rand) *Graph {
	if p == 0 {
		return New(n, nil)
	}
	if p == 1 {
		return buildComplete(n)
	}
	expect := float64(n) * float64(n-1) / 2 * p
	edges := make([]Edge, 0, int(expect+4*math.Sqrt(expect)+16))
	lq := math.Log1p(-p) // log(1-p) < 0
	limit := float64(n) * float64(n)
	v, w := 1, -1
	for v < n {
		skip := math.Floor(math.Log1p(-rng.Float64()) / lq)
		if skip > limit { // past the last pair: no more edges
			break
		}
		w += 1 + int(skip)
		for w >= v && v < n {
			w -= v
			v++
		}
		if v < n {
			edges = append(edges, Edge{id(v), id(w)})
		}
	}
	return New(n, edges)
}

// buildBA builds a Barabási–Albert graph: the complete graph on nodes 0..m,
// then each node v = m+1..n-1 joined to m distinct earlier nodes, each drawn
// with probability proportional to its degree by picking a uniform entry of
// the list of all edge endpoints so far (duplicates redrawn).
func buildBA(n, m int, rng *rand.Rand) *Graph {
	total := int(baEdges(n, m))
	edges := make([]Edge, 0, total)
	ends := make([]int32, 0, 2*total)
	for a := 0; a <= m; a++ {
		for b := a + 1; b <= m; b++ {
			edges = append(edges, Edge{id(a), id(b)})
			ends = append(ends, int32(a), int32(b))
		}
	}
	// picked[u] == v+1 marks u as already chosen by node v.
	picked := make([]int32, n)
	chosen := make([]int32, 0, m)
	for v := m + 1; v < n; v++ {
		chosen = chosen[:0]
		for len(chosen) < m {
			u := ends[rng.IntN(len(ends))]
			if picked[u] == int32(v+1) {
				continue
			}
			picked[u] = int32(v + 1)
			chosen = append(chosen, u)
		}
		for _, u := range chosen {
			edges = append(edges, Edge{id(v), id(int(u))})
			ends = append(ends, int32(v), u)
		}
	}
	return New(n, edges)
}
