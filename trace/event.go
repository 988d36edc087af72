// Package trace is the event stream of a run: the events a driver emits, the
// hash that fingerprints a run, and the JSON-lines file format that
// `elect sim --trace` writes and `elect check` reads back.
//
// It imports algo and internal/blame only: no engine, judge or driver
// (docs/architecture.md).
package trace

import (
	"fmt"
	"math"
	"time"

	"github.com/electgo/elect/algo"
)

// Kind is the kind of an event.
type Kind uint8

const (
	// NodeAdded declares a node and its value (at the start of a run).
	NodeAdded Kind = iota
	// LinkUp and LinkDown report the physical state of the link Node-Peer
	// (Node < Peer): in range, not cut by a partition or a link_down event.
	// Whether traffic flows also needs both ends alive. Moved marks the
	// changes that movement made: a pair came into or went out of range.
	LinkUp
	LinkDown
	// Crashed, Restarted and Recovered are node lifecycle events.
	Crashed
	Restarted
	Recovered
	// ElectCalled records an external request to elect at Node.
	ElectCalled
	// Sent, Delivered and Dropped are message events: Node is the sender for
	// Sent and Dropped, the receiver for Delivered; Peer is the other end.
	Sent
	Delivered
	Dropped
	// TimerFired records a timer expiry at Node; Timer holds which.
	TimerFired
	// StatusChanged reports Node's new Status.
	StatusChanged
	// ValueChanged reports Node's new desirability value.
	ValueChanged
	// End closes a run.
	End
	// Reported is something a machine detected and reported (Env.Report):
	// Text says what.
	Reported
	// Panicked is a machine's panic, which the driver recovered: Text says
	// in which call (the input it was handed), then after ": " the panic's
	// value and the frames of the algorithm's code, which the trace hash
	// passes over. It is a violation of the
	// specification, and the run ends with it (an End follows).
	Panicked
	// Acted is a scenario's event as the driver carried it out, in words
	// (Text): "the network splits (west, and the rest)". It only names what
	// the events after it do (a partition's links going down), for the
	// run's story: the trace hash passes over it.
	Acted
	// Cut and Uncut are gray failures of one direction of a link: from Cut
	// on, what Node sends Peer is not received (Peer may still be heard by
	// Node); Uncut ends it. While either direction of a link is cut, the
	// checker holds its ends to no agreement across it, as if it were down.
	Cut
	Uncut
	// ClockRate says Node's clock runs at Value parts per million of true
	// time from now on (1,000,000: true time; 1,200,000: 20% fast): its
	// Env.Now advances, and its timers expire, at that rate.
	ClockRate
	// ClockJumped says Node's clock (its Env.Now) jumped by Value
	// nanoseconds, forward or back; its timers already set keep their
	// expiries, as a monotonic timer does when the wall clock jumps.
	ClockJumped
	// Slowed says every input to Node is handled Value nanoseconds late
	// from now on (0: on time again): a long pause, a swapping host, a
	// saturated queue.
	Slowed
	numKinds
)

var kindNames = [...]string{
	NodeAdded: "node", LinkUp: "link_up", LinkDown: "link_down", Crashed: "crash",
	Restarted: "restart", Recovered: "recover", ElectCalled: "elect", Sent: "send",
	Delivered: "deliver", Dropped: "drop", TimerFired: "timer", StatusChanged: "status",
	ValueChanged: "value", End: "end", Reported: "report", Panicked: "panic", Acted: "act",
	Cut: "cut", Uncut: "uncut", ClockRate: "clock", ClockJumped: "jump", Slowed: "slow",
}

// Gray says events of kind k are gray failures: a link cut one way, a
// clock's rate or jump, a slow node.
func (k Kind) Gray() bool { return k >= Cut && k <= Slowed }

// PPM is a clock rate's Value for a ClockRate event: rate in parts per
// million, rounded.
func PPM(rate float64) int64 { return int64(math.Round(rate * 1e6)) }

// HasNode says events of kind k name a node: all but End and Acted, whose
// Node is 0 and not written.
func (k Kind) HasNode() bool { return k != End && k != Acted }

// HasText says events of kind k carry a Text.
func (k Kind) HasText() bool { return k == Reported || k == Panicked || k == Acted }

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// DropReason says why a message was not delivered.
type DropReason uint8

const (
	// NoLink: the destination was not a neighbour when the message was sent.
	NoLink DropReason = iota
	// Lost: the link's loss probability struck.
	Lost
	// LinkBroke: the link went down (or an end crashed) while the message was
	// in flight.
	LinkBroke
	// CutOff: the direction from the sender to the receiver was cut (a
	// gray failure, Cut) when the message arrived.
	CutOff
	// NumDropReasons is the number of drop reasons.
	NumDropReasons
)

var reasonNames = [...]string{NoLink: "no_link", Lost: "loss", LinkBroke: "link_down", CutOff: "cut"}

func (r DropReason) String() string {
	if r < NumDropReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", r)
}

// Event is one thing that happened in a run. Drivers reuse one Event value
// and pass a pointer to observers: observers must copy what they keep.
type Event struct {
	At     time.Duration
	Kind   Kind
	Node   algo.NodeID
	Peer   algo.NodeID
	Value  int64        // NodeAdded, ValueChanged
	Msg    algo.Message // Sent, Delivered, Dropped
	Status algo.Status  // StatusChanged
	Reason DropReason   // Dropped
	Timer  algo.Timer   // TimerFired
	// Moved is set on a LinkUp or LinkDown that movement caused.
	Moved bool
	// Quiescent is set on End when no event was left to run: the final state
	// is permanent.
	Quiescent bool
	// Text is what a Reported, Panicked or Acted event says.
	Text string
}

// Header opens a trace: what a reader needs to interpret and re-check it.
type Header struct {
	Version   int               `json:"version"`
	Algorithm string            `json:"algorithm"`
	Params    map[string]string `json:"params,omitempty"`
	Seed      uint64            `json:"seed"`
	Topology  string            `json:"topology,omitempty"`
	Nodes     int               `json:"nodes"`
	Messages  []string          `json:"message_types"`
	// Spontaneous copies algo.Model.Spontaneous: the checker's liveness scope.
	Spontaneous bool `json:"spontaneous"`
	// Lossy says the run's links lost messages (check.Config.Lossy).
	Lossy bool `json:"lossy,omitempty"`
	// Initiators are the nodes the driver asked to elect at time 0 (the
	// trace's elect_called events at 0 say the same); Unelected those
	// where no election was expected (check.Config.Unelected).
	Initiators           []algo.NodeID `json:"initiators,omitempty"`
	Unelected            []algo.NodeID `json:"unelected,omitempty"`
	UnelectedUninitiated bool          `json:"unelected_uninitiated,omitempty"`
	// AmongInitiators says the algorithm elects the most valued of its
	// initiators (check.Config.AmongInitiators).
	AmongInitiators bool `json:"among_initiators,omitempty"`
	// ValueAtElection says the checker held each component to its nodes'
	// values at its election, not to the value changes after it, for an
	// algorithm that does not follow value changes (algo.Model.FollowsValue
	// unset; check.Config.ValueAtElection).
	ValueAtElection bool `json:"value_at_election,omitempty"`
	// ValuesOverTime is the spec of the value model that changed the
	// nodes' values over time ("battery:tx=1"), empty when none did: the
	// values then change on their own (check.Config.ValuesMove).
	ValuesOverTime string `json:"values_over_time,omitempty"`
	// Expect names which components had to elect (check.Config.Expect:
	// "every-component"); empty for the default.
	Expect string `json:"expect,omitempty"`
	// MessageBound, when set, is the formula of the algorithm's message
	// bound (algo.Bound), which the run is held to (a fault-free run), and
	// MaxDelay the longest a message could take (0: unbounded), which the
	// bound may depend on. The bound's figures depend on the network's
	// pieces, which a reader of the trace finds from its events.
	MessageBound string        `json:"message_bound,omitempty"`
	MaxDelay     time.Duration `json:"max_delay_ns,omitempty"`
	// Mobility, RangeM and Duration say how the nodes of a mobile run moved
	// (the spec, the radio range and the run's length, from which the same
	// seed rebuilds every node's track): what a picture of the run needs.
	Mobility string        `json:"mobility,omitempty"`
	RangeM   float64       `json:"range_m,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	// Stabilization and Liveness are the checker's bounds, in nanoseconds.
	Stabilization time.Duration `json:"stabilization_ns"`
	Liveness      time.Duration `json:"liveness_ns"`
}

// MessageBound is the messages a run had to send: at least Lo and at most
// Hi, by its algorithm's Formula (algo.Bound), summed over the pieces of
// its network.
type MessageBound struct {
	Lo      int    `json:"lo"`
	Hi      int    `json:"hi"`
	Formula string `json:"formula"`
}

// FormatVersion is the trace format version this package writes and reads.
const FormatVersion = 1

// Observer receives a run's events in order.
type Observer interface {
	Observe(e *Event)
}

// Arranger is an Observer that can keep its per-node state in an order
// other than the ids'. An emitter that keeps its own nodes in a locality
// order (the simulator lays nodes out so that nodes near one another in the
// network sit near one another in memory) calls Arrange once, before the
// first event, with rank[v] the place of node v in that order, a
// permutation of 0..n-1 for a network of n nodes. An observer that then
// keeps its records at rank[v] instead of v touches memory in the order the
// run does, not at random: on a million nodes whose ids are scattered that
// is most of its cost. The slice is the emitter's and must not be changed.
// Nothing else differs: events name nodes by id as always, and an observer
// never arranged (a trace read back from a file) keeps id order.
type Arranger interface {
	Observer
	Arrange(rank []int32)
}
