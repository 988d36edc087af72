package sim

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Gray failures: a link cut or lossy in one direction, a node's clock
// running at its own rate or jumping, a node slow to handle its inputs.
// The engine keeps their state only in a run whose timeline has one
// (Engine.gray is nil otherwise), so that every other run pays one nil
// test at a sending, a delivery, a timer and Env.Now.

// grayState is the state of a run's gray failures.
type grayState struct {
	cuts   map[[2]algo.NodeID]bool    // directions cut by the scenario, from -> to
	faded  map[[2]algo.NodeID]bool    // directions out of their sender's range (OneWayMotion)
	loss   map[[2]algo.NodeID]float64 // directions with a loss of their own
	clocks map[algo.NodeID]*clock     // nodes whose clock is not true time
	slow   map[algo.NodeID]*lateness  // nodes that handle their inputs late
}

// clock is a node's clock: local time local at true time base, running at
// rate since.
type clock struct {
	base, local int64
	rate        float64
}

// at is the clock's reading at true time now.
func (c *clock) at(now int64) int64 {
	return c.local + int64(math.Round(float64(now-c.base)*c.rate))
}

// lateness is how late a slow node handles its inputs: by, and not before
// the input handled last (last), so that they keep their order. epoch
// counts the node's crashes: what was queued for it before one is lost.
type lateness struct {
	by, last int64
	epoch    uint32
}

// hasGray says a timeline holds a gray failure.
func hasGray(tl []Action) bool {
	for i := range tl {
		if tl[i].Kind.Gray() {
			return true
		}
	}
	return false
}

// validateGray checks a gray action against a network of n nodes.
func validateGray(a *Action, n int) error {
	switch a.Kind {
	case Cut, Uncut, LossDir:
		l := a.Link
		if l.A < 0 || l.B < 0 || int(l.A) >= n || int(l.B) >= n {
			return fmt.Errorf("%s from %d to %d names a node that does not exist (nodes 0..%d)", a.Kind, l.A, l.B, n-1)
		}
		if l.A == l.B {
			return fmt.Errorf("%s from %d to itself", a.Kind, l.A)
		}
		if a.Kind == LossDir && (a.Rate < 0 || a.Rate >= 1 || math.IsNaN(a.Rate)) {
			return fmt.Errorf("loss rate %g: want a probability in [0, 1)", a.Rate)
		}
	case Clock:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("names no node")
		}
		if a.Rate < 0 || a.Rate > 100 || math.IsNaN(a.Rate) {
			return fmt.Errorf("clock rate %g: want more than 0 and at most 100 (1: true time)", a.Rate)
		}
		if a.Rate == 0 && a.Jump == 0 {
			return fmt.Errorf("a clock event needs a rate or a jump")
		}
	case Slow:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("names no node")
		}
		if a.By < 0 || a.For < 0 {
			return fmt.Errorf("slow by %v for %v: want durations of 0 or more", a.By, a.For)
		}
	}
	return nil
}

// actGray carries out a gray action, emitting its events.
func (e *Engine) actGray(a *Action) {
	g := e.gray
	at := time.Duration(e.now)
	switch a.Kind {
	case Cut, Uncut:
		e.cutDir(g.cuts, a.Link.A, a.Link.B, a.Kind == Cut)
	case LossDir:
		dir := [2]algo.NodeID{a.Link.A, a.Link.B}
		if a.Rate == 0 {
			delete(g.loss, dir)
		} else {
			g.loss[dir] = a.Rate
		}
		e.acted(fmt.Sprintf("what %d sends %d is lost with probability %g", a.Link.A, a.Link.B, a.Rate))
	case Clock:
		for _, v := range a.Nodes {
			c := g.clocks[v]
			if c == nil {
				c = &clock{base: e.now, local: e.now, rate: 1}
				g.clocks[v] = c
			}
			if a.Rate > 0 {
				c.local, c.base, c.rate = c.at(e.now), e.now, a.Rate
				e.emit(trace.Event{At: at, Kind: trace.ClockRate, Node: v, Peer: algo.None, Value: trace.PPM(a.Rate)})
			}
			if a.Jump != 0 {
				c.local += int64(a.Jump)
				e.emit(trace.Event{At: at, Kind: trace.ClockJumped, Node: v, Peer: algo.None, Value: int64(a.Jump)})
			}
		}
	case Slow:
		for _, v := range a.Nodes {
			l := g.slow[v]
			if l == nil {
				l = &lateness{}
				g.slow[v] = l
			}
			l.by = int64(a.By)
			e.emit(trace.Event{At: at, Kind: trace.Slowed, Node: v, Peer: algo.None, Value: int64(a.By)})
		}
	}
}

// OneWayMotion is a Motion whose links may carry one way
// (mobility.Radios: radios of ranges of their own): its changes of one
// direction of a link have Way set, and Cut lists the directions that do
// not carry at time 0. The engine cuts them as a scenario's cut does
// (trace.Cut), apart from the scenario's own.
type OneWayMotion interface {
	Motion
	Cut() []topo.Edge
}

// grayInit makes the gray state of a run whose timeline has a gray
// failure, or whose motion carries one way, and queues the ends of its
// slow spells (Action.For).
func (e *Engine) grayInit() {
	_, oneWay := e.cfg.Motion.(OneWayMotion)
	if !hasGray(e.cfg.Timeline) && !oneWay {
		return
	}
	e.cfg.Timeline = slices.Clone(e.cfg.Timeline) // the ends below go to the run's copy
	e.gray = &grayState{cuts: map[[2]algo.NodeID]bool{}, faded: map[[2]algo.NodeID]bool{}, loss: map[[2]algo.NodeID]float64{},
		clocks: map[algo.NodeID]*clock{}, slow: map[algo.NodeID]*lateness{}}
	var ends []Action
	for _, a := range e.cfg.Timeline {
		if a.Kind == Slow && a.For > 0 {
			ends = append(ends, Action{At: a.At + a.For, Kind: Slow, Nodes: a.Nodes, Where: a.Where})
		}
	}
	e.cfg.Timeline = append(e.cfg.Timeline, ends...)
}

// now is node v's clock at this instant: true time unless its clock was
// set (Clock).
func (g *grayState) now(v algo.NodeID, now int64) int64 {
	if c := g.clocks[v]; c != nil {
		return c.at(now)
	}
	return now
}

// timer is the true time a timer that node v sets for d of its own clock
// takes.
func (g *grayState) timer(v algo.NodeID, d time.Duration) time.Duration {
	if c := g.clocks[v]; c != nil && c.rate != 1 {
		return time.Duration(math.Round(float64(d) / c.rate))
	}
	return d
}

// lost says a message from -> to is lost on a direction lossy on its own.
func (e *Engine) lostOneWay(from, to algo.NodeID) bool {
	p, ok := e.gray.loss[[2]algo.NodeID{from, to}]
	return ok && e.rng.Float64() < p
}

// cut says direction from -> to is cut now, by the scenario or by its
// sender's range.
func (g *grayState) cut(from, to algo.NodeID) bool {
	d := [2]algo.NodeID{from, to}
	return len(g.cuts) > 0 && g.cuts[d] || len(g.faded) > 0 && g.faded[d]
}

// cutDir sets direction from -> to in set (the scenario's cuts, or the
// directions out of range), and emits a Cut or Uncut when that changes
// whether it is cut at all.
func (e *Engine) cutDir(set map[[2]algo.NodeID]bool, from, to algo.NodeID, on bool) {
	d := [2]algo.NodeID{from, to}
	was := e.gray.cut(from, to)
	if on {
		set[d] = true
	} else {
		delete(set, d)
	}
	if now := e.gray.cut(from, to); now != was {
		kind := trace.Uncut
		if now {
			kind = trace.Cut
		}
		e.emit(trace.Event{At: time.Duration(e.now), Kind: kind, Node: from, Peer: to})
	}
}

// moveWay applies a change of one direction of a link (OneWayMotion).
func (e *Engine) moveWay(c mobility.Change) {
	from, to := c.A, c.B
	if c.Way == 2 {
		from, to = c.B, c.A
	}
	e.cutDir(e.gray.faded, from, to, !c.Up)
}

// motionCuts cuts the directions out of range at time 0.
func (e *Engine) motionCuts() {
	if m, ok := e.cfg.Motion.(OneWayMotion); ok {
		for _, d := range m.Cut() {
			e.cutDir(e.gray.faded, d.A, d.B, true)
		}
	}
}

// late is when a slow node v handles an input that reaches it now, and
// whether that is later than now (it is then queued for that time).
func (g *grayState) late(v algo.NodeID, now int64) (int64, uint32, bool) {
	l := g.slow[v]
	if l == nil || (l.by == 0 && l.last <= now) {
		return now, 0, false
	}
	l.last = max(now+l.by, l.last)
	return l.last, l.epoch, true
}

// crashed loses what slow node v had queued.
func (g *grayState) crashed(v algo.NodeID) {
	if l := g.slow[v]; l != nil {
		l.epoch++
		l.last = 0
	}
}

// deferDelivery queues message m, which reached node record k now, for
// its late handling; it reports false when the node is on time. slot is
// m's place in the flights, which the late delivery then takes over (and
// releases), or -1 for a broadcast's receiver's copy, which gets a place
// of its own.
func (e *Engine) deferDelivery(k int32, m *algo.Message, slot int32) bool {
	at, epoch, late := e.gray.late(e.nodes[k].id, e.now)
	if !late {
		return false
	}
	if e.pastEnd(at) {
		e.beyond++
		if slot >= 0 {
			e.flights.release(slot)
		}
		return true
	}
	if slot < 0 {
		slot = e.flights.add(m, e.changes)
	}
	e.q.push(event{at: at, kind: evLateDeliver, node: k, gen: epoch, slot: slot})
	return true
}

// deliverLate hands a slow node a message that reached it earlier, unless
// it crashed since.
func (e *Engine) deliverLate(ev event) {
	m := &e.flights.at(ev.slot).m
	nd := &e.nodes[ev.node]
	if l := e.gray.slow[nd.id]; nd.alive && l.epoch == ev.gen {
		e.receive(ev.node, m)
	} else {
		e.drop(m.From, nd.id, m, trace.LinkBroke) // the node crashed with it queued
	}
	e.flights.release(ev.slot)
}
