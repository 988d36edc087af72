// Package ids finds node ids in the sorted neighbour lists that the
// simulator, the checker and the algorithms keep.
//
// Layer 0: it imports algo's ids and nothing else of elect
// (docs/architecture.md).
package ids

import (
	"slices"

	"github.com/electgo/elect/algo"
)

// linearMax is the longest list searched front to back: a scan of a few
// cache lines runs without a mispredicted branch a step, where a binary
// search mispredicts about half of its log2(n) steps. Most lists of a
// network of mean degree 10 are below it; longer ones (hubs, dense cores)
// are halved.
const linearMax = 32

// Find returns where x is in s (sorted ascending) or would be inserted,
// and whether it is there: slices.BinarySearch's answer, found faster on
// short lists.
func Find(s []algo.NodeID, x algo.NodeID) (int, bool) {
	if len(s) > linearMax {
		return slices.BinarySearch(s, x)
	}
	for i, y := range s {
		if y >= x {
			return i, y == x
		}
	}
	return len(s), false
}
