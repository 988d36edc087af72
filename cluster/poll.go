package cluster

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
)

// pollRound asks every live node for its /status, all at once, then
// records the answers and what they show.
func (c *Cluster) pollRound(ctx context.Context) {
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
	var at time.Duration
	if !c.t0.IsZero() {
		at = end.Sub(c.t0)
	}
	c.mu.Unlock()
	for _, line := range heard { // what the control process is told
		c.say(LineReport, at, "%s", line)
	}
	for _, line := range changes {
		c.say(LineChange, at, "%s", line)
	}
}

// pollLoop polls every interval until ctx ends.
func (c *Cluster) pollLoop(ctx context.Context, every time.Duration) {
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

// Agreement is what the nodes' last answers show, per component of the
// live nodes in the cluster's graph, less the links with a direction cut
// (Cluster.Cut): as the checker has it, nodes are held to agree only
// across links that carry both ways.
type Agreement struct {
	Components [][]int // the components of the live nodes, each sorted
	Best       []int   // per component, its most valued live node
	Leaders    []int   // per component, the leader all its nodes follow in Norm, or -1
	All        bool    // every component follows its most valued node
}

// Agreed names the leader of each component, as a line says it when all
// agree: "leader 7 (8 live nodes)", "{0-2} leader 2, {4-7} leader 7".
func (a Agreement) Agreed() string {
	if len(a.Components) == 1 {
		return fmt.Sprintf("leader %d (%d live nodes)", a.Leaders[0], len(a.Components[0]))
	}
	parts := make([]string, len(a.Components))
	for i, comp := range a.Components {
		parts[i] = fmt.Sprintf("{%s} leader %d", IDRanges(comp), a.Leaders[i])
	}
	return strings.Join(parts, ", ")
}

// IDRanges writes sorted ids compactly: 0-3,5,7-9.
func IDRanges(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == i {
			fmt.Fprint(&b, ids[i])
		} else {
			fmt.Fprintf(&b, "%d-%d", ids[i], ids[j])
		}
		i = j + 1
	}
	return b.String()
}

// leaderText is a leader in a line: its id, or - for none.
func leaderText(l int) string {
	if l < 0 {
		return "-"
	}
	return strconv.Itoa(l)
}

// agreementLocked computes the agreement; c.mu is held.
func (c *Cluster) agreementLocked() Agreement {
	var a Agreement
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
			for _, j := range c.cfg.Graph.Neighbors(algo.NodeID(comp[i])) {
				if !seen[j] && alive[j] && !c.oneWayLocked(comp[i], int(j)) {
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
		a.Components = append(a.Components, comp)
		a.Best = append(a.Best, best)
		a.Leaders = append(a.Leaders, leader)
	}
	a.All = true
	for i := range a.Components {
		if a.Leaders[i] != a.Best[i] {
			a.All = false
		}
	}
	return a
}

// observe closes the failovers the round shows over and returns the
// changes worth a line; c.mu is held.
func (c *Cluster) observe(start, end time.Time) []string {
	a := c.agreementLocked()
	if a.All {
		for _, f := range c.failovers {
			if f.done.IsZero() && start.After(f.at) {
				f.done, f.leaders = end, slices.Clone(a.Leaders)
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
	if a.All {
		key = "agreed: " + a.Agreed()
	}
	if key != c.agreedKey {
		c.agreedKey = key
		out = append(out, key)
	}
	return out
}

// awaitRound waits for the end of a round that started at or after t.
func (c *Cluster) awaitRound(ctx context.Context, t time.Time) error {
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
