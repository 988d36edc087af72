package vkt

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "vkt",
		Summary:  "spanning-tree election for mobile ad hoc networks (after Vasudevan, Kurose and Towsley): grow, shrink, flood the leader; heartbeats for loss and merges",
		Source:   "000_c3bedb07ea4749d7.txt",
		Messages: MessageNames,
		Params: append(slices.Clone(adhoc.Params),
			algo.Param{Name: "probe", Default: "500ms", Doc: "interval between probes of the nodes that still owe an Ack", Check: algo.CheckPositiveDuration},
			algo.Param{Name: "election_timeout", Default: "10s", Doc: "how long an election may last before a node in it starts another", Check: algo.CheckPositiveDuration},
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
	if err := p.Durations(map[string]*time.Duration{"probe": &c.probe, "election_timeout": &c.electionTimeout}); err != nil {
		return nil, err
	}
	return c.newNode, nil
}
