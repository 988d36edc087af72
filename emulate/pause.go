package emulate

import (
	"fmt"
	"syscall"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// Pause freezes a node's process (SIGSTOP) at At for For, then lets it go
// on (SIGCONT): a process stalled by a paused VM, a stop-the-world or a
// swap storm, which the others see go silent and then come back as it
// was, timers late and leadership it may no longer hold. The scenario
// format has no such event (the simulator has no processes to freeze), so
// it is the emulator's own (Config.Pauses), for soaks. The checker sees a
// crash at At and, at At+For, a recovery with the status the node had: it
// says nothing while frozen, and comes back with its state, as a recovered
// node does.
type Pause struct {
	Node    algo.NodeID
	At, For time.Duration
}

// pause freezes (or, with resume, thaws) a live node.
func (e *emulation) pause(p Pause, resume bool) error {
	pr := e.procs[p.Node]
	if !pr.alive() {
		return nil // crashed meanwhile: nothing to freeze or thaw
	}
	pid := pr.sup.Info().PID
	now := time.Now()
	if !resume {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			return fmt.Errorf("pausing node %d (pid %d): %w", p.Node, pid, err)
		}
		e.j.Add(trace.Event{At: e.j.Since(now), Kind: trace.Crashed, Node: p.Node, Peer: algo.None})
		e.log("%7.3fs pause node %d (SIGSTOP) for %v", e.j.Since(now).Seconds(), p.Node, p.For)
		return nil
	}
	e.j.Add(trace.Event{At: e.j.Since(now), Kind: trace.Recovered, Node: p.Node, Peer: algo.None})
	if st, ok := pr.lastStatus(); ok {
		// It comes back as it was: the checker learns that status now,
		// as a recovered node's first.
		e.j.Add(trace.Event{At: e.j.Since(now), Kind: trace.StatusChanged, Node: p.Node, Peer: algo.None, Status: st})
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("resuming node %d (pid %d): %w", p.Node, pid, err)
	}
	e.log("%7.3fs resume node %d (SIGCONT)", e.j.Since(now).Seconds(), p.Node)
	return nil
}
