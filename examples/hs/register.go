package hs

import "github.com/electgo/elect/algo"

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "hs",
		Summary:  "Hirschberg and Sinclair on a bidirectional ring: candidates probe 1, 2, 4, ... hops both ways and go on while both probes come back; the winner announces itself",
		Source:   "D. S. Hirschberg and J. B. Sinclair, Decentralized extrema-finding in circular configurations of processors, CACM 23(11), 1980",
		Messages: MessageNames,
		Model:    algo.Model{Topology: "ring", FIFO: true, Initiators: "all"},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			c := &config{}
			return c.newNode, nil
		},
	})
}
