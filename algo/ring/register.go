package ring

import (
	"time"

	"github.com/electgo/elect/algo"
)

const source = "003_995b7edf0113a8b5.txt"

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "ring",
		Summary:  "the commander's ring election: gather every identity round the ring with a checksummed payload, confirm the most valued round it; timeouts and checksum failures reported, dead nodes and jokers bypassed",
		Source:   source,
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "commander", Default: "0", Doc: "deprecated: the node that starts the election at boot; use --initiators (node 0 by default)", Check: algo.CheckNodeID, Initiators: true},
			{Name: "timeout", Default: "1s", Doc: "how long the commander waits for a round (gather or confirm) to come back before reporting a failure of that phase and restarting", Check: algo.CheckPositiveDuration},
			{Name: "wait_timeout", Default: "3s", Doc: "how long a node that joined an election waits for its confirm before starting an election of its own", Check: algo.CheckPositiveDuration},
		},
		Model:        algo.Model{Topology: "ring"},
		Build:        build,
		MessageBound: ringBound,
	})
	algo.Register(&algo.Algorithm{
		Name:         "chang-roberts",
		Summary:      "Chang and Roberts on a unidirectional ring: every node sends its identity to its successor, only the better one goes on; the winner announces itself",
		Source:       source,
		Messages:     CRMessageNames,
		Model:        algo.Model{Topology: "ring", Initiators: "all", Asynchronous: true},
		MessageBound: crBound,
		Build: func(_ algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
			c := &crConfig{n: n}
			return c.newNode, nil
		},
	})
}

// build: the commander is the driver's initiator (Elect at time 0); the
// parameter commander is its deprecated alias.
func build(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
	c := &config{n: n}
	if err := p.Durations(map[string]*time.Duration{"timeout": &c.timeout, "wait_timeout": &c.waitTimeout}); err != nil {
		return nil, err
	}
	return c.newNode, nil
}
