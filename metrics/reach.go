package metrics

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// Reach measures how much of the time the nodes follow a leader they can
// reach: in Norm, with a live leader in their own connected component. A node whose leader
// has moved out of reach still names it until it notices (a heartbeat
// timeout): the checker's leaderless fraction counts that time as led, Reach
// does not. It samples the network every Period of virtual time (each sample
// costs a search of the whole network), so it is meant for runs whose
// links move.
type Reach struct {
	Period time.Duration

	adj     [][]algo.NodeID
	alive   []bool
	leader  []algo.NodeID
	next    time.Duration
	comp    []int32
	queue   []algo.NodeID
	samples uint64 // live node-samples
	led     uint64 // of which following a reachable leader
}

// NewReach returns a Reach sampling every period.
func NewReach(period time.Duration) *Reach { return &Reach{Period: period, next: period} }

// Observe follows the network and the nodes' leaders.
func (r *Reach) Observe(e *trace.Event) {
	for e.At > r.next && r.Period > 0 {
		r.sample()
		r.next += r.Period
	}
	switch e.Kind {
	case trace.NodeAdded:
		for int(e.Node) >= len(r.adj) {
			r.adj = append(r.adj, nil)
			r.alive = append(r.alive, false)
			r.leader = append(r.leader, algo.None)
		}
		r.alive[e.Node] = true
	case trace.LinkUp:
		r.adj[e.Node] = insertSorted(r.adj[e.Node], e.Peer)
		r.adj[e.Peer] = insertSorted(r.adj[e.Peer], e.Node)
	case trace.LinkDown:
		r.adj[e.Node] = deleteSorted(r.adj[e.Node], e.Peer)
		r.adj[e.Peer] = deleteSorted(r.adj[e.Peer], e.Node)
	case trace.Crashed:
		r.alive[e.Node], r.leader[e.Node] = false, algo.None
	case trace.Restarted, trace.Recovered:
		r.alive[e.Node], r.leader[e.Node] = true, algo.None
	case trace.StatusChanged:
		// A node electing has no leader, whatever it last followed (as in
		// the checker's leaderless time).
		r.leader[e.Node] = algo.None
		if e.Status.HasLeader() {
			r.leader[e.Node] = e.Status.Leader
		}
	case trace.End:
		if e.At == r.next {
			r.sample()
		}
	}
}

// Fraction is the share of live node-samples that followed a reachable
// leader; 0 before the first sample.
func (r *Reach) Fraction() float64 {
	if r.samples == 0 {
		return 0
	}
	return float64(r.led) / float64(r.samples)
}

// sample labels the components of live nodes and counts the nodes whose
// leader is live and in their component.
func (r *Reach) sample() {
	n := len(r.adj)
	if cap(r.comp) < n {
		r.comp = make([]int32, n)
	}
	comp := r.comp[:n]
	for v := range comp {
		comp[v] = -1
	}
	for s := range n {
		if !r.alive[s] || comp[s] >= 0 {
			continue
		}
		comp[s] = int32(s)
		q := append(r.queue[:0], algo.NodeID(s))
		for i := 0; i < len(q); i++ {
			for _, u := range r.adj[q[i]] {
				if r.alive[u] && comp[u] < 0 {
					comp[u] = int32(s)
					q = append(q, u)
				}
			}
		}
		r.queue = q
	}
	for v := range n {
		if !r.alive[v] {
			continue
		}
		r.samples++
		if l := r.leader[v]; l != algo.None && int(l) < n && r.alive[l] && comp[l] == comp[v] {
			r.led++
		}
	}
}

func insertSorted(s []algo.NodeID, v algo.NodeID) []algo.NodeID {
	if i, found := slices.BinarySearch(s, v); !found {
		return slices.Insert(s, i, v)
	}
	return s
}

func deleteSorted(s []algo.NodeID, v algo.NodeID) []algo.NodeID {
	if i, found := slices.BinarySearch(s, v); found {
		return slices.Delete(s, i, i+1)
	}
	return s
}
