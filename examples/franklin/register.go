package franklin

import "github.com/electgo/elect/algo"

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "franklin",
		Summary:  "Franklin on a bidirectional ring: in rounds, every active node compares its number with the nearest active node's on each side and stays active only if it beats both; the last one announces itself",
		Source:   "W. R. Franklin, On an improved algorithm for decentralized extrema finding in circular configurations of processors, CACM 25(5), 1982",
		Messages: MessageNames,
		Model:    algo.Model{Topology: "ring", FIFO: true, Initiators: "all"},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			c := &config{}
			return c.newNode, nil
		},
	})
}
