package algo

import (
	"math/rand/v2"
	"time"
)

// Timer names one of a machine's timers. A machine has a handful of them
// (heartbeat, election timeout, probe); setting a timer that is already set
// moves it, so a machine never has to remember what it scheduled.
type Timer uint8

// Env is what a driver offers a machine during one input. It is valid only for
// the duration of the call that received it.
type Env interface {
	// ID is this node's id.
	ID() NodeID
	// Value is this node's current desirability. It may change between inputs
	// (the runtime's SetValue), never during one.
	Value() int64
	// Now is the driver's clock: virtual time since the start of the run in the
	// simulator, time since the node started in the runtime.
	Now() time.Duration
	// Rand is a seeded random source. In the simulator it is the run's single
	// source, so drawing from it keeps the run reproducible.
	Rand() *rand.Rand
	// Neighbors lists the nodes this node can currently reach in one hop, in
	// ascending order. The slice belongs to the driver: read it, don't keep it.
	Neighbors() []NodeID
	// Send hands m to the driver for delivery to node to. The driver sets
	// m.From and m.To. Messages to nodes that are not neighbours are lost.
	// m.Peers and m.Data then belong to the message: the machine must not
	// change them.
	Send(to NodeID, m Message)
	// SetTimer arranges for Timer(t) to be called after d, replacing any pending
	// expiry of the same timer.
	SetTimer(t Timer, d time.Duration)
	// StopTimer cancels a pending expiry of t, if any.
	StopTimer(t Timer)
	// Report records something the algorithm detected and that its document
	// says to report (a failure naming its phase, a corrupted payload). It
	// goes into the run's trace and summary; it changes nothing.
	Report(what string)
}

// PulseLength is the length of a pulse for synchronous algorithms
// (Model.Synchronous): drivers deliver every message sent during pulse k at
// the start of pulse k+1, so a machine that acts half-way through each pulse
// has heard everything sent in the previous one.
const PulseLength = time.Millisecond

// Machine is one node's election algorithm. Every method is one input; the
// driver never calls two at once and reads Status after each.
type Machine interface {
	// Start boots the node for the first time.
	Start(env Env)
	// Restart boots the node again after a crash, with no saved state. The
	// documents treat this as a new node: it starts an election.
	Restart(env Env)
	// Recover boots the node again after a crash from the state Save returned
	// before it. The documents treat this as a merge.
	Recover(env Env, saved []byte) error
	// Save returns what Recover needs. Drivers persist it (the runtime writes it
	// to disk; the simulator keeps the bytes of a crashed node).
	Save() []byte
	// Receive handles a message from a neighbour. m is valid only during the
	// call.
	Receive(env Env, m *Message)
	// Timer handles the expiry of timer t.
	Timer(env Env, t Timer)
	// NeighborUp tells the node that id became reachable in one hop.
	NeighborUp(env Env, id NodeID)
	// NeighborDown tells the node that id is no longer reachable in one hop.
	NeighborDown(env Env, id NodeID)
	// Elect asks the node to start an election now: an external trigger from an
	// operator, an application or a scenario's "elect" event.
	Elect(env Env)
	// Status reports the node's leader, state and election index.
	Status() Status
}

// Cloner is a Machine that copies itself, for exploration (elect explore),
// which copies a machine at every branch of a run. It is optional: a
// machine without it is copied by a generic deep copy of its fields,
// exported or not, which is slower (docs/algorithms.md says how much). The
// copy must share nothing that either machine changes afterwards.
type Cloner interface {
	Clone() Machine
}

// Fingerprinter is a Machine that writes its state's bytes, for
// exploration, which knows a state by a hash of its machines. It is
// optional: a machine without it is hashed by a generic walk of its
// fields. AppendState appends to b bytes that are equal for two machines
// exactly when their futures are (every field that decides what the
// machine does next, none that does not: a count kept for a report may be
// left out, merging states that differ only there).
type Fingerprinter interface {
	AppendState(b []byte) []byte
}
