package metrics

import (
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Reach measures how much of the time the nodes follow a leader they can
// reach: in Norm, with a live leader in their own connected component. A
// node whose leader has moved out of reach still names it until it notices
// (a heartbeat timeout): the checker's leaderless fraction counts that time
// as led, Reach does not. It samples the network every Period of virtual
// time (each sample costs a pass over the nodes), so it is meant for runs
// whose links move. The network, the nodes' lives and their statuses
// are the checker's (check.Monitor): Reach keeps no copy of its own.
type Reach struct {
	Period time.Duration

	net     *check.Monitor
	next    time.Duration
	samples uint64 // live node-samples
	led     uint64 // of which following a reachable leader
}

// NewReach returns a Reach sampling net every period. It must observe each
// event before net does, so that a sample taken when an event passes the
// sampling time sees the network as it was before that event.
func NewReach(period time.Duration, net *check.Monitor) *Reach {
	return &Reach{Period: period, next: period, net: net}
}

// Observe takes the samples due before e.
func (r *Reach) Observe(e *trace.Event) {
	for e.At > r.next && r.Period > 0 {
		r.sample()
		r.next += r.Period
	}
	if e.Kind == trace.End && e.At == r.next {
		r.sample()
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

// sample counts the live nodes in Norm whose leader is live and in their
// component (the checker's components: a sample is taken between two
// instants, when they are up to date).
func (r *Reach) sample() {
	n := r.net.Nodes()
	for v := range algo.NodeID(n) {
		st := r.net.Node(v)
		if !st.Alive {
			continue
		}
		r.samples++
		if l := st.Status.Leader; st.Status.HasLeader() && int(l) < n && r.net.Component(l) == r.net.Component(v) {
			r.led++ // the leader is alive: a dead node is in no component
		}
	}
}
