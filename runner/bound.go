package runner

import (
	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// messageBound is the number of messages a run of s must send, by its
// algorithm's declared complexity (algo.Bound), or nil where none applies:
// the algorithm declares none, or the run has faults (events, loss, moving
// nodes), where the documents promise no count. The bound is of one
// connected network: on a network in pieces, each piece that holds an
// initiator elects on its own, and the run's bound is the sum of theirs.
func messageBound(s *scenario.Scenario, a *algo.Algorithm, params algo.Params, g *topo.Graph, initiators []algo.NodeID) *trace.MessageBound {
	b := a.MessageBound
	if b == nil || len(s.Events) > 0 || s.Loss > 0 || s.Mobility != "" || len(initiators) == 0 {
		return nil
	}
	comp, count := g.Components()
	pieces := make([]algo.BoundCase, count)
	for v := range g.N() {
		p := &pieces[comp[v]]
		p.N++
		p.M += g.Degree(algo.NodeID(v)) // each link twice, halved below
	}
	for _, v := range initiators {
		pieces[comp[v]].Initiators++
	}
	out := &trace.MessageBound{Formula: b.Formula}
	for _, p := range pieces {
		if p.Initiators == 0 {
			continue // no election starts there: no message
		}
		p.M /= 2
		p.MaxDelay, p.Params = s.Delay.Max(), params
		lo, hi, ok := b.Of(p)
		if !ok {
			return nil
		}
		out.Lo += lo
		out.Hi += hi
	}
	return out
}
