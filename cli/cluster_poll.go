package cli

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/electgo/elect/node"
)

// pollRound asks every live node for its /status, all at once, then
// records the answers and what they show.
func (c *cluster) pollRound(ctx context.Context) {
	type target struct {
		n    *clusterNode
		life int
	}
	start := time.Now()
	var ts []target
	for _, n := range c.nodes {
		if in := n.proc.Info(); in.State.Alive() {
			ts = append(ts, target{n, in.Life})
		}
	}
	sts := make([]*node.StatusJSON, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() { sts[i], errs[i] = t.n.proc.Status(ctx) })
	}
	wg.Wait()
	end := time.Now()
	c.mu.Lock()
	var heard []string
	for i, t := range ts {
		if in := t.n.proc.Info(); in.Life != t.life || !in.State.Alive() {
			continue // killed or restarted meanwhile
		}
		t.n.pollErr = errs[i]
		if errs[i] == nil {
			t.n.st = sts[i]
			heard = append(heard, c.heardLocked(t.n, end)...)
		}
	}
	c.roundAt = start
	changes := c.observe(start, end)
	close(c.round)
	c.round = make(chan struct{})
	c.mu.Unlock()
	if c.view != nil {
		for _, line := range heard { // what the control process is told, on a terminal too
			c.view.logf(end.Sub(c.t0), "%s", line)
		}
	}
	if c.view != nil && !c.view.tty {
		for _, line := range changes {
			c.view.logf(end.Sub(c.t0), "%s", line)
		}
	}
}

// pollLoop polls every interval until ctx ends.
func (c *cluster) pollLoop(ctx context.Context, every time.Duration) {
	for {
		start := time.Now()
		c.pollRound(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every - time.Since(start)):
		}
	}
}

// agreement is what the last answers show, per component of live nodes.
type agreement struct {
	comps   [][]int // the components of the live nodes in the cluster's graph
	best    []int   // per component, its most valued live node
	leaders []int   // per component, the leader all its nodes follow in Norm, or -1
	all     bool    // every component follows its most valued node
}

// agreementLocked computes the agreement; c.mu is held.
func (c *cluster) agreementLocked() agreement {
	var a agreement
	seen := make([]bool, len(c.nodes))
	alive := make([]bool, len(c.nodes)) // read once: the graph asks of a node for each neighbour
	for i, n := range c.nodes {
		alive[i] = n.alive()
	}
	for _, n := range c.nodes {
		if seen[n.id] || !alive[n.id] {
			continue
		}
		// The component of n: breadth first over live neighbours.
		comp := []int{n.id}
		seen[n.id] = true
		for i := 0; i < len(comp); i++ {
			for _, j := range c.graph.Neighbors(topoID(comp[i])) {
				if !seen[j] && alive[j] {
					seen[j] = true
					comp = append(comp, int(j))
				}
			}
		}
		slices.Sort(comp)
		best := comp[0]
		for _, id := range comp {
			if v, b := c.nodes[id].value, c.nodes[best].value; v > b || v == b && id > best {
				best = id
			}
		}
		leader := c.nodes[comp[0]].following()
		for _, id := range comp {
			if c.nodes[id].following() != leader {
				leader = -1
				break
			}
		}
		a.comps = append(a.comps, comp)
		a.best = append(a.best, best)
		a.leaders = append(a.leaders, leader)
	}
	a.all = true
	for i := range a.comps {
		if a.leaders[i] != a.best[i] {
			a.all = false
		}
	}
	return a
}

// observe closes the failovers the round shows over and returns the
// changes worth a line; c.mu is held.
func (c *cluster) observe(start, end time.Time) []string {
	a := c.agreementLocked()
	if a.all {
		for _, f := range c.failovers {
			if f.done.IsZero() && start.After(f.at) {
				f.done, f.leaders = end, slices.Clone(a.leaders)
			}
		}
	}
	var out []string
	for _, n := range c.nodes {
		if !n.answered() {
			continue
		}
		key := fmt.Sprintf("%-5s leader %s", n.st.State, leaderText(int(n.st.Leader)))
		if key != n.lastKey {
			out = append(out, fmt.Sprintf("node %-3d %s", n.id, key))
			n.lastKey = key
		}
	}
	key := "no agreement"
	if a.all {
		key = "agreed: " + agreedText(a)
	}
	if key != c.agreedKey {
		c.agreedKey = key
		out = append(out, key)
	}
	return out
}

// awaitRound waits for the end of a round that started at or after t.
func (c *cluster) awaitRound(ctx context.Context, t time.Time) error {
	for {
		c.mu.Lock()
		ch, at := c.round, c.roundAt
		c.mu.Unlock()
		if !at.Before(t) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
