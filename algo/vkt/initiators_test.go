package vkt_test

import (
	"testing"

	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
)

// TestOneInitiatorExactCounts: with initiators 0, start-up is one election,
// node 0's, on every shape and under every delay model: 2E-(n-1) Election,
// Ack and Leader messages, no probe, and every node follows the most valued
// node. With the initiators ignored every node would elect at boot and the
// counts, and the computations seen, would be those of n elections.
func TestOneInitiatorExactCounts(t *testing.T) {
	runtest.OneInitiator(t, "vkt", func(t *testing.T, s *scenario.Scenario) {
		runtest.Connected(t, s)
		w := newWindow(0)
		sum := runtest.Run(t, s, w)
		oneElectionCounts(t, w, sum)
		if len(w.sources) != 1 || !w.sources[0] {
			t.Errorf("elections of %v, want node 0's only", w.sources)
		}
		if sum.Elections.Completed != 1 {
			t.Errorf("%d elections, want 1", sum.Elections.Completed)
		}
		runtest.FollowBest(t, sum)
	})
}
