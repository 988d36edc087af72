package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/trace"
)

// Gray failures, the simulator's gray actions (sim.Cut, sim.Clock,
// sim.Slow) on real nodes: a gray step (cut, uncut, clock, slow) journals
// the same trace events as the simulator emits for it (trace.Cut, Uncut,
// ClockRate, ClockJumped, Slowed), so that the checker judges them alike,
// then sets the state of the node it changes with POST /gray
// (node.Gray). The cluster keeps every node's state (journal.Gray): a node
// not running gets it when it starts again (a restart, a recovery), so that
// its clock and cuts outlive its process, as a machine's hardware would.

// GrayFault is what a gray step does: the fields of its script form, as
// the simulator's scenario files have them (cut: {from, to}, clock: {node,
// rate, jump}, slow: {node, by, for}); the nodes of clock and slow are the
// step's Nodes (or its Leader).
type GrayFault struct {
	// From and To are the direction of a cut or an uncut: node To no
	// longer hears node From (From still hears To), or hears it again.
	From, To int
	// Rate is the rate a clock step sets, against true time (0: unchanged;
	// 1: true time again; 0.8: 20% slow; above 0, at most 100), Jump how
	// far it moves the clock, once, forward or back (0: not at all). A
	// clock step gives one or both.
	Rate float64
	Jump time.Duration
	// By is how late a slow node handles each input (0: on time again);
	// For, when above 0, sets it back to 0 after that long.
	By, For time.Duration
}

// isGray says action is a gray step's.
func isGray(action string) bool {
	switch action {
	case "cut", "uncut", "clock", "slow":
		return true
	}
	return false
}

// Cut cuts the direction from -> to: node to no longer hears node from
// (from still hears to).
func (c *Cluster) Cut(ctx context.Context, from, to int) error {
	_, err := c.actGray(ctx, Step{Action: "cut", Gray: GrayFault{From: from, To: to}})
	return err
}

// Uncut lets the direction from -> to carry again: node to hears node from.
func (c *Cluster) Uncut(ctx context.Context, from, to int) error {
	_, err := c.actGray(ctx, Step{Action: "uncut", Gray: GrayFault{From: from, To: to}})
	return err
}

// Clock sets node id's clock running at rate against true time (0: as it
// runs; 1: true time again) and jumps it by jump (0: no jump).
func (c *Cluster) Clock(ctx context.Context, id int, rate float64, jump time.Duration) error {
	_, err := c.actGray(ctx, Step{Action: "clock", Nodes: []int{id}, Gray: GrayFault{Rate: rate, Jump: jump}})
	return err
}

// Slow makes node id handle each input by late (0: on time again).
func (c *Cluster) Slow(ctx context.Context, id int, by time.Duration) error {
	_, err := c.actGray(ctx, Step{Action: "slow", Nodes: []int{id}, Gray: GrayFault{By: by}})
	return err
}

// checkGray says what is wrong with gray step st for this cluster.
func (c *Cluster) checkGray(st Step) error {
	g, n := st.Gray, len(c.nodes)
	switch st.Action {
	case "cut", "uncut":
		for _, id := range []int{g.From, g.To} {
			if id < 0 || id >= n {
				return fmt.Errorf("%s: node %d is out of range: the cluster has nodes 0..%d", st.Action, id, n-1)
			}
		}
		if g.From == g.To {
			return fmt.Errorf("%s: from and to are both node %d: a direction joins two nodes", st.Action, g.From)
		}
		if !c.cfg.Graph.HasEdge(algo.NodeID(g.From), algo.NodeID(g.To)) {
			return fmt.Errorf("%s: nodes %d and %d are not linked in the topology %s: no direction of theirs to cut", st.Action, g.From, g.To, c.cfg.Topology)
		}
	case "clock":
		if math.IsNaN(g.Rate) || g.Rate < 0 || g.Rate > 100 {
			return fmt.Errorf("clock rate %v: want a rate above 0 and at most 100 (1: true time; 0.8: 20%% slow), or 0 to leave it", g.Rate)
		}
		if g.Rate == 0 && g.Jump == 0 {
			return errors.New("a clock step needs a rate or a jump")
		}
	case "slow":
		if g.By < 0 || g.For < 0 {
			return fmt.Errorf("slow by %v for %v: want durations of 0 or more", g.By, g.For)
		}
	}
	return nil
}

// actGray carries out gray step st and says what it did.
func (c *Cluster) actGray(ctx context.Context, st Step) (string, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if c.closed {
		return "", errors.New("the cluster is closed")
	}
	if err := c.checkGray(st); err != nil {
		return "", err
	}
	g := st.Gray
	if st.Action == "cut" || st.Action == "uncut" {
		return c.cutDir(ctx, st.Action == "cut", g.From, g.To)
	}
	ids, err := c.targetsInRange(st.Nodes, st.Leader)
	if err != nil {
		return "", err
	}
	var msgs []string
	for _, id := range ids {
		v := algo.NodeID(id)
		var es []trace.Event
		var what []string
		switch st.Action {
		case "clock":
			if g.Rate > 0 {
				es = append(es, trace.Event{Kind: trace.ClockRate, Node: v, Peer: algo.None, Value: trace.PPM(g.Rate)})
				what = append(what, "runs at "+strconv.FormatFloat(g.Rate, 'g', -1, 64)+" of true time")
				if es[0].Value == trace.PPM(1) {
					what[0] = "runs on true time again"
				}
			}
			if g.Jump != 0 {
				es = append(es, trace.Event{Kind: trace.ClockJumped, Node: v, Peer: algo.None, Value: int64(g.Jump)})
				what = append(what, "jumps by "+g.Jump.String())
			}
		case "slow":
			es = append(es, trace.Event{Kind: trace.Slowed, Node: v, Peer: algo.None, Value: int64(g.By)})
			what = append(what, "handles each input "+g.By.String()+" late")
			if g.By == 0 {
				what[0] = "handles its inputs on time again"
			}
		}
		msg := fmt.Sprintf("%s %d: %s", st.Action, id, strings.Join(what, ", "))
		running, err := c.setGray(ctx, c.nodes[id], es)
		if err != nil {
			return strings.Join(msgs, "; "), err
		}
		msgs = append(msgs, msg+notRunning(running, st.Action == "clock" && g.Rate == 0))
	}
	if st.Action == "slow" && g.For > 0 {
		c.endSlow(st, ids)
		msgs = append(msgs, fmt.Sprintf("on time again in %v", g.For))
	}
	return strings.Join(msgs, "; "), nil
}

// notRunning is what a gray step's result adds of a node not running.
func notRunning(running, jumpOnly bool) string {
	switch {
	case running:
		return ""
	case jumpOnly:
		return " (not running: no process's clock to move)"
	}
	return " (not running: set when it starts again)"
}

// cutDir cuts the direction from -> to (cut) or lets it carry again, at
// node to; a cut already there, or an uncut of a direction not cut, does
// nothing, as in the simulator.
func (c *Cluster) cutDir(ctx context.Context, cut bool, from, to int) (string, error) {
	verb, kind := "uncut", trace.Uncut
	if cut {
		verb, kind = "cut", trace.Cut
	}
	head := fmt.Sprintf("%s %d->%d: ", verb, from, to)
	n := c.nodes[to]
	n.act.Lock()
	defer n.act.Unlock()
	c.mu.Lock()
	was := c.cutLocked(from, to)
	c.mu.Unlock()
	switch {
	case cut && was:
		return head + "cut already", nil
	case !cut && !was:
		return head + "not cut: nothing to do", nil
	}
	running, err := c.setGrayLocked(ctx, n, []trace.Event{{Kind: kind, Node: algo.NodeID(from), Peer: algo.NodeID(to)}})
	if err != nil {
		return "", err
	}
	if cut {
		return head + fmt.Sprintf("node %d no longer hears %d", to, from) + notRunning(running, false), nil
	}
	return head + fmt.Sprintf("node %d hears %d again", to, from) + notRunning(running, false), nil
}

// setGray is setGrayLocked holding node n's action lock.
func (c *Cluster) setGray(ctx context.Context, n *clusterNode, es []trace.Event) (bool, error) {
	n.act.Lock()
	defer n.act.Unlock()
	return c.setGrayLocked(ctx, n, es)
}

// setGrayLocked folds gray events es, all changing node n's state, into
// the cluster's, journals them, then sets n's state (POST /gray) when it
// runs: it says whether it did. n.act is held.
func (c *Cluster) setGrayLocked(ctx context.Context, n *clusterNode, es []trace.Event) (bool, error) {
	now := time.Now()
	var req node.Gray
	c.mu.Lock()
	for i := range es {
		_, req = c.gray.Apply(&es[i])
	}
	c.mu.Unlock()
	for _, e := range es {
		c.addEvent(e, now)
	}
	if !n.alive() {
		return false, nil
	}
	if _, err := n.proc.SetGray(ctx, req); err != nil {
		if !n.alive() { // it died meanwhile: its next life gets the state
			return false, nil
		}
		return true, fmt.Errorf("node %d: %w", n.id, err)
	}
	return true, nil
}

// grayAgain sets the gray failures node n had on its new life, which
// answers; it says what it set ("" for none). n.act is held.
func (c *Cluster) grayAgain(ctx context.Context, n *clusterNode) (string, error) {
	c.mu.Lock()
	g, ok := c.gray.Of(algo.NodeID(n.id))
	c.mu.Unlock()
	if !ok {
		return "", nil
	}
	if _, err := n.proc.SetGray(ctx, g); err != nil {
		return "", fmt.Errorf("node %d: setting its gray failures again: %w", n.id, err)
	}
	var what []string
	if len(g.CutFrom) > 0 {
		what = append(what, "deaf to "+IDRanges(toInts(g.CutFrom)))
	}
	if g.ClockRate != 0 {
		what = append(what, "clock at "+strconv.FormatFloat(g.ClockRate, 'g', -1, 64))
	}
	if g.Slow > 0 {
		what = append(what, g.Slow.String()+" slow")
	}
	return "; its gray failures set again: " + strings.Join(what, ", "), nil
}

func toInts(ids []algo.NodeID) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// cutLocked says the direction from -> to is cut; c.mu is held.
func (c *Cluster) cutLocked(from, to int) bool {
	g := c.gray[algo.NodeID(to)]
	return g != nil && slices.Contains(g.CutFrom, algo.NodeID(from))
}

// oneWayLocked says a direction of the link a-b is cut: the cluster's
// components leave the link out while it is, as the checker does; c.mu is
// held.
func (c *Cluster) oneWayLocked(a, b int) bool {
	return len(c.gray) > 0 && (c.cutLocked(a, b) || c.cutLocked(b, a))
}

// endSlow sets nodes ids on time again once slow step st's For has
// passed, as a step of its own (the end of a slow spell, as the simulator
// schedules it), unless the run has ended by then.
func (c *Cluster) endSlow(st Step, ids []int) {
	end := Step{Line: st.Line, Path: st.Path, At: -1, Action: "slow", Nodes: ids, Expect: noExpect(0)}
	t := time.AfterFunc(st.Gray.For, func() {
		c.mu.Lock()
		done, file := c.finished != nil, c.script
		c.mu.Unlock()
		if done {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := c.Do(ctx, end)
		at := c.Since(time.Now())
		if err != nil {
			c.say(LineStep, at, "%s:%d: %s (for %v ended): FAILED: %v", file, st.Line, res.Step, st.Gray.For, err)
			return
		}
		c.say(LineStep, at, "%s:%d: %s (for %v ended)", file, st.Line, res.Result, st.Gray.For)
	})
	c.mu.Lock()
	c.grayEnds = append(c.grayEnds, t)
	c.mu.Unlock()
}

// stopGrayEnds cancels the ends of slow spells still to come.
func (c *Cluster) stopGrayEnds() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.grayEnds {
		t.Stop()
	}
	c.grayEnds = nil
}

// addEvent journals event e at time t, unless the run has not begun or
// has ended.
func (c *Cluster) addEvent(e trace.Event, t time.Time) {
	r := c.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.j == nil || r.ended {
		return
	}
	e.At = max(r.j.Since(t), 0)
	r.j.Add(e)
}

// describeGray renders gray step s like a keyboard command (ParseCommand
// reads it back): cut 4 0, uncut 4 0, clock 3 0.8, jump 3 -1h0m0s, clock
// 3 0.8 jump 1s, slow 3 200ms, slow 3 200ms for 10s.
func (s Step) describeGray(nodes string) string {
	g := s.Gray
	switch s.Action {
	case "cut", "uncut":
		return fmt.Sprintf("%s %d %d", s.Action, g.From, g.To)
	case "clock":
		rate := strconv.FormatFloat(g.Rate, 'g', -1, 64)
		switch {
		case g.Rate == 0:
			return "jump " + nodes + " " + g.Jump.String()
		case g.Jump != 0:
			return "clock " + nodes + " " + rate + " jump " + g.Jump.String()
		}
		return "clock " + nodes + " " + rate
	}
	if g.For > 0 {
		return "slow " + nodes + " " + g.By.String() + " for " + g.For.String()
	}
	return "slow " + nodes + " " + g.By.String()
}
