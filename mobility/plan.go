// Package mobility describes how nodes move during a run: each node's track
// is a sequence of straight legs at constant speed, with pauses between them.
// Plans come from mobility models (random waypoint) or from ns-2 movement
// traces, and can be written back as ns-2 traces so that a run can be taken
// to ns-2, ns-3 or CORE.
//
// It imports algo and topo only: no engine, judge or driver
// (docs/architecture.md).
package mobility

import (
	"math"
	"sort"
	"time"

	"github.com/electgo/elect/topo"
)

// Leg is one straight move: from From at Start to To at End (End == Start
// is a jump). Before Start the node is at From; after End, at To.
type Leg struct {
	Start, End time.Duration
	From, To   topo.Point
}

// Speed is the leg's speed in metres per second.
func (l Leg) Speed() float64 {
	if l.End <= l.Start {
		return 0
	}
	return dist(l.From, l.To) / (l.End - l.Start).Seconds()
}

// at is the position on the leg at time t.
func (l Leg) at(t time.Duration) topo.Point {
	switch {
	case t <= l.Start:
		return l.From
	case t >= l.End:
		return l.To
	}
	f := float64(t-l.Start) / float64(l.End-l.Start)
	return topo.Point{X: l.From.X + f*(l.To.X-l.From.X), Y: l.From.Y + f*(l.To.Y-l.From.Y)}
}

// Track is one node's movement: where it starts and its legs, in time
// order, not overlapping.
type Track struct {
	Start topo.Point
	Legs  []Leg
}

// At is the node's position at time t.
func (tr *Track) At(t time.Duration) topo.Point {
	i := sort.Search(len(tr.Legs), func(i int) bool { return tr.Legs[i].End >= t })
	switch {
	case i < len(tr.Legs):
		if t < tr.Legs[i].Start && i > 0 {
			return tr.Legs[i-1].To // pausing between legs
		}
		if t < tr.Legs[i].Start {
			return tr.Start
		}
		return tr.Legs[i].at(t)
	case len(tr.Legs) > 0:
		return tr.Legs[len(tr.Legs)-1].To
	}
	return tr.Start
}

// Plan is the movement of every node of a run, in a W by H area.
type Plan struct {
	Tracks        []Track
	Width, Height float64
}

// Positions returns every node's position at time t.
func (p *Plan) Positions(t time.Duration) []topo.Point {
	out := make([]topo.Point, len(p.Tracks))
	for i := range p.Tracks {
		out[i] = p.Tracks[i].At(t)
	}
	return out
}

func dist(a, b topo.Point) float64 { return math.Hypot(b.X-a.X, b.Y-a.Y) }
