package echo

import "github.com/electgo/elect/algo"

// waveBound is the echo's and the extinction's message complexity (002):
// the winning wave sends an explorer or an echo over every edge in each
// direction (2m) and the information wave goes down its tree (n - 1);
// every other initiator's wave, extinguished on the way, sends at most as
// much as a whole one, 2m. One initiator's wave sends exactly 2m + n - 1.
// Over the virtual tree (tree=virtual) the waves run on the tree built at
// start-up, whose messages the document does not count: no bound.
var waveBound = &algo.Bound{
	Formula: "exactly 2m + n - 1 with one initiator; with k, from 2m + n - 1 to 2km + n - 1",
	Of: func(c algo.BoundCase) (lo, hi int, ok bool) {
		if c.Params["tree"] == "virtual" || c.Initiators == 0 {
			return 0, 0, false
		}
		return 2*c.M + c.N - 1, 2*c.Initiators*c.M + c.N - 1, true
	},
}
