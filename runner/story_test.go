package runner

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// The scenario's events in words, as they struck: "the leader" named by
// the node the run crashed, every kind said, in time order.
func TestFaults(t *testing.T) {
	s := time.Second
	crashes := []sim.CrashAt{{At: 10 * s, Node: 34}, {At: 20 * s, Node: 2}, {At: 20 * s, Node: 5}}
	events := []sim.Action{
		{At: 60 * s, Kind: sim.Heal},
		{At: 10 * s, Kind: sim.Crash, Leader: true},
		{At: 20 * s, Kind: sim.Crash, Nodes: []algo.NodeID{2, 5}},
		{At: 25 * s, Kind: sim.Recover, Nodes: []algo.NodeID{2}},
		{At: 30 * s, Kind: sim.Partition, Groups: []sim.Group{{Name: "west"}, {Name: "east"}}},
		{At: 40 * s, Kind: sim.LinkDown, Link: topo.Edge{A: 1, B: 2}},
		{At: 45 * s, Kind: sim.ElectAt, Nodes: []algo.NodeID{7}},
		{At: 50 * s, Kind: sim.Crash, Leader: true},
		{At: 55 * s, Kind: sim.CrashOn, Nodes: []algo.NodeID{3}, Message: "gather"},
		{At: 56 * s, Kind: sim.Corrupt, Nodes: []algo.NodeID{1, 4}},
	}
	want := []string{
		"10 the leader, node 34, crashes",
		"20 nodes 2 and 5 crash",
		"25 node 2 recovers its state",
		"30 the network splits into west, east",
		"40 link 1-2 goes down",
		"45 node 7 is asked to elect",
		"50 a crash of the leader finds none",
		"55 node 3 will die at the first gather message",
		"56 nodes 1 and 4 alter every message sent from now on",
		"60 the partition heals",
	}
	got := faults(events, crashes)
	if len(got) != len(want) {
		t.Fatalf("%d moments, want %d: %+v", len(got), len(want), got)
	}
	for i, m := range got {
		if s := fmtMoment(m.AtMS, m.What); s != want[i] {
			t.Errorf("moment %d: %q, want %q", i, s, want[i])
		}
	}
}

func fmtMoment(ms float64, what string) string {
	return fmt.Sprintf("%g %s", ms/1000, what)
}
