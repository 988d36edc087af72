package viz

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/trace"
)

// The timeline's marks and the chart's samples are gathered by the server
// as it reads the run, in bounded memory whatever the run's length: the
// page fetches them whole (GET /index) instead of reading every event.

// maxMarks and maxSamples bound the marks and samples kept: past them,
// marks closer than twice the current span merge and every other sample
// goes.
const (
	maxMarks   = 2048
	maxSamples = 2048
)

// mark is one thing on the timeline: n things of a kind from T on.
type mark struct {
	at   time.Duration
	MS   float64 `json:"t"`
	Kind string  `json:"kind"`
	What string  `json:"what"`
	N    int     `json:"n"`
}

// marks finds on the timeline every crash, restart, recovery, report, panic,
// election started, leader elected, message lost (a loss burst shows as
// marks close together, merged), cut (links going down at one instant,
// not by movement: a partition) and heal (links coming back at one
// instant), and the gray failures, each a kind of its own: a direction of
// a link cut (gray-cut) or carrying again (gray-uncut), a clock's new
// rate (clock) or jump (jump), a node slowed or on time again (slow);
// and a value that crossed (value): a node rising above its leader, a
// leader falling below one of its followers (not every value change: a
// value model changes them every second).
type marks struct {
	list []mark
	// last is each kind's last mark in list.
	last map[string]int
	// span merges a mark into the last of its kind when within it.
	span time.Duration
	// run is the links going down (or up) together so far.
	run struct {
		kind trace.Kind
		at   time.Duration
		n    int
	}
}

// maxSpan stops the span's doubling short of overflowing.
const maxSpan = time.Duration(1) << 61

func newMarks() *marks { return &marks{span: time.Millisecond, last: map[string]int{}} }

// see takes the next event, before it changes s.
func (m *marks) see(e *trace.Event, s *runState) {
	// Links cut or healed together change at one instant, between the
	// messages the change sets off there.
	link := e.Kind == trace.LinkDown || e.Kind == trace.LinkUp
	if m.run.n > 0 && (e.At != m.run.at || link && (e.Kind != m.run.kind || e.Moved)) {
		m.closeRun()
	}
	v := e.Node
	switch e.Kind {
	case trace.Crashed:
		m.add(e.At, "crash", func() string { return fmt.Sprintf("node %d crashes", v) })
	case trace.Restarted:
		m.add(e.At, "restart", func() string { return fmt.Sprintf("node %d restarts", v) })
	case trace.Recovered:
		m.add(e.At, "recover", func() string { return fmt.Sprintf("node %d recovers", v) })
	case trace.Reported:
		text := e.Text
		m.add(e.At, "report", func() string { return fmt.Sprintf("node %d reports: %s", v, text) })
	case trace.Panicked:
		text := e.Text
		m.add(e.At, "panic", func() string { return fmt.Sprintf("node %d panicked %s", v, text) })
	case trace.LinkDown, trace.LinkUp:
		if !e.Moved && e.At > 0 {
			m.run.kind, m.run.at = e.Kind, e.At
			m.run.n++
		}
	case trace.StatusChanged:
		if int(v) >= s.n {
			return
		}
		idx := e.Status.Index
		switch {
		case idx.ID == v && (idx.Num != 0 || idx.ID != 0) && (s.idxNum[v] != float64(idx.Num) || s.idxID[v] != int32(idx.ID)):
			// As the counter of elections started counts them: the node
			// takes an index of its own it did not hold.
			m.add(e.At, "election", func() string { return fmt.Sprintf("node %d starts an election", v) })
		case e.Status.State == algo.Norm && e.Status.Leader == v && !(s.state[v] == normCode && s.leader[v] == int32(v)):
			m.add(e.At, "elected", func() string { return fmt.Sprintf("node %d becomes leader", v) })
		}
	case trace.Cut, trace.Uncut:
		p := e.Peer
		if int(v) >= s.n || int(p) < 0 || int(p) >= s.n {
			return
		}
		back := s.cut(int(p), int(v)) // the other direction is cut
		if e.Kind == trace.Cut {
			m.add(e.At, "gray-cut", func() string {
				if back {
					return fmt.Sprintf("link %d→%d cut: %d-%d now cut both ways", v, p, v, p)
				}
				return fmt.Sprintf("link %d→%d cut one way: %d no longer hears %d", v, p, p, v)
			})
		} else {
			m.add(e.At, "gray-uncut", func() string {
				if back {
					return fmt.Sprintf("link %d→%d carries again (%d→%d still cut)", v, p, p, v)
				}
				return fmt.Sprintf("link %d→%d carries again", v, p)
			})
		}
	case trace.ClockRate:
		ppm := float64(e.Value)
		m.add(e.At, "clock", func() string {
			if ppm == 1e6 {
				return fmt.Sprintf("node %d's clock runs true again", v)
			}
			return fmt.Sprintf("node %d's clock runs at %s", v, rateWord(ppm))
		})
	case trace.ClockJumped:
		by := float64(e.Value)
		m.add(e.At, "jump", func() string { return fmt.Sprintf("node %d's clock jumps %s", v, jumpWord(by)) })
	case trace.Slowed:
		by := float64(e.Value)
		m.add(e.At, "slow", func() string {
			if by == 0 {
				return fmt.Sprintf("node %d handles its inputs on time again", v)
			}
			return fmt.Sprintf("node %d handles its inputs %s late", v, durationWord(by))
		})
	case trace.Dropped:
		if e.Reason == trace.Lost {
			peer := e.Peer
			m.add(e.At, "loss", func() string { return fmt.Sprintf("a message from %d to %d lost", v, peer) })
		}
	}
}

// value marks a value change that crossed its leader's (Index.add tells
// each value event against the node's leader).
func (m *marks) value(at time.Duration, mv metrics.ValueMove) {
	if mv.Crossed() {
		m.add(at, "value", mv.String)
	}
}

// closeRun marks the links that changed together, when more than one did.
func (m *marks) closeRun() {
	if n := m.run.n; n > 1 {
		if m.run.kind == trace.LinkDown {
			m.add(m.run.at, "cut", func() string { return fmt.Sprintf("%d links cut: a partition", n) })
		} else {
			m.add(m.run.at, "heal", func() string { return fmt.Sprintf("%d links back: a heal", n) })
		}
	}
	m.run.n = 0
}

// add marks a thing of a kind at a moment; what says it, asked only for a
// mark that is not merged into the one before of its kind.
func (m *marks) add(at time.Duration, kind string, what func() string) {
	if k, ok := m.last[kind]; ok && at-m.list[k].at < m.span {
		m.list[k].N++
		return
	}
	m.last[kind] = len(m.list)
	m.list = append(m.list, mark{at: at, MS: float64(at) / 1e6, Kind: kind, What: what(), N: 1})
	// Each doubling merges more; once the span passes the run's length a
	// kind is one mark, so this ends.
	for len(m.list) > maxMarks && m.span < maxSpan {
		m.span *= 2
		m.merge()
	}
}

// merge folds each mark into the last kept mark of its kind when within
// the span, whatever marks of other kinds lie between.
func (m *marks) merge() {
	kept := m.list[:0]
	clear(m.last)
	for _, x := range m.list {
		if k, ok := m.last[x.Kind]; ok && x.at-kept[k].at < m.span {
			kept[k].N += x.N
			continue
		}
		m.last[x.Kind] = len(kept)
		kept = append(kept, x)
	}
	m.list = kept
}

// samples are the chart's points: messages sent, nodes alive without a
// leader and nodes alive, at every step of the run's time (after the
// events at that moment). The step doubles when the points grow past
// maxSamples.
type samples struct {
	step   time.Duration
	points [][3]float64
}

func newSamples() *samples { return &samples{step: time.Millisecond} }

// before records the points due before an event at t, from the state
// after the events before it.
func (p *samples) before(t time.Duration, s *runState) {
	for time.Duration(len(p.points))*p.step < t {
		p.points = append(p.points, s.sample())
		if len(p.points) > maxSamples {
			kept := p.points[:0]
			for k := 0; k < len(p.points); k += 2 {
				kept = append(kept, p.points[k])
			}
			p.points = kept
			p.step *= 2
		}
	}
}

func (s *runState) sample() [3]float64 {
	return [3]float64{s.sentTotal, float64(s.aliveN - s.ledN), float64(s.aliveN)}
}
