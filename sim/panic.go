package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/blame"
	"github.com/electgo/elect/trace"
)

// callKind names the input the engine is handing a machine.
type callKind uint8

const (
	callStart callKind = iota
	callRestart
	callRecover
	callReceive
	callTimer
	callElect
	callNeighborUp
	callNeighborDown
	callSave
	callStatus
)

var callNames = [...]string{
	callStart: "Start", callRestart: "Restart", callRecover: "Recover", callReceive: "Receive",
	callTimer: "Timer", callElect: "Elect", callNeighborUp: "NeighborUp", callNeighborDown: "NeighborDown",
	callSave: "Save", callStatus: "Status",
}

// calling is the machine call under way, for the report of a panic in it:
// set before each call, and read only then. The node is env's.
type calling struct {
	kind  callKind
	peer  algo.NodeID   // NeighborUp, NeighborDown
	msg   *algo.Message // Receive
	timer algo.Timer    // Timer
}

// machineFault is a panic the engine raises for a machine's misuse of the
// engine (a message type it does not declare, saved state it cannot read
// back): the machine's bug, though it begins in the engine's code.
type machineFault string

// InternalError is a panic of elect's own code during a run (not of the
// algorithm's: see blame), which Run raises again wrapped in this, with
// the stack where it began.
type InternalError struct{ *blame.Panic }

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error of elect (a bug of elect, not of the algorithm): panic: %v", e.Value)
}

// Panic is a machine's panic that the engine recovered (Result.Panic).
type Panic struct {
	At   time.Duration
	Node algo.NodeID
	// Text says in which call, the panic's value and the frames of the
	// algorithm's code: the Panicked event's text.
	Text string
	// Stack is the goroutine's whole stack where the panic began.
	Stack []byte
}

// guarded runs f, which hands inputs to machines. A panic that began in a
// machine's code (or a machineFault) is the algorithm's: it is emitted as a
// Panicked event and returned, and the run ends there. Any other is
// elect's own, raised again as an *InternalError.
func (e *Engine) guarded(f func()) (p *Panic) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		bp := blame.Recovered(v)
		if _, fault := v.(machineFault); !fault && !bp.Theirs {
			panic(&InternalError{bp})
		}
		p = &Panic{At: time.Duration(e.now), Node: e.env.v, Text: e.describePanic(bp), Stack: bp.Stack}
		e.emit(trace.Event{At: p.At, Kind: trace.Panicked, Node: p.Node, Peer: algo.None, Text: p.Text})
	}()
	f()
	return nil
}

// describePanic says in which call the machine panicked, with what, and
// where in its code: "in Receive of Election from 2: VALUE; at F1 < F2".
func (e *Engine) describePanic(bp *blame.Panic) string {
	c := e.call
	var b strings.Builder
	b.WriteString(callNames[c.kind])
	switch c.kind {
	case callReceive:
		name := fmt.Sprintf("type %d", c.msg.Type)
		if int(c.msg.Type) < len(e.alg.Messages) {
			name = e.alg.Messages[c.msg.Type]
		}
		fmt.Fprintf(&b, " of %s from %d", name, c.msg.From)
	case callTimer:
		fmt.Fprintf(&b, " of timer %d", c.timer)
	case callNeighborUp, callNeighborDown:
		fmt.Fprintf(&b, " of %d", c.peer)
	}
	return bp.Said(b.String())
}
