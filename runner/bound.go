package runner

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// messageBound is the message bound the checker holds a run of s to
// (check.Config.MessageBound), or nil where none applies: the algorithm
// declares none, or the run has faults (events, loss, moving nodes), where
// the documents promise no count. Clocks and slow nodes (sim.Clock,
// sim.Slow) are no fault to an asynchronous algorithm, whose count does
// not depend on timing: they keep its bound.
func messageBound(s *scenario.Scenario, a *algo.Algorithm, params algo.Params) *check.MessageBound {
	timingOnly := a.Model.Asynchronous && !slices.ContainsFunc(s.Events, func(e sim.Action) bool {
		return e.Kind != sim.Clock && e.Kind != sim.Slow
	})
	if a.MessageBound == nil || len(s.Events) > 0 && !timingOnly || s.Loss > 0 || s.Mobility != "" {
		return nil
	}
	return BoundOf(a, params, s.Delay.Max())
}

// BoundOf is a's message bound (algo.Bound) for a run with these resolved
// parameters and this longest delay (0: unbounded), as the checker takes
// it: by piece of the network, which the checker knows at the end of the
// run. nil when a declares none.
func BoundOf(a *algo.Algorithm, params algo.Params, maxDelay time.Duration) *check.MessageBound {
	b := a.MessageBound
	if b == nil {
		return nil
	}
	return &check.MessageBound{Formula: b.Formula, Of: func(n, m, k int) (int, int, bool) {
		return b.Of(algo.BoundCase{N: n, M: m, Initiators: k, MaxDelay: maxDelay, Params: params})
	}}
}
