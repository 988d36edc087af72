package sim

import (
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// env is the algo.Env the engine hands a machine: one value, pointed at the
// node whose input is being run. Its medium has a broadcast
// (algo.Broadcaster): a radio.
type env struct {
	e  *Engine
	v  algo.NodeID
	k  int32 // v's record: nodes[k]
	nd *node
}

func (en *env) ID() algo.NodeID { return en.v }
func (en *env) Value() int64    { return en.nd.value }
func (en *env) Now() time.Duration {
	if en.e.gray != nil {
		return time.Duration(en.e.gray.now(en.v, en.e.now))
	}
	return time.Duration(en.e.now)
}
func (en *env) Rand() *rand.Rand                       { return en.e.rng }
func (en *env) Neighbors() []algo.NodeID               { return en.e.nbrsOf(en.nd) }
func (en *env) Send(to algo.NodeID, m algo.Message)    { en.e.send(to, m) }
func (en *env) Broadcast(m algo.Message)               { en.e.broadcast(m) }
func (en *env) SetTimer(t algo.Timer, d time.Duration) { en.e.setTimer(t, d) }
func (en *env) StopTimer(t algo.Timer)                 { en.e.stopTimer(t) }

// Report emits a Reported event.
func (en *env) Report(what string) {
	en.e.emit(trace.Event{At: time.Duration(en.e.now), Kind: trace.Reported, Node: en.v, Peer: algo.None, Text: what})
}
