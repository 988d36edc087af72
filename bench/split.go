package bench

import (
	"fmt"
	"slices"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// ThreeParts is the split of the experiments partition and merge: the
// document's test 3 cuts its network into the three computers of its
// Figure 2.
//
// A layered network (layered:L) splits into those computers: tree t, the
// nodes t(2^L-1) to (t+1)(2^L-1)-1 under the t-th root of the top triangle,
// named computer-0 to computer-2; only the triangle's links go down.
//
// Any other network has no computers, so its largest component (that of
// the lowest node among equals) splits into the regions around three nodes
// far apart: a, the farthest from the component's lowest node; b, the
// farthest from a (the last a breadth-first search reaches, each time);
// c, the farthest from both (the greatest distance to the nearer of a and
// b, the lowest node among equals), distances in hops. Each node goes to
// the nearest of the three, found by one breadth-first search from all
// three at once (a tie goes to the search that reached it first), so each
// part is connected: a node's parent in the search lies in its part. On a
// line that cuts about a quarter, a half and a quarter; on a geometric
// network three regions of the plane; on a layered network, the computers
// again. The parts need not be even: where one node neighbours most others
// (a hub, a complete network) its part takes them. The parts are named
// part-1 to part-3 in the order of their lowest nodes. Nodes of the other
// components are in no part: they were apart already, and sim.Partition
// keeps the nodes of no part together as they were. A component of fewer
// than three nodes splits into its nodes.
func ThreeParts(g *topo.Graph, spec topo.Spec) []sim.Group {
	n := g.N()
	if spec.Kind == topo.KindLayered && spec.L >= 1 && n == 3*(1<<spec.L-1) {
		size := 1<<spec.L - 1
		parts := make([]sim.Group, 3)
		for t := range parts {
			parts[t].Name = fmt.Sprintf("computer-%d", t)
			for i := range size {
				parts[t].Nodes = append(parts[t].Nodes, algo.NodeID(t*size+i))
			}
		}
		return parts
	}
	if n == 0 {
		return nil
	}
	comp, count := g.Components()
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
	}
	largest := int32(0)
	for c := range sizes {
		if sizes[c] > sizes[largest] {
			largest = int32(c)
		}
	}
	low := algo.NodeID(slices.Index(comp, largest))
	dist := make([]int32, n)
	owner := make([]int8, n)
	queue := make([]algo.NodeID, 0, sizes[largest])
	// search runs a breadth-first search from seeds at once, filling dist
	// and owner (the index of the seed a node is nearest), and returns the
	// farthest node, the last reached.
	search := func(seeds ...algo.NodeID) algo.NodeID {
		for i := range dist {
			dist[i] = -1
		}
		queue = queue[:0]
		for i, s := range seeds {
			if dist[s] < 0 {
				dist[s], owner[s] = 0, int8(i)
				queue = append(queue, s)
			}
		}
		for i := 0; i < len(queue); i++ {
			v := queue[i]
			for _, u := range g.Neighbors(v) {
				if dist[u] < 0 {
					dist[u], owner[u] = dist[v]+1, owner[v]
					queue = append(queue, u)
				}
			}
		}
		return queue[len(queue)-1]
	}
	var seeds []algo.NodeID
	if sizes[largest] < 3 {
		search(low)
		seeds = slices.Clone(queue)
		slices.Sort(seeds)
	} else {
		a := search(low)
		b := search(a)
		fromA := slices.Clone(dist)
		search(b)
		c, best := algo.None, int32(-1)
		for _, v := range queue {
			if d := min(fromA[v], dist[v]); d > best || d == best && v < c {
				c, best = v, d
			}
		}
		seeds = []algo.NodeID{a, b, c}
	}
	search(seeds...)
	parts := make([]sim.Group, len(seeds))
	for v := range algo.NodeID(n) {
		if dist[v] >= 0 {
			parts[owner[v]].Nodes = append(parts[owner[v]].Nodes, v)
		}
	}
	slices.SortFunc(parts, func(p, q sim.Group) int { return int(p.Nodes[0]) - int(q.Nodes[0]) })
	for i := range parts {
		parts[i].Name = fmt.Sprintf("part-%d", i+1)
	}
	return parts
}

// cut is g without the links between its parts (nodes in no part being one
// more part, as sim.Partition has them): the network a partition leaves.
func cut(g *topo.Graph, parts []sim.Group) *topo.Graph {
	part := make([]int32, g.N())
	for i, p := range parts {
		for _, v := range p.Nodes {
			part[v] = int32(i + 1)
		}
	}
	var edges []topo.Edge
	for _, e := range g.Edges() {
		if part[e.A] == part[e.B] {
			edges = append(edges, e)
		}
	}
	return topo.New(g.N(), edges)
}
