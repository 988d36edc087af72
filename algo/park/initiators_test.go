package park_test

import (
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/park"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// tree records, for one election, the node each node first heard Election
// from (its k, where its Ack goes), the messages sent by type and the
// elections' sources.
type tree struct {
	k       map[algo.NodeID]algo.NodeID
	sent    map[algo.MsgType]int
	sources map[algo.NodeID]bool
}

func newTree() *tree {
	return &tree{k: map[algo.NodeID]algo.NodeID{}, sent: map[algo.MsgType]int{}, sources: map[algo.NodeID]bool{}}
}

func (w *tree) Observe(e *trace.Event) {
	switch {
	case e.Kind == trace.Sent:
		w.sent[e.Msg.Type]++
		if e.Msg.Type == park.Election {
			w.sources[e.Msg.Index.ID] = true
		}
	case e.Kind == trace.Delivered && e.Msg.Type == park.Election:
		if _, seen := w.k[e.Node]; !seen && e.Node != e.Msg.Index.ID {
			w.k[e.Node] = e.Peer
		}
	}
}

// hops is the number of Ack messages the election costs: every node's Ack
// travels to the source along k, one message a hop.
func (w *tree) hops(source algo.NodeID) int {
	total := 0
	for v := range w.k {
		for u := v; u != source; u = w.k[u] {
			total++
		}
	}
	return total
}

// TestOneInitiatorExactCounts: with initiators 0, start-up is one election,
// node 0's, on every shape and under every delay model: 2E-(n-1) Election
// and Leader messages, one Ack a hop from every node to the source along
// the tree the Elections drew (under constant delays, the sum of the
// distances to node 0), and every node follows the most valued node. With
// the initiators ignored every node would elect at boot.
func TestOneInitiatorExactCounts(t *testing.T) {
	runtest.OneInitiator(t, "park", func(t *testing.T, s *scenario.Scenario) {
		g := runtest.Connected(t, s)
		w := newTree()
		sum := runtest.Run(t, s, w)
		want := 2*sum.Edges - (sum.Nodes - 1)
		if w.sent[park.Election] != want || w.sent[park.Leader] != want {
			t.Errorf("election %d, leader %d; want 2E-(n-1) = %d", w.sent[park.Election], w.sent[park.Leader], want)
		}
		if len(w.k) != sum.Nodes-1 {
			t.Fatalf("%d nodes heard the election, want %d", len(w.k), sum.Nodes-1)
		}
		if hops := w.hops(0); w.sent[park.Ack] != hops {
			t.Errorf("ack %d, want %d (the hops from every node to the source)", w.sent[park.Ack], hops)
		}
		if s.Delay.Kind == sim.Constant {
			d := 0
			for _, h := range distances(g, 0) {
				d += h
			}
			if w.sent[park.Ack] != d {
				t.Errorf("ack %d, want the sum of the distances to node 0, %d", w.sent[park.Ack], d)
			}
		}
		if len(w.sources) != 1 || !w.sources[0] {
			t.Errorf("elections of %v, want node 0's only", w.sources)
		}
		if sum.Elections.Completed != 1 {
			t.Errorf("%d elections, want 1", sum.Elections.Completed)
		}
		runtest.FollowBest(t, sum)
	})
}
