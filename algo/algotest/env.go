// Package algotest drives one machine by hand, for unit tests of algorithms:
// an algo.Env whose clock the test sets, which writes down what the machine
// sends and remembers the timers it sets instead of running them.
//
// It imports algo and nothing above it: no simulator, judge or driver
// (docs/architecture.md).
package algotest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
)

// Env is a scripted algo.Env. The node's value is its id.
type Env struct {
	Self   algo.NodeID
	Nbrs   []algo.NodeID
	Clock  time.Duration
	Names  []string // message type names, for Take
	Timers map[algo.Timer]time.Duration
	sent   []string
	rng    *rand.Rand
}

// New returns an Env for node self with the given neighbours.
func New(self algo.NodeID, names []string, nbrs ...algo.NodeID) *Env {
	return &Env{Self: self, Nbrs: nbrs, Names: names, Timers: map[algo.Timer]time.Duration{}, rng: rand.New(rand.NewPCG(1, 1))}
}

func (f *Env) ID() algo.NodeID          { return f.Self }
func (f *Env) Value() int64             { return int64(f.Self) }
func (f *Env) Now() time.Duration       { return f.Clock }
func (f *Env) Rand() *rand.Rand         { return f.rng }
func (f *Env) Neighbors() []algo.NodeID { return f.Nbrs }

// Send writes the message down as "TYPE>TO INDEX PEER", with "(again)" for a
// message of Level 1.
func (f *Env) Send(to algo.NodeID, m algo.Message) { f.note(fmt.Sprint(to), &m) }

// Broadcast writes the transmission down as Send does, with "*" for its
// receivers: "TYPE>* INDEX PEER". Env is an algo.Broadcaster; a test sees
// the fallback of algo.Broadcast (one Send per neighbour) through an Env
// that hides the method, struct{ algo.Env }{env}.
func (f *Env) Broadcast(m algo.Message) { f.note("*", &m) }

// note writes a message down as "TYPE>TO INDEX PEER".
func (f *Env) note(to string, m *algo.Message) {
	s := fmt.Sprintf("%s>%s %v %v", f.Names[m.Type], to, m.Index, m.Peer.ID)
	if m.Level == 1 {
		s += " (again)"
	}
	f.sent = append(f.sent, s)
}

func (f *Env) SetTimer(t algo.Timer, d time.Duration) { f.Timers[t] = d }

// Report writes the report down as "report: WHAT".
func (f *Env) Report(what string)     { f.sent = append(f.sent, "report: "+what) }
func (f *Env) StopTimer(t algo.Timer) { delete(f.Timers, t) }

// Take returns what was sent since the last call, "; "-separated.
func (f *Env) Take() string {
	s := strings.Join(f.sent, "; ")
	f.sent = nil
	return s
}
