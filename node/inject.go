package node

import (
	"fmt"
	"slices"

	"github.com/electgo/elect/algo"
)

// CrashedOnError is what Run returns when Config.CrashOn killed the node:
// the fault injected, not a failure of the node.
type CrashedOnError struct {
	ID      algo.NodeID
	Message string // the message type it died on
	From    algo.NodeID
}

func (e *CrashedOnError) Error() string {
	return fmt.Sprintf("node %d crashed on a %s message from node %d (fault injected: crash on %s)", e.ID, e.Message, e.From, e.Message)
}

// noCrash is crashOn's value without Config.CrashOn.
const noCrash algo.MsgType = 255

// crashType resolves Config.CrashOn to a message type of a.
func crashType(a *algo.Algorithm, name string) (algo.MsgType, error) {
	if name == "" {
		return noCrash, nil
	}
	i := slices.Index(a.Messages, name)
	if i < 0 {
		return 0, fmt.Errorf("crash on %q: algorithm %s has no such message (it has %v)", name, a.Name, a.Messages)
	}
	return algo.MsgType(i), nil
}

// crashesOn reports whether m kills the node (Config.CrashOn), and if so
// marks it dead: Run returns once the input at hand is done.
func (n *Node) crashesOn(m *algo.Message) bool {
	if m.Type != n.crashOn || n.dead != nil {
		return n.dead != nil
	}
	n.dead = &CrashedOnError{ID: n.cfg.ID, Message: n.names[m.Type], From: m.From}
	return true
}
