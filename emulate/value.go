//go:build linux

package emulate

import (
	"context"
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// Value events on real nodes (sim.SetValue): the node's value, its
// desirability as leader, is set with POST /value, and journaled as the
// simulator's event (trace.ValueChanged) at the request's start, so that
// the checker never sees the node act on its new value before it changed.
// As in the simulator, a value that is the node's already changes
// nothing, and a crashed node comes back with the value set meanwhile:
// its next lives start with it (--value). A node frozen (Pause) takes it
// when it goes on; a running node that does not take it fails the run,
// as any other request a node fails to answer does (unfreezeValue,
// regray), rather than leave the journal with a value the node lacks.

// actValue sets the value of the action's nodes, or of the leader that
// the most live nodes follow then (as a crash of the leader finds it).
func (e *emulation) actValue(ctx context.Context, a *sim.Action) error {
	for _, v := range e.targets(a, "a change of the leader's value finds none") {
		if err := e.setValue(ctx, v, a.Value); err != nil {
			return err
		}
	}
	return nil
}

// setValue sets node v's value to x: journaled, kept for its next lives,
// and sent to its live process (cluster.PostValue), or kept until it goes
// on when it is frozen.
func (e *emulation) setValue(ctx context.Context, v algo.NodeID, x int64) error {
	pr := e.procs[v]
	if pr.value == x {
		return nil
	}
	pr.value = x
	pr.sup.SetArgs(cluster.WithValue(pr.sup.Args(), x))
	at := e.j.Since(time.Now())
	e.j.Add(trace.Event{At: at, Kind: trace.ValueChanged, Node: v, Peer: algo.None, Value: x})
	e.log("%7.3fs value of node %d: %d", at.Seconds(), v, x)
	if e.gray.frozen[v] && pr.alive() {
		e.pendingValues[v] = x
		e.log("%7.3fs value of node %d waits until it goes on (frozen)", at.Seconds(), v)
		return nil
	}
	// A node not running, or killed meanwhile, starts its next life with
	// it: PostValue says so with no error.
	if _, err := cluster.PostValue(ctx, pr.sup, x); err != nil {
		return fmt.Errorf("setting node %d's value: %w", v, err)
	}
	return nil
}

// unfreezeValue sends node v the value it could not take when frozen, if
// any.
func (e *emulation) unfreezeValue(ctx context.Context, v algo.NodeID) error {
	x, ok := e.pendingValues[v]
	if !ok || !e.procs[v].alive() {
		return nil // none, or it crashed: its next life starts with it
	}
	delete(e.pendingValues, v)
	if err := e.procs[v].sup.SetValue(ctx, x); err != nil {
		return fmt.Errorf("setting node %d's value once it went on: %w", v, err)
	}
	e.log("%7.3fs value of node %d set once it went on: %d", e.j.Since(time.Now()).Seconds(), v, x)
	return nil
}
