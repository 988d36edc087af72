package hs

import "github.com/electgo/elect/algo"

func init() {
	algo.Register(&algo.Algorithm{
		Name:         "hs",
		Summary:      "Hirschberg and Sinclair on a bidirectional ring: candidates probe 1, 2, 4, ... hops both ways and go on while both probes come back; the winner announces itself",
		Source:       "D. S. Hirschberg and J. B. Sinclair, Decentralized extrema-finding in circular configurations of processors, CACM 23(11), 1980",
		Messages:     MessageNames,
		Model:        algo.Model{Topology: "ring", FIFO: true, Initiators: "all", Asynchronous: true},
		MessageBound: bound,
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			c := &config{}
			return c.newNode, nil
		},
	})
}

// bound is Hirschberg and Sinclair's: in phase k a candidate's probes go 2^k
// hops each way and come back (at most 4*2^k messages), at most
// n/(2^(k-1)+1) candidates reach phase k, and there are 1+ceil(log n)
// phases: at most 8n(1+ceil(log n)) probes and replies; the winner then
// announces itself round the ring (n). At least its last probes go round
// both ways (2n) and the announcement (n).
var bound = &algo.Bound{
	Formula: "from 3n to 8n(1 + ceil(log n)) + n",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		return 3 * c.N, 8*c.N*(1+algo.Log2Ceil(c.N)) + c.N, c.Initiators > 0
	},
}
