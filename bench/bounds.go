package bench

import (
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// A correct algorithm settles a while after the network changes: once its
// timers have run out and its messages have crossed the network. A run's
// bounds, the moment of its change and its length follow from that, so
// that a slow but correct run on a large network is measured, not failed
// (a fixed bound would turn a measurement into a verdict).

// Crossings is how many times the bounds let messages cross the network
// end to end, each hop at the longest delay, on top of the algorithm's
// timers. An election that floods out, gathers back and announces crosses
// it three times (vkt, park, echo), a ring's two rounds go round it twice;
// eight leaves room for elections that compete before the best one wins.
const Crossings = 8

// tail is how long a run goes on past its liveness bound, to see the
// settled network stay so.
const tail = 2 * time.Second

// ExponentialSpan is how many mean delays stand for the longest under
// exponential delays, which have no maximum: a message takes longer once
// in e^10 (about 22,000) messages.
const ExponentialSpan = 10

// Bounds are what a run allows its algorithm to settle after a change, and
// where that comes from: Settle = Timers + Crossings·Hops·Delay.
type Bounds struct {
	// Hops bounds from above the hops between any two nodes of a component
	// (hopBound); for an algorithm that needs a fixed network (a ring, a
	// complete network) it is the node count less one, because such an
	// algorithm goes round the ring or through the nodes one by one,
	// whatever the diameter.
	Hops int
	// Delay is the longest a message takes over one hop (hopDelay).
	Delay time.Duration
	// Timers is the sum of the algorithm's duration parameters: each may
	// have to run out once before it settles (a failure detector's
	// timeout, a heartbeat's period, a backoff).
	Timers time.Duration
	// Settle is how long after a change the algorithm may take to settle.
	Settle time.Duration
	// Slowest is the longest Settle among the sweep's algorithms that run
	// the experiment on the same network: a run's change and its end follow
	// it, so that the algorithms of a sweep are measured over the same time
	// and their figures (time without a leader) compare.
	Slowest time.Duration
}

// settle fills in Settle from the other fields.
func (b *Bounds) settle() {
	b.Settle = b.Timers + time.Duration(Crossings*b.Hops)*b.Delay
}

// bounds are the bounds of algorithm a, with resolved parameters p, on g,
// under delay d; hops is g's hop bound (hopBound), computed once for the
// sweep's algorithms.
func bounds(a *algo.Algorithm, p algo.Params, g *topo.Graph, hops int, d sim.Delay) Bounds {
	b := Bounds{Hops: hops, Delay: hopDelay(d, a.Model), Timers: timers(p)}
	if a.Model.Topology != "" {
		b.Hops = max(g.N()-1, 1)
	}
	b.settle()
	b.Slowest = b.Settle
	return b
}

// timers is the sum of the parameters that are durations.
func timers(p algo.Params) time.Duration {
	var sum time.Duration
	for _, v := range p {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			sum += d
		}
	}
	return sum
}

// hopDelay is the longest a message takes over one hop: a pulse for a
// synchronous algorithm (its messages arrive at the next pulse, whatever
// the delay asked), the delay's maximum otherwise, and for exponential
// delays, which have none, ExponentialSpan means.
func hopDelay(d sim.Delay, m algo.Model) time.Duration {
	if m.Synchronous {
		return algo.PulseLength
	}
	if d.Kind == sim.Exponential {
		return ExponentialSpan * d.A // no maximum: see ExponentialSpan
	}
	return d.Max()
}

// hopBound bounds from above the hops between two nodes of one component
// of g, over its components. In each, a double sweep (a search from any
// node, then from the farthest it found) finds the ends of a long shortest
// path; no node is farther than e from that path's middle node, so no two
// nodes are farther apart than 2e: the diameter exactly on a line or a
// tree, twice it on a ring at worst, and never more than the component's
// size less one. Three breadth-first searches of each component: a small
// part of a run even at a million nodes.
func hopBound(g *topo.Graph) int {
	n := g.N()
	dist := make([]int32, n)
	parent := make([]algo.NodeID, n)
	for i := range dist {
		dist[i] = -1
	}
	seen := make([]bool, n)
	queue := make([]algo.NodeID, 0, n)
	// search fills queue with s's component in the order reached, and
	// returns its last node (the farthest) and that node's distance; dist
	// is reset afterwards, parent kept.
	search := func(s algo.NodeID) (algo.NodeID, int32) {
		queue = append(queue[:0], s)
		dist[s], parent[s] = 0, s
		for i := 0; i < len(queue); i++ {
			v := queue[i]
			for _, u := range g.Neighbors(v) {
				if dist[u] < 0 {
					dist[u], parent[u] = dist[v]+1, v
					queue = append(queue, u)
				}
			}
		}
		far := queue[len(queue)-1]
		e := dist[far]
		for _, v := range queue {
			dist[v] = -1
		}
		return far, e
	}
	best := 0
	for s := range algo.NodeID(n) {
		if seen[s] {
			continue
		}
		a, _ := search(s)
		size := len(queue)
		for _, v := range queue {
			seen[v] = true
		}
		b, d := search(a)
		mid := b
		for range d / 2 {
			mid = parent[mid]
		}
		_, e := search(mid)
		best = max(best, min(2*int(e), size-1))
	}
	return best
}
