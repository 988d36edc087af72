package node

import (
	"fmt"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/blame"
)

// PanicError is the machine's panic, which the node recovered: the
// algorithm's bug, a violation of the specification as a simulated run
// reports it. Run returns it, having logged it and kept it among the
// node's reports; elect node then exits 2.
type PanicError struct {
	Node algo.NodeID
	// Text says in which of the machine's calls, the panic's value and the
	// frames of the algorithm's code: "in Receive: VALUE; at F1 < F2".
	Text string
	// Stack is the goroutine's stack where the panic began.
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("node %d: the algorithm's machine panicked %s", e.Node, e.Text)
}

// machineFault is a panic the node raises for its machine's misuse of it
// (a message type the algorithm does not declare): the machine's bug,
// though it begins in the node's code.
type machineFault string

// declared panics, as the machine's fault, unless t is a message type of
// the algorithm's (algo.Algorithm.Messages).
func (n *Node) declared(t algo.MsgType) {
	if int(t) >= len(n.alg.Messages) {
		panic(machineFault(fmt.Sprintf("%s node %d sent message type %d, which its Messages (%d types) does not name", n.alg.Name, n.cfg.ID, t, len(n.alg.Messages))))
	}
}

// machinePanic describes a panic recovered with value v, if it is the
// machine's (it began in the algorithm's code, or is a machineFault); nil
// if it is the node's own, which is raised again.
func machinePanic(id algo.NodeID, v any) *PanicError {
	p := blame.Recovered(v)
	if _, fault := v.(machineFault); !fault && !p.Theirs {
		return nil
	}
	call := p.Call // the method the node called (Receive, Timer, Start...)
	if call == "" {
		call = "the machine"
	}
	text := fmt.Sprintf("in %s: %v", call, v)
	if len(p.Frames) > 0 {
		text += "; at " + strings.Join(p.Frames, " < ")
	}
	return &PanicError{Node: id, Text: text, Stack: p.Stack}
}
