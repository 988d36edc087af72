// Package check is the specification of leader election as code. It follows a
// run's event stream (live from the simulator, or read back from a trace) and
// reports every violation of the properties of 004_ad961bc0493bda85.txt,
// applied per connected component because partitions are normal in the
// networks elect targets:
//
//   - Safety: two live nodes in state Norm in the same component agree on the
//     leader, once the component has been unchanged for longer than the
//     stabilisation bound (right after two components merge, their leaders
//     legitimately differ until the news spreads).
//   - Liveness: once a component has been unchanged for the liveness bound,
//     every live node in it is in Norm with the component's most valued node
//     (highest value, then id) as leader, and stays so while nothing changes.
//     Values may change during a run (ValueChanged events: a scenario's
//     value event, a value model such as a draining battery, node.SetValue).
//     An algorithm that follows value changes (algo.Model.FollowsValue: vkt,
//     park) is held to its nodes' values of the moment: a value change that
//     changes the most valued node of the node's component is a change of
//     the component (one that leaves it the same changes nothing the
//     specification asks: a battery draining every node every second does
//     not start the bounds again every second). One that elects once is
//     held to the values at its election (Config.ValueAtElection): a value
//     change then changes nothing at once, and the node's new value counts
//     from its component's next change for another reason (its next
//     election); the report says so (Report.Notes).
//     This holds in every component for a spontaneous algorithm, and in every
//     component that holds an initiator (a node asked to elect: an
//     elect_called event, which drivers emit for a run's initiators at time
//     0) or that an election reached (a node with an election index) for the
//     others.
//   - A machine that panics (a Panicked event, which the driver emits when it
//     recovers the panic) breaks the specification: the run ends there, and
//     nothing else is judged at its end.
//   - For an algorithm that is not spontaneous, every leader comes from an
//     initiator's election: a node in Norm with a leader carries a nonzero
//     election index. (Spontaneous ones may pass a leader on without an
//     election: vkt's and park's heartbeats merge partitions that way.)
//   - Nothing is left unjudged: at the end of a run, a component whose
//     liveness bound had not passed and whose nodes had not all settled on
//     its most valued node (unless the network or the values followed change
//     on their own, Config.openEnded) is a violation, unless
//     Config.Unelected exempts it.
//   - A component that no election reached and that holds no initiator (for
//     an algorithm that is not spontaneous) was never expected to elect: no
//     wave can cross to a node with no path to an initiator, so it is the
//     scenario's, not the algorithm's, and it is reported
//     (Report.Unreached), not failed, unless Config.Expect asks every
//     component to elect (ExpectEveryComponent).
//
// A component "changes" when a link between its nodes goes up or down, one of
// its nodes crashes, restarts or recovers or changes its value so that its
// most valued node changes (worked out at the end of the instant; not under
// Config.ValueAtElection, where the members' held-back values count from its
// next change), a gray event touches one of them (a cut or uncut of one of
// its links, a node's clock or slowness), or an election is requested at one
// of its nodes (an elect event). When a run ends with no event left
// (quiescent), its final state is permanent, so both properties are checked on
// it whatever the bounds.
//
// The Monitor also measures what the documents measure: elections (from the
// first node of a component to leave normal operation until all of its nodes
// are back in Norm agreeing on one leader) and the node-time spent without a
// leader.
//
// It must not import sim or any driver: it judges any event stream, the
// simulator's, a trace file's or real nodes' (docs/architecture.md).
package check

import (
	"fmt"
	"github.com/electgo/elect/internal/hugemem"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Config sets the bounds and scope of the properties.
type Config struct {
	// Stabilization is how long a component must be unchanged before its Norm
	// nodes must agree.
	Stabilization time.Duration
	// Liveness is how long a component must be unchanged before every node in
	// it must be in Norm with the right leader.
	Liveness time.Duration
	// Spontaneous is algo.Model.Spontaneous: when false, liveness covers only
	// components that hold an initiator or that an election reached (some
	// node has an election index).
	Spontaneous bool
	// AmongInitiators says the algorithm elects the most valued of its
	// initiators (algo.Model.ElectsInitiator: the document's candidates),
	// not of every node: a component's most valued node is then its most
	// valued initiator.
	AmongInitiators bool
	// Expect says which components must elect: by default those that hold
	// an initiator or that an election reached (every one for a spontaneous
	// algorithm); ExpectEveryComponent fails a component that no election
	// reached too.
	Expect Expect
	// Unelected names nodes where no election is expected: a component that
	// holds one at the end of the run is not failed for being unreached or
	// unsettled (the scenario's unelected field). UnelectedUninitiated
	// exempts every component that holds no initiator (unelected:
	// uninitiated), even under ExpectEveryComponent.
	Unelected            []algo.NodeID
	UnelectedUninitiated bool
	// Moving says the nodes move, so that links change on their own.
	Moving bool
	// ValueAtElection holds each component to its nodes' values at its
	// election, for an algorithm that elects once and does not promise to
	// follow a value change (algo.Model.FollowsValue unset; drivers set it
	// then). A value change (trace.ValueChanged) is then no change of the
	// node's component: the node's new value is held back, and counts from
	// the next time its component changes for another reason (a link up or
	// down, a crash, restart or recovery, an elect call, a gray event
	// touching it), when it is rebuilt: the value at its next election.
	// The report says so (Report.Notes). Without it a value change that
	// changes the most valued node of the node's component is a change of
	// the component, whose bounds then run again (vkt, park); one that
	// leaves it the same changes nothing.
	ValueAtElection bool
	// ValuesMove says the values change on their own, from a value model
	// over time (a battery draining): like Moving, it makes a run
	// open-ended (openEnded), unless ValueAtElection makes value changes
	// no change of a component.
	ValuesMove bool
	// Algorithm names the algorithm in the report's notes (optional).
	Algorithm string
	// Lossy says links lose messages. A node that then starts an election
	// of its own (takes up a computation index with its own id) may have
	// lost its leader's messages rather than its leader, which it cannot
	// tell apart: from where it stands its network changed. So under loss
	// such a start counts as a change of its component, and the bounds run
	// again from it, as after a requested election. Without loss a node
	// starts an election only after a change the checker saw, and nothing
	// is relaxed.
	Lossy bool
	// MessageBound, when set, bounds the messages the run sends (a
	// fault-free run of an algorithm that declares its complexity): the
	// driver tells the count (Monitor.Messages), and one outside is a
	// violation.
	MessageBound *MessageBound
	// MaxViolations caps how many violations are kept in detail (all are
	// counted). Zero means 100.
	MaxViolations int
	// Nodes, when known, sizes the Monitor's arrays up front.
	Nodes int
	// Network, when set, is the network the driver announces at time 0: the
	// Monitor takes its links from it (sharing it, copying a node's list
	// only when that list changes) and skips the initial link_up events,
	// instead of rebuilding it from them.
	Network *topo.Graph
}

// openEnded says the network changes on its own (moving nodes, or lost
// messages that start elections, see Lossy, or values that change over
// time and are followed, see ValuesMove), so a run may end at any moment of
// a change: a component it leaves unsettled before its liveness bound is
// counted unchecked, not failed.
func (c *Config) openEnded() bool {
	return c.Lossy || c.Moving || c.ValuesMove && !c.ValueAtElection
}

// Default bounds, used when a scenario gives none.
const (
	DefaultStabilization = 10 * time.Second
	DefaultLiveness      = 30 * time.Second
)

// Violation is one breach of the specification.
type Violation struct {
	At       time.Duration
	Property string // "safety" or "liveness"
	Nodes    []algo.NodeID
	Reason   string
}

func (v Violation) String() string {
	return fmt.Sprintf("%v %s: %s (nodes %v)", v.At, v.Property, v.Reason, v.Nodes)
}

// Election is one completed election episode of a component: from the first
// of its nodes to leave Norm until all of them are back in Norm following one
// leader.
type Election struct {
	Start, End time.Duration
	Nodes      int         // component size when it ended
	Leader     algo.NodeID // the leader its nodes agreed on
}

type compState struct {
	gen        uint32
	pass       uint32 // recompute pass that built it
	born       uint64 // birth order: ties between deadlines go to the older
	size       int32
	best       algo.Peer
	since      time.Duration
	notSettled int32 // members without a leader in Norm
	electing   int32 // members not in Norm
	distinct   int32 // distinct leaders among members with a leader
	correct    int32 // members in Norm following best
	touched    int32 // members with a nonzero election index
	initiated  int32 // members asked to elect (Machine.Elect) during the run
	waiting    int32 // members whose new value waits (Config.ValueAtElection)
	// leaderSum adds up the leaders followed (by members with a leader):
	// when they all follow one, it is leaderSum over their number. Unlike
	// "the last leader taken up", it stays right when members move out.
	leaderSum  int64
	electOpen  bool
	electStart time.Duration
	live       bool // past its liveness deadline
	reportedS  bool
	reportedL  bool
	dissolving bool // emptied by a recompute, to be freed
	reviewDue  bool // statuses changed while a recompute was pending
}

// nodeState is the Monitor's record of one node.
type nodeState struct {
	value  int64
	lastT  time.Duration // when its leaderless accounting last moved
	took   time.Duration // when it took up the leader it follows (for reports)
	status algo.Status
	comp   int32 // its component; -1 when dead or not yet placed
	alive  bool
	// initiated is set once the node is asked to elect (an elect_called
	// event): its component must then elect.
	initiated bool
	// waiting says the node's value changed and its new value
	// (Monitor.next) waits for its component's next change
	// (Config.ValueAtElection).
	waiting bool
	touched bool   // listed in Monitor.touched
	seen    uint32 // stamp of the last search that reached it (Monitor.stamp)
	// id is the node's, for a pass over the records in their own order.
	id algo.NodeID
}

type compRef struct {
	c   int32
	gen uint32
}

// Monitor checks a run as its events arrive. It implements trace.Observer.
type Monitor struct {
	cfg Config
	now time.Duration

	// nodes holds what the Monitor knows of each node, in one record so that
	// a status event touches one place; links are net's (the network at
	// time 0), and the node's own list for a node whose links changed since
	// (lists, in adjacency.go). Records and lists are kept by id, or in the
	// emitter's layout once arranged (rank, see at).
	nodes []nodeState
	net   *topo.Graph
	lists adjacency
	rank  []int32

	comps    []compState
	freeComp []int32
	births   uint64           // components born so far (compState.born)
	tally    map[uint64]int32 // (comp, leader) -> members following it
	pass     uint32

	// Initial links are gathered and built in one go.
	building bool
	initial  []topo.Edge

	// The changes of the instant, applied at its end (recompute): the nodes
	// they touched, the links that changed and whether anything else
	// changed. Link changes alone are applied in place (incremental.go)
	// when there is one, or when none changes a component's members;
	// anything else is rebuilt (components.go).
	dirty       bool
	changeAt    time.Duration
	touched     []algo.NodeID
	changes     []linkChange // the link changes, in order
	linkHeld    bool         // changes[0]'s ends are not listed in touched yet
	nodeChanged bool
	// valued lists the live nodes whose values changed in the instant
	// (without Config.ValueAtElection): settleValues works out at its end
	// whether their components' most valued nodes changed. valuedAt is
	// when the first of them changed (a stream may go back in time), the
	// time of the change of a component it changes, as changeAt is of
	// the others.
	valued   []algo.NodeID
	valuedAt time.Duration
	// fullRebuild, set by tests only, rebuilds for every change and queues
	// every deadline (see schedule): the way the incremental one is
	// compared with.
	fullRebuild bool

	dissolving []int32
	memberBuf  []algo.NodeID
	otherBuf   []algo.NodeID
	freshBuf   []int32
	stamp      uint32 // the last search's mark (nodeState.seen)
	// Components whose statuses changed while a recompute was pending, to
	// review once it is done (those it rebuilds are reviewed anyway).
	reviewLater []compRef

	gray grayLinks // the links with a direction cut

	due    dueQueue
	queued [][2]queuedDue // by component slot: safety, liveness (schedule)

	violations []Violation
	nViolation int
	elections  []Election
	leaderless time.Duration
	aliveTime  time.Duration
	ended      bool
	endAt      time.Duration
	quiescent  bool
	unchecked  int
	// aborted says a machine panicked (a Panicked event): the run stopped
	// there, so its end judges nothing more.
	aborted bool
	sent    uint64              // the messages the run sent, as the driver told (Messages)
	bounded *trace.MessageBound // the bound they were held to (Messages)

	// Under Config.ValueAtElection: the new values that wait for their
	// nodes' components to change, by record (at; read where the record is
	// waiting), and how many value changes were held back.
	next     []int64
	heldBack int
}

// New returns a Monitor.
func New(cfg Config) *Monitor {
	if cfg.MaxViolations == 0 {
		cfg.MaxViolations = 100
	}
	m := &Monitor{cfg: cfg, tally: map[uint64]int32{}, building: true}
	n := cfg.Nodes
	if cfg.Network != nil {
		n = max(n, cfg.Network.N())
	}
	m.nodes = hugemem.Make[nodeState](n)[:0]
	return m
}

// Observe consumes one event.
func (m *Monitor) Observe(e *trace.Event) {
	if m.ended {
		return
	}
	switch e.Kind {
	case trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired:
		return // message traffic does not bear on the specification
	}
	initial := e.At == 0 && (e.Kind == trace.NodeAdded || e.Kind == trace.LinkUp)
	if !initial {
		m.finishBuilding()
	}
	if e.At > m.now {
		m.settle(e.At)
	}
	m.now = e.At
	switch e.Kind {
	case trace.NodeAdded:
		m.addNode(e.Node, e.Value)
	case trace.LinkUp:
		if m.building {
			if m.cfg.Network == nil {
				m.initial = append(m.initial, topo.Edge{A: e.Node, B: e.Peer})
			}
			return
		}
		if l := edgeOf(e.Node, e.Peer); m.gray.hidden(l) {
			m.gray.networkSays(l, true)
			return
		}
		m.linkUp(e.Node, e.Peer)
	case trace.LinkDown:
		if l := edgeOf(e.Node, e.Peer); m.gray.hidden(l) {
			m.gray.networkSays(l, false)
			return
		}
		m.linkDown(e.Node, e.Peer)
	case trace.Cut:
		m.cutDir(e.Node, e.Peer)
	case trace.Uncut:
		m.uncutDir(e.Node, e.Peer)
	case trace.ClockRate, trace.ClockJumped, trace.Slowed:
		// A gray fault of a node, as it begins or ends, is a change of its
		// component: the bounds run again from here.
		m.touch(e.Node)
	case trace.Crashed:
		m.crash(e.Node)
	case trace.Restarted, trace.Recovered:
		m.revive(e.Node)
	case trace.StatusChanged:
		m.setStatus(e.Node, e.Status)
	case trace.ValueChanged:
		if m.cfg.ValueAtElection {
			m.holdValue(e.Node, e.Value)
			break
		}
		// A change of the component only if it changes its most valued
		// node (settleValues): a battery that drains every second would
		// otherwise start the bounds again every second, and nothing
		// would ever be judged.
		n := m.rec(e.Node)
		n.value = e.Value
		if n.alive {
			if len(m.valued) == 0 {
				m.valuedAt = m.now
			}
			m.valued = append(m.valued, e.Node)
		}
	case trace.ElectCalled:
		// A requested election is a new start for the component, like a
		// change of its network: its bounds run again from here.
		m.initiate(e.Node)
		m.touch(e.Node)
	case trace.Panicked:
		m.report(Violation{At: m.now, Property: "panic", Nodes: []algo.NodeID{e.Node},
			Reason: fmt.Sprintf("node %d panicked %s", e.Node, e.Text)})
		m.aborted = true
	case trace.End:
		m.end(e.Quiescent)
	}
}

// settle brings the components up to date and runs the deadlines that passed
// before time t.
func (m *Monitor) settle(t time.Duration) {
	if m.dirty {
		// With values changed, the changed components are rebuilt: the
		// paths in place keep a component's most valued node of before.
		m.nodeChanged = m.nodeChanged || len(m.valued) > 0
		m.recompute()
	}
	if len(m.valued) > 0 {
		m.settleValues()
	}
	for {
		d, ok := m.due.next(t)
		if !ok {
			break
		}
		// A deadline is judged at its own time, not at the last event's.
		m.now = max(m.now, d.at)
		if m.pending(d) {
			m.runDeadline(d)
		}
	}
}

// settleValues works out, once the instant's other changes are in, whether
// the values that changed in it changed the most valued node of their
// components. Such a component changed: it is born again, its bounds run
// from now. In another the leader expected is the same one, and nothing
// starts again: what the bounds ask of it still holds. A component rebuilt
// in this instant found its most valued node with the new values.
func (m *Monitor) settleValues() {
	now := m.now
	m.now = m.valuedAt
	defer func() { m.now = now }()
	checked := map[int32]bool{}
	for _, v := range m.valued {
		n := m.rec(v)
		if !n.alive || n.comp < 0 || checked[n.comp] {
			continue
		}
		c := n.comp
		checked[c] = true
		if best := m.bestOf(c, v); best.ID != m.comps[c].best.ID {
			m.touch(v)
		} else {
			m.comps[c].best = best
		}
	}
	m.valued = m.valued[:0]
	if m.dirty {
		m.recompute()
	} else {
		m.reviewPending()
	}
}

// initiate records that v was asked to elect: from now on its component is
// within the liveness scope.
func (m *Monitor) initiate(v algo.NodeID) {
	n := m.rec(v)
	if n.initiated {
		return
	}
	n.initiated = true
	if c := n.comp; c >= 0 {
		m.comps[c].initiated++ // as contribute would have counted it
	}
}

// holdValue holds node v's new value back until its component next changes
// (Config.ValueAtElection): its component is not touched.
func (m *Monitor) holdValue(v algo.NodeID, value int64) {
	m.heldBack++
	i := m.at(v)
	if i >= len(m.next) {
		m.next = slices.Grow(m.next, len(m.nodes)-len(m.next))[:len(m.nodes)]
	}
	m.next[i] = value
	n := &m.nodes[i]
	if n.waiting {
		return
	}
	n.waiting = true
	if c := n.comp; c >= 0 {
		m.comps[c].waiting++ // as contribute would have counted it
	}
}

// takeValue makes the value that record n's node waits with (holdValue)
// its own, as its component changes (Config.ValueAtElection). The caller
// keeps the counts: the node must then be out of its component's (place),
// or the component's waiting count and best be set again (bestOf).
func (m *Monitor) takeValue(n *nodeState) {
	if n.waiting {
		n.waiting = false
		n.value = m.next[m.at(n.id)]
	}
}

func (m *Monitor) addNode(v algo.NodeID, value int64) {
	m.grow(int(v) + 1)
	n := m.rec(v)
	n.id = v
	n.value = value
	n.alive = true
	n.lastT = m.now
	m.touch(v)
}

// grow makes records for nodes up to n-1, not yet announced.
func (m *Monitor) grow(n int) {
	for len(m.nodes) < n {
		// Arranged, all are made at once, and Arrange names them.
		id := algo.NodeID(len(m.nodes))
		m.nodes = append(m.nodes, nodeState{status: algo.Status{Leader: algo.None}, comp: -1, id: id})
	}
	if !m.building {
		m.beyond() // nodes beyond the network
	}
}

// Arrange keeps the records in the emitter's layout (trace.Arranger):
// node v's record is then at rank[v]. Called before the first event.
func (m *Monitor) Arrange(rank []int32) {
	if len(m.nodes) > 0 {
		panic("check: Arrange after the first node")
	}
	m.rank = rank
	m.grow(len(rank))
	// A record knows its node before it is announced: finishBuilding
	// tells the nodes of the network by it.
	for v, i := range rank {
		m.nodes[i].id = algo.NodeID(v)
	}
}

// at is where node v's record and links are kept: v itself, or its rank
// when arranged.
func (m *Monitor) at(v algo.NodeID) int {
	if m.rank == nil {
		return int(v)
	}
	return int(m.rank[v])
}

// rec returns node v's record.
func (m *Monitor) rec(v algo.NodeID) *nodeState { return &m.nodes[m.at(v)] }

func (m *Monitor) finishBuilding() {
	if !m.building {
		return
	}
	m.building = false
	m.net = m.cfg.Network
	if m.net == nil {
		m.net = topo.New(len(m.nodes), m.initial)
		m.initial = nil
	}
	m.beyond()
}

// touch marks v changed other than by a link: its component is rebuilt at
// the next recompute.
func (m *Monitor) touch(v algo.NodeID) {
	m.nodeChanged = true
	m.listLink()
	m.markChanged(v)
}

// markChanged lists v as changed at this instant.
func (m *Monitor) markChanged(v algo.NodeID) {
	if !m.dirty {
		m.dirty = true
		m.changeAt = m.now
	}
	if n := m.rec(v); !n.touched {
		n.touched = true
		m.touched = append(m.touched, v)
	}
}

func (m *Monitor) linkUp(a, b algo.NodeID) {
	m.setLink(a, b, true)
	m.linkChanged(linkChange{a, b, true})
}

func (m *Monitor) linkDown(a, b algo.NodeID) {
	m.setLink(a, b, false)
	m.linkChanged(linkChange{a, b, false})
}

// linkChanged marks both ends of a changed link and remembers the change,
// in case it stays alone in its instant. The ends of the instant's first
// change are listed (markChanged) only once another change comes: one alone
// is applied by relink, which needs no list, and then reads none of the
// records of its ends (see adjacency).
func (m *Monitor) linkChanged(l linkChange) {
	if !m.dirty {
		m.dirty = true
		m.changeAt = m.now
	}
	m.changes = append(m.changes, l)
	if len(m.changes) == 1 && !m.nodeChanged {
		m.linkHeld = true
		return
	}
	m.listLink()
	m.markChanged(l.a)
	m.markChanged(l.b)
}

// listLink lists the ends of the link change that linkChanged held back.
func (m *Monitor) listLink() {
	if m.linkHeld {
		m.linkHeld = false
		m.markChanged(m.changes[0].a)
		m.markChanged(m.changes[0].b)
	}
}

func (m *Monitor) crash(v algo.NodeID) {
	if !m.rec(v).alive {
		return
	}
	m.account(v)
	m.leave(v)
	n := m.rec(v)
	n.alive = false
	n.status = algo.Status{Leader: algo.None}
	for _, u := range m.linksOf(v) {
		m.touch(u)
	}
	m.touch(v)
}

func (m *Monitor) revive(v algo.NodeID) {
	if m.rec(v).alive {
		return
	}
	n := m.rec(v)
	n.alive = true
	n.status = algo.Status{Leader: algo.None}
	n.lastT = m.now
	m.touch(v)
}

// account adds v's time since its last change to the leaderless and alive
// totals.
func (m *Monitor) account(v algo.NodeID) { m.accountRecord(m.rec(v)) }

func (m *Monitor) accountRecord(n *nodeState) {
	if n.alive {
		d := m.now - n.lastT
		m.aliveTime += d
		if !n.status.HasLeader() {
			m.leaderless += d
		}
	}
	n.lastT = m.now
}

// leave removes v's contribution from its component's counts, for a node that
// dies; its component is rebuilt at the next recompute.
func (m *Monitor) leave(v algo.NodeID) {
	n := m.rec(v)
	c := n.comp
	if c < 0 {
		return
	}
	m.contribute(c, v, n.status, -1)
	m.setComp(v, -1)
	m.dissolve(c)
}

func tallyKey(c int32, leader algo.NodeID) uint64 {
	return uint64(uint32(c))<<32 | uint64(uint32(leader))
}

// contribute adds (sign=+1) or removes (sign=-1) status s of node v to
// component c's counts.
func (m *Monitor) contribute(c int32, v algo.NodeID, s algo.Status, sign int32) {
	cs := &m.comps[c]
	if !s.Index.IsZero() {
		cs.touched += sign
	}
	if n := m.rec(v); n.initiated || n.waiting {
		if n.initiated {
			cs.initiated += sign
		}
		if n.waiting {
			cs.waiting += sign
		}
	}
	if s.State != algo.Norm {
		cs.electing += sign
	}
	if !s.HasLeader() {
		cs.notSettled += sign
		return
	}
	if s.Leader == cs.best.ID {
		cs.correct += sign
	}
	cs.leaderSum += int64(sign) * int64(s.Leader)
	k := tallyKey(c, s.Leader)
	n := m.tally[k]
	switch {
	case sign > 0 && n == 0:
		cs.distinct++
	case sign < 0 && n == 1:
		cs.distinct--
	}
	if n+sign == 0 {
		delete(m.tally, k)
	} else {
		m.tally[k] = n + sign
	}
}

func (m *Monitor) setStatus(v algo.NodeID, s algo.Status) {
	n := m.rec(v)
	if !n.alive {
		return
	}
	m.account(v)
	old := n.status
	n.status = s
	if s.HasLeader() && (!old.HasLeader() || old.Leader != s.Leader) {
		n.took = m.now
	}
	if !m.cfg.Spontaneous && s.HasLeader() && s.Index.IsZero() && (old.Leader != s.Leader || !old.HasLeader()) {
		m.report(Violation{At: m.now, Property: "index", Nodes: []algo.NodeID{v},
			Reason: fmt.Sprintf("node %d took up leader %d at index <0,·> (no election index): a leader comes from an initiator's election, whose index the status must carry (algo.Status.Index)", v, s.Leader)})
	}
	if m.cfg.Lossy && s.Index.ID == v && !s.Index.IsZero() && s.Index != old.Index {
		m.touch(v) // an election of its own, perhaps after lost messages (Config.Lossy)
	}
	c := n.comp
	if c < 0 {
		return // a new node, placed at the next recompute
	}
	m.contribute(c, v, old, -1)
	m.contribute(c, v, s, +1)
	if !m.dirty && len(m.valued) == 0 {
		m.review(c)
		return
	}
	// c may be rebuilt by the pending recompute, or changed by the values
	// changed in this instant; if it is not, it must still be reviewed then
	// (an election may have closed, a violation occurred).
	if cs := &m.comps[c]; !cs.reviewDue {
		cs.reviewDue = true
		m.reviewLater = append(m.reviewLater, compRef{c, cs.gen})
	}
}

// review checks component c after a change in its nodes' statuses.
func (m *Monitor) review(c int32) {
	cs := &m.comps[c]
	if cs.electing > 0 && !cs.electOpen {
		cs.electOpen = true
		cs.electStart = m.now
	}
	if cs.electOpen && cs.electing == 0 && cs.notSettled == 0 && cs.distinct == 1 {
		cs.electOpen = false
		// One leader is followed by all: leaderSum is size times it.
		leader := algo.NodeID(cs.leaderSum / int64(cs.size))
		m.elections = append(m.elections, Election{Start: cs.electStart, End: m.now, Nodes: int(cs.size), Leader: leader})
	}
	if cs.distinct > 1 && m.now-cs.since > m.cfg.Stabilization {
		m.safetyViolation(c)
	}
	if cs.live && cs.correct != cs.size {
		m.livenessViolation(c, "left the stable state")
	}
}

func (m *Monitor) inScope(c int32) bool {
	cs := &m.comps[c]
	return m.cfg.Spontaneous || cs.touched > 0 || cs.initiated > 0
}

func (m *Monitor) runDeadline(d deadline) {
	cs := &m.comps[d.comp]
	if !d.liveness {
		if cs.distinct > 1 {
			m.safetyViolation(d.comp)
		}
		return
	}
	cs.live = true
	if cs.correct != cs.size && m.inScope(d.comp) {
		m.livenessViolation(d.comp, fmt.Sprintf("not settled %v after its last change", m.cfg.Liveness))
	}
}

func (m *Monitor) safetyViolation(c int32) {
	cs := &m.comps[c]
	if cs.reportedS {
		return
	}
	if len(m.gray.cut) > 0 && m.halfLinked(c) {
		m.fencing(c) // its nodes need not agree while the cut lasts
		return
	}
	cs.reportedS = true
	if m.full() {
		return
	}
	seen := m.look(c)
	reason := seen.leaders() + fmt.Sprintf(": %s, %v after the component last changed", seen.followers(), m.now-cs.since)
	m.report(Violation{At: m.now, Property: "safety", Nodes: seen.firstFollowers[:2], Reason: reason})
}

func (m *Monitor) livenessViolation(c int32, why string) {
	cs := &m.comps[c]
	if cs.reportedL || !m.inScope(c) || len(m.gray.cut) > 0 && m.halfLinked(c) {
		return
	}
	cs.reportedL = true
	if m.full() {
		return
	}
	seen := m.look(c)
	// Say each thing seen, in the documents' words.
	var what []string
	switch {
	case len(seen.leaderIDs) > 1:
		what = append(what, seen.leaders()+": "+seen.followers())
	case len(seen.leaderIDs) == 1 && seen.leaderIDs[0] != cs.best.ID:
		who := "settled"
		if seen.counts[0] < int(cs.size) {
			who = fmt.Sprintf("%d of them settled", seen.counts[0])
		}
		most := "the most valued"
		if m.cfg.AmongInitiators {
			most = "the most valued initiator"
		}
		what = append(what, fmt.Sprintf("%s on node %d, but node %d is %s in its component", who, seen.leaderIDs[0], cs.best.ID, most))
	}
	if seen.electing > 0 {
		e := fmt.Sprintf("node %d never left the election (it is in %s)", seen.firstElecting, seen.electingState)
		if seen.electing > 1 {
			e += fmt.Sprintf(", nor did %d more", seen.electing-1)
		}
		what = append(what, e)
	}
	if seen.leaderless > 0 {
		l := fmt.Sprintf("node %d is in Norm with no leader", seen.firstLeaderless)
		if seen.leaderless > 1 {
			l += fmt.Sprintf(", and %d more", seen.leaderless-1)
		}
		what = append(what, l)
	}
	reason := fmt.Sprintf("%s (component of %d nodes, most valued %s, %d of them not in Norm following it; %s)",
		strings.Join(what, "; "), cs.size, cs.best, cs.size-cs.correct, why)
	m.report(Violation{At: m.now, Property: "liveness", Nodes: seen.wrong, Reason: reason})
}

// maxNamed is how many leaders a report names.
const maxNamed = 5

// seen is what a pass over a component's members found, for a report.
type seen struct {
	leaderIDs       []algo.NodeID   // the leaders followed, in order of their first follower
	firstFollowers  []algo.NodeID   // the first follower of each
	counts          []int           // how many follow each
	since           []time.Duration // since when each has been followed without a break
	electing        int             // members not in Norm
	firstElecting   algo.NodeID
	electingState   algo.State
	leaderless      int // members in Norm with no leader
	firstLeaderless algo.NodeID
	wrong           []algo.NodeID // the first ten not in Norm following the most valued
}

// look passes over component c's members (O(n): for reports only).
func (m *Monitor) look(c int32) seen {
	cs := &m.comps[c]
	var s seen
	for _, v := range m.members(c) {
		st := m.rec(v).status
		switch {
		case st.State != algo.Norm:
			if s.electing == 0 {
				s.firstElecting, s.electingState = v, st.State
			}
			s.electing++
		case !st.HasLeader():
			if s.leaderless == 0 {
				s.firstLeaderless = v
			}
			s.leaderless++
		default:
			took := m.rec(v).took
			if i := slices.Index(s.leaderIDs, st.Leader); i >= 0 {
				s.counts[i]++
				s.since[i] = min(s.since[i], took)
			} else {
				s.leaderIDs = append(s.leaderIDs, st.Leader)
				s.firstFollowers = append(s.firstFollowers, v)
				s.counts = append(s.counts, 1)
				s.since = append(s.since, took)
			}
		}
		if !(st.HasLeader() && st.Leader == cs.best.ID) && len(s.wrong) < 10 {
			s.wrong = append(s.wrong, v)
		}
	}
	return s
}

// leaders says the component follows several leaders, and since when:
// "two leaders in one component: nodes 3 and 7, from 1.2s" (since the last
// of them has been followed: each has been, without a break, by one of
// its present followers).
func (s *seen) leaders() string {
	count := fmt.Sprint(len(s.leaderIDs))
	if words := []string{2: "two", 3: "three", 4: "four", 5: "five"}; len(s.leaderIDs) < len(words) {
		count = words[len(s.leaderIDs)]
	}
	var ids []string
	for _, l := range s.leaderIDs[:min(len(s.leaderIDs), maxNamed)] {
		ids = append(ids, fmt.Sprint(l))
	}
	last := ids[len(ids)-1]
	if more := len(s.leaderIDs) - len(ids); more > 0 {
		ids, last = append(ids, last), fmt.Sprintf("%d more", more)
	}
	list := strings.Join(ids[:len(ids)-1], ", ") + " and " + last
	return fmt.Sprintf("%s leaders in one component: nodes %s, from %v", count, list, slices.Max(s.since))
}

// followers says who follows whom: "node 0 follows 3 (with 4 more), node 5
// follows 7".
func (s *seen) followers() string {
	var parts []string
	for i, l := range s.leaderIDs[:min(len(s.leaderIDs), maxNamed)] {
		p := fmt.Sprintf("node %d follows %d", s.firstFollowers[i], l)
		if s.counts[i] > 1 {
			p += fmt.Sprintf(" (with %d more)", s.counts[i]-1)
		}
		parts = append(parts, p)
	}
	if len(s.leaderIDs) > maxNamed {
		parts = append(parts, "...")
	}
	return strings.Join(parts, ", ")
}

// full counts a violation without detail once the detailed list is full
// (building the detail costs a pass over the nodes).
func (m *Monitor) full() bool {
	if len(m.violations) < m.cfg.MaxViolations {
		return false
	}
	m.nViolation++
	return true
}

// Violated says whether the run has broken the specification so far: a
// cheap look, for a driver that stops at the first violation (explore).
func (m *Monitor) Violated() bool { return m.nViolation > 0 }

func (m *Monitor) report(v Violation) {
	m.nViolation++
	if len(m.violations) < m.cfg.MaxViolations {
		m.violations = append(m.violations, v)
	}
}

// members lists component c's nodes in ascending order (O(n): for reports).
func (m *Monitor) members(c int32) []algo.NodeID {
	var out []algo.NodeID
	for v := range algo.NodeID(len(m.nodes)) {
		if m.rec(v).comp == c {
			out = append(out, v)
		}
	}
	return out
}

func (m *Monitor) end(quiescent bool) {
	at := m.now
	m.settle(at + 1) // deadlines at or before the end
	m.now = at
	for i := range m.nodes {
		m.accountRecord(&m.nodes[i])
	}
	m.ended, m.endAt, m.quiescent = true, m.now, quiescent
	if m.aborted {
		return
	}
	// Components are judged in the order of Report.Components (by smallest
	// node), which does not depend on how they were allocated.
	judged := make([]bool, len(m.comps))
	var unjudged []endCase
	for v := range algo.NodeID(len(m.nodes)) {
		c := m.rec(v).comp
		if c < 0 || judged[c] {
			continue
		}
		judged[c] = true
		cs := &m.comps[c]
		switch {
		case quiescent:
			if cs.distinct > 1 {
				m.safetyViolation(c)
			}
			if cs.correct != cs.size {
				m.livenessViolation(c, "never settled: the run ended with no event left")
			}
		case !cs.live && m.inScope(c):
			m.unchecked++
		}
		if m.exempt(c) {
			continue
		}
		switch {
		case !m.inScope(c) && m.cfg.Expect == ExpectEveryComponent:
			unjudged = append(unjudged, endCase{c, fmt.Sprintf("no election reached this component of %s: none of them was an initiator (the algorithm is not spontaneous), and every component was expected to elect (expect: every-component); name one (--initiators) or declare that none is expected there (unelected)", nodesOf(int(cs.size)))})
		case !quiescent && !m.cfg.openEnded() && !cs.live && (cs.correct != cs.size || cs.distinct > 1):
			unjudged = append(unjudged, endCase{c, fmt.Sprintf("the run ended %v after this component of %d nodes last changed, before its liveness bound (%v), with %d of them not in Norm following its most valued node %s: run longer, or declare that no election is expected there (unelected)",
				m.now-cs.since, cs.size, m.cfg.Liveness, cs.size-cs.correct, cs.best)})
		}
	}
	m.endViolations(unjudged)
}

// endCase is a component that the run left unjudged, and why.
type endCase struct {
	c      int32
	reason string
}

// endViolations fails the components that the run left unjudged, in one
// pass over the nodes for their first members (a network may have
// thousands of components that no initiator reached).
func (m *Monitor) endViolations(cases []endCase) {
	if len(cases) == 0 {
		return
	}
	at := make([]int32, len(m.comps))
	for i := range at {
		at[i] = -1
	}
	for i, e := range cases {
		at[e.c] = int32(i)
	}
	nodes := make([][]algo.NodeID, len(cases))
	for v := range algo.NodeID(len(m.nodes)) {
		if c := m.rec(v).comp; c >= 0 && at[c] >= 0 && len(nodes[at[c]]) < 10 {
			nodes[at[c]] = append(nodes[at[c]], v)
		}
	}
	for i, e := range cases {
		if !m.full() {
			m.report(Violation{At: m.now, Property: "liveness", Nodes: nodes[i], Reason: e.reason})
		}
	}
}

// exempt reports whether component c is exempt from the end's judgement
// (Config.Unelected, Config.UnelectedUninitiated).
func (m *Monitor) exempt(c int32) bool {
	if m.cfg.UnelectedUninitiated && m.comps[c].initiated == 0 || len(m.gray.cut) > 0 && m.halfLinked(c) {
		return true
	}
	for _, v := range m.cfg.Unelected {
		if int(v) < len(m.nodes) && m.rec(v).comp == c {
			return true
		}
	}
	return false
}
