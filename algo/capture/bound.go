package capture

import "github.com/electgo/elect/algo"

// The complete-network elections' message complexity (001). Every one
// sends at least what one candidate alone sends.

// allToAllBound: every candidate sends its identity to every other node, at
// pulse 0, and nothing more: k(n - 1), n(n - 1) when all are candidates.
var allToAllBound = &algo.Bound{
	Formula: "exactly k(n - 1) for k candidates, n(n - 1) with all",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		k := c.Initiators * (c.N - 1)
		return k, k, c.Initiators > 0
	},
}

// syncBound: S_Elect_Leader_C sends at most 2n*ceil(log n) - n captures and
// n*ceil(log n) acks (the document's theorem), and the winner announces
// itself to the n - 1 others. A lone candidate captures the n - 1 others,
// each acked, then announces: 3(n - 1).
var syncBound = &algo.Bound{
	Formula: "from 3(n - 1) to (2n*ceil(log n) - n) captures + n*ceil(log n) acks + (n - 1) leader",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		l := algo.Log2Ceil(c.N)
		return 3 * (c.N - 1), 2*c.N*l - c.N + c.N*l + c.N - 1, c.Initiators > 0
	},
}

// asyncBound: A_Elect_Leader_C makes at most 2n*floor(log n) + n capture
// attempts, each of at most six messages (capture, check, eliminate,
// eliminated, capture, ack: the document's theorem), and the winner
// announces the leader to the n - 1 others.
var asyncBound = &algo.Bound{
	Formula: "from 3(n - 1) to 6(2n*floor(log n) + n) + (n - 1) leader",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		return 3 * (c.N - 1), 6*(2*c.N*algo.Log2Floor(c.N)+c.N) + c.N - 1, c.Initiators > 0
	},
}
