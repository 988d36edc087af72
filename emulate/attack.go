package emulate

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// An Attack is what an adversary on the emulated network does: it listens
// on a port of the bridge that hears every frame any node sends (the spy,
// a sniffer within range of everyone) and sends frames of its own from
// there, in a node's name. It is the emulator's own event, like Pause: the
// simulator has no wire to capture. Attacks test the runtime's guards
// (docs/wire.md, "Checks, in order") on real processes: a run under attack
// must still meet the specification, and the nodes' refusals show in the
// summary (emulation.rejected, by reason).
type Attack struct {
	At   time.Duration
	Kind AttackKind
	// Node is the node whose name the attack uses; algo.None means the
	// node that led when the capture began (Replay) or at At (Forge).
	Node algo.NodeID
	// From and For are the capture a Replay sends again: every datagram
	// Node sent in [From, From+For), at the pace it first went, from At on
	// (At >= From+For).
	From, For time.Duration
}

// AttackKind is what an attack sends.
type AttackKind uint8

const (
	// Replay sends captured datagrams again, unchanged: the attack of a
	// neighbour that was never listed as a peer (issue 31 A), whose replay
	// window a receiver must keep longer than anything can be replayed.
	Replay AttackKind = iota + 1
	// ForgeFence sends a hello in Node's name, numbered with the present
	// time, whose fence's counter is at the end of its range
	// (0xffffffff<<32 | 1): before issue 31 B, a leader's next token
	// wrapped to 0. It is a forgery only where the nodes run without a
	// key (Config.Insecure); with one it is refused as unsigned.
	ForgeFence
	// ForgeIndex sends a copy of Node's last message, numbered with the
	// present time, whose election number is 2^32-1, which no election
	// could follow.
	ForgeIndex
)

func (k AttackKind) String() string {
	switch k {
	case Replay:
		return "replay"
	case ForgeFence:
		return "forged fence"
	case ForgeIndex:
		return "forged election number"
	}
	return fmt.Sprintf("AttackKind(%d)", uint8(k))
}

// Describe says what the attack does, in the words of a soak's schedule.
func (a Attack) Describe() string {
	who := fmt.Sprintf("node %d", a.Node)
	if a.Node == algo.None {
		who = "the leader"
	}
	if a.Kind == Replay {
		return fmt.Sprintf("%v replay %s's datagrams of %v-%v", a.At, who, a.From, a.From+a.For)
	}
	return fmt.Sprintf("%v %s in %s's name", a.At, a.Kind, who)
}

// check says what is wrong with the attack, if anything.
func (a Attack) check(nodes int) error {
	switch {
	case a.Kind < Replay || a.Kind > ForgeIndex:
		return fmt.Errorf("attack at %v: unknown kind %d", a.At, a.Kind)
	case a.Node != algo.None && (a.Node < 0 || int(a.Node) >= nodes):
		return fmt.Errorf("attack at %v: node %d is not one of the %d nodes", a.At, a.Node, nodes)
	case a.Kind == Replay && (a.For <= 0 || a.From < 0 || a.At < a.From+a.For):
		return fmt.Errorf("attack at %v: a replay of %v-%v must end its capture before it starts", a.At, a.From, a.From+a.For)
	}
	return nil
}
