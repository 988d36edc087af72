package ring

import (
	"time"

	"github.com/electgo/elect/algo"
)

// crBound is Chang and Roberts' message complexity (003 names the
// algorithm; the count is theirs): the most valued identity goes round the
// whole ring (n) and so does the winner's announcement (n); every other
// identity goes at most as far as the most valued node, so that with every
// node starting, in the worst arrangement, identities travel n(n+1)/2 hops
// in all.
var crBound = &algo.Bound{
	Formula: "from 2n to n(n+1)/2 + n",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		return 2 * c.N, c.N*(c.N+1)/2 + c.N, c.Initiators > 0
	},
}

// ringBound is the commander's ring election's (003): the gather goes round
// the ring (n), then the confirm (n): exactly 2n with one commander. With
// k commanders, each other one's gather goes at most once round before it
// is absorbed: at most (k + 1)n. It holds while every round comes back
// within the timeouts, which fire in a fault-free run only if a round can
// take longer than they are: so only when the delays have a maximum, and
// two rounds at that maximum fit in both timeouts.
var ringBound = &algo.Bound{
	Formula: "exactly 2n with one commander; with k, from 2n to (k + 1)n; while 2n delays fit in the timeouts",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		timeout, err1 := c.Params.Duration("timeout")
		wait, err2 := c.Params.Duration("wait_timeout")
		round := 2 * time.Duration(c.N) * c.MaxDelay
		if c.Initiators == 0 || c.MaxDelay == 0 || err1 != nil || err2 != nil || round >= min(timeout, wait) {
			return 0, 0, false
		}
		return 2 * c.N, (c.Initiators + 1) * c.N, true
	},
}
