// Package ring holds the elections of unidirectional rings: the commander's
// two-round election of 003_995b7edf0113a8b5.txt (algorithm "ring") and
// Chang and Roberts' election in which every node initiates (algorithm
// "chang-roberts", cr.go).
//
// # The commander's election ("ring")
//
// The commander (the driver's initiator, node 0 by default) starts at boot. It
// sends a gather message to its successor (the next id modulo n); every
// node writes its identity into it (Peers) and passes it on, so that it
// comes back to the commander with every identity: the first round. The
// commander checks the payload's checksum, takes the most valued identity
// (Peer.Better) as the leader and sends a confirm message round the ring
// carrying it: every node adopts the leader (Norm) as it passes; when the
// confirm comes back, the commander checks the checksum again, adopts the
// leader and reports the success (Env.Report). The document's "control"
// process is the scenario: it reads the outcome from the run's reports and
// final states. A normal run costs exactly n gather and n confirm messages.
//
// Messages (the fields each uses):
//
//   - gather: Index the election <num, commander>; Peers the identities
//     written so far; Data the payload and its checksum; Level the route
//     (below).
//   - confirm: the same, with Peer the leader.
//
// Data is a fixed payload naming the election ("ring" and the Index, 12
// bytes) followed by its SHA-256 checksum (32 bytes). Every node checks it
// as a message reaches it; the first node that finds it wrong appends a
// trailer naming the node the message came from (the suspect) and itself,
// so that the commander learns where the checksum first failed. A joker
// (the scenario's corrupt event) alters the first byte of Data of every
// message it sends, an alteration that never cancels (a line-mode message
// passes a joker out and back): the checksum catches it.
//
// # Faults
//
// The commander times every round (parameter timeout). A node that stops
// during gathering or confirmation (crash_on with gather or confirm) loses
// the round: the commander's timeout turns the stall into a report naming
// the phase ("failure during gather: ..."/"failure during confirm: ...").
// It then restarts the election (a higher Index, which every node joins) in
// line mode, the ring now known broken: a dead node breaks the ring into a line, so the commander sends
// one branch each way, to its successor and to its predecessor; each node
// writes its identity and passes the branch on in the same direction, until
// the next node is dead (not among its live neighbours) or excluded: there
// the branch is reflected, and travels back to the commander hop by hop
// (Level's return flag). The commander decides once both branches are back,
// and the confirm takes the same two branches. A line-mode branch that finds
// the ring whole goes all the way round and is taken back by the commander
// as it arrives. Any number of dead nodes is bypassed this way on the
// commander's side; nodes cut off from the commander by two dead nodes wait
// (below).
//
// A checksum mismatch is reported ("gather: payload checksum mismatch ...
// altered by node J (detected at node K)"); the commander then retries in
// line mode with the joker J excluded: the branches are reflected by J's
// neighbours, so that nothing J sends is needed, and J's identity is taken
// from the failed round (the joker alters the payload, not the identities).
// In the confirmation the nodes next to J send it a leaf confirm, which J
// adopts and does not pass on. Excluding J needs the ring whole: with a dead
// node too, J and the dead node would cut the line in two, and the nodes
// between them could be reached only through J. So once the ring is known
// broken (a round timed out, a branch was reflected at a dead node, marked
// in Level, or a line-mode direction starts at one), J relays: a mismatch
// it causes then is reported and tolerated, and so are the mismatches of
// the joker found before (an excluded joker relays again after a timeout),
// of a second joker and of the commander's own messages: the commander
// decides with the identities it has (a gather), or the leader stands (a
// confirm). A commander restarts at most maxRetries elections after
// failures; past that it reports that it gives up and decides with the
// identities it has, so that no run restarts for ever.
//
// A node that joined an election and sees no confirm within wait_timeout
// (its commander died, or two dead nodes cut it off) reports it and starts a
// line-mode election of its own, with an Index above every one it has seen.
// A node whose neighbour comes or goes (NeighborUp, NeighborDown) waits
// wait_timeout and then, in normal operation, starts a line-mode election
// unless the gather of a newer election passed it since: this catches a
// leader that dies after its confirm went by (a joker elected and then
// crashed) and tells a restarted node the leader.
// Elections are ordered by Index: a message of a lower election than the
// node's is dropped, a higher one is joined (a commander abandons its own).
//
// Level encodes the route: bit 0 the direction (0 towards the successor, 1
// towards the predecessor), bit 1 line mode, bit 2 travelling back to the
// commander, bit 3 a leaf confirm, bit 4 reflected at a dead node; the bits
// above hold the excluded node plus one (0: none).
//
// It imports algo and nothing above it: no simulator, judge or driver
// (docs/architecture.md).
package ring

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// Message types of the commander's election.
const (
	Gather  algo.MsgType = iota // Index, Peers (identities), Data, Level (route)
	Confirm                     // Index, Peer (the leader), Data, Level (route)
)

// MessageNames are the names of the commander's election's messages.
var MessageNames = []string{"gather", "confirm"}

// Route bits of Level.
const (
	fBack    = 1 << iota // travelling towards the predecessor
	fLine                // line mode: reflect where the ring is broken
	fReturn              // reflected: travelling back to the commander
	fLeaf                // a confirm for the excluded node: adopt, do not pass on
	fBroken              // reflected at a dead node: the ring is broken
	flagBits = 5
)

func route(flags int32, excl algo.NodeID) int32 { return flags | int32(excl+1)<<flagBits }

func excludedOf(level int32) algo.NodeID { return algo.NodeID(level>>flagBits) - 1 }

// Timers.
const (
	timerRound  algo.Timer = iota // the commander: a round that does not come back
	timerWait                     // a participant: a confirm that does not come
	timerChange                   // a neighbour came or went: elect unless a newer election saw it
)

// Phases of the commander.
const (
	idle uint8 = iota
	gathering
	confirming
)

type config struct {
	n           int
	timeout     time.Duration
	waitTimeout time.Duration
	nodes       algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.cfg, n.id = c, id
	n.leader, n.excl = algo.NoPeer, algo.NoPeer
	return n
}

type node struct {
	cfg *config
	id  algo.NodeID

	num    uint32     // the highest election number seen
	idx    algo.Index // the election this node is in, or last took part in
	state  algo.State
	leader algo.Peer

	// The commander's round.
	phase   uint8
	line    bool
	excl    algo.Peer   // the excluded joker (ID None: none)
	pending int         // branches still out
	got     []algo.Peer // identities gathered
	data    []byte      // the election's payload and checksum
	bad     bool        // a checksum failed this round
	suspect algo.NodeID // where it first failed: the node that sent it
	spotter algo.NodeID // and the node that found it
	tainted bool        // a mismatch was already reported and excluded once
	joker   algo.NodeID // the joker found (None: none), tolerated from then on
	broken  bool        // a dead node breaks the ring: a joker cannot be bypassed
	retries int         // elections restarted since begin
	lost    bool        // a neighbour came or went in normal operation
}

// maxRetries bounds the elections a commander restarts after failures
// before it decides with what it has: one dead node and one joker need at
// most two (the joker excluded, then a failure).
const maxRetries = 4

func (n *node) self(env algo.Env) algo.Peer { return algo.Peer{ID: n.id, Value: env.Value()} }

// Status: a node running an election as its source (Elect) names no
// leader: the one it remembers is what the election is to confirm or
// replace.
func (n *node) Status() algo.Status {
	s := algo.Status{Leader: n.leader.ID, State: n.state, Index: n.idx}
	if s.State == algo.Elect {
		s.Leader = algo.None
	}
	return s
}

// next is the neighbour in a direction: the successor, or with back the
// predecessor.
func (n *node) next(back bool) algo.NodeID {
	k := int(n.id) + 1
	if back {
		k = int(n.id) - 1 + n.cfg.n
	}
	return algo.NodeID(k % n.cfg.n)
}

func live(env algo.Env, v algo.NodeID) bool {
	_, ok := slices.BinarySearch(env.Neighbors(), v)
	return ok
}

// Start boots the node to wait for an election: the commander's begins
// with the driver's Elect.
func (n *node) Start(algo.Env) { n.state, n.leader = algo.Norm, algo.NoPeer }

// Restart is a new node: it starts an election of its own, in line mode.
func (n *node) Restart(env algo.Env) {
	n.state, n.leader = algo.Norm, algo.NoPeer
	n.begin(env, true)
}

const saveLen = 4 + 4 + 4 + 4 + 8

// Save keeps the election index, the number seen and the leader.
func (n *node) Save() []byte {
	b := make([]byte, 0, saveLen)
	b = binary.BigEndian.AppendUint32(b, n.idx.Num)
	b = binary.BigEndian.AppendUint32(b, uint32(n.idx.ID))
	b = binary.BigEndian.AppendUint32(b, n.num)
	b = binary.BigEndian.AppendUint32(b, uint32(n.leader.ID))
	return binary.BigEndian.AppendUint64(b, uint64(n.leader.Value))
}

// Recover resumes the saved leader; with none it starts an election.
func (n *node) Recover(env algo.Env, saved []byte) error {
	if len(saved) != saveLen {
		return fmt.Errorf("saved state has %d bytes, want %d", len(saved), saveLen)
	}
	n.idx = algo.Index{Num: binary.BigEndian.Uint32(saved), ID: algo.NodeID(int32(binary.BigEndian.Uint32(saved[4:])))}
	n.num = binary.BigEndian.Uint32(saved[8:])
	n.leader = algo.Peer{ID: algo.NodeID(int32(binary.BigEndian.Uint32(saved[12:]))), Value: int64(binary.BigEndian.Uint64(saved[16:]))}
	n.state = algo.Norm
	if n.leader.ID == algo.None {
		n.begin(env, true)
	}
	return nil
}

// Elect starts a new election from this node, round the ring.
func (n *node) Elect(env algo.Env) { n.begin(env, false) }

// NeighborUp and NeighborDown: the ring changed around a node (its leader
// may be gone, or a node come back that must be told the leader). It waits
// wait_timeout, so that a commander's own timeout reports a failure first,
// and then, once in normal operation, starts an election of its own unless
// the gather of an election passed it (or it started one) since the change.
func (n *node) NeighborUp(env algo.Env, _ algo.NodeID) { n.changed(env) }

// NeighborDown: see NeighborUp.
func (n *node) NeighborDown(env algo.Env, _ algo.NodeID) { n.changed(env) }

func (n *node) changed(env algo.Env) {
	if n.lost {
		return
	}
	n.lost = true
	env.SetTimer(timerChange, n.cfg.waitTimeout)
}

func (n *node) Timer(env algo.Env, t algo.Timer) {
	switch t {
	case timerRound:
		if n.phase == idle {
			return
		}
		name := MessageNames[Gather]
		if n.phase == confirming {
			name = MessageNames[Confirm]
		}
		env.Report(fmt.Sprintf("failure during %s: election %v did not come back within %v", name, n.idx, n.cfg.timeout))
		// A node died: the ring is a line now, and a joker that was
		// excluded may be the only way to the nodes behind it. It relays
		// again; its alterations are tolerated from now on.
		n.broken = true
		if n.retries >= maxRetries {
			n.giveUp(env)
			return
		}
		n.restart(env, algo.NoPeer)
	case timerChange:
		switch {
		case !n.lost:
		case n.state == algo.Norm:
			env.Report(fmt.Sprintf("the ring changed around node %d: starting an election", n.id))
			n.begin(env, true)
		default:
			env.SetTimer(timerChange, n.cfg.waitTimeout) // an election is going on: look again later
		}
	case timerWait:
		if n.state != algo.Wait {
			return
		}
		env.Report(fmt.Sprintf("no confirm of election %v within %v: starting an election", n.idx, n.cfg.waitTimeout))
		n.begin(env, true)
	}
}

// payload is what the election's Data carries before its checksum.
func payload(idx algo.Index) []byte {
	b := append(make([]byte, 0, payloadLen+sha256.Size), "ring"...)
	b = binary.BigEndian.AppendUint32(b, idx.Num)
	return binary.BigEndian.AppendUint32(b, uint32(idx.ID))
}

const payloadLen = 4 + 4 + 4

func sealed(idx algo.Index) []byte {
	p := payload(idx)
	sum := sha256.Sum256(p)
	return append(p, sum[:]...)
}

// intact reports whether Data's checksum matches its payload.
func intact(d []byte) bool {
	if len(d) < payloadLen+sha256.Size {
		return false
	}
	sum := sha256.Sum256(d[:payloadLen])
	return bytes.Equal(sum[:], d[payloadLen:payloadLen+sha256.Size])
}

// trailer returns the suspect and the spotter a node appended, if any.
func trailer(d []byte) (suspect, spotter algo.NodeID, ok bool) {
	if len(d) != payloadLen+sha256.Size+8 {
		return algo.None, algo.None, false
	}
	t := d[payloadLen+sha256.Size:]
	return algo.NodeID(int32(binary.BigEndian.Uint32(t))), algo.NodeID(int32(binary.BigEndian.Uint32(t[4:]))), true
}

// inspect checks a message's Data as it reaches this node and returns the
// Data to pass on: with the trailer added if this node is the first to find
// the checksum wrong.
func (n *node) inspect(m *algo.Message) []byte {
	if intact(m.Data) {
		return m.Data
	}
	if _, _, ok := trailer(m.Data); ok {
		return m.Data
	}
	d := slices.Clone(m.Data)
	d = binary.BigEndian.AppendUint32(d, uint32(m.From))
	return binary.BigEndian.AppendUint32(d, uint32(n.id))
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	if m.Type != Gather && m.Type != Confirm {
		return
	}
	switch {
	case m.Index.Less(n.idx):
		return // an election this node has left
	case n.idx.Less(m.Index):
		if m.Type == Gather && m.Level&fReturn != 0 {
			return // not an election this node took part in
		}
		n.join(env, m.Index)
	}
	if m.Index.ID == n.id {
		if n.phase != idle {
			n.arrive(env, m)
		}
		return
	}
	n.pass(env, m)
}

// join enters a higher election: a commander abandons its own.
func (n *node) join(env algo.Env, idx algo.Index) {
	n.idx, n.num = idx, max(n.num, idx.Num)
	n.phase = idle
	env.StopTimer(timerRound)
	n.state = algo.Wait
	env.SetTimer(timerWait, n.cfg.waitTimeout)
}

// pass handles a message of another node's election: the identity is
// written (gather) or the leader adopted (confirm), and the message goes on.
func (n *node) pass(env algo.Env, m *algo.Message) {
	out := *m
	out.Data = n.inspect(m)
	back := m.Level&fBack != 0
	if m.Level&fReturn != 0 {
		// Back to the commander: against the direction of the branch.
		env.Send(n.next(!back), out)
		return
	}
	switch m.Type {
	case Gather:
		n.lost = false // this election passes here after the change: it sees it
		out.Peers = append(slices.Clone(m.Peers), n.self(env))
	case Confirm:
		n.state, n.leader = algo.Norm, m.Peer
		env.StopTimer(timerWait)
		if m.Level&fLeaf != 0 {
			return
		}
	}
	nx := n.next(back)
	if m.Level&fLine != 0 {
		excl := excludedOf(m.Level)
		if nx == excl || !live(env, nx) {
			if m.Type == Confirm && nx == excl && live(env, nx) {
				leaf := out
				leaf.Level |= fLeaf
				env.Send(nx, leaf)
			}
			if nx != excl {
				out.Level |= fBroken
			}
			out.Level |= fReturn
			env.Send(n.next(!back), out)
			return
		}
	}
	env.Send(nx, out)
}

// begin starts an election from this node: round the ring, or in line mode.
func (n *node) begin(env algo.Env, line bool) {
	n.excl, n.tainted, n.joker = algo.NoPeer, false, algo.None
	n.broken, n.retries = false, 0
	n.round(env, line)
}

// restart is a new election after a failure, in line mode, with the joker
// excl (ID None: none) excluded.
func (n *node) restart(env algo.Env, excl algo.Peer) {
	n.excl = excl
	n.retries++
	n.round(env, true)
}

// round starts the gathering of a new election.
func (n *node) round(env algo.Env, line bool) {
	n.lost = false
	n.num++
	n.idx = algo.Index{Num: n.num, ID: n.id}
	n.state, n.line = algo.Elect, line
	env.StopTimer(timerWait)
	n.data = sealed(n.idx)
	n.got = append(n.got[:0], n.self(env))
	if n.excl.ID != algo.None {
		n.got = append(n.got, n.excl)
	}
	n.phase = gathering
	n.launch(env, algo.Message{Type: Gather, Index: n.idx, Data: n.data})
}

// launch sends a round's message: to the successor, or in line mode one
// branch each way, skipping a direction whose first node is dead or
// excluded (the excluded node gets a leaf confirm).
func (n *node) launch(env algo.Env, m algo.Message) {
	n.bad, n.suspect, n.spotter = false, algo.None, algo.None
	n.pending = 0
	if !n.line {
		m.Level = route(0, algo.None)
		env.Send(n.next(false), m)
		n.pending = 1
	} else {
		for _, back := range []bool{false, true} {
			nx := n.next(back)
			if back && nx == n.next(false) {
				break // a ring of two: one branch is the whole line
			}
			var f int32 = fLine
			if back {
				f |= fBack
			}
			b := m
			b.Level = route(f, n.excl.ID)
			if nx == n.excl.ID || !live(env, nx) {
				if m.Type == Confirm && nx == n.excl.ID && live(env, nx) {
					b.Level |= fLeaf
					env.Send(nx, b)
				}
				if nx != n.excl.ID {
					n.broken = true
				}
				continue
			}
			env.Send(nx, b)
			n.pending++
		}
	}
	if n.pending == 0 {
		n.complete(env)
		return
	}
	env.SetTimer(timerRound, n.cfg.timeout)
}

// arrive handles a message of this node's own election coming back.
func (n *node) arrive(env algo.Env, m *algo.Message) {
	if (m.Type == Gather) != (n.phase == gathering) {
		return
	}
	if !intact(m.Data) && !n.bad {
		n.bad = true
		n.suspect, n.spotter = m.From, n.id
		if s, k, ok := trailer(m.Data); ok {
			n.suspect, n.spotter = s, k
		}
	}
	if m.Level&fBroken != 0 {
		n.broken = true
	}
	if m.Type == Gather {
		n.got = append(n.got, m.Peers...)
	}
	n.pending--
	if n.pending > 0 {
		return
	}
	env.StopTimer(timerRound)
	n.complete(env)
}

// complete ends a round whose branches are all back.
func (n *node) complete(env algo.Env) {
	name := MessageNames[Gather]
	if n.phase == confirming {
		name = MessageNames[Confirm]
	}
	if n.bad {
		env.Report(fmt.Sprintf("%s: payload checksum mismatch in election %v: altered by node %d (detected at node %d)", name, n.idx, n.suspect, n.spotter))
		var why string
		switch {
		case n.suspect == n.id || n.suspect == algo.None:
			why = "the commander's own messages"
		case n.suspect == n.joker:
			why = fmt.Sprintf("node %d is the joker found before", n.suspect)
		case n.tainted:
			why = "a second joker"
		case n.broken:
			// A dead node and the joker would cut the line in two:
			// the joker must relay.
			n.tainted, n.joker = true, n.suspect
			why = fmt.Sprintf("the ring is broken: node %d cannot be bypassed", n.suspect)
		case n.retries >= maxRetries:
			why = "too many elections restarted"
		default:
			// Exclude the joker, keeping its identity: it alters the
			// payload, not the identities it wrote.
			n.tainted, n.joker = true, n.suspect
			joker := algo.Peer{ID: n.suspect, Value: algo.NoPeer.Value}
			for _, p := range n.got {
				if p.ID == n.suspect {
					joker = p
					break
				}
			}
			n.restart(env, joker)
			return
		}
		if n.phase == gathering {
			env.Report(fmt.Sprintf("%s: mismatch tolerated in election %v (%s): deciding with the identities gathered", name, n.idx, why))
		} else {
			env.Report(fmt.Sprintf("%s: mismatch tolerated in election %v (%s): the leader stands", name, n.idx, why))
		}
	}
	if n.phase == gathering {
		lid := algo.NoPeer
		for _, p := range n.got {
			lid = lid.Max(p)
		}
		n.leader = lid
		n.phase = confirming
		n.launch(env, algo.Message{Type: Confirm, Index: n.idx, Peer: lid, Data: n.data})
		return
	}
	n.phase, n.state = idle, algo.Norm
	env.Report(fmt.Sprintf("election %v confirmed: leader %v", n.idx, n.leader))
}

// giveUp ends an election whose rounds keep failing (maxRetries restarts)
// without restarting it again: in gathering, the commander decides with the
// identities it has and sends the confirm once more; in confirmation, it
// keeps the leader and stops.
func (n *node) giveUp(env algo.Env) {
	if n.phase == gathering {
		env.Report(fmt.Sprintf("election %v: giving up after %d restarts: deciding with the identities gathered", n.idx, n.retries))
		n.bad = false
		n.complete(env)
		return
	}
	env.Report(fmt.Sprintf("election %v: giving up after %d restarts: the leader %v stands", n.idx, n.retries, n.leader))
	n.phase, n.state = idle, algo.Norm
}
