// Package beacon is a leader-lease election for dynamic networks, written
// against elect's public API only: every node floods the heartbeats of the
// most valued live node it knows of, a node that hears no progress from its
// leader for a few periods drops it and campaigns, and a campaign that hears
// of no more valued live node for as long becomes the leadership. It is the
// heartbeat flooding of routing protocols (the destination-owned sequence
// numbers of DSDV) turned to election: it registers itself as algorithm
// "beacon" and runs through every tool of elect, the real UDP runtime
// included, from a program that imports it.
//
// # The algorithm
//
// Time is cut into periods (parameter period, default 500ms); every node
// has a timer that fires once a period (its tick). A node is in one of
// three roles:
//
//   - candidate (state Elect, no leader): it campaigns for itself. At every
//     tick it sends each neighbour a heartbeat naming itself, its term and
//     the next beat number. After timeout ticks (parameter timeout, default
//     4) in which it adopted no one it becomes leader.
//   - leader (state Norm, leading itself): at every tick it sends each
//     neighbour a heartbeat with the next beat number of its term.
//   - follower (state Norm, following a leader more valued than itself):
//     the first time it hears of a beat of its leader (a fresh one, see
//     below), it relays that heartbeat to every neighbour but the one it came
//     from, and counts a tick without hearing of a fresh beat as a miss; at
//     timeout misses in a row it drops the leader and campaigns.
//
// A node that hears a fresh heartbeat of a node more valued than its
// leader (than itself, for a candidate or a leader) adopts it: it follows
// it and relays the heartbeat. Heartbeats of less valued nodes are dropped:
// the heartbeats of the better leader reach their side in the next period.
// So every node follows the most valued live node whose heartbeats reach
// it, and nodes compare as algo.Peer does (higher value, then higher id).
//
// A term is an election index <num, id> that a node takes when it starts a
// campaign (Status().Index): num is one more than the highest number it has
// seen in any message, so that a node's terms go up over its lives. A
// follower's index is its leader's term. A heartbeat's report, (term, beat
// number), is fresh at a node when it is later than the latest report the
// node has kept for that leader (known): every node remembers, for every
// node it has heard of as a leader, the latest report it heard, and never
// takes the same report twice. That is what makes dead leaders die: once a
// leader has crashed or been cut off, its last beat is relayed at most once
// by each node and then no more, and the nodes that follow it miss timeout
// ticks and drop it. A node that drops a leader keeps its report, so a late
// copy of an old heartbeat (a ghost) does not bring the leader back.
//
// A node that restarts with no state begins again at a low term, and the
// nodes that remember its earlier life would refuse its heartbeats as old.
// A node that refuses a report of an earlier term than the one it keeps, or
// one more than timeout beats behind it in the same term (no copy of a
// live leader's heartbeat is that late), answers the sender with a stale
// message carrying the report it keeps, at most once a tick (right after a
// leader takes a new term, copies of its earlier term are still on their
// way, and each would be refused). Its receiver passes it on toward the
// leader (to the neighbour that brought its latest heartbeat), and the
// leader, learning that a report of it later than its own exists, takes a
// new term above it. A leader that hears a heartbeat of an earlier life of
// its own later than its current one does the same.
// Recovery from saved state keeps the role, the leader, the terms and the
// reports (Save leaves out beat numbers, so that a node's state changes,
// and the runtime writes it, only when a term or a leader does); a node
// that recovers as leader or candidate takes a new term, as its beat
// numbers were not saved.
//
// # Assumptions and convergence
//
// It assumes nothing of the topology, and of the links only that messages
// between neighbours usually arrive within a period: they may be lost,
// reordered, delayed (a beat later than timeout-1 periods is as good as
// lost, and a late copy is refused as an old report), duplicated by
// different paths; nodes crash, restart with or without their state, move;
// links come and go (Model: spontaneous, loss, crash, partition, mobility;
// no topology, no FIFO links, no bound on delays). Ties are broken by id,
// timers come from env.SetTimer, nothing is random, so a run is
// reproducible.
//
// Suppose the network stops changing at time T, links deliver within δ
// (less than a period P), and look at one connected component of n nodes
// and D hops across.
//
//  1. No report of a node outside the component is made after T, and each
//     of those made before is relayed at most once by each node, each relay
//     within δ: every copy is delivered by T+nδ. A node that follows a node
//     outside drops it at its timeout-th tick without a fresh beat, so by
//     T1 = T+nδ+timeout·P nobody does.
//  2. Let b be the most valued node of the component. It never follows a
//     node less valued than itself, so from T1 on it is a candidate or a
//     leader and beats every period, with no campaign begun after T1. Its
//     beats are fresh for every node unless one keeps a later report of an
//     earlier life of b; that node answers b's next beat with a stale
//     message, which reaches b within Dδ, and b's next beat, of a term
//     above, is fresh everywhere: by T1+P+Dδ.
//  3. A fresh beat of b is relayed by every node that takes it, and every
//     node takes it (b is the most valued node it can hear of): within Dδ
//     every node follows b.
//  4. b leads timeout ticks after its last campaign began, by
//     T1+timeout·P.
//
// So by about T + nδ + (2·timeout+1)·P + 2Dδ every node of the component
// is in Norm following b, its most valued node, and stays so: b's beats
// reach everyone once a period, well within timeout-1 periods of the last.
// With the defaults, on the networks of up to 16 nodes and delays up to
// 60ms that the conformance kit's fault search draws, that is under 7.3s,
// inside the checker's default stabilisation bound of 10s. Under loss the argument
// holds period by period: a node drops a live leader only when timeout
// ticks in a row bring none of its beats over any path, and takes it back
// at the next beat that gets through.
//
// # Why timeout defaults to 4
//
// A live leader's beats reach a follower once a period, give or take the
// variation of the path's delays, and a follower drops its leader at the
// timeout-th of its own ticks without a fresh beat; its ticks are not in
// step with the leader's. So a gap between fresh beats of up to
// timeout-1 periods is always tolerated, and one of timeout periods or
// more never. With 4, a lost beat and up to a period of delay jitter pass,
// and so do two lost beats in a row when the jitter does not add to them;
// at 10% loss on a single hop, three in a row happen once in a thousand
// periods, and the node takes its leader back at the next beat that gets
// through. A smaller timeout fails over faster (timeout periods to notice,
// as many again to campaign) but drops live leaders more often under loss:
// on line:8 with 10% loss (where the far end misses half the beats), eight
// runs of 300s started 7,772 campaigns after boot with timeout 2, 2,605
// with 3, 1,065 with 4, 480 with 5, and kept nodes without a leader 1.8%,
// 1.2%, 0.8% and 0.4% of the time. 4 cuts 3's false alarms by more than
// half for one more period to notice and one more to campaign (a failover
// of 4s instead of 3s with the default period). At 1 a follower whose
// tick falls just before each beat would drop a live leader at every tick,
// so 2 is the least accepted.
//
// # Message types
//
//   - heartbeat: Peer the leader (its id and its value as it last said),
//     Index its term <num, leader>, Level the beat number in that term
//     (from 1). Leaders and candidates send their own; followers relay
//     their leader's.
//   - stale: Peer the leader it speaks of, Index and Level the term and beat
//     number of the latest report of that leader the sender keeps. A node
//     passes at most one stale on per beat of its leader, so a stale dies
//     out even if the neighbours that brought the beats formed a loop.
//
// # Cost
//
// In a component that has settled on a leader, with no loss, every node
// takes each beat exactly once (the first copy to arrive) and relays it to
// its neighbours but the sender; the leader sends it to all of its own. So a
// period costs sum of degrees minus (n-1) heartbeats: 2|E|-n+1 (n-1 on a
// tree, n+1 on a ring, (n-1)² on a complete network), exactly when copies
// arrive in the order they were sent (constant delays) and at most that
// otherwise, since a node never relays a beat it already has or one older
// than it has.
//
// Settling costs more when many nodes campaign at once (at boot, after a
// leader is lost): a node follows, and relays, every more valued candidate
// whose beats reach it before a better one's. With random values that is
// the candidates that beat all the nearer ones, about ln n of them per
// node; on a line whose values rise toward one end it is every node above
// it, n(n-1)/2 adoptions in all (499,500 on 1000 nodes, against about 6,400
// with random values), and as many relays. A node keeps one report per
// node more valued than itself that it has followed.
package beacon

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// Message types.
const (
	Heartbeat algo.MsgType = iota // Peer the leader; Index its term; Level the beat number
	Stale                         // Peer a leader; Index and Level the latest report of it the sender keeps
)

// MessageNames are the names of the message types, indexed by type.
var MessageNames = []string{"heartbeat", "stale"}

// tick is the machine's one timer: once a period.
const tick algo.Timer = 0

// role is what a node does.
type role uint8

const (
	unbooted role = iota
	candidate
	leading
	following
)

// config is shared by the machines of one run.
type config struct {
	period  time.Duration
	timeout int
	nodes   algo.Slab[node]
}

func (c *config) newNode(id algo.NodeID) algo.Machine {
	n := c.nodes.New()
	n.cfg, n.id = c, id
	n.reset()
	return n
}

// valid reports whether id can name a node. Ids are not checked against
// the network's size: the runtime's is only a lower bound (the largest id
// among a node's peers), and a leader may be many hops away.
func valid(id algo.NodeID) bool { return id >= 0 }

// report is the latest beat of a leader a node has heard of: its term's
// number and the beat number in that term.
type report struct {
	term uint32
	beat int32
}

// after reports whether r is later than s.
func (r report) after(s report) bool {
	if r.term != s.term {
		return r.term > s.term
	}
	return r.beat > s.beat
}

// kept is a leader's latest report as a node keeps it.
type kept struct {
	id algo.NodeID
	report
}

// node is one node's state.
type node struct {
	cfg *config
	id  algo.NodeID
	// clock is the highest term number the node has seen or taken.
	clock uint32
	role  role
	// leader is whom the node follows, or itself as candidate or leader,
	// with the value it last heard; term and beat are the leader's term and
	// the latest beat of it the node has heard of (its own last beat, for a
	// candidate or a leader).
	leader algo.Peer
	term   algo.Index
	beat   int32
	// quiet counts the ticks since the last fresh beat of the leader (a
	// follower) or since the campaign began (a candidate).
	quiet int
	// via is the neighbour that brought the latest beat of the leader;
	// told says a stale has been passed on to it since. answered says the
	// node has sent a stale of its own since its last tick.
	via      algo.NodeID
	told     bool
	answered bool
	// known holds the latest report of every node more valued than this
	// one that it has heard of as a leader, by ascending id.
	known []kept
}

func (n *node) reset() {
	*n = node{cfg: n.cfg, id: n.id, leader: algo.NoPeer, via: algo.None, known: n.known[:0]}
}

func (n *node) Status() algo.Status {
	switch n.role {
	case candidate:
		return algo.Status{Leader: algo.None, State: algo.Elect, Index: n.term}
	case leading, following:
		return algo.Status{Leader: n.leader.ID, State: algo.Norm, Index: n.term}
	}
	return algo.Status{Leader: algo.None, State: algo.Norm}
}

// me is the node's identity now: its value may change between inputs.
func (n *node) me(env algo.Env) algo.Peer { return algo.Peer{ID: n.id, Value: env.Value()} }

// Start boots the node: it campaigns.
func (n *node) Start(env algo.Env) {
	n.reset()
	n.campaign(env)
}

// Restart boots the node with nothing remembered: a new node, that
// campaigns.
func (n *node) Restart(env algo.Env) { n.Start(env) }

// Elect starts a new campaign, unless the node is campaigning already. If
// a more valued live node is around, its next beat ends the campaign.
func (n *node) Elect(env algo.Env) {
	if n.role != candidate {
		n.campaign(env)
	}
}

// campaign makes the node a candidate with a new term.
func (n *node) campaign(env algo.Env) {
	n.role, n.quiet = candidate, 0
	n.newTerm(env)
	env.SetTimer(tick, n.cfg.period)
}

// newTerm takes a term above every one the node has seen and sends its
// first beat.
func (n *node) newTerm(env algo.Env) {
	if n.clock == math.MaxUint32 {
		env.Report("beacon: term numbers exhausted")
	} else {
		n.clock++
	}
	n.leader, n.term, n.beat = n.me(env), algo.Index{Num: n.clock, ID: n.id}, 0
	n.via, n.told = algo.None, false
	n.send(env)
}

// send sends the node's next beat to every neighbour.
func (n *node) send(env algo.Env) {
	if n.beat == math.MaxInt32 {
		n.newTerm(env) // sends beat 1 of the next term
		return
	}
	n.beat++
	n.leader = n.me(env)
	m := algo.Message{Type: Heartbeat, Peer: n.leader, Index: n.term, Level: n.beat}
	for _, u := range env.Neighbors() {
		env.Send(u, m)
	}
}

func (n *node) Timer(env algo.Env, t algo.Timer) {
	if t != tick || n.role == unbooted {
		return
	}
	env.SetTimer(tick, n.cfg.period)
	n.quiet++
	n.answered = false
	switch n.role {
	case candidate:
		if n.quiet >= n.cfg.timeout {
			n.role = leading
		}
		n.send(env)
	case leading:
		n.send(env)
	case following:
		if n.quiet >= n.cfg.timeout || n.me(env).Better(n.leader) {
			n.campaign(env)
		}
	}
}

func (n *node) Receive(env algo.Env, m *algo.Message) {
	if n.role == unbooted || !valid(m.Peer.ID) {
		return
	}
	n.clock = max(n.clock, m.Index.Num)
	switch m.Type {
	case Heartbeat:
		n.heartbeat(env, m)
	case Stale:
		n.stale(env, m)
	}
}

// heartbeat handles a heartbeat: see the package comment.
func (n *node) heartbeat(env algo.Env, m *algo.Message) {
	l, r := m.Peer, report{m.Index.Num, m.Level}
	if l.ID == n.id {
		// A beat of this node come back, or of an earlier life of it.
		if n.role != following && r.after(report{n.term.Num, n.beat}) {
			n.newTerm(env)
		}
		return
	}
	i, found := n.find(l.ID)
	if found && !r.after(n.known[i].report) {
		if k := n.known[i].report; !n.answered && (r.term < k.term || r.term == k.term && int64(r.beat)+int64(n.cfg.timeout) <= int64(k.beat)) {
			n.answered = true
			env.Send(m.From, algo.Message{Type: Stale, Peer: l, Index: algo.Index{Num: k.term, ID: l.ID}, Level: k.beat})
		}
		return
	}
	if !l.Better(n.me(env)) {
		// A node less valued than this one is never followed: no report
		// of it is kept.
		if found {
			n.known = slices.Delete(n.known, i, i+1)
		}
		if n.role == following && l.ID == n.leader.ID {
			n.campaign(env) // the leader is now worth less than this node
		}
		return
	}
	if found {
		n.known[i].report = r
	} else {
		n.known = slices.Insert(n.known, i, kept{l.ID, r})
	}
	switch {
	case n.role == following && l.ID == n.leader.ID:
	case n.role != following || l.Better(n.leader):
		n.role = following
	default:
		return // a less valued leader: its side will hear of ours
	}
	n.leader, n.term, n.beat = l, m.Index, m.Level
	n.quiet, n.via, n.told = 0, m.From, false
	for _, u := range env.Neighbors() {
		if u != m.From {
			env.Send(u, algo.Message{Type: Heartbeat, Peer: l, Index: m.Index, Level: m.Level})
		}
	}
}

// stale handles a stale message: a report of m.Peer later than the one its
// receiver holds exists.
func (n *node) stale(env algo.Env, m *algo.Message) {
	r := report{m.Index.Num, m.Level}
	switch {
	case m.Peer.ID == n.id:
		if n.role != following && r.after(report{n.term.Num, n.beat}) {
			n.newTerm(env) // above the term of an earlier life
		}
	case n.role == following && m.Peer.ID == n.leader.ID && r.after(report{n.term.Num, n.beat}) &&
		!n.told && n.via != algo.None && n.via != m.From:
		n.told = true
		env.Send(n.via, algo.Message{Type: Stale, Peer: m.Peer, Index: m.Index, Level: m.Level})
	}
}

// find returns where id's report is in known, or would be.
func (n *node) find(id algo.NodeID) (int, bool) {
	return slices.BinarySearchFunc(n.known, id, func(k kept, id algo.NodeID) int {
		switch {
		case k.id < id:
			return -1
		case k.id > id:
			return 1
		}
		return 0
	})
}

// NeighborUp tells the new neighbour the node's latest beat, so that a
// merge does not wait for the next one.
func (n *node) NeighborUp(env algo.Env, u algo.NodeID) {
	if n.role == unbooted || n.beat == 0 {
		return
	}
	env.Send(u, algo.Message{Type: Heartbeat, Peer: n.leader, Index: n.term, Level: n.beat})
}

// NeighborDown changes nothing: the beats stop coming, or come another way.
func (n *node) NeighborDown(algo.Env, algo.NodeID) {}

// Saved state: a version byte, the role, the clock, the leader (id,
// value), the term's number and the known reports (count, then id and term
// number each). Beat numbers are left out (see the package comment).
const (
	version    = 1
	headerSize = 1 + 1 + 4 + 4 + 8 + 4 + 4
	keptSize   = 4 + 4
)

func (n *node) Save() []byte {
	if n.role == unbooted {
		return nil
	}
	b := make([]byte, 0, headerSize+keptSize*len(n.known))
	b = append(b, version, byte(n.role))
	b = binary.BigEndian.AppendUint32(b, n.clock)
	b = binary.BigEndian.AppendUint32(b, uint32(n.leader.ID))
	b = binary.BigEndian.AppendUint64(b, uint64(n.leader.Value))
	b = binary.BigEndian.AppendUint32(b, n.term.Num)
	b = binary.BigEndian.AppendUint32(b, uint32(len(n.known)))
	for _, k := range n.known {
		b = binary.BigEndian.AppendUint32(b, uint32(k.id))
		b = binary.BigEndian.AppendUint32(b, k.term)
	}
	return b
}

// Recover boots the node from what Save kept. A follower follows its
// leader again and gives it timeout ticks to be heard from; a leader or a
// candidate goes on as it was with a new term (its beat numbers were not
// kept). Saved state that does not read back is an error, and leaves the
// node unbooted: the driver restarts it.
func (n *node) Recover(env algo.Env, saved []byte) error {
	if err := n.decode(saved); err != nil {
		n.reset()
		return fmt.Errorf("beacon: saved state: %w", err)
	}
	env.SetTimer(tick, n.cfg.period)
	switch {
	case n.role == following && !n.me(env).Better(n.leader):
		n.beat, n.quiet = 0, 0
		if i, found := n.find(n.leader.ID); found {
			n.beat = n.known[i].beat
		}
	case n.role == leading:
		n.newTerm(env)
	default:
		n.campaign(env)
	}
	return nil
}

func (n *node) decode(b []byte) error {
	n.reset()
	if len(b) < headerSize || (len(b)-headerSize)%keptSize != 0 {
		return fmt.Errorf("%d bytes", len(b))
	}
	if b[0] != version {
		return fmt.Errorf("version %d, want %d", b[0], version)
	}
	r := role(b[1])
	if r != candidate && r != leading && r != following {
		return fmt.Errorf("role %d", b[1])
	}
	clock := binary.BigEndian.Uint32(b[2:])
	leader := algo.Peer{ID: algo.NodeID(int32(binary.BigEndian.Uint32(b[6:]))), Value: int64(binary.BigEndian.Uint64(b[10:]))}
	term := binary.BigEndian.Uint32(b[18:])
	count := binary.BigEndian.Uint32(b[22:])
	if int(count) != (len(b)-headerSize)/keptSize {
		return fmt.Errorf("%d reports in %d bytes", count, len(b))
	}
	if !valid(leader.ID) || term > clock || r == following && leader.ID == n.id || r != following && leader.ID != n.id {
		return errors.New("leader and role disagree")
	}
	known := n.known[:0]
	for p := b[headerSize:]; len(p) > 0; p = p[keptSize:] {
		id := algo.NodeID(int32(binary.BigEndian.Uint32(p)))
		k := kept{id: id, report: report{term: binary.BigEndian.Uint32(p[4:])}}
		if !valid(id) || k.term > clock || len(known) > 0 && known[len(known)-1].id >= id {
			return fmt.Errorf("report of node %d", id)
		}
		known = append(known, k)
	}
	n.clock, n.role, n.leader = clock, r, leader
	n.term = algo.Index{Num: term, ID: leader.ID}
	n.known = known
	return nil
}
