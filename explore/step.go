package explore

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// A Step is one event of a run that the explorer chooses: which message
// arrives, which timer fires, which fault strikes, and when. A list of
// steps from the boot is a schedule: it determines the run whole (the
// machines are deterministic, their random sources seeded), so that
// Replay, and `elect sim` on a scenario with a schedule, run it again
// exactly.
type Step struct {
	// At is the step's time. Untimed exploration gives every step a tick
	// of its own (Tick); timed exploration the time real delays allow.
	At   time.Duration
	Kind StepKind
	// Node is where the step happens: the receiver of a delivery or a
	// loss, the owner of a timer, the node that crashes or comes back, one
	// end of a link.
	Node algo.NodeID
	// Peer is the sender of a delivery or a loss, the other end of a link,
	// algo.None otherwise.
	Peer algo.NodeID
	// Seq names the message of a delivery or a loss: the Seq-th message
	// (from 0) that Peer put in flight to Node since the boot. A message
	// sent while the two were not linked is lost at once and takes no
	// number.
	Seq uint32
	// Timer is the timer that fires.
	Timer algo.Timer
}

// StepKind is what a step does.
type StepKind uint8

const (
	// Deliver hands a message in flight to its receiver.
	Deliver StepKind = iota + 1
	// Fire fires an armed timer.
	Fire
	// Lose loses a message in flight (Budget.Losses).
	Lose
	// Crash stops a node; its machine's Save is kept (Budget.Crashes).
	Crash
	// Restart boots a crashed node again with no state, Recover with what
	// it saved (Budget.Restarts).
	Restart
	Recover
	// LinkDown and LinkUp take a link of the network down and bring it
	// back (Budget.LinkChanges).
	LinkDown
	LinkUp
)

var stepNames = [...]string{Deliver: "deliver", Fire: "fire", Lose: "lose", Crash: "crash", Restart: "restart",
	Recover: "recover", LinkDown: "link-down", LinkUp: "link-up"}

func (k StepKind) String() string {
	if int(k) < len(stepNames) && stepNames[k] != "" {
		return stepNames[k]
	}
	return fmt.Sprintf("StepKind(%d)", uint8(k))
}

// ParseStepKind reads a step kind's name.
func ParseStepKind(s string) (StepKind, error) {
	for k, name := range stepNames {
		if name != "" && name == s {
			return StepKind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown step %q (want deliver, fire, lose, crash, restart, recover, link-down or link-up)", s)
}

// String says what the step does, in words.
func (s Step) String() string {
	switch s.Kind {
	case Deliver:
		return fmt.Sprintf("%v: node %d receives message %d from node %d", s.At, s.Node, s.Seq, s.Peer)
	case Lose:
		return fmt.Sprintf("%v: message %d from node %d to node %d is lost", s.At, s.Seq, s.Peer, s.Node)
	case Fire:
		return fmt.Sprintf("%v: node %d's timer %d fires", s.At, s.Node, s.Timer)
	case Crash, Restart, Recover:
		return fmt.Sprintf("%v: node %d %ss", s.At, s.Node, s.Kind)
	case LinkDown:
		return fmt.Sprintf("%v: link %d-%d goes down", s.At, s.Node, s.Peer)
	case LinkUp:
		return fmt.Sprintf("%v: link %d-%d comes up", s.At, s.Node, s.Peer)
	}
	return fmt.Sprintf("%v: %v", s.At, s.Kind)
}

// Tick is the time an untimed step takes: the schedule's steps follow one
// another a tick apart, so that a trace reads in order. Machines explored
// untimed are correct whatever the time, so it changes nothing else.
const Tick = time.Millisecond

// Budget bounds the faults an exploration may add to a run: each fault is a
// step that any state may take while its budget lasts, and only those the
// algorithm's model admits (algo.Model's Loss, Crash, Partition).
type Budget struct {
	Crashes     int `json:"crashes"`
	Restarts    int `json:"restarts"`
	Losses      int `json:"losses"`
	LinkChanges int `json:"link_changes"`
}

// Faulty says whether the budget allows any fault.
func (b Budget) Faulty() bool {
	return b.Crashes > 0 || b.Restarts > 0 || b.Losses > 0 || b.LinkChanges > 0
}
