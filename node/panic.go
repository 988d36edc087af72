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

// machinePanic describes a panic recovered with value v, if it is the
// machine's (it began in the algorithm's code); nil if it is the node's
// own, which is raised again.
func machinePanic(id algo.NodeID, v any) *PanicError {
	p := blame.Recovered(v)
	if !p.Theirs {
		return nil
	}
	// The driver called the outermost of the algorithm's frames: its
	// method names the call (Receive, Timer, Start...).
	call := "the machine"
	if len(p.Frames) > 0 {
		outer, _, _ := strings.Cut(p.Frames[len(p.Frames)-1], " (")
		call = outer[strings.LastIndexByte(outer, '.')+1:]
	}
	text := fmt.Sprintf("in %s: %v", call, v)
	if len(p.Frames) > 0 {
		text += "; at " + strings.Join(p.Frames, " < ")
	}
	return &PanicError{Node: id, Text: text, Stack: p.Stack}
}
