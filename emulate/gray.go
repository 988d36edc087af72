package emulate

import (
	"context"
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Gray failures on real nodes, as the simulator's run of the scenario
// carried them out (the plan's gray events, slow spells' ends included):
// a direction of a link is cut in the kernel, one element of the bridge's
// set of (in port, out port) pairs, so that the receiver hears nothing of
// the sender while the sender still hears it; a node's clock and pace are
// its own (POST /gray), kept and set again when the node starts anew.

// grayState is an emulation's gray failures so far.
type grayState struct {
	cuts  map[[2]algo.NodeID]bool // directions cut, from -> to
	nodes journal.Gray            // clocks and paces, node by node
	// pending are the requests of nodes that could not take them, frozen
	// (Pause) or not answering, to send when they go on.
	pending map[algo.NodeID]node.Gray
	frozen  map[algo.NodeID]bool // the nodes frozen now
}

// carrying lists the directions of link k that are not cut.
func (g *grayState) carrying(k topo.Edge) []topo.Edge {
	var out []topo.Edge
	for _, d := range [2]topo.Edge{k, {A: k.B, B: k.A}} {
		if !g.cuts[[2]algo.NodeID{d.A, d.B}] {
			out = append(out, d)
		}
	}
	return out
}

// grayStep is the gray failures of one instant, in the order the
// simulator carried them out.
type grayStep struct {
	at     time.Duration
	events []trace.Event
}

// applyGray carries out the gray failures of one instant and journals
// them: the links' directions in one transaction, as applyLinks changes
// links, then each node's clock and pace.
func (e *emulation) applyGray(ctx context.Context, st *grayStep) error {
	began := time.Now()
	var cut, uncut []topo.Edge
	var done []trace.Event
	for _, ev := range st.events {
		if ev.Kind != trace.Cut && ev.Kind != trace.Uncut {
			continue
		}
		dir, c := [2]algo.NodeID{ev.Node, ev.Peer}, ev.Kind == trace.Cut
		if e.gray.cuts[dir] == c {
			continue
		}
		e.gray.cuts[dir] = c
		done = append(done, ev)
		if !e.links[topo.Edge{A: min(ev.Node, ev.Peer), B: max(ev.Node, ev.Peer)}] {
			continue // the link is down: it carries neither way anyway
		}
		if c {
			cut = append(cut, topo.Edge{A: ev.Node, B: ev.Peer})
		} else {
			uncut = append(uncut, topo.Edge{A: ev.Node, B: ev.Peer})
		}
	}
	if err := nftApply(ctx, dirUpdate(e.tag, uncut, cut)); err != nil {
		return fmt.Errorf("at %v: cutting links one way: %w", st.at, err)
	}
	// Journaled at the call's start, as a link change is (applyLinks).
	at := e.j.Since(began)
	for _, ev := range done {
		ev.At = at
		e.j.Add(ev)
		e.log("%7.3fs %s %d->%d", at.Seconds(), ev.Kind, ev.Node, ev.Peer)
	}
	for _, ev := range st.events {
		if ev.Kind == trace.Cut || ev.Kind == trace.Uncut {
			continue
		}
		v, req := e.gray.nodes.Apply(&ev)
		ev.At = e.j.Since(time.Now())
		e.j.Add(ev)
		e.log("%7.3fs %s node %d: %d", ev.At.Seconds(), ev.Kind, v, ev.Value)
		pr := e.procs[v]
		if !pr.alive() {
			continue // set when it starts again (regray)
		}
		if !e.gray.frozen[v] {
			// A live node that does not take it would never get it (only a
			// frozen one is sent what waits, when it goes on): the run
			// stops, as for a value (value.go). One that died meanwhile is
			// set when it starts again (regray).
			if _, err := pr.sup.SetGray(ctx, req); err != nil && pr.alive() {
				return fmt.Errorf("setting node %d's gray state: %w", v, err)
			}
			continue
		}
		// A frozen node answers nothing: it takes the request when it goes
		// on (a jump included), as its clock would.
		if p, ok := e.gray.pending[v]; ok {
			req.ClockJump += p.ClockJump
		}
		e.gray.pending[v] = req
		e.log("%7.3fs %s of node %d waits until it goes on (frozen)", ev.At.Seconds(), ev.Kind, v)
	}
	return nil
}

// ungray sends node v the request it could not take when frozen, if any.
func (e *emulation) ungray(ctx context.Context, v algo.NodeID) error {
	req, ok := e.gray.pending[v]
	if !ok || !e.procs[v].alive() {
		return nil // none, or it crashed: regray sets its state when it starts
	}
	delete(e.gray.pending, v)
	if _, err := e.procs[v].sup.SetGray(ctx, req); err != nil {
		return fmt.Errorf("setting node %d's clock and pace once it went on: %w", v, err)
	}
	return nil
}

// regray sets node v's clock and pace again once it runs anew: they are
// its machine's, which a restart does not change. (What it missed while
// frozen is in that state: the caller drops it from gray.pending first,
// before the restarts run at once.)
func (e *emulation) regray(ctx context.Context, v algo.NodeID) error {
	req, ok := e.gray.nodes.Of(v)
	if !ok {
		return nil
	}
	if _, err := e.procs[v].sup.SetGray(ctx, req); err != nil {
		return fmt.Errorf("setting node %d's clock and pace again: %w", v, err)
	}
	return nil
}
