package torture

import (
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
)

// changeValues draws up to three changes of a node's value (sim.SetValue)
// at random times: of a node, or (a third of the time, for an algorithm
// whose nodes elect of their own accord and so have a leader to name) of
// whichever node leads then, to a value in the range of the run's values:
// below the node count when values are ids, in [0, sim.RandomValueRange)
// when they are random. Ties with other nodes' values are drawn too.
func changeValues(mode sim.ValueMode, n int, spontaneous bool, rng *rand.Rand, at func(time.Duration) time.Duration, add func(sim.Action)) {
	span := int64(sim.RandomValueRange)
	if mode == sim.ValueID {
		span = int64(n)
	}
	for range rng.IntN(4) {
		act := sim.Action{At: at(500 * time.Millisecond), Kind: sim.SetValue, Value: rng.Int64N(span)}
		if spontaneous && rng.IntN(3) == 0 {
			act.Leader = true
		} else {
			act.Nodes = []algo.NodeID{algo.NodeID(rng.IntN(n))}
		}
		add(act)
	}
}
