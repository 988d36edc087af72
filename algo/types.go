// Package algo defines the contract every election algorithm of elect implements:
// a pure, deterministic state machine (Machine) driven by an environment (Env)
// that the simulator, the UDP runtime and the emulator each provide.
//
// A Machine owns no goroutines, sockets, clocks or global randomness. Everything
// it does is a reaction to one input handed to it by its driver (boot, a message,
// a timer expiry, a neighbour appearing or vanishing, an external request to
// elect), and everything it produces goes back through the Env (messages,
// timers). Its Status is read by the driver after every input; that is what the
// checker sees.
//
// It imports nothing of elect but layer 0 (internal/blame,
// internal/hugemem): every algorithm, elect's or a user's, depends on it
// alone (docs/architecture.md).
package algo

import (
	"fmt"
	"slices"
)

// NodeID identifies a node. Ids are small non-negative integers so that drivers
// can index dense arrays by them: 0 to MaxNodes-1.
type NodeID int32

// None is the NodeID of "no node": no leader, no parent.
const None NodeID = -1

// MaxNodes is the most nodes a network may have: every id fits a NodeID,
// None and the other negative ids apart. It is 2^31-1, so that a count of
// nodes fits an int32 too.
const MaxNodes = 1<<31 - 1

// Peer is a node together with its desirability value. Leaders are chosen by
// the highest (Value, ID): the value is the "desirability" of the source
// documents (battery, position, history) and the id breaks ties.
type Peer struct {
	ID    NodeID
	Value int64
}

// NoPeer is the Peer that every real node beats.
var NoPeer = Peer{ID: None, Value: minValue}

const minValue = -1 << 63

// Better reports whether p is more valued than q: higher value, then higher id.
func (p Peer) Better(q Peer) bool {
	if p.Value != q.Value {
		return p.Value > q.Value
	}
	return p.ID > q.ID
}

// Max returns the more valued of p and q.
func (p Peer) Max(q Peer) Peer {
	if q.Better(p) {
		return q
	}
	return p
}

// String writes p as "ID(v=VALUE)", or "none" for NoPeer.
func (p Peer) String() string {
	if p.ID == None {
		return "none"
	}
	return fmt.Sprintf("%d(v=%d)", p.ID, p.Value)
}

// Index is a computation index <num, id>: the number of an election and the node
// that started it. It orders concurrent elections (equation (1) of
// 000_c3bedb07ea4749d7.txt; lines 23 and 35 of 004_ad961bc0493bda85.txt's
// Figure 2) and, through Num, serves as a monotone election index (a fencing
// token) in the runtime. The zero Index means "no election yet".
type Index struct {
	Num uint32
	ID  NodeID
}

// Less reports whether i precedes j: <num1,id1> < <num2,id2> iff num1 < num2, or
// num1 = num2 and id1 < id2.
func (i Index) Less(j Index) bool {
	if i.Num != j.Num {
		return i.Num < j.Num
	}
	return i.ID < j.ID
}

// IsZero reports whether i is the zero Index (no election seen).
func (i Index) IsZero() bool { return i == Index{} }

// String writes i as "<num,id>", the documents' notation.
func (i Index) String() string { return fmt.Sprintf("<%d,%d>", i.Num, i.ID) }

// MsgType names a message type within one algorithm: an index into the
// algorithm's Messages table (Algorithm.Messages), so that drivers count
// messages in a flat array and the trace writes the document's names.
type MsgType uint8

// Message is what machines send one another. It is a fixed-size value so that
// drivers move it without allocating; the fields carry the payloads the source
// documents give each message type, and each algorithm documents which fields
// each of its types uses. Peers and Data are the variable-size parts (the
// neighbour list piggybacked on an Ack in 004_ad961bc0493bda85.txt, the
// ring's checksummed payload in 003_995b7edf0113a8b5.txt); hot paths leave
// them nil.
type Message struct {
	Type  MsgType
	Level int32  // a level: distance to a root, a capture level
	From  NodeID // set by the driver on Send
	To    NodeID // set by the driver on Send
	Index Index  // a computation index or wave identity
	Peer  Peer   // the node the message speaks of: candidate, most valued, leader
	Peers []Peer // a variable list of nodes, when a document's message carries one
	Data  []byte // a payload of bytes, when a document's message carries one
}

// Corrupt alters the message's payload as the joker of
// 003_995b7edf0113a8b5.txt does, the same way in every driver (the
// simulator's corrupt event, a real node's Config.Corrupt): 1 added to the
// first byte of Data (wrapping round), or, with no Data, 1 added to the
// Value of Peer. Data is copied first: the sender's bytes stay as they were.
// The alteration never cancels: a message that passes the same joker twice
// comes out altered twice, not as it went in.
func (m *Message) Corrupt() {
	if len(m.Data) > 0 {
		d := slices.Clone(m.Data)
		d[0]++
		m.Data = d
		return
	}
	m.Peer.Value++
}

// State is the phase a node is in, as the specification of
// 004_ad961bc0493bda85.txt names them: Norm (normal operation, the leader
// variable is meaningful), Elect (this node runs an election as its source) and
// Wait (this node takes part in an election someone else started).
type State uint8

// The states of the specification.
const (
	Norm  State = iota // normal operation: Leader is meaningful
	Elect              // running an election as its source
	Wait               // taking part in an election someone else started
)

var stateNames = [...]string{Norm: "Norm", Elect: "Elect", Wait: "Wait"}

// String is the state's name in the specification: Norm, Elect or Wait.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// StateNames lists the states' names in the order of their values
// (State(i).String() is StateNames()[i]): for readers of a trace and
// pages that show states.
func StateNames() []string { return stateNames[:] }

// ParseState is the inverse of State.String.
func ParseState(s string) (State, error) {
	for i, n := range stateNames {
		if n == s {
			return State(i), nil
		}
	}
	return 0, fmt.Errorf("unknown state %q (want Norm, Elect or Wait)", s)
}

// Status is what the checker reads of a node: its leader, its state and the
// index of the election it last took part in.
type Status struct {
	Leader NodeID
	State  State
	Index  Index
}

// HasLeader reports whether the node is in normal operation with a leader: the
// only situation in which the specification requires agreement.
func (s Status) HasLeader() bool { return s.State == Norm && s.Leader != None }
