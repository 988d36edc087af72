package park

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "park",
		Summary:  "member-detection election for mobile ad hoc systems: the source gathers every node's Ack and neighbours (wl, cl), then announces the most valued",
		Source:   "004_ad961bc0493bda85.txt",
		Messages: MessageNames,
		Params: append(slices.Clone(adhoc.Params),
			algo.Param{Name: "resend", Default: "500ms", Doc: "how long the source waits before sending Election again to a silent neighbour", Check: algo.CheckPositiveDuration},
			algo.Param{Name: "ack_timeout", Default: "2s", Doc: "how long the source waits for a member's Ack before dropping it from wl", Check: algo.CheckPositiveDuration},
			algo.Param{Name: "election_timeout", Default: "10s", Doc: "how long a node waits for the leader of an election before starting its own", Check: algo.CheckPositiveDuration},
		),
		Model: algo.Model{Spontaneous: true, FIFO: true, Loss: true, Crash: true, Partition: true, Mobility: true, Heartbeats: true, FollowsValue: true,
			OneWay: true, Drift: 0.2, Jumps: true, Slow: 500 * time.Millisecond},
		Build: build,
	})
}

func build(p algo.Params, nodes int) (func(algo.NodeID) algo.Machine, error) {
	c := &config{up: adhoc.Config{Type: Heartbeat}}
	if err := c.up.Read(p, nodes); err != nil {
		return nil, err
	}
	if err := p.Durations(map[string]*time.Duration{"resend": &c.resend, "ack_timeout": &c.ackTimeout, "election_timeout": &c.electionTimeout}); err != nil {
		return nil, err
	}
	return c.newNode, nil
}
