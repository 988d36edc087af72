package sim

import (
	"fmt"
	"github.com/electgo/elect/internal/ids"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

type bootMode uint8

const (
	bootStart bootMode = iota
	bootRestart
	bootRecover
)

// boot runs node v's boot input, on a new machine unless this is the first
// start (New made the first machines, in layout order).
func (e *Engine) boot(v algo.NodeID, mode bootMode) {
	nd := e.node(v)
	nd.alive = true
	if mode != bootStart {
		nd.m = e.newNode(v)
	}
	env := e.at(v)
	switch mode {
	case bootStart:
		e.call = calling{kind: callStart}
		nd.m.Start(env)
	case bootRestart:
		e.call = calling{kind: callRestart}
		nd.m.Restart(env)
	case bootRecover:
		e.call = calling{kind: callRecover}
		if err := nd.m.Recover(env, e.saved[e.slot[v]]); err != nil {
			// The bytes came from the same machine's Save: failing to read
			// them back is a bug in the algorithm, not a condition to model.
			panic(machineFault(fmt.Sprintf("%s node %d cannot recover its own saved state: %v", e.alg.Name, v, err)))
		}
	}
	e.noteStatus()
}

// elect asks live node v to start an election.
func (e *Engine) elect(v algo.NodeID) {
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.ElectCalled, Node: v, Peer: algo.None})
	e.call = calling{kind: callElect}
	e.node(v).m.Elect(e.at(v))
	e.noteStatus()
}

// acted emits an Acted event: what a scenario's event does, in words.
func (e *Engine) acted(what string) {
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.Acted, Peer: algo.None, Text: what})
}

// act runs one entry of the timeline.
func (e *Engine) act(a *Action) {
	switch a.Kind {
	case Crash:
		if a.Leader {
			if v, ok := e.leader(); ok {
				e.crash(v)
			} else {
				e.acted("a crash of the leader finds none")
			}
		}
		for _, v := range a.Nodes {
			e.crash(v)
		}
	case Restart, Recover:
		for _, v := range a.Nodes {
			e.revive(v, a.Kind)
		}
	case ElectAt:
		for _, v := range a.Nodes {
			if e.node(v).alive {
				e.elect(v)
			}
		}
	case Partition:
		e.acted(a.Describe())
		group := make([]int32, len(e.nodes))
		for gi, g := range a.Groups {
			for _, v := range e.members(g) {
				group[v] = int32(gi + 1)
			}
		}
		e.regroup(group)
	case Heal:
		e.acted(a.Describe())
		e.regroup(nil)
	case CrashOn:
		t, _ := e.msgType(a.Message)
		if e.crashOn == nil {
			e.crashOn = map[algo.NodeID]algo.MsgType{}
		}
		for _, v := range a.Nodes {
			e.crashOn[v] = t
		}
	case Corrupt:
		if e.jokers == nil {
			e.jokers = map[algo.NodeID]bool{}
		}
		for _, v := range a.Nodes {
			e.jokers[v] = true
		}
	case Cut, Uncut, Clock, Slow, LossDir:
		e.actGray(a)
	case SetValue:
		if a.Leader {
			if v, ok := e.leader(); ok {
				e.setValue(v, a.Value)
			} else {
				e.acted("a change of the leader's value finds none")
			}
		}
		for _, v := range a.Nodes {
			e.setValue(v, a.Value)
		}
	case LinkDown, LinkUp:
		e.keepRange()
		k := a.Link
		if k.A > k.B {
			k.A, k.B = k.B, k.A
		}
		was := e.physUp(k.A, k.B)
		if a.Kind == LinkDown {
			e.down[k] = true
		} else {
			delete(e.down, k)
		}
		if now := e.physUp(k.A, k.B); now != was {
			e.setLink(k, now, false)
		}
	}
}

// setValue sets node v's value (alive or not: a crashed node comes back
// with it), as a ValueChanged event when it changes.
func (e *Engine) setValue(v algo.NodeID, x int64) {
	nd := e.node(v)
	if nd.value == x {
		return
	}
	nd.value = x
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.ValueChanged, Node: v, Peer: algo.None, Value: x})
}

// leader returns the leader the most live nodes follow, the highest id among
// equals; false when no live node follows one.
func (e *Engine) leader() (algo.NodeID, bool) {
	votes := map[algo.NodeID]int{}
	best, most := algo.None, 0
	for k := range e.nodes {
		nd := &e.nodes[k]
		if !nd.alive || !nd.status.HasLeader() || !e.node(nd.status.Leader).alive {
			continue
		}
		l := nd.status.Leader
		votes[l]++
		if c := votes[l]; c > most || c == most && l > best {
			best, most = l, c
		}
	}
	return best, best != algo.None
}

// physUp reports whether the link a-b is physically up: in range (an edge of
// the graph, without motion), not cut by the partition, not taken down.
func (e *Engine) physUp(a, b algo.NodeID) bool {
	return e.inRangeNow(a, b) && e.open(a, b)
}

// open reports whether nothing cuts the pair a-b: no partition between them,
// no link_down on them.
func (e *Engine) open(a, b algo.NodeID) bool {
	if e.group != nil && e.group[a] != e.group[b] {
		return false
	}
	if len(e.down) > 0 {
		if a > b {
			a, b = b, a
		}
		return !e.down[topo.Edge{A: a, B: b}]
	}
	return true
}

// regroup installs a new partition (nil: none) and brings links down and up
// to match, in ascending edge order.
func (e *Engine) regroup(group []int32) {
	e.keepRange()
	old := e.group
	var changed []topo.Edge
	var up []bool
	for v := range e.nodes {
		a := algo.NodeID(v)
		for _, b := range e.inRangeOf(a) {
			if b < a {
				continue
			}
			e.group = old
			was := e.open(a, b)
			e.group = group
			if now := e.open(a, b); now != was {
				changed = append(changed, topo.Edge{A: a, B: b})
				up = append(up, now)
			}
		}
	}
	e.group = group
	for i, k := range changed {
		e.setLink(k, up[i], false)
	}
}

// setLink reports a physical link change (moved: one that movement made)
// and, when both ends are alive, makes the link usable or not and tells both
// machines.
func (e *Engine) setLink(k topo.Edge, up, moved bool) {
	kind := trace.LinkDown
	if up {
		kind = trace.LinkUp
	}
	e.emit(trace.Event{At: time.Duration(e.now), Kind: kind, Node: k.A, Peer: k.B, Moved: moved})
	if !e.node(k.A).alive || !e.node(k.B).alive {
		return
	}
	if up {
		e.connect(k.A, k.B)
		e.neighborUp(k.A, k.B)
		e.neighborUp(k.B, k.A)
	} else {
		e.disconnect(k.A, k.B)
		e.neighborDown(k.A, k.B)
		e.neighborDown(k.B, k.A)
	}
}

func (e *Engine) neighborUp(v, u algo.NodeID) {
	e.call = calling{kind: callNeighborUp, peer: u}
	e.node(v).m.NeighborUp(e.at(v), u)
	e.noteStatus()
}

func (e *Engine) neighborDown(v, u algo.NodeID) {
	e.call = calling{kind: callNeighborDown, peer: u}
	e.node(v).m.NeighborDown(e.at(v), u)
	e.noteStatus()
}

func (e *Engine) crash(v algo.NodeID) {
	nd := e.node(v)
	if !nd.alive {
		return
	}
	e.keepRange()
	e.emit(trace.Event{At: time.Duration(e.now), Kind: trace.Crashed, Node: v, Peer: algo.None})
	e.crashes = append(e.crashes, CrashAt{At: time.Duration(e.now), Node: v})
	k := e.slot[v]
	e.call = calling{kind: callSave}
	e.at(v)
	e.saved[k] = nd.m.Save()
	nd.m = nil
	if e.vals != nil {
		e.chargeCrash(v)
		e.vals.yielded[v] = false
	}
	nd.alive = false
	nd.status = algo.Status{Leader: algo.None}
	if e.gray != nil {
		e.gray.crashed(v)
	}
	timers := e.nodeTimers(k)
	for i := range timers {
		timers[i]++ // pending expiries die with the node
	}
	lost := slices.Clone(e.nbrsOf(nd))
	for _, u := range lost {
		e.disconnect(v, u)
	}
	for _, u := range lost {
		e.neighborDown(u, v)
	}
}

func (e *Engine) revive(v algo.NodeID, kind ActionKind) {
	nd := e.node(v)
	if nd.alive {
		return
	}
	e.keepRange()
	ev, mode := trace.Restarted, bootRestart
	if kind == Recover {
		ev, mode = trace.Recovered, bootRecover
	}
	e.emit(trace.Event{At: time.Duration(e.now), Kind: ev, Node: v, Peer: algo.None})
	var found []algo.NodeID
	for _, u := range e.inRangeOf(v) {
		if e.node(u).alive && e.open(v, u) {
			e.connect(v, u)
			found = append(found, u)
		}
	}
	e.boot(v, mode)
	for _, u := range found {
		e.neighborUp(u, v)
	}
}

// connect makes the link a-b usable, in a new incarnation: messages sent on
// an earlier one are lost even if they arrive after this (since).
func (e *Engine) connect(a, b algo.NodeID) {
	if e.since == nil {
		e.since = make([]uint64, len(e.nbrs))
	}
	e.changes++
	e.addLink(a, b)
	e.addLink(b, a)
}

// disconnect makes the link a-b unusable; the messages in flight on it will
// find it gone.
func (e *Engine) disconnect(a, b algo.NodeID) {
	e.removeLink(a, b)
	e.removeLink(b, a)
	e.changes++
	e.downs++
	e.node(a).lastDown = uint32(e.downs)
	e.node(b).lastDown = uint32(e.downs)
}

// addLink adds u to v's reachable neighbours.
func (e *Engine) addLink(v, u algo.NodeID) {
	nd := e.node(v)
	i, found := ids.Find(e.nbrsOf(nd), u)
	if found {
		panic(fmt.Sprintf("sim: link %d-%d added twice (a Motion that brought a pair into range twice?)", v, u))
	}
	if nd.deg == nd.room {
		e.moveOut(nd)
	}
	// Shift the tail of the lists one place right, within the room.
	at, end := int(nd.off)+i, int(nd.off+nd.deg)
	insertAt(e.nbrs, at, end, u)
	insertAt(e.links, at, end, e.slot[u])
	if e.lasts != nil {
		insertAt(e.lasts, at, end, 0)
	}
	if e.since != nil {
		insertAt(e.since, at, end, e.changes)
	}
	nd.deg++
}

// insertAt inserts x at s[at], shifting s[at:end] right by one.
func insertAt[T any](s []T, at, end int, x T) {
	copy(s[at+1:end+1], s[at:end])
	s[at] = x
}

// removeAt removes s[at], shifting s[at+1:end] left by one.
func removeAt[T any](s []T, at, end int) {
	copy(s[at:end-1], s[at+1:end])
}

// moveTo copies s[off:off+n] to s[to:], appending room places to s first
// when to is its end, and returns the new s.
func moveTo[T any](s []T, off, n, to, room int) []T {
	if to == len(s) {
		s = append(s, make([]T, room)...)
	}
	copy(s[to:to+n], s[off:off+n])
	return s
}

// moveOut moves nd's lists, which fill their room, to a place with the next
// power of two above it: one that another list left (spare), or the end of
// the shared arrays. Under mobility every list grows and shrinks all run
// long; without reuse, each node would leave a trail of ever larger places
// behind it, the arrays would grow to twice the space in use, and the
// collector would copy them at each growth.
func (e *Engine) moveOut(nd *node) {
	room := max(4, 1<<bits.Len32(uint32(nd.room)))
	off, n, to := int(nd.off), int(nd.deg), len(e.nbrs)
	if free := e.spare[int32(room)]; len(free) > 0 {
		to = int(free[len(free)-1])
		e.spare[int32(room)] = free[:len(free)-1]
	}
	if to+room > math.MaxInt32 {
		// Places are int32 (node.off): 2^31 list entries, twice the most
		// links a network may start with (topo.MaxEdges), before motion
		// grows the lists.
		panic(fmt.Sprintf("sim: the neighbour lists outgrew %d entries", math.MaxInt32))
	}
	e.nbrs = moveTo(e.nbrs, off, n, to, room)
	e.links = moveTo(e.links, off, n, to, room)
	if e.lasts != nil {
		e.lasts = moveTo(e.lasts, off, n, to, room)
	}
	if e.since != nil {
		e.since = moveTo(e.since, off, n, to, room)
	}
	// The place left is filed under the largest power of two it holds:
	// a list's first place has its first degree for room, any size.
	if nd.room >= 4 {
		if e.spare == nil {
			e.spare = map[int32][]int32{}
		}
		class := int32(1) << (bits.Len32(uint32(nd.room)) - 1)
		e.spare[class] = append(e.spare[class], nd.off)
	}
	nd.off, nd.room = int32(to), int32(room)
}

func (e *Engine) removeLink(v, u algo.NodeID) {
	nd := e.node(v)
	i, found := ids.Find(e.nbrsOf(nd), u)
	if !found {
		panic(fmt.Sprintf("sim: link %d-%d removed but not present (a Motion that took a pair out of range that was not in it?)", v, u))
	}
	at, end := int(nd.off)+i, int(nd.off+nd.deg)
	removeAt(e.nbrs, at, end)
	removeAt(e.links, at, end)
	if e.lasts != nil {
		removeAt(e.lasts, at, end)
	}
	if e.since != nil {
		removeAt(e.since, at, end)
	}
	nd.deg--
}
