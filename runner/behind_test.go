package runner

import (
	"reflect"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/internal/broken"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// The checker, Reach and the counter's records of the nodes give the same
// summary behind the engine as in line, on runs with crashes, restarts,
// partitions, loss, moving nodes and violations to report (a double that
// elects two leaders).
func TestBehindSameSummary(t *testing.T) {
	partition := []sim.Action{
		{At: 2 * time.Second, Kind: sim.Crash, Leader: true},
		{At: 3 * time.Second, Kind: sim.Crash, Nodes: []algo.NodeID{3, 7}},
		{At: 4 * time.Second, Kind: sim.Restart, Nodes: []algo.NodeID{3}},
		{At: 5 * time.Second, Kind: sim.Recover, Nodes: []algo.NodeID{7}},
		{At: 6 * time.Second, Kind: sim.Partition, Groups: []sim.Group{{Name: "west", Area: &sim.Rect{X0: 0, Y0: 0, X1: 300, Y1: 1000}}}},
		{At: 12 * time.Second, Kind: sim.Heal},
		{At: 13 * time.Second, Kind: sim.LinkDown, Link: topo.Edge{A: 1, B: 2}},
	}
	cases := []struct {
		name string
		edit func(s *scenario.Scenario)
	}{
		{"vkt faults", func(s *scenario.Scenario) { s.Events = partition; s.Loss = 0.02 }},
		{"park moving", func(s *scenario.Scenario) {
			s.Algorithm, s.Params, s.Mobility = "park", nil, "waypoint:5:30:1s"
			s.Events = partition
		}},
		{"echo moving", func(s *scenario.Scenario) {
			s.Algorithm, s.Params, s.Mobility = "echo", nil, "waypoint:10:40:0s"
		}},
		{"two leaders, violations", func(s *scenario.Scenario) {
			s.Algorithm, s.Params = broken.Names[broken.TwoLeaders], nil
			s.Events = partition
		}},
	}
	defer func(min int) { behindMin = min }(behindMin)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sums [2]any
			for i, min := range []int{1 << 30, 0} {
				behindMin = min
				s := scenario.Default()
				s.Duration, s.Seed = 30*time.Second, 4
				c.edit(s)
				sum, err := Run(s, Options{})
				if err != nil {
					t.Fatal(err)
				}
				sum.WallMS = 0
				sums[i] = sum
			}
			if sums[0].(*metrics.Summary).Messages.Total == 0 {
				t.Fatalf("no message sent: nothing compared")
			}
			if !reflect.DeepEqual(sums[0], sums[1]) {
				t.Errorf("behind the engine:\n%+v\nin line:\n%+v", sums[1], sums[0])
			}
		})
	}
}
