package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/trace"
)

// Act does action to the nodes ids, or to the nodes leading now when
// leader is set, and says what it did. The actions are a script's and the
// keyboard's: kill (SIGKILL), stop (SIGTERM: a clean stop), restart (start
// again with an empty state directory: it elects), recover (start again
// with its state directory: it merges, no election) and elect (POST
// /elect: the control process asks for an election). The kill or stop of
// a leading node times the failover after it.
func (c *Cluster) Act(ctx context.Context, action string, ids []int, leader bool) (string, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if c.closed {
		return "", errors.New("the cluster is closed")
	}
	ids, err := c.targets(ids, leader)
	if err != nil {
		return "", err
	}
	if action == "elect" {
		return c.elect(ctx, ids)
	}
	var msgs []string
	for _, id := range ids {
		if id < 0 || id >= len(c.nodes) {
			return strings.Join(msgs, "; "), fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, len(c.nodes)-1)
		}
		msg, err := c.act1(ctx, action, c.nodes[id])
		if err != nil {
			return strings.Join(msgs, "; "), err
		}
		msgs = append(msgs, msg)
	}
	return strings.Join(msgs, "; "), nil
}

// targets are the nodes ids, and those leading now when leader is set.
func (c *Cluster) targets(ids []int, leader bool) ([]int, error) {
	ids = slices.Clone(ids) // the leaders are added to a copy, not the caller's slice
	if leader {
		c.mu.Lock()
		for _, n := range c.nodes {
			if n.answered() && n.st.Leading {
				ids = append(ids, n.id)
			}
		}
		c.mu.Unlock()
		if len(ids) == 0 {
			return nil, errors.New("no node leads now")
		}
	}
	return ids, nil
}

// targetsInRange is targets, refused whole when one names no node of the
// cluster: a step that sets several nodes sets none of them then.
func (c *Cluster) targetsInRange(ids []int, leader bool) ([]int, error) {
	ids, err := c.targets(ids, leader)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if id < 0 || id >= len(c.nodes) {
			return nil, fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, len(c.nodes)-1)
		}
	}
	return ids, nil
}

// Kill kills nodes (SIGKILL), as a crash.
func (c *Cluster) Kill(ctx context.Context, ids ...int) error { return c.do(ctx, "kill", ids) }

// Stop stops nodes cleanly (SIGTERM): each saves its state.
func (c *Cluster) Stop(ctx context.Context, ids ...int) error { return c.do(ctx, "stop", ids) }

// Restart starts nodes again with an empty state directory: they elect.
func (c *Cluster) Restart(ctx context.Context, ids ...int) error { return c.do(ctx, "restart", ids) }

// Recover starts nodes again with their state directory: they merge with
// the others, with no election.
func (c *Cluster) Recover(ctx context.Context, ids ...int) error { return c.do(ctx, "recover", ids) }

// Elect asks nodes to start an election (POST /elect), as the ring
// document's control process sends its election message.
func (c *Cluster) Elect(ctx context.Context, ids ...int) error { return c.do(ctx, "elect", ids) }

func (c *Cluster) do(ctx context.Context, action string, ids []int) error {
	_, err := c.Act(ctx, action, ids, false)
	return err
}

func (c *Cluster) act1(ctx context.Context, action string, n *clusterNode) (string, error) {
	n.act.Lock()
	defer n.act.Unlock()
	c.mu.Lock()
	leading := n.answered() && n.st.Leading
	c.mu.Unlock()
	switch action {
	case "kill", "stop":
		e, err := c.end(n, action)
		if err != nil {
			return "", err
		}
		c.crashed(n.id, e.At, fmt.Sprintf("%s %d", action, n.id))
		name := "SIGKILL"
		if action == "stop" {
			name = "SIGTERM"
		}
		msg := fmt.Sprintf("%s %d: %s to pid %d", action, n.id, name, e.PID)
		if leading {
			c.mu.Lock()
			c.failovers = append(c.failovers, &failover{node: n.id, how: action, at: e.At})
			c.mu.Unlock()
			msg += " (it led: timing the failover)"
		}
		return msg, nil
	case "restart", "recover":
		if n.alive() {
			e, err := c.end(n, "kill")
			if err != nil {
				return "", err
			}
			c.crashed(n.id, e.At, fmt.Sprintf("%s %d (killed first)", action, n.id))
		}
		mode, kind := supervisor.Fresh, trace.Restarted
		if action == "recover" {
			mode, kind = supervisor.Recover, trace.Recovered
		}
		c.add(kind, n.id, time.Now(), "")
		if err := c.launch(n, mode); err != nil {
			return "", err
		}
		if err := n.proc.AwaitUp(ctx, 10*time.Second); err != nil {
			return "", err
		}
		c.watch(n)
		again, err := c.grayAgain(ctx, n) // its machine's faults outlive the process
		if err != nil {
			return "", err
		}
		pid := n.proc.Info().PID
		if mode == supervisor.Fresh {
			return fmt.Sprintf("restart %d: pid %d, empty state: it elects%s", n.id, pid, again), nil
		}
		return fmt.Sprintf("recover %d: pid %d, with its saved state: it merges%s", n.id, pid, again), nil
	}
	return "", fmt.Errorf("unknown action %q", action)
}

// Wait waits until x holds or x.Within (0: DefaultWithin) passes, at the
// end of a poll round, and returns how long it took; its error says what
// kept x from holding at the last round, and wraps ctx's error when ctx
// ended the wait.
func (c *Cluster) Wait(ctx context.Context, x Expect) (time.Duration, error) {
	if x.Within <= 0 {
		x.Within = DefaultWithin
	}
	start := time.Now()
	wctx, cancel := context.WithDeadline(ctx, start.Add(x.Within))
	defer cancel()
	next := start
	last := "no poll round ended"
	for {
		if err := c.awaitRound(wctx, next); err != nil {
			if ctx.Err() != nil {
				return 0, fmt.Errorf("%s: cut short after %v (%s): %w", x.describe(), time.Since(start).Round(time.Millisecond), last, ctx.Err())
			}
			return 0, fmt.Errorf("not met within %v: %s", x.Within, last)
		}
		c.mu.Lock()
		at := c.roundAt
		problem := c.checkLocked(x)
		c.mu.Unlock()
		if problem == "" {
			return time.Since(start), nil
		}
		last = problem
		next = at.Add(time.Nanosecond)
	}
}

// checkLocked says what keeps x from holding ("" when it holds); c.mu is
// held.
func (c *Cluster) checkLocked(x Expect) string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if x.Leader >= 0 {
		if x.Leader >= len(c.nodes) {
			add("node %d is out of range: the cluster has nodes 0..%d", x.Leader, len(c.nodes)-1)
		} else if l := c.nodes[x.Leader]; !l.alive() {
			add("node %d is not running", x.Leader)
		}
		for _, n := range c.nodes {
			switch {
			case !n.alive():
			case !n.answered():
				add("node %d does not answer", n.id)
			case n.st.State != "Norm":
				add("node %d is in %s", n.id, n.st.State)
			case int(n.st.Leader) != x.Leader:
				add("node %d follows %s", n.id, leaderText(int(n.st.Leader)))
			}
		}
	}
	if x.Agree {
		a := c.agreementLocked()
		for i, comp := range a.Components {
			if a.Leaders[i] != a.Best[i] {
				add("{%s} does not follow its most valued node %d", IDRanges(comp), a.Best[i])
			}
		}
		if len(a.Components) == 0 {
			add("no node is running")
		}
	}
	for _, e := range x.Elections {
		if e.Node < 0 || e.Node >= len(c.nodes) {
			add("node %d is out of range: the cluster has nodes 0..%d", e.Node, len(c.nodes)-1)
			continue
		}
		n := c.nodes[e.Node]
		switch {
		case !n.alive():
			add("node %d is not running", e.Node)
		case !n.answered():
			add("node %d does not answer", e.Node)
		case n.st.Counters.Elections != e.Count:
			add("node %d took part in %d elections since it started, want %d", e.Node, n.st.Counters.Elections, e.Count)
		}
	}
	if x.Failure.Phase != "" {
		if p := c.checkFailureLocked(x.Failure); p != "" {
			add("%s", p)
		}
	}
	if len(problems) > 6 {
		problems = append(problems[:6], fmt.Sprintf("and %d more", len(problems)-6))
	}
	return strings.Join(problems, "; ")
}

// Run runs the steps of s in order, each not before its time (its at is
// from time 0 of the run, its after from the end of the step before), and
// records what became of each (Summary.Steps). It ends at the first step
// that fails, naming it; the directory is then kept.
func (c *Cluster) Run(ctx context.Context, s *Script) error {
	err := c.run(ctx, s)
	if err != nil {
		c.mu.Lock()
		c.failed = true
		c.mu.Unlock()
	}
	return err
}

func (c *Cluster) run(ctx context.Context, s *Script) error {
	c.mu.Lock()
	t0 := c.t0
	c.script = s.File
	c.mu.Unlock()
	prevEnd := t0
	for _, st := range s.Steps {
		due := prevEnd.Add(st.After)
		if st.At >= 0 && t0.Add(st.At).After(due) {
			due = t0.Add(st.At)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(due)):
		}
		res, err := c.Do(ctx, st)
		prevEnd = time.Now()
		at := prevEnd.Sub(t0)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.say(LineStep, at, "%s:%d: %s: FAILED: %v", s.File, st.Line, res.Step, err)
			return fmt.Errorf("%s:%d: %s: %s: %w", s.File, st.Line, st.Path, res.Step, err)
		}
		if st.Action == "expect" {
			c.say(LineStep, at, "%s:%d: %s: %s", s.File, st.Line, res.Step, res.Result)
		} else {
			c.say(LineStep, at, "%s:%d: %s", s.File, st.Line, res.Result)
		}
	}
	return nil
}
