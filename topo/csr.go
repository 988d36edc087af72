package topo

import (
	"math"
	"slices"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/hugemem"
)

// minBuildShare is the fewest edges worth a build worker of their own:
// below it a goroutine costs more than it saves, and the many small graphs
// of the tests and the mobility model are built on one.
const minBuildShare = 1 << 15

// fromChunks is New for an edge list kept in chunks: a reader that does not
// know how many edges are coming fills chunks of a fixed size instead of
// growing one slice, which would copy it, and fault fresh pages in, a
// dozen times over for a large file.
//
// The build makes three passes over the edges or the lists (count the
// degrees, fill the lists, sort and squeeze each list), each split across
// workers: on a million-node graph they took a third of a second on one
// processor, nearly all of it cache misses and mispredicted branches,
// which overlap on two. The graph is the same whatever the number of
// workers and whatever the order of the edges: every list is sorted in the
// end.
func fromChunks(n int, chunks [][]Edge) *Graph {
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	groups := splitEdges(chunks, total, max(1, min(workers(), total/minBuildShare)))
	// A list position fits an int32 for any graph within MaxEdges; cursors
	// of half the size take half the cache.
	if 2*total <= math.MaxInt32 {
		return buildCSR[int32](n, groups)
	}
	return buildCSR[int](n, groups)
}

// splitEdges deals the edges of chunks, total in all, into k groups of
// about total/k each, in order, cutting a chunk where a group ends.
func splitEdges(chunks [][]Edge, total, k int) [][][]Edge {
	groups := make([][][]Edge, k)
	g, done, end := 0, 0, total/k // group g takes the edges before end
	for _, c := range chunks {
		for len(c) > 0 {
			for done == end && g < k-1 {
				g++
				end = (g + 1) * total / k
			}
			take := min(len(c), end-done)
			groups[g] = append(groups[g], c[:take])
			c, done = c[take:], done+take
		}
	}
	return groups
}

// buildCSR builds the graph on n nodes of the edges of groups, one worker a
// group; C holds list positions.
func buildCSR[C int32 | int](n int, groups [][][]Edge) *Graph {
	k := len(groups)
	// Each worker counts the degrees its own edges give, in an array of its
	// own: no two write the same counter.
	cur := make([][]C, k)
	all := hugemem.Make[C](k * n) // one array, more of it in huge pages
	parallel(k, func(w int) {
		deg := all[w*n : (w+1)*n : (w+1)*n]
		for _, edges := range groups[w] {
			for _, e := range edges {
				if e.A != e.B {
					deg[e.A]++
					deg[e.B]++
				}
			}
		}
		cur[w] = deg
	})
	// Each worker's counts become its cursors: worker w fills node v's list
	// from off[v] plus the counts of the workers before it, so that the
	// workers write apart.
	off := hugemem.Make[int](n + 1)
	sum := 0
	for v := range n {
		off[v] = sum
		for _, c := range cur {
			d := int(c[v])
			c[v] = C(sum)
			sum += d
		}
	}
	off[n] = sum
	adj := hugemem.Make[algo.NodeID](sum)
	parallel(k, func(w int) {
		c := cur[w]
		for _, edges := range groups[w] {
			for _, e := range edges {
				if e.A == e.B {
					continue
				}
				adj[c[e.A]] = e.B
				c[e.A]++
				adj[c[e.B]] = e.A
				c[e.B]++
			}
		}
	})
	// Sort each list and squeeze out duplicates, each worker over a range of
	// nodes with about sum/k list entries, compacting in place within its
	// range.
	bounds := make([]int, k+1)
	for r := 1; r < k; r++ {
		bounds[r], _ = slices.BinarySearch(off[:n], r*sum/k)
	}
	bounds[k] = n
	kept := make([]int, k)
	parallel(k, func(r int) {
		lo, hi := bounds[r], bounds[r+1]
		start := off[lo]
		w := start
		for v := lo; v < hi; v++ {
			end := off[v+1] // read before the next round overwrites it
			list := adj[start:end]
			start = end
			if len(list) <= maxShortList {
				sortShort(list)
			} else {
				slices.Sort(list)
			}
			// off[lo] stays as it is, its list starting where it did: the
			// worker of the range before reads it as its end.
			if v > lo {
				off[v] = w
			}
			for i, u := range list {
				if i > 0 && u == list[i-1] {
					continue
				}
				adj[w] = u
				w++
			}
		}
		kept[r] = w - off[lo]
	})
	// Close the gaps the duplicates left at the end of each range (none in
	// most files, and then nothing moves).
	w := kept[0]
	for r := 1; r < k; r++ {
		lo, hi := bounds[r], bounds[r+1]
		if from := off[lo]; from != w {
			copy(adj[w:], adj[from:from+kept[r]])
			for v := lo; v < hi; v++ {
				off[v] -= from - w
			}
		}
		w += kept[r]
	}
	off[n] = w
	return &Graph{off: off, adj: adj[:w:w]}
}

// maxShortList is the longest list sortShort sorts: past it, its quadratic
// work outgrows the mispredicted branches it saves.
const maxShortList = 32

// sortShort sorts a short list without branching on its values. Most lists
// hold about ten neighbours in no order, where an insertion sort (what
// slices.Sort does with them) mispredicts a branch on about every element,
// and a million of them then took a third of the whole build. Here element
// i goes into the sorted a[:i] with each slot computed from its old value
// and its left neighbour's, min and max becoming conditional moves: the new
// a[j] is the larger of a[j-1] and min(a[j], x), which is a[j-1] where
// a[j-1] > x (the slots right of x's place shift right), x in its place,
// and a[j] itself left of it.
func sortShort(a []algo.NodeID) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		right := x // a[j] before the step: a[i] is x
		for j := i; j > 0; j-- {
			left := a[j-1]
			a[j] = max(left, min(right, x))
			right = left
		}
		a[0] = min(right, x)
	}
}
