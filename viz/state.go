package viz

import (
	"slices"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// runState is what the page shows at a moment of a run: each node's value,
// life, state, leader and election index, its gray failures (clock,
// slowness), the links up and the directions cut, and the counters.
// The server keeps one, advanced over every event as it reads the trace,
// and writes it into each chunk as the chunk's keyframe; the page's apply
// (web/data.js) is its twin, advancing a keyframe to any event of the
// chunk. The two must agree event for event: TestBrowser compares the page
// with the simulator's nodes at several moments.
type runState struct {
	n      int
	value  []float64
	alive  []uint8
	leader []int32
	// state is 0 for a node not in any state yet (booting) or crashed,
	// else 1 + its algo.State.
	state []uint8
	// idxNum and idxID are the index of the election the node last took
	// part in; idxID is -1 before its first status.
	idxNum []float64
	idxID  []int32
	// since is when (ms) the node took up its current leader or life:
	// its leader last changed, or it crashed, restarted or recovered; -1
	// before any of that.
	since []float64
	links map[uint64]struct{} // a*n+b for the link a-b, a < b
	// cuts are the directions of links cut (trace.Cut), from*n+to: what
	// from sends to is not received. A direction is cut whether the link
	// is up or not; the page draws a link up with one direction cut as an
	// arrow the other way, and one cut both ways as down.
	cuts map[uint64]struct{}
	// gray holds the nodes whose clock or pace is not true (trace's
	// ClockRate, ClockJumped, Slowed): few, so kept apart from the
	// per-node arrays. A node not in it runs true (grayTrue).
	gray map[int32]grayNode
	sent []float64 // sends by message type
	// elections counts elections started: a node's status naming an
	// index of its own it did not hold before.
	elections float64
	// leaderlessMS and aliveMS are node-milliseconds without a leader and
	// alive, up to msNow; aliveN and ledN the nodes alive and alive with
	// a leader now.
	leaderlessMS, aliveMS float64
	aliveN, ledN          int
	msNow                 float64
	sentTotal             float64
	// valueChanges counts the value events (trace.ValueChanged).
	valueChanges float64
	// linkKeys and linkPairs are sortedLinks' memory, cutKeys and
	// cutPairs sortedCuts'.
	linkKeys  []uint64
	linkPairs []int32
	cutKeys   []uint64
	cutPairs  []int32
}

// grayNode is a node's gray state: its clock's rate in parts per million
// of true time, how late it handles its inputs (ns), how far its clock
// jumped in all (ns), and when it last jumped (ms, -1: never) and by how
// much (ns).
type grayNode struct {
	rate, slow, jumped, jumpMS, jumpBy float64
}

// grayTrue is the gray state of a node that runs true: every node's at
// the start.
var grayTrue = grayNode{rate: 1e6, jumpMS: -1}

// grayOf is node v's gray state.
func (s *runState) grayOf(v int32) grayNode {
	if g, ok := s.gray[v]; ok {
		return g
	}
	return grayTrue
}

// setGray sets node v's gray state, keeping s.gray to the nodes that do
// not run true.
func (s *runState) setGray(v int32, g grayNode) {
	if g == grayTrue {
		delete(s.gray, v)
		return
	}
	s.gray[v] = g
}

// normCode is the state code of algo.Norm.
const normCode = 1 + uint8(algo.Norm)

// stateNames lists the page's names of the state codes: "" for code 0,
// then algo's, a state's code being 1 + its value.
func stateNames() []string { return append([]string{""}, algo.StateNames()...) }

func newRunState(n, types int) *runState {
	s := &runState{
		n: n, value: make([]float64, n), alive: make([]uint8, n), leader: make([]int32, n),
		state: make([]uint8, n), idxNum: make([]float64, n), idxID: make([]int32, n), since: make([]float64, n),
		links: map[uint64]struct{}{}, cuts: map[uint64]struct{}{}, gray: map[int32]grayNode{},
		sent: make([]float64, types),
	}
	for v := range s.leader {
		s.leader[v], s.idxID[v], s.since[v] = -1, -1, -1 // no leader, no index yet
	}
	return s
}

// led says whether node v counts as following a leader.
func (s *runState) led(v int) int {
	if s.alive[v] == 1 && s.state[v] == normCode && s.leader[v] >= 0 {
		return 1
	}
	return 0
}

func (s *runState) linkKey(a, b algo.NodeID) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)*uint64(s.n) + uint64(b)
}

// apply advances s over e and the time before it.
func (s *runState) apply(e *trace.Event) {
	ms := float64(e.At) / 1e6
	if ms > s.msNow {
		s.aliveMS += float64(s.aliveN) * (ms - s.msNow)
		s.leaderlessMS += float64(s.aliveN-s.ledN) * (ms - s.msNow)
		s.msNow = ms
	}
	v := int(e.Node)
	if e.Kind == trace.Sent {
		if int(e.Msg.Type) < len(s.sent) {
			s.sent[e.Msg.Type]++
		}
		s.sentTotal++
		return
	}
	if v < 0 || v >= s.n {
		return
	}
	switch e.Kind {
	case trace.NodeAdded:
		s.value[v] = float64(e.Value)
		if s.alive[v] == 0 {
			s.alive[v] = 1
			s.aliveN++
		}
	case trace.ValueChanged:
		s.value[v] = float64(e.Value)
		s.valueChanges++
	case trace.LinkUp:
		if int(e.Peer) >= 0 && int(e.Peer) < s.n {
			s.links[s.linkKey(e.Node, e.Peer)] = struct{}{}
		}
	case trace.LinkDown:
		if int(e.Peer) >= 0 && int(e.Peer) < s.n {
			delete(s.links, s.linkKey(e.Node, e.Peer))
		}
	case trace.Cut:
		if p := int(e.Peer); p >= 0 && p < s.n && p != v {
			s.cuts[uint64(v)*uint64(s.n)+uint64(p)] = struct{}{}
		}
	case trace.Uncut:
		if p := int(e.Peer); p >= 0 && p < s.n {
			delete(s.cuts, uint64(v)*uint64(s.n)+uint64(p))
		}
	case trace.ClockRate:
		g := s.grayOf(int32(v))
		g.rate = float64(e.Value)
		s.setGray(int32(v), g)
	case trace.ClockJumped:
		g := s.grayOf(int32(v))
		g.jumped += float64(e.Value)
		g.jumpMS, g.jumpBy = ms, float64(e.Value)
		s.setGray(int32(v), g)
	case trace.Slowed:
		g := s.grayOf(int32(v))
		g.slow = float64(e.Value)
		s.setGray(int32(v), g)
	case trace.Crashed:
		if s.alive[v] == 1 {
			s.ledN -= s.led(v)
			s.alive[v] = 0
			s.aliveN--
		}
		s.leader[v], s.state[v], s.since[v] = -1, 0, ms
	case trace.Restarted, trace.Recovered:
		if s.alive[v] == 0 {
			s.since[v] = ms
			s.alive[v] = 1
			s.aliveN++
			s.ledN += s.led(v)
		}
	case trace.StatusChanged:
		idx := e.Status.Index
		num, id := float64(idx.Num), int32(idx.ID)
		if int(id) == v && (num != 0 || id != 0) && (s.idxNum[v] != num || s.idxID[v] != id) {
			s.elections++
		}
		s.ledN -= s.led(v)
		if s.leader[v] != int32(e.Status.Leader) {
			s.since[v] = ms
		}
		s.leader[v], s.state[v] = int32(e.Status.Leader), 1+uint8(e.Status.State)
		s.idxNum[v], s.idxID[v] = num, id
		s.ledN += s.led(v)
	}
}

// sortedLinks lists the links up as pairs a, b (a < b), in order, in
// memory of s's own that the next call reuses.
func (s *runState) sortedLinks() []int32 {
	s.linkKeys, s.linkPairs = s.sortedPairs(s.links, s.linkKeys, s.linkPairs)
	return s.linkPairs
}

// sortedCuts lists the directions cut as pairs from, to, in order, in
// memory of s's own that the next call reuses.
func (s *runState) sortedCuts() []int32 {
	s.cutKeys, s.cutPairs = s.sortedPairs(s.cuts, s.cutKeys, s.cutPairs)
	return s.cutPairs
}

// sortedPairs lists the pairs of set (keys a*n+b) as a, b in order,
// reusing the memory of keys and out.
func (s *runState) sortedPairs(set map[uint64]struct{}, keys []uint64, out []int32) ([]uint64, []int32) {
	keys = keys[:0]
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out = out[:0]
	for _, k := range keys {
		out = append(out, int32(k/uint64(s.n)), int32(k%uint64(s.n)))
	}
	return keys, out
}

// sortedGray lists the nodes that do not run true, in order.
func (s *runState) sortedGray() []int32 {
	vs := make([]int32, 0, len(s.gray))
	for v := range s.gray {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// cut says the direction from -> to is cut.
func (s *runState) cut(from, to int) bool {
	_, ok := s.cuts[uint64(from)*uint64(s.n)+uint64(to)]
	return ok
}
