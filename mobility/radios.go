package mobility

import (
	"container/heap"
	"fmt"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// Radios is the range model of nodes whose radios reach as far as each
// their own range: what node u sends node v arrives while their distance
// is at most u's range, so between a strong transmitter and a weak one a
// link may carry one way only (a gray failure of radio networks: the weak
// node hears the strong one, which cannot hear it). Two nodes are linked
// while either hears the other. Changes of a link coming up or going down
// are as Radio's; a change of one direction of a link that stays up has
// Way set (Change.Way). Cut lists the directions that do not carry at time
// 0.
//
// It is one Radio per distinct range, each solving every pair's crossings
// of its range exactly (see Radio), merged in time order: a pair's
// direction u -> v follows the radio of u's range. With k distinct ranges
// it costs k radios.
type Radios struct {
	radios []*Radio
	of     []int32                  // each node's radio: its range's index
	carry  map[[2]algo.NodeID]uint8 // of pairs a < b with a direction carrying: bit 1 a -> b, bit 2 b -> a
	heads  changeHeap               // each radio's next change
	out    []Change                 // changes found, to hand out in order
	graph  *topo.Graph
	cut    []topo.Edge
}

// Links is a range model that turns a plan's movement into links: Radio
// (one range), or Radios (ranges of their own).
type Links interface {
	// Graph is the links at time 0.
	Graph() *topo.Graph
	// Next returns the next change of the links, in time order.
	Next() (Change, bool)
	// Positions returns every node's position at a time.
	Positions(at time.Duration) []topo.Point
	// Plan is the movement followed.
	Plan() *Plan
}

// Plan is the movement the radios follow.
func (rs *Radios) Plan() *Plan { return rs.radios[0].Plan() }

// NewRadios prepares the range model of a plan whose node v has range
// ranges[v] metres (each a positive number).
func NewRadios(p *Plan, ranges []float64) (*Radios, error) {
	if p == nil || len(ranges) != len(p.Tracks) {
		return nil, fmt.Errorf("radios: %d ranges for a plan of %d nodes", len(ranges), len(p.Tracks))
	}
	distinct := slices.Clone(ranges)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	rs := &Radios{of: make([]int32, len(ranges)), carry: map[[2]algo.NodeID]uint8{}}
	for _, r := range distinct {
		radio, err := NewRadio(p, r)
		if err != nil {
			return nil, err
		}
		rs.radios = append(rs.radios, radio)
	}
	for v, r := range ranges {
		i, _ := slices.BinarySearch(distinct, r)
		rs.of[v] = int32(i)
	}
	// At time 0: each radio's links, each direction by its sender's radio.
	for k, radio := range rs.radios {
		for _, e := range radio.Graph().Edges() {
			rs.carry[[2]algo.NodeID{e.A, e.B}] |= rs.bits(k, e.A, e.B)
		}
	}
	var edges []topo.Edge
	for pair, c := range rs.carry {
		if c == 0 {
			delete(rs.carry, pair)
			continue
		}
		edges = append(edges, topo.Edge{A: pair[0], B: pair[1]})
		if c&1 == 0 {
			rs.cut = append(rs.cut, topo.Edge{A: pair[0], B: pair[1]})
		}
		if c&2 == 0 {
			rs.cut = append(rs.cut, topo.Edge{A: pair[1], B: pair[0]})
		}
	}
	slices.SortFunc(edges, cmpEdge)
	slices.SortFunc(rs.cut, cmpEdge)
	g0 := rs.radios[len(rs.radios)-1].Graph()
	rs.graph = topo.New(len(ranges), edges)
	rs.graph.Pos, rs.graph.Width, rs.graph.Height = g0.Pos, g0.Width, g0.Height
	for k, radio := range rs.radios {
		if c, ok := radio.Next(); ok {
			heap.Push(&rs.heads, head{c: c, k: k})
		}
	}
	return rs, nil
}

func cmpEdge(x, y topo.Edge) int {
	if x.A != y.A {
		return int(x.A - y.A)
	}
	return int(x.B - y.B)
}

// bits are the directions of pair a < b that radio k decides: a -> b when
// it is a's radio, b -> a when it is b's.
func (rs *Radios) bits(k int, a, b algo.NodeID) uint8 {
	var m uint8
	if int(rs.of[a]) == k {
		m |= 1
	}
	if int(rs.of[b]) == k {
		m |= 2
	}
	return m
}

// Graph is the links at time 0: the pairs with a direction carrying.
func (rs *Radios) Graph() *topo.Graph { return rs.graph }

// Cut lists the directions of links at time 0 that do not carry (A sends,
// B does not hear), in order.
func (rs *Radios) Cut() []topo.Edge { return rs.cut }

// Positions returns every node's position at a time (Plan.Positions).
func (rs *Radios) Positions(at time.Duration) []topo.Point { return rs.radios[0].Positions(at) }

// Next returns the next change, in time order: a link coming up or going
// down, or one direction of a link that stays up starting or stopping to
// carry (Way). At one instant a link's directions change before it comes
// up, and after it goes down, so that no message crosses a direction in
// between.
func (rs *Radios) Next() (Change, bool) {
	for len(rs.out) == 0 {
		if rs.heads.Len() == 0 {
			return Change{}, false
		}
		h := heap.Pop(&rs.heads).(head)
		if c, ok := rs.radios[h.k].Next(); ok {
			heap.Push(&rs.heads, head{c: c, k: h.k})
		}
		rs.apply(h.c, h.k)
	}
	c := rs.out[0]
	rs.out = rs.out[1:]
	return c, true
}

// apply folds radio k's change of a pair into the directions' states and
// queues what it changes.
func (rs *Radios) apply(c Change, k int) {
	pair := [2]algo.NodeID{c.A, c.B}
	old := rs.carry[pair]
	m := rs.bits(k, c.A, c.B)
	now := old &^ m
	if c.Up {
		now |= m
	}
	if now == old {
		return // a crossing of a range neither end of the pair has
	}
	if now == 0 {
		delete(rs.carry, pair)
	} else {
		rs.carry[pair] = now
	}
	way := func(bit uint8, carries bool) Change {
		return Change{At: c.At, A: c.A, B: c.B, Up: carries, Way: bit}
	}
	switch {
	case old == 0: // up: the direction that does not carry is cut first
		if now != 3 {
			rs.out = append(rs.out, way(3-now, false))
		}
		rs.out = append(rs.out, Change{At: c.At, A: c.A, B: c.B, Up: true})
	case now == 0: // down: then the direction that did not carry is whole again
		rs.out = append(rs.out, Change{At: c.At, A: c.A, B: c.B})
		if old != 3 {
			rs.out = append(rs.out, way(3-old, true))
		}
	default: // one direction of a link that stays up
		rs.out = append(rs.out, way(m, c.Up))
	}
}

// head is a radio's next change.
type head struct {
	c Change
	k int
}

// changeHeap orders the radios' next changes by (At, A, B, radio).
type changeHeap []head

func (h changeHeap) Len() int { return len(h) }
func (h changeHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	switch {
	case a.c.At != b.c.At:
		return a.c.At < b.c.At
	case a.c.A != b.c.A:
		return a.c.A < b.c.A
	case a.c.B != b.c.B:
		return a.c.B < b.c.B
	}
	return a.k < b.k
}
func (h changeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *changeHeap) Push(x any)   { *h = append(*h, x.(head)) }
func (h *changeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
