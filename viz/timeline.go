package viz

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
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

// marks finds on the timeline every crash, restart, recovery, report,
// election started, leader elected, message lost (a loss burst shows as
// marks close together, merged), cut (links going down at one instant,
// not by movement: a partition) and heal (links coming back at one
// instant).
type marks struct {
	list []mark
	// span merges a mark into the one before when of the same kind and
	// within it.
	span time.Duration
	// run is the links going down (or up) together so far.
	run struct {
		kind trace.Kind
		at   time.Duration
		n    int
	}
}

func newMarks() *marks { return &marks{span: time.Millisecond} }

// see takes the next event, before it changes s.
func (m *marks) see(e *trace.Event, s *runState) {
	// Links cut or healed together change at one instant, between the
	// messages the change sets off there.
	link := e.Kind == trace.LinkDown || e.Kind == trace.LinkUp
	if m.run.n > 0 && (e.At != m.run.at || link && (e.Kind != m.run.kind || e.Moved)) {
		m.closeRun()
	}
	switch e.Kind {
	case trace.Crashed:
		m.add(e.At, "crash", fmt.Sprintf("node %d crashes", e.Node))
	case trace.Restarted:
		m.add(e.At, "restart", fmt.Sprintf("node %d restarts", e.Node))
	case trace.Recovered:
		m.add(e.At, "recover", fmt.Sprintf("node %d recovers", e.Node))
	case trace.Reported:
		m.add(e.At, "report", fmt.Sprintf("node %d reports: %s", e.Node, e.Text))
	case trace.LinkDown, trace.LinkUp:
		if !e.Moved && e.At > 0 {
			m.run.kind, m.run.at = e.Kind, e.At
			m.run.n++
		}
	case trace.StatusChanged:
		v := int(e.Node)
		switch {
		case e.Status.State == algo.Elect && e.Status.Index.ID == e.Node:
			m.add(e.At, "election", fmt.Sprintf("node %d starts an election", e.Node))
		case e.Status.State == algo.Norm && e.Status.Leader == e.Node && v < s.n &&
			!(s.state[v] == normCode && s.leader[v] == int32(v)):
			m.add(e.At, "elected", fmt.Sprintf("node %d becomes leader", e.Node))
		}
	case trace.Dropped:
		if e.Reason == trace.Lost {
			m.add(e.At, "loss", fmt.Sprintf("a message from %d to %d lost", e.Node, e.Peer))
		}
	}
}

// closeRun marks the links that changed together, when more than one did.
func (m *marks) closeRun() {
	if m.run.n > 1 {
		if m.run.kind == trace.LinkDown {
			m.add(m.run.at, "cut", fmt.Sprintf("%d links cut: a partition", m.run.n))
		} else {
			m.add(m.run.at, "heal", fmt.Sprintf("%d links back: a heal", m.run.n))
		}
	}
	m.run.n = 0
}

func (m *marks) add(at time.Duration, kind, what string) {
	if k := len(m.list) - 1; k >= 0 && m.list[k].Kind == kind && at-m.list[k].at < m.span {
		m.list[k].N++
		return
	}
	m.list = append(m.list, mark{at: at, MS: float64(at) / 1e6, Kind: kind, What: what, N: 1})
	for len(m.list) > maxMarks {
		m.span *= 2
		kept := m.list[:1]
		for _, x := range m.list[1:] {
			last := &kept[len(kept)-1]
			if last.Kind == x.Kind && x.at-last.at < m.span {
				last.N += x.N
				continue
			}
			kept = append(kept, x)
		}
		m.list = kept
	}
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
