package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// ActionKind is a kind of scheduled fault or trigger.
type ActionKind uint8

const (
	// Crash stops nodes: their state and every message in flight to or from
	// them is lost. With Action.Leader it stops the current leader.
	Crash ActionKind = iota
	// Restart boots crashed nodes again with no state.
	Restart
	// Recover boots crashed nodes again from the state they had when they
	// crashed.
	Recover
	// Partition splits the network into named groups: every link between
	// nodes of different groups goes down. Nodes in no group form one more
	// group together.
	Partition
	// Heal undoes the current partition.
	Heal
	// LinkDown takes one link down.
	LinkDown
	// LinkUp brings a link taken down by LinkDown back.
	LinkUp
	// ElectAt asks nodes to start an election (Machine.Elect).
	ElectAt
	// CrashOn arms a crash: each of Nodes crashes the moment a message of
	// type Message reaches it, before handling it (the ring's node that dies
	// during gathering or during confirmation). The message is lost.
	CrashOn
	// Corrupt makes Nodes jokers: from then on, every message they send
	// leaves with its payload altered (1 added to the first byte of Data;
	// with no Data, 1 added to the Value of Peer): an alteration that never
	// cancels, even on a message that passes the same joker twice.
	Corrupt
	// Cut cuts one direction of a link, gray: from then on what Link.A
	// sends Link.B is dropped as it arrives (trace.CutOff), while B is
	// still heard by A. Uncut lets it carry again.
	Cut
	Uncut
	// Clock sets the clocks of Nodes: Rate, when set, is the rate they run
	// at from now on (1: true time), and Jump moves them by that much,
	// forward or back. A node's Env.Now follows its clock, and a timer it
	// sets for d expires after d/Rate of true time; a timer already set
	// keeps its expiry when the rate changes or the clock jumps, as a
	// monotonic timer does (the real node's clock, node.Gray).
	Clock
	// Slow makes every input to Nodes (a message, a timer's expiry) handled
	// By late, in the order they came, from now on; By 0 ends it (what is
	// queued still comes late). An ending For, when set, schedules that.
	Slow
	// LossDir sets the loss probability of one direction of a link, Link.A
	// to Link.B, to Rate, on top of the run's loss (0: none of its own).
	LossDir
	// SetValue sets the value (desirability) of Nodes, or with Leader of the
	// leader the most live nodes follow, to Value: a trace.ValueChanged
	// event. The machines read it at their next input (algo.Env.Value), as
	// a real node's SetValue.
	SetValue
)

var actionNames = [...]string{
	Crash: "crash", Restart: "restart", Recover: "recover", Partition: "partition",
	Heal: "heal", LinkDown: "link_down", LinkUp: "link_up", ElectAt: "elect",
	CrashOn: "crash_on", Corrupt: "corrupt", Cut: "cut", Uncut: "uncut",
	Clock: "clock", Slow: "slow", LossDir: "loss", SetValue: "value",
}

// Gray says the action is a gray failure: a link cut one way or lossy one
// way, a clock, a slow node.
func (k ActionKind) Gray() bool { return k >= Cut && k <= LossDir }

func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return fmt.Sprintf("action(%d)", k)
}

// ParseActionKind is the inverse of ActionKind.String.
func ParseActionKind(s string) (ActionKind, bool) {
	for i, n := range actionNames {
		if n == s {
			return ActionKind(i), true
		}
	}
	return 0, false
}

// Group is one named side of a partition: listed nodes, or the nodes placed
// in an area (for networks with positions).
type Group struct {
	Name  string
	Nodes []algo.NodeID
	Area  *Rect
}

// Rect is a rectangle of the plane, in metres: X0 <= x < X1, Y0 <= y < Y1.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Contains reports whether p lies in r.
func (r Rect) Contains(p topo.Point) bool {
	return p.X >= r.X0 && p.X < r.X1 && p.Y >= r.Y0 && p.Y < r.Y1
}

// Action is one entry of a run's timeline. Actions at time 0 run right after
// every node has booted, except the arming of faults (CrashOn, Corrupt) and
// gray failures (Gray), which hold from the boot on.
type Action struct {
	At    time.Duration
	Kind  ActionKind
	Nodes []algo.NodeID // Crash, Restart, Recover, ElectAt, SetValue
	// Value is what SetValue sets.
	Value int64
	// Message names a message type of the algorithm, for CrashOn.
	Message string
	// Leader, on a Crash or a SetValue, names the node to crash (or whose
	// value to set) when the event comes: the leader that the most live
	// nodes follow (the highest id among equals), so that "the leader
	// crashes" can be written for any network.
	Leader bool
	Link   topo.Edge // LinkDown, LinkUp; Cut, Uncut, LossDir: from A to B
	// Rate is a Clock's rate (0: unchanged) or a LossDir's probability.
	Rate float64
	// Jump is how far a Clock moves the clocks; By how late a Slow node
	// handles its inputs, and For, when set, how long it lasts.
	Jump, By, For time.Duration
	// Groups are the sides of a Partition, in the order written.
	Groups []Group
	// Where says where the action was written ("run.yaml:12"), for errors.
	Where string
}

// Describe says in words what a scenario's partition, heal or crash of the
// leader does, as the run's story tells it ("the network splits (west, and
// the rest)"); "" for the actions whose events say it all.
func (a *Action) Describe() string {
	switch a.Kind {
	case Partition:
		names := make([]string, len(a.Groups))
		for i, g := range a.Groups {
			names[i] = g.Name
		}
		if len(names) == 1 {
			return "the network splits (" + names[0] + ", and the rest)"
		}
		return "the network splits into " + strings.Join(names, ", ")
	case Heal:
		return "the partition heals"
	}
	return ""
}
