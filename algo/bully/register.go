package bully

import (
	"time"

	"github.com/electgo/elect/algo"
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "bully",
		Summary:  "Garcia-Molina's bully on a complete network: election to the more valued, answer, coordinator; timeouts and crash detection",
		Source:   "003_995b7edf0113a8b5.txt",
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "answer_timeout", Default: "100ms", Doc: "how long a node holding an election waits for an answer before it wins", Check: algo.CheckPositiveDuration},
			{Name: "coordinator_timeout", Default: "500ms", Doc: "how long a node that was answered waits for the coordinator before it holds a new election", Check: algo.CheckPositiveDuration},
		},
		Model: algo.Model{Spontaneous: true, Crash: true, BoundedDelay: true, Topology: "complete"},
		Build: build,
	})
}

func build(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
	c := &config{n: n}
	if err := p.Durations(map[string]*time.Duration{"answer_timeout": &c.answerTimeout, "coordinator_timeout": &c.coordTimeout}); err != nil {
		return nil, err
	}
	return c.newNode, nil
}
