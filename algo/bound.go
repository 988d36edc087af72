package algo

import (
	"math/bits"
	"time"
)

// Bound is an algorithm's message complexity as its document states it:
// how many messages one election sends, from a quiet start, every
// initiator starting at once, with no fault (no crash, loss, partition,
// link change or movement). Drivers that know a run is such a run check its
// count against it, and a count outside is a violation of the
// specification ("messages"), like two leaders.
type Bound struct {
	// Formula is the bound as the documents write it, for listings:
	// "exactly 2m + n - 1", "at most n(n+1)/2 + n".
	Formula string
	// Of gives the bound for a run: at least lo and at most hi messages
	// sent (transmissions: a broadcast counts once). ok is false where the
	// document promises no bound, for instance under parameters or delays
	// that let the algorithm's timeouts fire in a fault-free run.
	Of func(c BoundCase) (lo, hi int, ok bool)
}

// BoundCase is what a run's message bound may depend on.
type BoundCase struct {
	N, M int // nodes and links (undirected)
	// Initiators is how many nodes start an election at once: the run's
	// initiators in the piece, or, for a spontaneous algorithm (whose
	// nodes start on their own), every node of it.
	Initiators int
	// MaxDelay is the longest a message can take; 0 when the delay has no
	// bound (exponential delays).
	MaxDelay time.Duration
	// Params are the run's resolved parameters.
	Params Params
}

// Log2Floor is floor(log2 n) for n >= 1, 0 otherwise: the documents' log n.
func Log2Floor(n int) int {
	if n < 1 {
		return 0
	}
	return bits.Len(uint(n)) - 1
}

// Log2Ceil is ceil(log2 n) for n >= 1, 0 otherwise.
func Log2Ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}
