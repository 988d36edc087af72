package node

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/broken"
)

// A machine that panics ends its node's Run with a *PanicError naming the
// call, the panic and the algorithm's frames, kept among the node's
// reports; the node that started the flood, whose machine did not panic,
// runs on.
func TestMachinePanicEndsTheNode(t *testing.T) {
	c, p := panicking(t, broken.Panic, 1)
	if len(p.Stack) == 0 {
		t.Errorf("no stack kept")
	}
	for _, want := range []string{"in Receive: assignment to entry in nil map", "at github.com/electgo/elect/internal/broken.(*node).Receive (broken.go:"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("text %q lacks %q", p.Text, want)
		}
	}
	reports := c.nodes[1].Reports()
	if len(reports) != 1 || reports[0].What != "panic: "+p.Text {
		t.Errorf("reports %+v, want the panic", reports)
	}
	select {
	case err := <-c.ended[0]:
		t.Errorf("node 0 ended too: %v", err)
	default:
	}
}

// A message type the algorithm does not declare is its bug on a real node
// too, as in the simulator: a *PanicError of the node that sent it.
func TestUndeclaredTypeIsTheMachines(t *testing.T) {
	_, p := panicking(t, broken.Undeclared, 0)
	if !strings.Contains(p.Text, "sent message type 1, which its Messages (1 types) does not name") {
		t.Fatalf("text %q does not name the type", p.Text)
	}
}

// panicking runs the broken double bug on two nodes, node 0 initiating,
// and returns the *PanicError that ends node v's Run.
func panicking(t *testing.T, bug broken.Bug, v int) (*cluster, *PanicError) {
	t.Helper()
	c := newCluster(t, 2, func(cfg *Config) {
		cfg.Algorithm, cfg.Params = broken.Names[bug], nil
		cfg.Initiator = cfg.ID == 0
	})
	var err error
	select {
	case err = <-c.ended[v]:
		c.stops[v] = nil // ended: nothing to stop
	case <-time.After(10 * time.Second):
		t.Fatalf("node %d did not end", v)
	}
	var p *PanicError
	if !errors.As(err, &p) || p.Node != algo.NodeID(v) {
		t.Fatalf("Run: %v (%T), want a *PanicError of node %d", err, err, v)
	}
	return c, p
}

// Those who run node processes find the machine's panic in the process's
// last words: the line elect node writes as it exits 2.
func TestPanicInLog(t *testing.T) {
	log := "time=... level=INFO msg=\"node started\"\n" +
		"time=... level=ERROR msg=\"the machine panicked\" call=\"in Receive: boom\"\n" +
		"elect: node 3: the algorithm's machine panicked in Receive: boom; at x.(*m).Receive (x.go:3)\n"
	p, ok := PanicInLog([]byte(log))
	if !ok || p.Node != 3 || p.Text != "in Receive: boom; at x.(*m).Receive (x.go:3)" {
		t.Errorf("%+v, %v", p, ok)
	}
	if _, ok := PanicInLog([]byte("elect: node 3: transport: closed\n")); ok {
		t.Errorf("another error read as a panic")
	}
	// The line is what a PanicError says.
	said := "elect: " + (&PanicError{Node: 4, Text: "in Timer: x"}).Error()
	if p, ok := PanicInLog([]byte(said)); !ok || p.Node != 4 || p.Text != "in Timer: x" {
		t.Errorf("%q read as %+v, %v", said, p, ok)
	}
}
