package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/internal/blame"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Setup is what an exploration explores, or a replay runs: a network of
// machines, their values and initiators, the checker's configuration (the
// same as a simulated run's), and how time and faults may go.
type Setup struct {
	Algorithm *algo.Algorithm
	// NewNode builds node v's machine (algo.Algorithm.Instantiate).
	NewNode    func(algo.NodeID) algo.Machine
	Graph      *topo.Graph
	Values     []int64
	Initiators []algo.NodeID // ascending; asked to elect right after their Start
	// Seed seeds each node's random source (Env.Rand).
	Seed  uint64
	Check check.Config
	// Timed explores only what real time allows: a message takes one of
	// Delays (ascending; a synchronous algorithm's take the rest of the
	// pulse), a timer fires at its time, and the run ends at Horizon.
	// Untimed, any event enabled may come next, a step a Tick after the
	// one before, and a run ends when no event is left.
	Timed   bool
	Delays  []time.Duration
	Horizon time.Duration
	// Reorder lets any message in flight on a link arrive first. Without
	// it links are FIFO, as in every other driver of elect (the
	// simulator's links, the runtime's reliable links) and in the
	// documents' model; with it, an algorithm is tried beyond that model.
	Reorder bool
	// Budget bounds the faults that exploration adds; a replay takes the
	// faults its schedule names.
	Budget Budget
}

// world is one state of a run: every machine, the messages in flight, the
// timers armed, the links up, the time, and the faults spent. A state that
// a step leads to shares with the state before it what the step did not
// touch (copy on write: see own and ownLink).
type world struct {
	s     *Setup
	n     int
	nodes []*nodeRec
	links []*link // by from*n+to; nil when nothing was ever sent
	down  []bool  // by a*n+b, both ways: a link of the network taken down
	now   time.Duration
	used  Budget
	sent  uint64 // transmissions, for the message bound

	// What this state owns (may change in place) while a step builds it.
	ownNodes, ownLinks  bitset
	ownDown, ownChanged bool

	// changed is, by node, the time of the last change the checker counts
	// at it (a crash, a restart, a link, an election it started after a
	// loss): timed, the checker's bounds run from there.
	changed []time.Duration
	// shared is what the machines share (findShared), the same for every
	// state of a run; calls is held while a machine runs, by every state
	// of a run. Machines may change what they share when it changes none
	// of their futures: an algorithm that cuts its nodes' lists from one
	// chunk of its configuration (vkt), or allocates a restarted node from
	// its slab. Two workers must not do it at once; the chunk they cut is
	// invisible to the states, which are copied and hashed by content.
	shared sharing
	calls  *sync.Mutex
	// emit, when set, receives the step's events (a replay's observers);
	// nil while exploring, which needs only the states.
	emit func(*trace.Event)
	// panicked is the panic of the last step, if a machine panicked.
	panicked *trace.Event
}

// nodeRec is one node's part of a state.
type nodeRec struct {
	m      algo.Machine // nil when crashed
	saved  []byte       // Save of the last crash
	rng    rand.PCG
	timers []armed // by timer
	status algo.Status
	fp     uint64 // fingerprint, 0 until computed
}

type armed struct {
	t  algo.Timer
	at time.Duration
}

// link is the messages in flight from one node to another, in the order
// they were sent, and the number the next one takes (Step.Seq).
type link struct {
	msgs []flight
	next uint32
}

type flight struct {
	m    algo.Message
	sent time.Duration
	seq  uint32
}

// newWorld is the state before the boot.
func newWorld(s *Setup) *world {
	n := s.Graph.N()
	w := &world{s: s, n: n, nodes: make([]*nodeRec, n), links: make([]*link, n*n), down: make([]bool, n*n), changed: make([]time.Duration, n),
		calls: new(sync.Mutex)}
	// The first state owns everything (a replay changes it in place).
	w.ownNodes, w.ownLinks, w.ownDown, w.ownChanged = newBitset(n), newBitset(n*n), true, true
	for i := range n * n {
		w.ownLinks.set(i)
	}
	for v := range n {
		w.nodes[v] = &nodeRec{status: algo.Status{Leader: algo.None}}
		w.nodes[v].rng = *rand.NewPCG(s.Seed, 0x6578706c6f7265^uint64(v)) // "explore"
		w.ownNodes.set(v)
	}
	return w
}

// next is a state to build from w by one step: it shares everything with w
// until owned.
func (w *world) next() *world {
	c := *w
	c.nodes = slices.Clone(w.nodes)
	c.links = slices.Clone(w.links)
	c.ownNodes = newBitset(w.n)
	c.ownLinks = newBitset(w.n * w.n)
	c.ownDown, c.ownChanged = false, false
	c.panicked = nil
	return &c
}

// change notes a change the checker counts at the given nodes, now.
func (w *world) change(nodes ...algo.NodeID) {
	if !w.ownChanged {
		w.changed = slices.Clone(w.changed)
		w.ownChanged = true
	}
	for _, v := range nodes {
		w.changed[v] = w.now
	}
}

// own makes node v's record this state's own, copying its machine.
func (w *world) own(v algo.NodeID) *nodeRec {
	if !w.ownNodes.has(int(v)) {
		old := w.nodes[v]
		nd := &nodeRec{saved: old.saved, rng: old.rng, timers: slices.Clone(old.timers), status: old.status}
		if old.m != nil {
			nd.m = cloneMachine(old.m, w.shared)
		}
		w.nodes[v] = nd
		w.ownNodes.set(int(v))
	}
	nd := w.nodes[v]
	nd.fp = 0
	return nd
}

// ownLink makes the link from a to b this state's own.
func (w *world) ownLink(from, to algo.NodeID) *link {
	i := int(from)*w.n + int(to)
	if !w.ownLinks.has(i) || w.links[i] == nil {
		l := &link{}
		if old := w.links[i]; old != nil {
			l.msgs, l.next = slices.Clone(old.msgs), old.next
		}
		w.links[i] = l
		w.ownLinks.set(i)
	}
	return w.links[i]
}

func (w *world) link(from, to algo.NodeID) *link { return w.links[int(from)*w.n+int(to)] }

// linked says whether a and b are neighbours now: linked in the network,
// the link not taken down, both alive.
func (w *world) linked(a, b algo.NodeID) bool {
	return w.s.Graph.HasEdge(a, b) && !w.down[int(a)*w.n+int(b)] && w.nodes[a].m != nil && w.nodes[b].m != nil
}

func (w *world) setDown(a, b algo.NodeID, down bool) {
	if !w.ownDown {
		w.down = slices.Clone(w.down)
		w.ownDown = true
	}
	w.down[int(a)*w.n+int(b)], w.down[int(b)*w.n+int(a)] = down, down
}

// clock is the time machines see: the run's, timed; untimed, always 0, so
// that what a machine does never depends on the order of the steps before
// (partial-order reduction takes steps that commute in either order to the
// same state).
func (w *world) clock() time.Duration {
	if w.s.Timed {
		return w.now
	}
	return 0
}

// event hands an event to the replay's observers.
func (w *world) event(e trace.Event) {
	if w.emit != nil {
		e.At = w.now
		w.emit(&e)
	}
}

// boot starts every node, in id order, and asks each initiator to elect
// right after its Start, as the simulator does; it is the run's time 0.
func (w *world) boot() {
	for v := range w.n {
		w.event(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(v), Peer: algo.None, Value: w.s.Values[v]})
	}
	for _, e := range w.s.Graph.Edges() {
		w.event(trace.Event{Kind: trace.LinkUp, Node: e.A, Peer: e.B})
	}
	ms := make([]algo.Machine, w.n)
	for v := range w.n {
		w.nodes[v].m = w.s.NewNode(algo.NodeID(v))
		ms[v] = w.nodes[v].m
	}
	w.shared = findShared(ms)
	initiators := w.s.Initiators
	for v := range algo.NodeID(w.n) {
		w.call(v, "Start", func(m algo.Machine, env algo.Env) { m.Start(env) })
		if w.panicked != nil {
			return
		}
		if len(initiators) > 0 && initiators[0] == v {
			initiators = initiators[1:]
			w.event(trace.Event{Kind: trace.ElectCalled, Node: v, Peer: algo.None})
			w.call(v, "Elect", func(m algo.Machine, env algo.Env) { m.Elect(env) })
			if w.panicked != nil {
				return
			}
		}
	}
}

// call hands node v an input, then notes its status. A panic of the
// machine's is kept (w.panicked) and emitted; one of elect's own is raised
// again.
func (w *world) call(v algo.NodeID, what string, f func(algo.Machine, algo.Env)) {
	nd := w.own(v)
	w.guard(v, what, func() {
		f(nd.m, &env{w: w, v: v, nd: nd})
		if s := nd.m.Status(); s != nd.status {
			if s.Index.ID == v && s.Index != nd.status.Index && w.s.Check.Lossy {
				w.change(v) // under loss, an election of its own is a change (check.Config.Lossy)
			}
			nd.status = s
			w.event(trace.Event{Kind: trace.StatusChanged, Node: v, Peer: algo.None, Status: s})
		}
	})
}

// guard runs f, node v's machine at work in the call named what, one
// machine at a time (calls). A panic of the machine's is kept (w.panicked)
// and emitted; one of elect's own is raised again.
func (w *world) guard(v algo.NodeID, what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			bp := blame.Recovered(r)
			if _, fault := r.(machineFault); !fault && !bp.Theirs {
				panic(fmt.Sprintf("explore: internal error (a bug of elect, not of the algorithm): %v\n%s", r, bp.Stack))
			}
			e := trace.Event{Kind: trace.Panicked, Node: v, Peer: algo.None, Text: bp.Said(what)}
			w.event(e)
			e.At = w.now
			w.panicked = &e
		}
	}()
	w.calls.Lock()
	defer w.calls.Unlock()
	f()
}

// machineFault is a panic the explorer raises for a machine's misuse (a
// message type it does not declare, saved state it cannot read back): the
// machine's bug, though it begins in the explorer's code.
type machineFault string

// apply takes step s on w (a state of its own: next), and says what is
// wrong with it if the step cannot be taken there.
func (w *world) apply(s Step) error {
	if s.At < w.now {
		return fmt.Errorf("at %v, before the step before it (%v)", s.At, w.now)
	}
	w.now = s.At
	v := s.Node
	if v < 0 || int(v) >= w.n {
		return fmt.Errorf("node %d is not one of the %d nodes", v, w.n)
	}
	switch s.Kind {
	case Deliver, Lose:
		if s.Peer < 0 || int(s.Peer) >= w.n {
			return fmt.Errorf("node %d is not one of the %d nodes", s.Peer, w.n)
		}
		l := w.link(s.Peer, v)
		i := -1
		if l != nil {
			i = slices.IndexFunc(l.msgs, func(f flight) bool { return f.seq == s.Seq })
		}
		if i < 0 {
			return fmt.Errorf("no message %d from node %d to node %d is in flight", s.Seq, s.Peer, v)
		}
		l = w.ownLink(s.Peer, v)
		f := l.msgs[i]
		l.msgs = slices.Delete(l.msgs, i, i+1)
		if s.Kind == Lose {
			w.used.Losses++
			w.event(trace.Event{Kind: trace.Dropped, Node: s.Peer, Peer: v, Msg: f.m, Reason: trace.Lost})
			return nil
		}
		w.event(trace.Event{Kind: trace.Delivered, Node: v, Peer: s.Peer, Msg: f.m})
		name := fmt.Sprintf("type %d", f.m.Type)
		if int(f.m.Type) < len(w.s.Algorithm.Messages) {
			name = w.s.Algorithm.Messages[f.m.Type]
		}
		w.call(v, fmt.Sprintf("Receive of %s from %d", name, s.Peer), func(m algo.Machine, env algo.Env) { m.Receive(env, &f.m) })
	case Fire:
		nd := w.nodes[v]
		i := slices.IndexFunc(nd.timers, func(a armed) bool { return a.t == s.Timer })
		if nd.m == nil || i < 0 {
			return fmt.Errorf("node %d has no timer %d armed", v, s.Timer)
		}
		nd = w.own(v)
		nd.timers = slices.Delete(nd.timers, i, i+1)
		w.event(trace.Event{Kind: trace.TimerFired, Node: v, Peer: algo.None, Timer: s.Timer})
		w.call(v, fmt.Sprintf("Timer of timer %d", s.Timer), func(m algo.Machine, env algo.Env) { m.Timer(env, s.Timer) })
	case Crash:
		if w.nodes[v].m == nil {
			return fmt.Errorf("node %d is down already", v)
		}
		w.used.Crashes++
		w.crash(v)
	case Restart, Recover:
		if w.nodes[v].m != nil {
			return fmt.Errorf("node %d is up", v)
		}
		w.used.Restarts++
		w.revive(v, s.Kind == Recover)
	case LinkDown, LinkUp:
		u := s.Peer
		if u < 0 || int(u) >= w.n || !w.s.Graph.HasEdge(v, u) {
			return fmt.Errorf("%d-%d is not a link of the network", v, u)
		}
		if down := w.down[int(v)*w.n+int(u)]; down == (s.Kind == LinkDown) {
			return fmt.Errorf("link %d-%d is %s already", v, u, map[bool]string{true: "down", false: "up"}[down])
		}
		w.used.LinkChanges++
		if s.Kind == LinkDown {
			w.cut(v, u)
		} else {
			w.join(v, u)
		}
	default:
		return fmt.Errorf("unknown step kind %d", s.Kind)
	}
	return nil
}

// crash stops v: its Save is kept, its timers and links go, and its
// neighbours are told.
func (w *world) crash(v algo.NodeID) {
	w.event(trace.Event{Kind: trace.Crashed, Node: v, Peer: algo.None})
	w.change(v)
	w.change(w.s.Graph.Neighbors(v)...)
	nd := w.own(v)
	w.guard(v, "Save", func() { nd.saved = nd.m.Save() })
	if w.panicked != nil {
		return
	}
	var lost []algo.NodeID
	for _, u := range w.s.Graph.Neighbors(v) {
		if w.linked(v, u) {
			lost = append(lost, u)
		}
	}
	nd.m, nd.timers, nd.status = nil, nil, algo.Status{Leader: algo.None}
	for _, u := range lost {
		w.flush(v, u)
	}
	for _, u := range lost {
		w.call(u, fmt.Sprintf("NeighborDown of %d", v), func(m algo.Machine, env algo.Env) { m.NeighborDown(env, v) })
		if w.panicked != nil {
			return
		}
	}
}

// revive boots a crashed v again, with its saved state or none, and tells
// the neighbours it reaches again.
func (w *world) revive(v algo.NodeID, recover bool) {
	kind, what := trace.Restarted, "Restart"
	if recover {
		kind, what = trace.Recovered, "Recover"
	}
	w.event(trace.Event{Kind: kind, Node: v, Peer: algo.None})
	w.change(v)
	w.change(w.s.Graph.Neighbors(v)...)
	nd := w.own(v)
	w.calls.Lock()
	nd.m = w.s.NewNode(v)
	w.calls.Unlock()
	var found []algo.NodeID
	for _, u := range w.s.Graph.Neighbors(v) {
		if w.linked(v, u) {
			found = append(found, u)
		}
	}
	saved := nd.saved
	w.call(v, what, func(m algo.Machine, env algo.Env) {
		if !recover {
			m.Restart(env)
			return
		}
		if err := m.Recover(env, saved); err != nil {
			panic(machineFault(fmt.Sprintf("%s node %d cannot recover its own saved state: %v", w.s.Algorithm.Name, v, err)))
		}
	})
	for _, u := range found {
		if w.panicked != nil {
			return
		}
		w.call(u, fmt.Sprintf("NeighborUp of %d", v), func(m algo.Machine, env algo.Env) { m.NeighborUp(env, v) })
	}
}

// cut takes the link a-b down: what is in flight on it is lost, and both
// ends are told.
func (w *world) cut(a, b algo.NodeID) {
	w.event(trace.Event{Kind: trace.LinkDown, Node: min(a, b), Peer: max(a, b)})
	w.change(a, b)
	up := w.linked(a, b)
	w.setDown(a, b, true)
	if !up {
		return
	}
	w.flush(a, b)
	w.call(a, fmt.Sprintf("NeighborDown of %d", b), func(m algo.Machine, env algo.Env) { m.NeighborDown(env, b) })
	if w.panicked == nil {
		w.call(b, fmt.Sprintf("NeighborDown of %d", a), func(m algo.Machine, env algo.Env) { m.NeighborDown(env, a) })
	}
}

// join brings the link a-b back up, and tells both ends if both live.
func (w *world) join(a, b algo.NodeID) {
	w.event(trace.Event{Kind: trace.LinkUp, Node: min(a, b), Peer: max(a, b)})
	w.change(a, b)
	w.setDown(a, b, false)
	if !w.linked(a, b) {
		return
	}
	w.call(a, fmt.Sprintf("NeighborUp of %d", b), func(m algo.Machine, env algo.Env) { m.NeighborUp(env, b) })
	if w.panicked == nil {
		w.call(b, fmt.Sprintf("NeighborUp of %d", a), func(m algo.Machine, env algo.Env) { m.NeighborUp(env, a) })
	}
}

// flush loses what is in flight both ways between a and b, whose link
// broke.
func (w *world) flush(a, b algo.NodeID) {
	for _, p := range [2][2]algo.NodeID{{a, b}, {b, a}} {
		if l := w.link(p[0], p[1]); l != nil && len(l.msgs) > 0 {
			l = w.ownLink(p[0], p[1])
			for _, f := range l.msgs {
				w.event(trace.Event{Kind: trace.Dropped, Node: p[0], Peer: p[1], Msg: f.m, Reason: trace.LinkBroke})
			}
			l.msgs = nil
		}
	}
}

// env is what a machine sees of the world during one call.
type env struct {
	w   *world
	v   algo.NodeID
	nd  *nodeRec
	rnd *rand.Rand
}

func (e *env) ID() algo.NodeID    { return e.v }
func (e *env) Value() int64       { return e.w.s.Values[e.v] }
func (e *env) Now() time.Duration { return e.w.clock() }
func (e *env) Report(what string) {
	e.w.event(trace.Event{Kind: trace.Reported, Node: e.v, Peer: algo.None, Text: what})
}
func (e *env) StopTimer(t algo.Timer) {
	e.nd.timers = slices.DeleteFunc(e.nd.timers, func(a armed) bool { return a.t == t })
}

func (e *env) Rand() *rand.Rand {
	if e.rnd == nil {
		e.rnd = rand.New(&e.nd.rng)
	}
	return e.rnd
}

func (e *env) Neighbors() []algo.NodeID {
	var out []algo.NodeID
	for _, u := range e.w.s.Graph.Neighbors(e.v) {
		if e.w.linked(e.v, u) {
			out = append(out, u)
		}
	}
	return out
}

func (e *env) SetTimer(t algo.Timer, d time.Duration) {
	at := e.w.clock() + d
	i, found := slices.BinarySearchFunc(e.nd.timers, t, func(a armed, t algo.Timer) int { return int(a.t) - int(t) })
	if found {
		e.nd.timers[i].at = at
		return
	}
	e.nd.timers = slices.Insert(e.nd.timers, i, armed{t: t, at: at})
}

func (e *env) Send(to algo.NodeID, m algo.Message) {
	w := e.w
	m.From, m.To = e.v, to
	if int(m.Type) >= len(w.s.Algorithm.Messages) {
		panic(machineFault(fmt.Sprintf("%s node %d sent message type %d, which its Messages (%d types) does not name",
			w.s.Algorithm.Name, e.v, m.Type, len(w.s.Algorithm.Messages))))
	}
	w.sent++
	w.event(trace.Event{Kind: trace.Sent, Node: e.v, Peer: to, Msg: m})
	if to < 0 || int(to) >= w.n || !w.linked(e.v, to) {
		w.event(trace.Event{Kind: trace.Dropped, Node: e.v, Peer: to, Msg: m, Reason: trace.NoLink})
		return
	}
	l := w.ownLink(e.v, to)
	l.msgs = append(l.msgs, flight{m: m, sent: w.now, seq: l.next})
	l.next++
}

// describe says a state in words, for a test's failure.
func (w *world) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "at %v:", w.now)
	for v, nd := range w.nodes {
		fmt.Fprintf(&b, " %d%+v", v, nd.status)
	}
	return b.String()
}

// bitset is a set of small integers: one word, without an allocation, up
// to 64 (the links of 8 nodes).
type bitset struct {
	small uint64
	big   []uint64
}

func newBitset(n int) bitset {
	if n <= 64 {
		return bitset{}
	}
	return bitset{big: make([]uint64, (n+63)/64)}
}

func (b *bitset) has(i int) bool {
	if b.big == nil {
		return b.small&(1<<uint(i)) != 0
	}
	return b.big[i/64]&(1<<uint(i%64)) != 0
}

func (b *bitset) set(i int) {
	if b.big == nil {
		b.small |= 1 << uint(i)
		return
	}
	b.big[i/64] |= 1 << uint(i%64)
}
