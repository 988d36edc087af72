package vkt

import (
	"time"

	"github.com/electgo/elect/algo"
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "vkt",
		Summary:  "spanning-tree election for mobile ad hoc networks (after Vasudevan, Kurose and Towsley): grow, shrink, flood the leader; heartbeats for loss and merges",
		Source:   "000_c3bedb07ea4749d7.txt",
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "heartbeat", Default: "1s", Doc: "interval between the leader's heartbeats", Check: algo.CheckPositiveDuration},
			{Name: "timeout", Default: "3s", Doc: "how long without a heartbeat before a node starts an election", Check: algo.CheckPositiveDuration},
			{Name: "probe", Default: "500ms", Doc: "interval between probes of the nodes that still owe an Ack", Check: algo.CheckPositiveDuration},
			{Name: "election_timeout", Default: "10s", Doc: "how long an election may last before a node in it starts another", Check: algo.CheckPositiveDuration},
			{Name: "jitter", Default: "0s", Doc: "random backoff, up to this, before a node starts an election at boot or on a timeout (0: none, as in the document)", Check: algo.CheckDuration},
		},
		Model: algo.Model{Spontaneous: true, FIFO: true, Loss: true, Crash: true, Partition: true, Mobility: true},
		Build: build,
	})
}

func build(p algo.Params, _ int) (func(algo.NodeID) algo.Machine, error) {
	c := &config{}
	for name, dst := range map[string]*time.Duration{
		"heartbeat": &c.heartbeat, "timeout": &c.timeout, "probe": &c.probe, "election_timeout": &c.electionTimeout, "jitter": &c.jitter,
	} {
		d, err := p.Duration(name)
		if err != nil {
			return nil, err
		}
		*dst = d
	}
	return c.newNode, nil
}
