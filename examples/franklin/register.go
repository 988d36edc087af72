package franklin

import "github.com/electgo/elect/algo"

func init() {
	algo.Register(&algo.Algorithm{
		Name:         "franklin",
		Summary:      "Franklin on a bidirectional ring: in rounds, every active node compares its number with the nearest active node's on each side and stays active only if it beats both; the last one announces itself",
		Source:       "W. R. Franklin, On an improved algorithm for decentralized extrema finding in circular configurations of processors, CACM 25(5), 1982",
		Messages:     MessageNames,
		Model:        algo.Model{Topology: "ring", FIFO: true, Initiators: "all", Asynchronous: true},
		MessageBound: bound,
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			c := &config{}
			return c.newNode, nil
		},
	})
}

// bound is Franklin's: every round, each link carries one number each way
// (2n), at least half the active nodes drop out, so there are at most
// ceil(log n) + 1 rounds; the winner then announces itself (n). At least
// one round and the announcement: 3n.
var bound = &algo.Bound{
	Formula: "from 3n to 2n(ceil(log n) + 1) + n",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		return 3 * c.N, 2*c.N*(algo.Log2Ceil(c.N)+1) + c.N, c.Initiators > 0
	},
}
