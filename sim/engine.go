// Package sim runs election machines in virtual time: one event queue ordered
// by (time, sequence number), FIFO links with a delay model and a loss
// probability, and a timeline of faults (crashes, restarts, recoveries,
// partitions, heals, links going down and up, external election triggers).
//
// A run is a pure function of its configuration and seed: the engine runs
// its events on one goroutine (New copies lists on a second one, and a
// radio's changes are computed there ahead of the engine: values that do
// not depend on the order of the work), draws every random number from one
// seeded source, never iterates over a map where the order could show, and
// fingerprints every event it emits (trace.Hasher), so that two runs can be
// compared by one number.
//
// The engine is built for large networks, where nearly every memory access
// of a delivery misses the cache: events are 24-byte values in a timing
// wheel backed by a radix heap (queue.go), messages live in chunks filled in
// sending order (flight.go), node records are one cache line each, in an
// order that keeps neighbours near in memory (layout.go), neighbour lists
// and link states are kept in flat engine-wide arrays, the next event's
// node record and message are prefetched while the current one runs, and
// delivering a message allocates nothing.
//
// It must not import check, metrics or any driver (runner, scenario, cli):
// observers reach it through trace.Observer (docs/architecture.md).
package sim

import (
	"fmt"
	"github.com/electgo/elect/internal/hugemem"
	"github.com/electgo/elect/internal/ids"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Config is everything a run depends on.
type Config struct {
	Algorithm *algo.Algorithm
	Params    map[string]string
	Graph     *topo.Graph
	Values    Values
	Seed      uint64
	Delay     Delay
	Loss      float64
	// Duration bounds virtual time; zero runs until no event is left.
	Duration time.Duration
	// Initiators are the nodes asked to elect at time 0 (Machine.Elect, an
	// elect_called event), each right after its own Start, in ascending
	// order (algo.Algorithm.Initiators resolves them).
	Initiators []algo.NodeID
	Timeline   []Action
	// Motion, when set, moves the nodes: Graph is then the links at time 0,
	// and the motion changes them as the nodes come into and go out of
	// range.
	Motion Motion
	// ValuesOver, when set, changes the nodes' values as the run goes (a
	// battery draining, a position): it sets them at time 0 too, over
	// Values. It needs a Duration.
	ValuesOver *ValueModel
	// Observers receive every event in order (the checker, a trace writer).
	Observers []trace.Observer
}

// Stats are the engine's own counts. Messages are counted from the event
// stream (metrics.Counter), so that a trace read back gives the same figures.
type Stats struct {
	Timers uint64 // timer expiries run
	Events uint64 // events taken off the queue
}

// Result is what Run returns.
type Result struct {
	Stats Stats
	// End is the virtual time of the last event run.
	End time.Duration
	// Quiescent is set when the run stopped because no event was left.
	Quiescent bool
	// Hash fingerprints every event of the run.
	Hash uint64
	// Crashes are the nodes the run crashed, and when, in order: what a
	// scenario's "crash: leader" struck. (The run's story reads the same
	// from the crash events, as check and emulate do: metrics.Story.)
	Crashes []CrashAt
	// Panic, when set, is the machine's panic that ended the run (the
	// Panicked event before the End): the algorithm's bug.
	Panic *Panic
	// Values is what a run with a value model (Config.ValuesOver)
	// measured; nil without one.
	Values *ValueStats
}

// CrashAt is a node crashed at a moment of the run.
type CrashAt struct {
	At   time.Duration
	Node algo.NodeID
}

// node is what a delivery touches of a node; it is kept small because a
// large run touches millions of them in little order: 64 bytes, one cache
// line (TestNodeSize), where two slice headers for the lists made it 104.
// What is rarely needed (timers, saved state) lives in the engine's own
// arrays, by slot.
type node struct {
	m      algo.Machine
	value  int64
	status algo.Status
	id     algo.NodeID
	// The neighbours that can be reached now (link up, both ends alive), by
	// id, ascending, are Engine.nbrs[off:off+deg], and the states of the
	// links to them are at the same places in Engine.links, lasts and
	// since; room is the space reserved there (see Engine.moveOut).
	off, deg, room int32
	// lastDown is Engine.downs just after this node's latest link removal:
	// a message whose receiver lost no link since it was sent arrives
	// without a lookup.
	lastDown uint32
	alive    bool
}

// Engine is one simulated run.
type Engine struct {
	cfg     Config
	alg     *algo.Algorithm
	newNode func(algo.NodeID) algo.Machine
	rng     *rand.Rand
	graph   *topo.Graph
	// nodes are stored in layout order (see layout.go); slot maps an id to
	// its record. Queue events name slots, everything else names ids.
	nodes []node
	slot  []int32
	// arranged says the layout is not id order and the network large
	// enough (arrangeMin) for observers that keep per-node state to be told
	// it (trace.Arranger).
	arranged bool
	// nbrs holds every node's neighbour list (see node), in layout order,
	// and the arrays after it the state of each link direction, at the
	// same places. Each array is one fact, so that a sending reads what it
	// needs and no more, and facts that some runs never need are not made.
	nbrs []algo.NodeID
	// links hold the neighbour's record (slot): where deliveries on the
	// link are queued.
	links []int32
	// lasts hold the latest delivery time scheduled on each direction:
	// under random delays they keep links FIFO. Constant delays and pulses
	// keep links FIFO by themselves, and lasts is nil: 80 MB less to
	// allocate and touch on a million nodes.
	lasts []int64
	// since hold the count of link changes (changes) when the link came
	// up, to tell a message sent on an earlier incarnation of it, or a
	// broadcast sent before it came up (see linkSurvived). Links up from
	// the start have 0: since is made only when a link first comes up
	// during the run.
	since []uint64
	// spare holds places in the arrays above that lists moved out of, by
	// their room, for the next list to need that room (moveOut).
	spare map[int32][]int32
	// timers holds the generation of each node's timers, bumped to cancel:
	// the node whose record is nodes[k] has timers[k*stride : (k+1)*stride].
	// One flat array, not a slice per node: a million small slices cost a
	// million allocations, 24 MB of headers for the collector to scan, and
	// two cache misses per expiry instead of one.
	timers  []uint32
	stride  int
	saved   map[int32][]byte // by slot: what Save returned when the node crashed
	q       queue
	beyond  int // events after the end of the run, not queued (schedule)
	now     int64
	flights flights // the messages in flight (flight.go)
	// A message in flight is lost if its link went down before delivery. Most
	// of the time no link went down at all since it was sent: each message
	// carries the count of link removals at its sending (downs), and only if
	// that count moved, and the receiver itself lost a link since (its
	// lastDown), is the link looked up: it must still be there, and have
	// come up before the message left. Under mobility links go down
	// thousands of times a second, but rarely at the receiver of a given
	// message during its few milliseconds in flight. Queue events and node
	// records keep the count's low 32 bits, enough to tell a change during
	// a flight; the message keeps all 64, for the exact comparison.
	downs uint64
	// changes counts every link that came up or went down: a message
	// stores it at its sending, and a link whose since is above it came up
	// after (linkSurvived, deliverBroadcast).
	changes uint64
	// receivers is deliverBroadcast's list of a transmission's receivers
	// (node records), reused: a reception can change the sender's list.
	receivers []int32
	crashes   []CrashAt // Result.Crashes
	// received is the message a broadcast's receiver is handed, a copy of the
	// one in flight, so that no receiver sees another's changes.
	received algo.Message
	env      env
	call     calling // the machine call under way (panic.go)
	ev       trace.Event
	hash     trace.Hasher
	stats    Stats
	started  bool

	// Physical link state beyond the graph: partition groups (nil when not
	// partitioned) and links taken down one by one.
	group []int32
	down  map[topo.Edge]bool
	// With motion: the nodes in range of each node, by id, once kept, the
	// change queued next and the ones read after it (see motion.go).
	inRange [][]algo.NodeID
	change  mobility.Change
	ahead   ahead
	feed    *feed // a radio's changes, computed on another core (feed.go)

	// values are the nodes' values by id, from New until announce, which
	// reads them in id order (nodes are in layout order).
	values []int64

	// Injected faults: crashes armed on a message type, jokers.
	crashOn map[algo.NodeID]algo.MsgType
	jokers  map[algo.NodeID]bool
	// gray holds the gray failures' state, nil in a run without one
	// (gray.go).
	gray *grayState
	// vals is the value model at work, nil in a run without one
	// (valuemodel.go).
	vals *values
}

// New validates a configuration and prepares a run.
func New(cfg Config) (*Engine, error) {
	if cfg.Algorithm == nil {
		return nil, fmt.Errorf("no algorithm")
	}
	if cfg.Graph == nil || cfg.Graph.N() == 0 {
		return nil, fmt.Errorf("empty network")
	}
	if cfg.Loss < 0 || cfg.Loss >= 1 {
		return nil, fmt.Errorf("loss %v is outside [0, 1)", cfg.Loss)
	}
	if err := Fits(cfg.Algorithm, cfg.Graph); err != nil {
		return nil, err
	}
	if cfg.Algorithm.Model.Synchronous {
		cfg.Delay = Delay{Kind: Pulse, A: algo.PulseLength} // rounds, whatever delay was asked
	}
	_, newNode, err := cfg.Algorithm.Instantiate(cfg.Params, cfg.Graph.N())
	if err != nil {
		return nil, err
	}
	n := cfg.Graph.N()
	for i, v := range cfg.Initiators {
		if v < 0 || int(v) >= n || (i > 0 && v <= cfg.Initiators[i-1]) {
			return nil, fmt.Errorf("initiators: %d is not a node of 0..%d in ascending order", v, n-1)
		}
	}
	e := &Engine{
		cfg:     cfg,
		alg:     cfg.Algorithm,
		newNode: newNode,
		rng:     rand.New(rand.NewPCG(cfg.Seed, 0x656c656374)), // "elect"
		graph:   cfg.Graph,
		nodes:   hugemem.Make[node](n),
		down:    map[topo.Edge]bool{},
		hash:    trace.NewHasher(),
	}
	e.env.e = e
	e.flights.init()
	for i, a := range cfg.Timeline {
		if err := e.validate(&a); err != nil {
			where := a.Where
			if where == "" {
				where = fmt.Sprintf("event %d", i)
			}
			return nil, fmt.Errorf("%s: %s: %w", where, a.Kind, err)
		}
	}
	e.grayInit()
	values, err := cfg.Values.Resolve(n, e.rng)
	if err != nil {
		return nil, err
	}
	e.values = values
	// Node records, neighbour lists and machines are laid out together in
	// layout order. Each list's room is its initial length, so a list that
	// grows moves out rather than overwrite the next one.
	order := layout(cfg.Graph)
	e.slot = hugemem.Make[int32](n)
	e.nbrs = hugemem.Make[algo.NodeID](2 * cfg.Graph.M())
	e.links = hugemem.Make[int32](len(e.nbrs))
	if k := cfg.Delay.Kind; k == Uniform || k == Exponential {
		e.lasts = hugemem.Make[int64](len(e.nbrs))
	}
	// Algorithms use a handful of timers; setTimer widens the stride if one
	// uses more.
	e.stride = 4
	e.timers = hugemem.Make[uint32](n * e.stride)
	e.saved = map[int32][]byte{}
	for k, v := range order {
		e.slot[v] = int32(k)
		e.arranged = e.arranged || int(v) != k
	}
	e.arranged = e.arranged && n >= arrangeMin
	// Records, lists and machines are written front to back, in layout
	// order: the records first, as the lists' places follow from them.
	o := int32(0)
	for k, v := range order {
		nd := &e.nodes[k]
		nd.id = v
		nd.value = values[v]
		nd.status = algo.Status{Leader: algo.None}
		d := int32(cfg.Graph.Degree(v))
		nd.off, nd.deg, nd.room = o, d, d
		o += d
	}
	// The lists are copied from the graph at random places (it is in id
	// order), and each neighbour's record looked up: on a large network,
	// a cache miss or two for every node, the same again as making the
	// machines. The two are independent, so the lists are copied on
	// another core meanwhile (the machines stay on this one, where a
	// panic in an algorithm's constructor is reported as it always was).
	var lists sync.WaitGroup
	copyLists := func() {
		o := 0
		for _, v := range order {
			l := cfg.Graph.Neighbors(v)
			copy(e.nbrs[o:], l)
			for i, u := range l {
				e.links[o+i] = e.slot[u]
			}
			o += len(l)
		}
	}
	if n >= arrangeMin {
		lists.Go(copyLists)
	} else {
		copyLists()
	}
	// Machines are made in layout order too, so that a machine sits near its
	// neighbours' machines in memory.
	for k := range e.nodes {
		e.nodes[k].m = newNode(e.nodes[k].id)
	}
	lists.Wait()
	if cfg.ValuesOver != nil {
		if err := e.startValues(cfg.ValuesOver); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Fits checks that the network is one the algorithm needs (Model.Topology),
// for every driver that runs a network of machines.
func Fits(a *algo.Algorithm, g *topo.Graph) error {
	n := g.N()
	switch a.Model.Topology {
	case "complete":
		if g.M() != n*(n-1)/2 {
			return fmt.Errorf("%s needs a complete network (complete:N); this one has %d of the %d links", a.Name, g.M(), n*(n-1)/2)
		}
	case "ring":
		_, comps := g.Components()
		for v := 0; v < n; v++ {
			if g.Degree(algo.NodeID(v)) != 2 || comps != 1 {
				return fmt.Errorf("%s needs a ring (ring:N): every node with two neighbours, all connected", a.Name)
			}
		}
	}
	return nil
}

// node returns the record of node v.
func (e *Engine) node(v algo.NodeID) *node { return &e.nodes[e.slot[v]] }

// nbrsOf lists the neighbours nd can reach now, by id, ascending.
func (e *Engine) nbrsOf(nd *node) []algo.NodeID {
	return e.nbrs[nd.off : nd.off+nd.deg : nd.off+nd.deg]
}

func (e *Engine) validate(a *Action) error {
	n := e.graph.N()
	if a.Kind.Gray() {
		if err := validateGray(a, n); err != nil {
			return err
		}
	}
	for _, v := range a.Nodes {
		if v < 0 || int(v) >= n {
			return fmt.Errorf("node %d does not exist (the network has nodes 0..%d)", v, n-1)
		}
	}
	switch a.Kind {
	case SetValue:
		if e.cfg.ValuesOver != nil {
			return fmt.Errorf("a value event in a run whose values a model sets (%s): the model's next step would undo it", e.cfg.ValuesOver)
		}
		if len(a.Nodes) == 0 && !a.Leader {
			return fmt.Errorf("names no node")
		}
	case Crash, Restart, Recover, ElectAt, Corrupt:
		if len(a.Nodes) == 0 && !(a.Kind == Crash && a.Leader) {
			return fmt.Errorf("names no node")
		}
	case CrashOn:
		if len(a.Nodes) == 0 {
			return fmt.Errorf("names no node")
		}
		if _, ok := e.msgType(a.Message); !ok {
			return fmt.Errorf("%s has no message type %q (it has: %s)", e.alg.Name, a.Message, strings.Join(e.alg.Messages, ", "))
		}
	case LinkDown, LinkUp:
		l := a.Link
		if l.A < 0 || l.B < 0 || int(l.A) >= n || int(l.B) >= n {
			return fmt.Errorf("link %d-%d names a node that does not exist (nodes 0..%d)", l.A, l.B, n-1)
		}
		if l.A == l.B {
			return fmt.Errorf("link %d-%d joins a node to itself", l.A, l.B)
		}
		// Under motion any pair may come into range; without it only the
		// topology's links exist.
		if e.cfg.Motion == nil && !e.graph.HasEdge(l.A, l.B) {
			return fmt.Errorf("nodes %d and %d are not linked in the topology", l.A, l.B)
		}
	case Partition:
		seen := map[algo.NodeID]string{}
		for _, g := range a.Groups {
			if g.Area != nil && e.graph.Pos == nil {
				return fmt.Errorf("group %s: an area needs a network with positions (geometric)", g.Name)
			}
			for _, v := range e.members(g) {
				if v < 0 || int(v) >= n {
					return fmt.Errorf("group %s: node %d does not exist (nodes 0..%d)", g.Name, v, n-1)
				}
				if other, dup := seen[v]; dup {
					return fmt.Errorf("node %d is in groups %s and %s", v, other, g.Name)
				}
				seen[v] = g.Name
			}
		}
	}
	if a.At < 0 {
		return fmt.Errorf("negative time %v", a.At)
	}
	return nil
}

// members lists the nodes of a partition group: those listed, or those in
// its area.
func (e *Engine) members(g Group) []algo.NodeID {
	if g.Area == nil {
		return g.Nodes
	}
	var in []algo.NodeID
	for v, p := range e.positions() {
		if g.Area.Contains(p) {
			in = append(in, algo.NodeID(v))
		}
	}
	return in
}

// msgType finds a message type of the algorithm by name.
func (e *Engine) msgType(name string) (algo.MsgType, bool) {
	for t, n := range e.alg.Messages {
		if n == name {
			return algo.MsgType(t), true
		}
	}
	return 0, false
}

// Value returns node v's desirability.
func (e *Engine) Value(v algo.NodeID) int64 { return e.node(v).value }

// Status returns node v's last reported status and whether it is alive.
func (e *Engine) Status(v algo.NodeID) (algo.Status, bool) {
	nd := e.node(v)
	return nd.status, nd.alive
}

// Run runs the simulation to its end: no event left, or Duration reached.
func (e *Engine) Run() Result {
	if e.started {
		panic("sim: Run called twice")
	}
	e.started = true
	if e.arranged {
		for _, o := range e.cfg.Observers {
			if a, ok := o.(trace.Arranger); ok {
				a.Arrange(e.slot)
			}
		}
	}
	e.announce()
	p := e.guarded(e.steps)
	quiescent := p == nil && e.q.len() == 0 && e.beyond == 0
	if !quiescent && p == nil {
		e.now = int64(e.cfg.Duration)
	}
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.End, Peer: algo.None, Quiescent: quiescent})
	return Result{Stats: e.stats, End: time.Duration(e.now), Quiescent: quiescent, Hash: e.hash.Sum(), Crashes: e.crashes, Panic: p, Values: e.finishValues()}
}

// steps runs the run's events: the boot, then the queue until it is empty
// or past the limit.
func (e *Engine) steps() {
	if e.gray != nil {
		e.motionCuts() // the directions out of range hold from the boot on
	}
	for i := range e.cfg.Timeline {
		a := &e.cfg.Timeline[i]
		if a.At == 0 && (a.Kind == CrashOn || a.Kind == Corrupt || a.Kind.Gray()) {
			e.act(a) // faults armed at 0 hold from the boot on
			continue
		}
		e.schedule(event{at: int64(a.At), kind: evAction, slot: int32(i)})
	}
	initiators := e.cfg.Initiators
	for v := range e.nodes {
		e.boot(algo.NodeID(v), bootStart)
		if len(initiators) > 0 && initiators[0] == algo.NodeID(v) {
			initiators = initiators[1:]
			e.elect(algo.NodeID(v))
		}
	}
	if e.feedable() {
		e.feed = startFeed(e.cfg.Motion)
		defer e.feed.close() // whatever happens from here, even at the first change
	}
	e.startMotion()
	if e.vals != nil {
		e.schedule(event{at: int64(e.vals.m.Every), kind: evValues})
	}
	for e.q.len() > 0 { // every event queued is within the limit (schedule)
		ev := e.q.pop()
		if nx := e.q.next(); nx != nil {
			e.prefetch(nx)
		}
		e.now = ev.at
		e.stats.Events++
		switch ev.kind {
		case evDeliver:
			e.deliver(ev)
		case evBroadcast:
			e.deliverBroadcast(ev)
		case evTimer, evLateTimer:
			e.fire(ev)
		case evLateDeliver:
			e.deliverLate(ev)
		case evAction:
			e.act(&e.cfg.Timeline[ev.slot])
		case evMove:
			e.move()
		case evValues:
			e.stepValues()
		}
	}
}

// schedule queues an event, unless it falls after the end of the run
// (Duration), where it would never run: it is only counted then, so that
// the run still ends with events pending, not quiescent. At the end of a
// large run much of the queue is such events (on a million vkt nodes, two
// timers of every node, 48 MB), and storing them cost as much as any other
// event.
func (e *Engine) schedule(ev event) {
	if e.pastEnd(ev.at) {
		e.beyond++
		return
	}
	e.q.push(ev)
}

// pastEnd reports whether time at falls after the end of the run.
func (e *Engine) pastEnd(at int64) bool {
	return e.cfg.Duration > 0 && at > int64(e.cfg.Duration)
}

// prefetch asks for what event ev will read first, while the event before
// it runs: the record of the node it goes to for a delivery (its timer
// generation for an expiry).
func (e *Engine) prefetch(ev *event) {
	switch ev.kind {
	case evDeliver, evBroadcast:
		prefetch(uintptr(unsafe.Pointer(&e.nodes[ev.node])))
		prefetch(uintptr(unsafe.Pointer(e.flights.at(ev.slot))))
	case evTimer:
		prefetch(uintptr(unsafe.Pointer(&e.timers[int(ev.node)*e.stride+int(ev.slot)])))
	}
}

// announce emits the initial network: every node with its value and every
// link that is up.
func (e *Engine) announce() {
	for v := range e.nodes {
		e.emit(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: e.values[v]})
	}
	e.values = nil
	for v := range e.nodes {
		for _, u := range e.graph.Neighbors(algo.NodeID(v)) {
			if algo.NodeID(v) < u {
				e.emit(trace.Event{Kind: trace.LinkUp, Node: algo.NodeID(v), Peer: u})
			}
		}
	}
}

// emit fingerprints an event and hands it to the observers.
func (e *Engine) emit(ev trace.Event) {
	e.ev = ev
	e.hash.Add(&e.ev)
	for _, o := range e.cfg.Observers {
		o.Observe(&e.ev)
	}
}

// emitMsg is emit for message events, which fill the shared event in place
// rather than copying a Message twice.
func (e *Engine) emitMsg(kind trace.Kind, node, peer algo.NodeID, m *algo.Message, reason trace.DropReason) {
	ev := &e.ev
	ev.At = time.Duration(e.now)
	ev.Kind = kind
	ev.Node = node
	ev.Peer = peer
	ev.Msg = *m
	ev.Reason = reason
	if e.vals != nil {
		e.vals.spend(kind, node, m)
	}
	e.hash.Add(ev)
	for _, o := range e.cfg.Observers {
		o.Observe(ev)
	}
	ev.Msg.Peers = nil
}

// noteStatus emits the status of the node env last pointed at, if the last
// input changed it.
func (e *Engine) noteStatus() {
	nd, v := e.env.nd, e.env.v
	if nd.m == nil {
		return
	}
	e.call.kind = callStatus
	s := nd.m.Status()
	if s != nd.status {
		if e.vals != nil {
			e.valueStatus(v, s)
		}
		nd.status = s
		e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.StatusChanged, Node: v, Peer: algo.None, Status: s})
	}
}

// linkSurvived reports whether the link a message in flight was sent on is
// still up in the same incarnation: the message came from from, is stored in
// slot slot of the flights, and left when the count of link removals was
// gen (its low 32 bits), for the node whose record is nd. The link must
// still be there and have come up before the message left (since). Both
// directions of a link come and go together, so the receiver's side, whose
// record the delivery touches anyway, is the one looked up.
func (e *Engine) linkSurvived(nd *node, from algo.NodeID, gen uint32, slot int32) bool {
	if gen == uint32(e.downs) || int32(nd.lastDown-gen) <= 0 {
		return true // no link went down anywhere, or none at the receiver
	}
	i, ok := ids.Find(e.nbrsOf(nd), from)
	return ok && (e.since == nil || e.since[int(nd.off)+i] <= e.flights.at(slot).sent)
}

// transmit is what every sending does first, unicast (to a node) or
// broadcast (to algo.Everyone), for the node env points at: the message
// addressed, checked, altered by a joker, and its Sent event emitted. A
// message type the algorithm does not name is its bug, named here rather
// than as an index out of range in whichever observer counts messages by
// type first.
func (e *Engine) transmit(m *algo.Message, to algo.NodeID) {
	from := e.env.v
	m.From, m.To = from, to
	if int(m.Type) >= len(e.alg.Messages) {
		e.badType(m)
	}
	if len(e.jokers) > 0 && e.jokers[from] {
		m.Corrupt()
	}
	e.emitMsg(trace.Sent, from, to, m, 0)
}

// badType panics: kept apart from transmit, which every message runs.
func (e *Engine) badType(m *algo.Message) {
	panic(machineFault(fmt.Sprintf("%s node %d sent message type %d, which its Messages (%d types) does not name", e.alg.Name, m.From, m.Type, len(e.alg.Messages))))
}

// diesOn crashes node to if it is armed to die at a message of type t
// (crash_on), as the message reaches it, and says whether it did.
// Its callers test len(e.crashOn) first: no run but the ring's arms one,
// and a call for each of a run's millions of receptions shows.
func (e *Engine) diesOn(to algo.NodeID, t algo.MsgType) bool {
	if armed, ok := e.crashOn[to]; !ok || armed != t {
		return false
	}
	delete(e.crashOn, to)
	e.crash(to)
	return true
}

// send runs Env.Send for the node env points at.
func (e *Engine) send(to algo.NodeID, m algo.Message) {
	nd, from := e.env.nd, e.env.v
	e.transmit(&m, to)
	i, ok := ids.Find(e.nbrsOf(nd), to)
	if !ok {
		e.drop(from, to, &m, trace.NoLink)
		return
	}
	if e.cfg.Loss > 0 && e.rng.Float64() < e.cfg.Loss || e.gray != nil && e.lostOneWay(from, to) {
		e.drop(from, to, &m, trace.Lost)
		return
	}
	at := e.cfg.Delay.deliveryTime(e.now, e.rng)
	if e.lasts != nil {
		// FIFO: never overtake an earlier message on this link.
		last := &e.lasts[int(nd.off)+i]
		at = max(at, *last)
		*last = at
	}
	if e.pastEnd(at) {
		e.beyond++ // nor is the message stored (schedule)
		return
	}
	slot := e.flights.add(&m, e.changes)
	e.q.push(event{at: at, kind: evDeliver, node: e.links[int(nd.off)+i], gen: uint32(e.downs), slot: slot})
}

func (e *Engine) drop(from, to algo.NodeID, m *algo.Message, why trace.DropReason) {
	e.emitMsg(trace.Dropped, from, to, m, why)
}

func (e *Engine) deliver(ev event) {
	m := &e.flights.at(ev.slot).m
	nd := &e.nodes[ev.node]
	to := nd.id
	if len(e.crashOn) > 0 {
		e.diesOn(to, m.Type) // then the link is gone, and the message with it
	}
	switch {
	case !e.linkSurvived(nd, m.From, ev.gen, ev.slot):
		e.drop(m.From, to, m, trace.LinkBroke)
	case e.gray != nil && e.gray.cut(m.From, to):
		e.drop(m.From, to, m, trace.CutOff)
	case e.gray != nil && e.deferDelivery(ev.node, m, ev.slot):
		return // the message keeps its slot until the node handles it
	default:
		e.receive(ev.node, m)
	}
	e.flights.release(ev.slot)
}

// receive hands message m to the node whose record is nodes[k].
func (e *Engine) receive(k int32, m *algo.Message) {
	nd := &e.nodes[k]
	e.emitMsg(trace.Delivered, nd.id, m.From, m, 0)
	e.call = calling{kind: callReceive, msg: m}
	nd.m.Receive(e.point(k), m)
	e.noteStatus()
}

func (e *Engine) fire(ev event) {
	// The generation is checked first: half the expiries of a large run
	// are stale (timers moved or stopped), and they are then skipped
	// without a look at the node's record. A crash bumps every generation
	// of the node, so its timers are stale too; alive is checked anyway.
	if e.timers[int(ev.node)*e.stride+int(ev.slot)] != ev.gen {
		return // cancelled or moved
	}
	nd := &e.nodes[ev.node]
	if !nd.alive {
		return
	}
	if e.gray != nil && ev.kind == evTimer {
		if at, _, late := e.gray.late(nd.id, e.now); late {
			ev.at, ev.kind = at, evLateTimer
			e.schedule(ev)
			return
		}
	}
	e.stats.Timers++
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.TimerFired, Node: nd.id, Peer: algo.None, Timer: algo.Timer(ev.slot)})
	e.call = calling{kind: callTimer, timer: algo.Timer(ev.slot)}
	nd.m.Timer(e.point(ev.node), algo.Timer(ev.slot))
	e.noteStatus()
}

// setTimer runs Env.SetTimer for the node env points at.
func (e *Engine) setTimer(t algo.Timer, d time.Duration) {
	if int(t) >= e.stride {
		e.widen(int(t) + 1)
	}
	gen := &e.timers[int(e.env.k)*e.stride+int(t)]
	*gen++
	if d < 0 {
		d = 0
	}
	if e.gray != nil {
		d = e.gray.timer(e.env.v, d)
	}
	e.schedule(event{at: e.now + int64(d), kind: evTimer, node: e.env.k, gen: *gen, slot: int32(t)})
}

// stopTimer runs Env.StopTimer for the node env points at.
func (e *Engine) stopTimer(t algo.Timer) {
	if int(t) < e.stride {
		e.timers[int(e.env.k)*e.stride+int(t)]++
	}
}

// widen makes room for timers 0..n-1 of every node.
func (e *Engine) widen(n int) {
	stride := e.stride
	for stride < n {
		stride *= 2
	}
	timers := hugemem.Make[uint32](len(e.nodes) * stride)
	for k := range e.nodes {
		copy(timers[k*stride:], e.timers[k*e.stride:(k+1)*e.stride])
	}
	e.timers, e.stride = timers, stride
}

// nodeTimers are the generations of the timers of the node whose record is
// nodes[k].
func (e *Engine) nodeTimers(k int32) []uint32 {
	return e.timers[int(k)*e.stride : (int(k)+1)*e.stride]
}

// at points the environment at node v for an input to it.
func (e *Engine) at(v algo.NodeID) *env { return e.point(e.slot[v]) }

// point points the environment at the node whose record is nodes[k].
func (e *Engine) point(k int32) *env {
	nd := &e.nodes[k]
	e.env.k, e.env.nd, e.env.v = k, nd, nd.id
	return &e.env
}
