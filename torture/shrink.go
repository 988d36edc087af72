package torture

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// Shrink makes a failing scenario smaller while fails still says it fails:
// fewer events, fewer nodes, no loss, no movement, plain values and
// delays, a shorter run. Each step is kept only if the run still fails; it
// stops when no step helps or after budget tries, and returns the smallest
// failing scenario and the tries it made.
func Shrink(s *scenario.Scenario, fails func(*scenario.Scenario) bool, budget int) (*scenario.Scenario, int) {
	return shrink(s, fails, budget, nil)
}

// shrink is Shrink keeping the parameters keep: a campaign's fixed ones
// (Config.Params), which the scenario must go on running with.
func shrink(s *scenario.Scenario, fails func(*scenario.Scenario) bool, budget int, keep map[string]string) (*scenario.Scenario, int) {
	best := s.Clone()
	tries := 0
	try := func(c *scenario.Scenario) bool {
		if tries >= budget {
			return false
		}
		tries++
		if fails(c) {
			best = c
			return true
		}
		return false
	}
	for progress := true; progress && tries < budget; {
		progress = false
		// Whole events first, the latest first: what follows a failure
		// rarely causes it.
		for i := len(best.Events) - 1; i >= 0; i-- {
			if i < len(best.Events) {
				c := best.Clone()
				c.Events = slices.Delete(c.Events, i, i+1)
				progress = try(c) || progress
			}
		}
		// The nodes the events name, renumbered first: then fewer nodes
		// can keep them.
		if c, ok := relabel(best); ok {
			progress = try(c) || progress
		}
		// Fewer nodes: halve, then one at a time, in the same family of
		// network or a plainer one.
		if n := size(best); n > 2 {
		sizes:
			for _, m := range []int{n / 2, n - 1} {
				for _, family := range []string{"", "line", "star", "ring", "complete"} {
					if m >= 2 && m < size(best) {
						if c, ok := withNodes(best, m, family); ok && try(c) {
							progress = true
							break sizes
						}
					}
				}
			}
		}
		// Simpler conditions.
		for _, simplify := range []func(*scenario.Scenario) bool{
			func(c *scenario.Scenario) bool { ok := c.Loss != 0; c.Loss = 0; return ok },
			func(c *scenario.Scenario) bool {
				ok := c.Mobility != ""
				c.Mobility, c.Range = "", 0
				return ok
			},
			func(c *scenario.Scenario) bool {
				ok := c.Delay != sim.Delay{Kind: sim.Constant, A: time.Millisecond}
				c.Delay = sim.Delay{Kind: sim.Constant, A: time.Millisecond}
				return ok
			},
			func(c *scenario.Scenario) bool {
				ok := c.Values.Mode != sim.ValueID || len(c.Values.Explicit) > 0
				c.Values = sim.Values{Mode: sim.ValueID}
				return ok
			},
			func(c *scenario.Scenario) bool {
				ok := len(c.Params) > len(keep)
				c.Params = maps.Clone(keep)
				return ok
			},
			func(c *scenario.Scenario) bool { ok := c.Initiators != ""; c.Initiators = ""; return ok },
		} {
			c := best.Clone()
			if simplify(c) && try(c) {
				progress = true
			}
		}
		// A shorter run: halve what follows the last event.
		if best.Duration > 0 {
			last := time.Duration(0)
			for _, a := range best.Events {
				last = max(last, a.At)
			}
			if tail := best.Duration - last; tail > time.Second {
				c := best.Clone()
				c.Duration = last + tail/2
				progress = try(c) || progress
			}
		}
	}
	return best, tries
}

// size is the node count of a scenario's topology (0 when unknown).
func size(s *scenario.Scenario) int {
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if err != nil {
		return 0
	}
	return spec.N
}

// withNodes is s on m nodes: the same family of network (or family, when
// not ""), its events kept where they name only the first m nodes and, for
// link events, a link of the new network.
func withNodes(s *scenario.Scenario, m int, family string) (*scenario.Scenario, bool) {
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if err != nil {
		return nil, false
	}
	if family != "" {
		if s.Mobility != "" || string(spec.Kind) == family {
			return nil, false
		}
		if spec, err = topo.Parse(family+":"+strconv.Itoa(m), 0); err != nil {
			return nil, false
		}
	}
	switch spec.Kind {
	case topo.KindGrid:
		// Drop rows, then columns.
		switch {
		case spec.W*(m/spec.W) >= 2 && m/spec.W >= 1:
			spec.H = m / spec.W
		case m/spec.H >= 2:
			spec.W = m / spec.H
		default:
			return nil, false
		}
		spec.N = spec.W * spec.H
		m = spec.N
	case topo.KindLayered, topo.KindFile:
		return nil, false
	case topo.KindRing:
		if m < 3 {
			return nil, false
		}
		spec.N = m
	case topo.KindBA:
		if m <= spec.M {
			return nil, false
		}
		spec.N = m
	default:
		spec.N = m
	}
	c := s.Clone()
	c.Topology, c.Nodes = spec.String(), 0
	g, _, err := runner.Network(c)
	if err != nil {
		return nil, false
	}
	keep := func(v algo.NodeID) bool { return int(v) < m }
	var events []sim.Action
	for _, a := range c.Events {
		a.Nodes = slices.DeleteFunc(a.Nodes, func(v algo.NodeID) bool { return !keep(v) })
		switch a.Kind {
		case sim.Crash, sim.SetValue:
			if len(a.Nodes) == 0 && !a.Leader {
				continue
			}
		case sim.Restart, sim.Recover, sim.ElectAt, sim.CrashOn, sim.Corrupt, sim.Clock, sim.Slow:
			if len(a.Nodes) == 0 {
				continue
			}
		case sim.LinkDown, sim.LinkUp:
			if !keep(a.Link.A) || !keep(a.Link.B) || c.Mobility == "" && !g.HasEdge(a.Link.A, a.Link.B) {
				continue
			}
		case sim.Cut, sim.Uncut, sim.LossDir: // a direction, which any pair has
			if !keep(a.Link.A) || !keep(a.Link.B) {
				continue
			}
		case sim.Partition:
			var gs []sim.Group
			for _, g := range a.Groups {
				if g.Area != nil {
					gs = append(gs, g)
					continue
				}
				g.Nodes = slices.DeleteFunc(g.Nodes, func(v algo.NodeID) bool { return !keep(v) })
				if len(g.Nodes) > 0 {
					gs = append(gs, g)
				}
			}
			if len(gs) == 0 {
				continue
			}
			a.Groups = gs
		}
		events = append(events, a)
	}
	c.Events = events
	for id := range c.Values.Explicit {
		if !keep(id) {
			delete(c.Values.Explicit, id)
		}
	}
	return c, true
}

// relabel renumbers the nodes so that those the events name come first, in
// the order of their ids (the rest keep their order after them). It
// returns false when that changes nothing.
func relabel(s *scenario.Scenario) (*scenario.Scenario, bool) {
	n := size(s)
	if n == 0 || len(s.Params) > 0 || (s.Initiators != "" && s.Initiators != "all") || len(s.Ranges) > 0 {
		return nil, false // parameters, initiators and ranges may name nodes too
	}
	named := make([]bool, n)
	mark := func(v algo.NodeID) {
		if int(v) < n {
			named[v] = true
		}
	}
	for _, a := range s.Events {
		for _, v := range a.Nodes {
			mark(v)
		}
		if linkAction(a.Kind) {
			mark(a.Link.A)
			mark(a.Link.B)
		}
		for _, g := range a.Groups {
			for _, v := range g.Nodes {
				mark(v)
			}
		}
	}
	to := make([]algo.NodeID, n)
	next := algo.NodeID(0)
	for _, first := range []bool{true, false} {
		for v := range n {
			if named[v] == first {
				to[v] = next
				next++
			}
		}
	}
	same := true
	for v, w := range to {
		same = same && int(w) == v
	}
	if same {
		return nil, false
	}
	c := s.Clone()
	for i := range c.Events {
		a := &c.Events[i]
		for j, v := range a.Nodes {
			a.Nodes[j] = to[v]
		}
		slices.Sort(a.Nodes)
		if linkAction(a.Kind) {
			a.Link = topo.Edge{A: to[a.Link.A], B: to[a.Link.B]}
			if a.Link.A > a.Link.B && (a.Kind == sim.LinkDown || a.Kind == sim.LinkUp) {
				a.Link.A, a.Link.B = a.Link.B, a.Link.A // a link names its lower end first; a direction keeps its way
			}
		}
		for j := range a.Groups {
			for k, v := range a.Groups[j].Nodes {
				a.Groups[j].Nodes[k] = to[v]
			}
			slices.Sort(a.Groups[j].Nodes)
		}
	}
	if len(c.Values.Explicit) > 0 {
		ex := make(map[algo.NodeID]int64, len(c.Values.Explicit))
		for v, x := range c.Values.Explicit {
			if int(v) < n {
				ex[to[v]] = x
			}
		}
		c.Values.Explicit = ex
	}
	return c, true
}

// linkAction says actions of kind k name a pair of nodes in Link: a link
// (LinkDown, LinkUp) or a direction (Cut, Uncut, LossDir).
func linkAction(k sim.ActionKind) bool {
	switch k {
	case sim.LinkDown, sim.LinkUp, sim.Cut, sim.Uncut, sim.LossDir:
		return true
	}
	return false
}
