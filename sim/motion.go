package sim

import (
	"github.com/electgo/elect/internal/ids"
	"slices"
	"time"

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
// with motion, inRange holds each node's neighbours in range now (by id,
// ascending), starting from the graph. On top of either, partitions and
// link_down actions cut links (physUp).

// inRangeOf lists the nodes in range of v now.
func (e *Engine) inRangeOf(v algo.NodeID) []algo.NodeID {
	if e.inRange != nil {
		return e.inRange[v]
	}
	return e.graph.Neighbors(v)
}

// inRangeNow reports whether a and b are in range of each other now.
func (e *Engine) inRangeNow(a, b algo.NodeID) bool {
	if e.inRange != nil {
		_, ok := ids.Find(e.inRange[a], b)
		return ok
	}
	return e.graph.HasEdge(a, b)
}

// startMotion copies the initial links and queues the first change.
func (e *Engine) startMotion() {
	if e.cfg.Motion == nil {
		return
	}
	e.inRange = make([][]algo.NodeID, e.graph.N())
	for v := range e.inRange {
		e.inRange[v] = slices.Clone(e.graph.Neighbors(algo.NodeID(v)))
	}
	e.pullChange()
}

// pullChange queues the motion's next change, if any. One change at a time
// is queued: the motion computes them lazily, as virtual time reaches them.
func (e *Engine) pullChange() {
	c, ok := e.cfg.Motion.Next()
	if !ok {
		return
	}
	if c.At < time.Duration(e.now) {
		panic("sim: motion changes out of time order: " + c.String())
	}
	e.change = c
	e.schedule(event{at: int64(c.At), kind: evMove})
}

// move applies the queued change and queues the next one.
func (e *Engine) move() {
	c := e.change
	a, b := c.A, c.B
	if c.Up {
		e.inRange[a] = insertID(e.inRange[a], b)
		e.inRange[b] = insertID(e.inRange[b], a)
	} else {
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
