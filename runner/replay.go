package runner

import (
	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// ReplayScenario is scenario s with the schedule of cx, a counterexample
// found exploring setup (ExploreSetup), which Run replays exactly: the
// values are the arrangement explored, whatever s's mode would draw.
func ReplayScenario(s *scenario.Scenario, setup *explore.Setup, cx *explore.Counterexample) *scenario.Scenario {
	replay := s.Clone()
	replay.Schedule = &scenario.Schedule{Timed: setup.Timed, Reorder: setup.Reorder, Steps: cx.Steps}
	replay.Values = sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{}}
	for v, x := range setup.Values {
		replay.Values.Explicit[algo.NodeID(v)] = x
	}
	return replay
}
