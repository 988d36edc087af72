package node

import (
	"fmt"
	"io"
	"os"
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

// panicSaid is what a PanicError says between its node and its text.
const panicSaid = ": the algorithm's machine panicked "

func (e *PanicError) Error() string {
	return fmt.Sprintf("node %d%s%s", e.Node, panicSaid, e.Text)
}

// PanicInLogFile is PanicInLog on the last 64 KiB of the log at path
// (the process's last words are at its end).
func PanicInLogFile(path string) (*PanicError, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	const tail = 64 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		f.Seek(st.Size()-tail, io.SeekStart)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, false
	}
	return PanicInLog(b)
}

// PanicInLog finds, in the log of an elect node process (its standard
// error), the machine's panic that ended it, as the process's last words
// said it ("elect: node 3: the algorithm's machine panicked in Receive:
// ..."), for those who run node processes (cluster, emulate). It reads the
// last such line.
func PanicInLog(log []byte) (*PanicError, bool) {
	lines := strings.Split(strings.TrimRight(string(log), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(lines[i], "elect: node ")
		if !ok {
			continue
		}
		id, text, ok := strings.Cut(rest, panicSaid)
		v, err := algo.ParseNodeID(id)
		if ok && err == nil {
			return &PanicError{Node: v, Text: text}, true
		}
	}
	return nil, false
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
	return &PanicError{Node: id, Text: p.Said(call), Stack: p.Stack}
}
