package emulate

import (
	"time"

	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// plan is what the emulator takes from the simulator's run of the same
// scenario: the nodes' values, the links at time 0, and every later change
// of the physical links (movement, partitions and heals, link_down and
// link_up), which do not depend on what the algorithm does. The run's
// summary is what --compare sets beside the emulated one.
type plan struct {
	values  []int64
	initial []topo.Edge
	steps   []linkStep
	gray    []grayStep // the gray failures, as the simulator carried them out
	sim     *metrics.Summary
}

// linkStep is what happens to the links at one instant, in the order the
// simulator reported it.
type linkStep struct {
	at      time.Duration
	changes []linkChange
}

type linkChange struct {
	k         topo.Edge
	up, moved bool
}

// planner is the trace.Observer that gathers a plan.
type planner struct{ p *plan }

func (r planner) Observe(e *trace.Event) {
	p := r.p
	switch e.Kind {
	case trace.NodeAdded:
		for int(e.Node) >= len(p.values) {
			p.values = append(p.values, 0)
		}
		p.values[e.Node] = e.Value
	case trace.LinkUp, trace.LinkDown:
		k := topo.Edge{A: e.Node, B: e.Peer}
		if e.At == 0 && e.Kind == trace.LinkUp && len(p.steps) == 0 {
			p.initial = append(p.initial, k)
			return
		}
		if n := len(p.steps); n == 0 || p.steps[n-1].at != e.At {
			p.steps = append(p.steps, linkStep{at: e.At})
		}
		st := &p.steps[len(p.steps)-1]
		st.changes = append(st.changes, linkChange{k: k, up: e.Kind == trace.LinkUp, moved: e.Moved})
	default:
		if !e.Kind.Gray() {
			return
		}
		if n := len(p.gray); n == 0 || p.gray[n-1].at != e.At {
			p.gray = append(p.gray, grayStep{at: e.At})
		}
		st := &p.gray[len(p.gray)-1]
		st.events = append(st.events, *e)
	}
}

// makePlan runs the scenario in the simulator and keeps its plan.
func makePlan(s *scenario.Scenario) (*plan, error) {
	p := &plan{}
	sum, err := runner.Run(s, runner.Options{Observers: []trace.Observer{planner{p}}})
	if err != nil {
		return nil, err
	}
	p.sim = sum
	return p, nil
}

// linkSet is the links that are up.
type linkSet map[topo.Edge]bool

// apply folds a step into the set and returns its net effect, in the order
// of the step's first mention of each link: a link that went down and up
// again at one instant (a heal of a link that movement took at the same
// moment) is no change at all.
func (s linkSet) apply(st linkStep) []linkChange {
	final := map[topo.Edge]linkChange{}
	var order []topo.Edge
	for _, c := range st.changes {
		if _, seen := final[c.k]; !seen {
			order = append(order, c.k)
		}
		final[c.k] = c
	}
	var out []linkChange
	for _, k := range order {
		c := final[k]
		if s[k] == c.up {
			continue
		}
		if c.up {
			s[k] = true
		} else {
			delete(s, k)
		}
		out = append(out, c)
	}
	return out
}
