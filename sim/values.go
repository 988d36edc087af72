package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/electgo/elect/algo"
)

// ValueMode says how node desirability values are assigned.
type ValueMode uint8

const (
	// ValueID gives every node its id as value, so the highest id leads.
	ValueID ValueMode = iota
	// ValueRandom draws each node's value uniformly from [0, RandomValueRange),
	// in id order from the run's random source.
	ValueRandom
)

// RandomValueRange bounds random values.
const RandomValueRange = 1_000_000

// Values assigns desirability values: a mode for every node, then explicit
// values for the nodes a scenario lists.
type Values struct {
	Mode     ValueMode
	Explicit map[algo.NodeID]int64
}

// ParseValueMode reads "id" or "random".
func ParseValueMode(s string) (ValueMode, error) {
	switch s {
	case "id":
		return ValueID, nil
	case "random":
		return ValueRandom, nil
	}
	return 0, fmt.Errorf("invalid values %q (want id, random, or a map of node: value)", s)
}

func (v Values) String() string {
	s := "id"
	if v.Mode == ValueRandom {
		s = "random"
	}
	if len(v.Explicit) > 0 {
		s += fmt.Sprintf("+%d explicit", len(v.Explicit))
	}
	return s
}

// Resolve returns the value of each of n nodes.
func (v Values) Resolve(n int, rng *rand.Rand) ([]int64, error) {
	out := make([]int64, n)
	for i := range out {
		if v.Mode == ValueRandom {
			out[i] = rng.Int64N(RandomValueRange)
		} else {
			out[i] = int64(i)
		}
	}
	ids := make([]algo.NodeID, 0, len(v.Explicit))
	for id := range v.Explicit {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		if int(id) >= n || id < 0 {
			return nil, fmt.Errorf("value given for node %d, but the network has nodes 0..%d", id, n-1)
		}
		out[id] = v.Explicit[id]
	}
	return out, nil
}
