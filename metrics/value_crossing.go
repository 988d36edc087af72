package metrics

import (
	"fmt"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// ValueCrossings follows a run's node values (desirability) against their
// leaders, from its events: the values from NodeAdded and ValueChanged,
// who leads and who follows whom from StatusChanged and Crashed. It tells
// a value event in words that place it against the node's leader, and
// says whether it crossed: a follower rising above its leader, or a
// leader falling below one of its followers (highest value, then highest
// id, is most valued), after which the leader is no longer its
// component's most valued node. The run's story (Story) and the page
// (viz) tell value events so.
type ValueCrossings struct {
	value []int64
	known []bool
	// leads[v] says v last reported itself as its leader, in Norm, and
	// has not crashed since.
	leads []bool
	// follows[v] is the other node v last reported as its leader, in
	// Norm (algo.None: none, or v itself); v is in followers[follows[v]]
	// at place at[v].
	follows   []algo.NodeID
	followers [][]algo.NodeID
	at        []int
}

// ValueMove is a value event told against the node's leader.
type ValueMove struct {
	Node     algo.NodeID
	From, To int64
	// Known says From is known: the node was declared (NodeAdded) or
	// changed before.
	Known bool
	// Other is the node crossed (algo.None: none): the leader Node rose
	// above, or, when Led, the most valued of Node's followers it fell
	// below; OtherValue is its value.
	Other      algo.NodeID
	OtherValue int64
	// Led says Node was a leader.
	Led bool
}

// Crossed says the change crossed: a follower rose above its leader, or a
// leader fell below one of its followers.
func (c ValueMove) Crossed() bool { return c.Other != algo.None }

// Direction says how the value moved: "rises", "falls", or "becomes"
// (from a value not known, or the same).
func (c ValueMove) Direction() string {
	switch {
	case !c.Known || c.From == c.To:
		return "becomes"
	case c.To > c.From:
		return "rises"
	}
	return "falls"
}

// String tells the change: "node 7's value rises to 120, above its leader
// 4's 90", "the leader 4's value falls to 10, below node 7's 120", "node 3's
// value falls to 50". A tie of values is broken by the higher id: "node 7's
// value rises to 90, level with its leader 4's, and its id is higher".
func (c ValueMove) String() string {
	to := " to"
	if c.Direction() == "becomes" {
		to = ""
	}
	switch {
	case c.Crossed() && c.Led:
		what := fmt.Sprintf("the leader %d's value %s%s %d, ", c.Node, c.Direction(), to, c.To)
		if c.To == c.OtherValue {
			return what + fmt.Sprintf("level with node %d's, whose id is higher", c.Other)
		}
		return what + fmt.Sprintf("below node %d's %d", c.Other, c.OtherValue)
	case c.Crossed():
		what := fmt.Sprintf("node %d's value %s%s %d, ", c.Node, c.Direction(), to, c.To)
		if c.To == c.OtherValue {
			return what + fmt.Sprintf("level with its leader %d's, and its id is higher", c.Other)
		}
		return what + fmt.Sprintf("above its leader %d's %d", c.Other, c.OtherValue)
	}
	return fmt.Sprintf("node %d's value %s%s %d", c.Node, c.Direction(), to, c.To)
}

// NewValueCrossings returns a ValueCrossings to observe a run from its
// first event.
func NewValueCrossings() *ValueCrossings { return &ValueCrossings{} }

// Observe takes in one event; for a ValueChanged it returns the change
// told against the node's leader, and true.
func (vs *ValueCrossings) Observe(e *trace.Event) (ValueMove, bool) {
	v := e.Node
	if v < 0 {
		return ValueMove{}, false
	}
	switch e.Kind {
	case trace.NodeAdded:
		vs.grow(v)
		vs.value[v], vs.known[v] = e.Value, true
	case trace.StatusChanged:
		vs.grow(v)
		norm := e.Status.State == algo.Norm
		vs.leads[v] = norm && e.Status.Leader == v
		l := algo.None
		if norm && e.Status.Leader >= 0 && e.Status.Leader != v {
			l = e.Status.Leader
		}
		vs.follow(v, l)
	case trace.Crashed, trace.Restarted:
		// A crashed node leads and follows none; one restarted with no
		// state neither, until its next status.
		vs.grow(v)
		vs.leads[v] = false
		vs.follow(v, algo.None)
	case trace.ValueChanged:
		vs.grow(v)
		c := ValueMove{Node: v, From: vs.value[v], To: e.Value, Known: vs.known[v], Other: algo.None}
		vs.value[v], vs.known[v] = e.Value, true
		if l := vs.follows[v]; l != algo.None && vs.leads[l] {
			// A follower rises above its leader.
			if !above(c.From, v, vs.value[l], l) && above(c.To, v, vs.value[l], l) {
				c.Other, c.OtherValue = l, vs.value[l]
			}
		}
		if vs.leads[v] {
			c.Led = true
			if f, ok := vs.best(v); ok && above(c.From, v, vs.value[f], f) && !above(c.To, v, vs.value[f], f) {
				c.Other, c.OtherValue = f, vs.value[f]
			}
		}
		return c, true
	}
	return ValueMove{}, false
}

// above says value x of node v is above value y of node u: higher, or as
// high with a higher id.
func above(x int64, v algo.NodeID, y int64, u algo.NodeID) bool {
	return x > y || x == y && v > u
}

// best is the most valued of leader l's followers, false when it has none.
func (vs *ValueCrossings) best(l algo.NodeID) (algo.NodeID, bool) {
	if int(l) >= len(vs.followers) || len(vs.followers[l]) == 0 {
		return algo.None, false
	}
	b := vs.followers[l][0]
	for _, f := range vs.followers[l][1:] {
		if above(vs.value[f], f, vs.value[b], b) {
			b = f
		}
	}
	return b, true
}

// follow makes v follow l (algo.None: none).
func (vs *ValueCrossings) follow(v, l algo.NodeID) {
	if old := vs.follows[v]; old != algo.None {
		fs := vs.followers[old]
		last := fs[len(fs)-1]
		fs[vs.at[v]] = last
		vs.at[last] = vs.at[v]
		vs.followers[old] = fs[:len(fs)-1]
	}
	vs.follows[v] = l
	if l != algo.None {
		vs.grow(l)
		vs.at[v] = len(vs.followers[l])
		vs.followers[l] = append(vs.followers[l], v)
	}
}

// grow makes room for node v.
func (vs *ValueCrossings) grow(v algo.NodeID) {
	for int(v) >= len(vs.value) {
		vs.value = append(vs.value, 0)
		vs.known = append(vs.known, false)
		vs.leads = append(vs.leads, false)
		vs.follows = append(vs.follows, algo.None)
		vs.followers = append(vs.followers, nil)
		vs.at = append(vs.at, 0)
	}
}
