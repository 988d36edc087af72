// Package park is the leader election for mobile ad hoc systems of
// 004_ad961bc0493bda85.txt, based on the detection of the group's members:
// the source of an election scatters Election messages, every node answers
// once with an Ack carrying its neighbours, and the source, which grows a
// waiting list wl from the neighbours it hears of and moves every node that
// answers to a confirmed list cl, knows it has heard from the whole group
// when wl is empty; it then announces the most valued node of cl. Comments
// give the lines of the document's Figure 2.
//
// What the figure leaves open, and how it is read here:
//
//   - An Ack goes to the source over the network: to the node the Election
//     came from (k), which passes it on to its own k, and so on; every hop is
//     a message.
//   - Elections are ordered by (num, id) where id is the election's source,
//     carried in the message (lines 23 and 35 compare with the sender j; the
//     source is what makes the order the same at every node).
//   - Election is passed on to the neighbours other than the one it came
//     from, in every state (line 24 writes all of them; the one it came from
//     has it already).
//   - A node that has no neighbour values knows only their ids: an Ack
//     carries the ids of the sender's neighbours and the sender's own value,
//     which is all the decision needs (every node of cl has answered).
//   - Partitions during an election (section 4.2, point 4): the source sends
//     Election again to a neighbour still in wl after the resend interval,
//     marked as a repeat, which a node that joined already answers with its
//     Ack again; a node in wl for longer than the ack timeout is dropped.
//   - Heartbeats, leader loss and merges are those the ad hoc algorithms
//     share (package adhoc): the leader floods heartbeats, a node that hears
//     none for the timeout elects (lines 7-10), and a node that hears a
//     better leader's heartbeat adopts it: partitions merge with no
//     election. A node never follows a leader less valued than itself.
//   - At boot every node elects (line 7: it has no leader), unless the
//     run's initiators (--initiators; every node by default) leave it out:
//     such a node waits as a follower that lost its leader does, takes part
//     in the first election that reaches it, adopts a leader it hears of,
//     and elects only if nothing has reached it within the timeout (plus the
//     jitter's backoff). The machine reads the initiators in the parameter
//     initiators, where the driver writes them (algo.Param.Boot). With
//     --initiators 0 on a connected network start-up is one election.
//   - A restart is a node with no leader: it elects. A recovery resumes the
//     saved leader, as a merge.
//   - A node waiting for a leader that never comes (its source crashed)
//     elects after the election timeout.
//   - With the broadcast medium (parameter medium=broadcast, package
//     adhoc), Election, Leader and Heartbeat go out as one transmission
//     each; nothing else changes, for Acks go to k alone already and a node
//     in an election ignores a repeat of it: the copy k hears, and those
//     nodes already in the election hear, are such repeats. The source's
//     resend, the Election to a neighbour that appears and the Leader that
//     ends a stale election stay unicast. One election on a connected
//     network of n nodes and E links, L of them but the source with one
//     neighbour: Election and Leader n-L transmissions each, heard 2E-L
//     times (unicast: 2E-(n-1) messages each); Acks go along k as in
//     unicast (with constant delays, the sum of the nodes' distances to
//     the source in both).
//
// It imports algo and algo/adhoc and nothing above them: no simulator, judge
// or driver (docs/architecture.md).
package park

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

// Message types, with the document's names.
const (
	Election  algo.MsgType = iota // Index: the election (num, source); Level 1: a repeat, to be answered again
	Ack                           // Index: the election; Peer: the node answering; Peers: its neighbours (ids)
	Leader                        // Index: the election; Peer: the leader
	Heartbeat                     // adhoc: Peer the leader, Index.Num the beat
)

// MessageNames are the document's names, indexed by type.
var MessageNames = []string{"election", "ack", "leader", "heartbeat"}

const timerResend = adhoc.FirstFreeTimer // source: resend to, or drop, silent members of wl

type config struct {
	up              adhoc.Config
	resend          time.Duration
	ackTimeout      time.Duration
	electionTimeout time.Duration
	nodes           algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.cfg, n.id = c, id
	n.up = adhoc.Leadership{Cfg: &c.up, Leader: algo.NoPeer}
	return n
}

// waiting is one member of wl: since when it is awaited, and whether
// Election was sent to it again.
type waiting struct {
	id     algo.NodeID
	since  time.Duration
	resent bool
}

// node holds the variables of Figure 2, lines 1-5.
type node struct {
	cfg *config
	id  algo.NodeID

	num    uint32           // num_i: the highest election number seen
	up     adhoc.Leadership // ldr_i, and its heartbeats
	status algo.State       // status_i: Norm, Elect or Wait
	src    algo.Index       // the election this node is the source of (Elect) or waits in (e_num)
	k      algo.NodeID      // k: where the election came from, where Acks go

	// At the source: cl, the confirmed members (with the most valued among
	// them), and wl, the members awaited, ascending.
	cl   map[algo.NodeID]bool
	best algo.Peer
	wl   []waiting
}

func (n *node) self(env algo.Env) algo.Peer { return algo.Peer{ID: n.id, Value: env.Value()} }

func (n *node) Status() algo.Status {
	return algo.Status{Leader: n.up.Leader.ID, State: n.status, Index: n.src}
}

// Start: a node with no leader hears no signal from one (line 7) and elects.
// A node that is not among the initiators waits for a signal first, as a
// follower that lost its leader does (adhoc.Leadership.Await): it takes part
// in an election that reaches it, and elects after the timeout otherwise.
func (n *node) Start(env algo.Env) {
	if !n.cfg.up.Initiates(n.id) {
		n.status = algo.Norm
		n.up.Await(env)
		return
	}
	n.Restart(env)
}

// Restart is a start with no state.
func (n *node) Restart(env algo.Env) {
	n.up.Leader, n.status = algo.NoPeer, algo.Norm
	if n.cfg.up.Jitter > 0 {
		env.SetTimer(adhoc.TimerTimeout, n.cfg.up.Backoff(env))
		return
	}
	n.Elect(env)
}

// Save keeps what a recovery needs (adhoc.Saved).
func (n *node) Save() []byte {
	return adhoc.Saved{Leader: n.up.Leader, Src: n.src, Num: n.num}.Bytes()
}

// Recover resumes the saved leader, as a merge.
func (n *node) Recover(env algo.Env, saved []byte) error {
	st, err := adhoc.ReadSaved(saved)
	if err != nil {
		return err
	}
	lid := st.Leader
	n.src, n.num = st.Src, st.Num
	if lid.ID == algo.None {
		n.Elect(env)
		return nil
	}
	n.follow(env, lid)
	return nil
}

// follow returns to Norm with lid as the leader (lines 30-33, 41-43).
func (n *node) follow(env algo.Env, lid algo.Peer) {
	n.status = algo.Norm
	n.cl, n.wl = nil, n.wl[:0]
	env.StopTimer(timerResend)
	if !n.up.Follow(env, n.self(env), lid) {
		n.Elect(env)
	}
}

func (n *node) Timer(env algo.Env, t algo.Timer) {
	switch t {
	case adhoc.TimerBeat:
		if n.status == algo.Norm && n.up.Leads(n.id) {
			n.up.Beat(env)
		}
	case adhoc.TimerTimeout:
		// No signal from the leader (line 7), or an election that does not
		// end.
		n.Elect(env)
	case timerResend:
		n.resend(env)
	}
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	switch m.Type {
	case Election:
		n.onElection(env, m)
	case Ack:
		n.onAck(env, m)
	case Leader:
		n.onLeader(env, m)
	case Heartbeat:
		if n.status == algo.Norm && n.up.Heartbeat(env, n.self(env), m) {
			n.Elect(env)
		}
	}
}

// NeighborUp: in normal operation the new neighbour is told the leader; in
// an election it is sent the Election, and the source awaits its Ack.
func (n *node) NeighborUp(env algo.Env, id algo.NodeID) {
	if n.status == algo.Norm {
		n.up.Tell(env, id)
		return
	}
	if n.status == algo.Elect && !n.cl[id] {
		n.await(env, id)
	}
	env.Send(id, algo.Message{Type: Election, Index: n.src})
}

// NeighborDown changes nothing at once: a member that is gone is dropped
// from wl by the ack timeout (it may still be reachable another way).
func (n *node) NeighborDown(algo.Env, algo.NodeID) {}

// await adds id to wl, if it is not there.
func (n *node) await(env algo.Env, id algo.NodeID) {
	i, found := slices.BinarySearchFunc(n.wl, id, func(w waiting, id algo.NodeID) int { return int(w.id) - int(id) })
	if !found {
		n.wl = slices.Insert(n.wl, i, waiting{id: id, since: env.Now()})
	}
}
