package emulate

import (
	"fmt"
	"os"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// DiskFault takes a node's state directory away at At for For, a file put
// in its place (which stops a save, as root too), then gives it back: a
// disk gone bad, full or read-only, as the node's saves see it. A node
// that cannot save steps down and is silent to the others, a crashed node
// to them, until a save works (node: fence.go); the checker judges it by
// what it says of itself. Like Pause it is the emulator's own fault
// (Config.Disks), for soaks: the simulator has no disks.
type DiskFault struct {
	Node    algo.NodeID
	At, For time.Duration
}

func (d DiskFault) String() string {
	return fmt.Sprintf("%v disk of %d gone for %v", d.At, d.Node, d.For)
}

// disk takes a live node's state directory away, or (restore) gives it
// back.
func (e *emulation) disk(d DiskFault, restore bool) error {
	pr := e.procs[d.Node]
	away := pr.state + ".away"
	now := time.Now()
	if !restore {
		if !pr.alive() {
			return nil // crashed meanwhile: no disk to fail
		}
		if err := os.Rename(pr.state, away); err != nil {
			return fmt.Errorf("taking node %d's state directory away: %w", d.Node, err)
		}
		if err := os.WriteFile(pr.state, nil, 0o644); err != nil {
			return fmt.Errorf("putting a file in node %d's state directory's place: %w", d.Node, err)
		}
		e.j.Add(trace.Event{At: e.j.Since(now), Kind: trace.Acted, Peer: algo.None, Text: fmt.Sprintf("node %d's disk fails", d.Node)})
		e.log("%7.3fs disk of node %d gone for %v", e.j.Since(now).Seconds(), d.Node, d.For)
		return nil
	}
	if _, err := os.Stat(away); err != nil {
		return nil // never taken away
	}
	if err := os.Remove(pr.state); err != nil {
		return fmt.Errorf("giving node %d its state directory back: %w", d.Node, err)
	}
	if err := os.Rename(away, pr.state); err != nil {
		return fmt.Errorf("giving node %d its state directory back: %w", d.Node, err)
	}
	e.j.Add(trace.Event{At: e.j.Since(now), Kind: trace.Acted, Peer: algo.None, Text: fmt.Sprintf("node %d's disk is back", d.Node)})
	e.log("%7.3fs disk of node %d back", e.j.Since(now).Seconds(), d.Node)
	return nil
}
