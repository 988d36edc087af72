package sim

import (
	"github.com/electgo/elect/internal/ids"
	"slices"
	"time"
	"unsafe"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/topo"
)

// Motion is a network whose links follow movement: a mobility plan seen
// through a radio range (mobility.Radio is one). The run's Graph is its links
// at time 0; Next then says, in time order, which pairs come into range and
// which go out of it.
type Motion interface {
	// Next returns the next change of the links, in time order; false when
	// there is none left.
	Next() (mobility.Change, bool)
	// Positions returns every node's position at a time: where partition
	// areas find their members.
	Positions(at time.Duration) []topo.Point
}

// The physical links of a run. Without motion they are the graph's edges;
// with motion, the pairs in range now. On top of either, partitions and
// link_down actions cut links (physUp), and a dead node has none.
//
// Until something cuts a link or kills a node, the links in use are exactly
// the pairs in range, so a moving run keeps them once, in the engine's own
// lists. keepRange starts a separate copy (inRange: each node's neighbours
// in range, by id, ascending) when they may first differ. A run with
// mobility and no faults never makes it, which saves two sorted-list updates
// and their cache misses on each of its millions of link changes.

// inRangeOf lists the nodes in range of v now. The list is the engine's
// own while inRange is not kept: the caller must not change links while
// it reads it.
func (e *Engine) inRangeOf(v algo.NodeID) []algo.NodeID {
	switch {
	case e.inRange != nil:
		return e.inRange[v]
	case e.cfg.Motion != nil:
		return e.nbrsOf(e.node(v))
	}
	return e.graph.Neighbors(v)
}

// inRangeNow reports whether a and b are in range of each other now.
func (e *Engine) inRangeNow(a, b algo.NodeID) bool {
	if e.inRange == nil && e.cfg.Motion == nil {
		return e.graph.HasEdge(a, b)
	}
	_, ok := ids.Find(e.inRangeOf(a), b)
	return ok
}

// keepRange starts keeping the pairs in range apart from the links in use,
// before the first action that can make them differ (a crash, a partition,
// a link taken down or up, a node brought back).
func (e *Engine) keepRange() {
	if e.cfg.Motion == nil || e.inRange != nil {
		return
	}
	e.inRange = make([][]algo.NodeID, len(e.nodes))
	for k := range e.nodes {
		nd := &e.nodes[k]
		e.inRange[nd.id] = slices.Clone(e.nbrsOf(nd))
	}
}

// startMotion queues the first change of the links (the feed, if any, is
// started before it).
func (e *Engine) startMotion() {
	if e.cfg.Motion == nil {
		return
	}
	e.pullChange()
}

// nextChange returns the motion's next change, from the feed if there is
// one; false when there is none left.
func (e *Engine) nextChange() (mobility.Change, bool) {
	if e.feed != nil {
		return e.feed.next()
	}
	return e.cfg.Motion.Next()
}

// ahead holds the motion's changes after the one queued, read early so that
// the memory each will touch is on its way to the cache before it is due:
// every change touches a few random nodes' records and lists, a miss each
// on a large network, and the next changes are known long before.
type ahead struct {
	buf     [aheadLen]mobility.Change
	head, n int
}

// aheadLen is how many changes are read ahead. The records of a change are
// fetched when it is read, its lists (whose place the record holds) when
// listsAhead changes are left before it: by then its record is in the cache.
const (
	aheadLen   = 8
	listsAhead = 4
)

// pullChange queues the motion's next change, if any. The queue holds one
// change at a time; ahead a few more, as the motion computes them lazily.
func (e *Engine) pullChange() {
	q := &e.ahead
	for q.n < aheadLen {
		c, ok := e.nextChange()
		if !ok {
			break
		}
		q.buf[(q.head+q.n)%aheadLen] = c
		q.n++
		prefetch(uintptr(unsafe.Pointer(e.node(c.A))))
		prefetch(uintptr(unsafe.Pointer(e.node(c.B))))
	}
	if q.n == 0 {
		return
	}
	c := q.buf[q.head]
	q.head, q.n = (q.head+1)%aheadLen, q.n-1
	if c.At < time.Duration(e.now) {
		panic("sim: motion changes out of time order: " + c.String())
	}
	e.change = c
	e.schedule(event{at: int64(c.At), kind: evMove})
	if q.n >= listsAhead {
		next := &q.buf[(q.head+listsAhead-1)%aheadLen]
		e.prefetchLinks(e.node(next.A))
		e.prefetchLinks(e.node(next.B))
	}
}

// prefetchLinks asks for nd's lists, whole (a change shifts their tails),
// and the start of its machine.
func (e *Engine) prefetchLinks(nd *node) {
	if o, n := int(nd.off), int(nd.deg)+1; o+n <= len(e.nbrs) {
		prefetchSpan(unsafe.Pointer(&e.nbrs[o]), n*4)
		prefetchSpan(unsafe.Pointer(&e.links[o]), n*4)
		if e.lasts != nil {
			prefetchSpan(unsafe.Pointer(&e.lasts[o]), n*8)
		}
		if e.since != nil {
			prefetchSpan(unsafe.Pointer(&e.since[o]), n*8)
		}
	}
	if nd.m != nil {
		// An interface's second word points at the machine's own value.
		m := (*[2]unsafe.Pointer)(unsafe.Pointer(&nd.m))[1]
		prefetchSpan(m, 128)
	}
}

// prefetchSpan asks for every cache line of the size bytes at p.
func prefetchSpan(p unsafe.Pointer, size int) {
	start := uintptr(p)
	for a := start &^ 63; a < start+uintptr(size); a += 64 {
		prefetch(a)
	}
}

// move applies the queued change and queues the next one.
func (e *Engine) move() {
	c := e.change
	if c.Way != 0 {
		e.moveWay(c)
		e.pullChange()
		return
	}
	a, b := c.A, c.B
	switch {
	case e.inRange == nil:
		// Nothing cut, everyone alive: the pair's link follows its range.
		e.setLink(topo.Edge{A: a, B: b}, c.Up, true)
		e.pullChange()
		return
	case c.Up:
		e.inRange[a] = insertID(e.inRange[a], b)
		e.inRange[b] = insertID(e.inRange[b], a)
	default:
		e.inRange[a] = deleteID(e.inRange[a], b)
		e.inRange[b] = deleteID(e.inRange[b], a)
	}
	// A pair cut by a partition or a link_down changes range unseen: its
	// physical link stays down either way.
	if e.open(a, b) {
		e.setLink(topo.Edge{A: a, B: b}, c.Up, true)
	}
	e.pullChange()
}

func insertID(s []algo.NodeID, v algo.NodeID) []algo.NodeID {
	i, found := ids.Find(s, v)
	if found {
		panic("sim: motion brought a pair into range twice")
	}
	return slices.Insert(s, i, v)
}

func deleteID(s []algo.NodeID, v algo.NodeID) []algo.NodeID {
	i, found := ids.Find(s, v)
	if !found {
		panic("sim: motion took a pair out of range that was not in it")
	}
	return slices.Delete(s, i, i+1)
}

// positions are the nodes' positions now, for partition areas: where the
// motion has taken them, or the graph's own.
func (e *Engine) positions() []topo.Point {
	if e.cfg.Motion != nil {
		return e.cfg.Motion.Positions(time.Duration(e.now))
	}
	return e.graph.Pos
}
