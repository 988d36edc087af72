package viz

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/trace"
)

// chunkEvents is how many events a chunk holds (the last one fewer). The
// page holds a few chunks at a time: 65,536 events are 2.2 MB of columns,
// about a fifth of a second of a 10,000-node run.
const chunkEvents = 1 << 16

// A chunk on the wire (GET /chunk?k=K) is a run of events with the state
// before the first of them, little-endian, each array at an offset that is
// a multiple of its element's size, so that the page reads it through
// typed arrays without a copy or a parse:
//
//	header: 10 uint32: magic, version, events, nodes, links, message types,
//	        keyframe bytes, text bytes, cuts, gray nodes
//	keyframe (padded to 8 bytes), the state before the chunk's first event:
//	  float64 first event, ms, elections, leaderless ms, alive ms,
//	          alive nodes, led nodes, sent in all, value changes
//	  float64 sent[types], value[nodes], idxNum[nodes], since[nodes] (ms
//	          the node took up its leader or life, -1: never),
//	          gray[5*gray nodes]: for each node that does not run true, its
//	          clock's rate (ppm), how late it is (ns), how far its clock
//	          jumped in all (ns), when it last jumped (ms, -1: never) and
//	          by how much (ns)
//	  int32   leader[nodes], idxID[nodes], links[2*links] (pairs a < b),
//	          cuts[2*cuts] (pairs from, to: what from sends to is lost),
//	          grayNodes[gray nodes] (in order, as gray's)
//	  uint8   alive[nodes], state[nodes]
//	events (padded to 8 bytes), in columns:
//	  float64 t[events] (ns), b[events]
//	  int32   node[events], peer[events], a[events], c[events]
//	  uint8   kind[events], flag[events]
//	text: a JSON array of the reports' texts
//
// What a, b, c and flag hold depends on the kind (trace.Kind):
//
//	node:                 b value
//	value:                b value; a the place in the text array of its
//	                      words when it crossed (metrics.ValueMove: a
//	                      follower rose above its leader, a leader fell
//	                      below a follower), else -1; flag 1 if it rose, 2
//	                      if it fell (0: the value before not known), 4 if
//	                      c holds the value before (when an int32 can)
//	clock, jump, slow:    b value (ppm, ns, ns)
//	cut, uncut:           node the sender whose messages to peer are lost
//	send, deliver, drop:  a message type (index in the header's, -1 if none);
//	                      flag the drop's reason (trace.DropReason)
//	status:               a leader, b and c the index, flag the state code
//	link_up, link_down:   flag 1 if movement made it
//	timer:                a the timer
//	report, panic, act:   a the text's place in the text array
//	end:                  flag 1 if quiescent
const (
	chunkMagic   = 0x68636c65 // "elch"
	chunkVersion = 4
	chunkHeader  = 10 * 4
)

// chunkBuilder gathers the events of a chunk.
type chunkBuilder struct {
	first    int
	keyframe []byte
	nodes    int
	links    int
	cuts     int
	grays    int
	types    int
	t, b     []float64
	node     []int32
	peer     []int32
	a, c     []int32
	kind     []uint8
	flag     []uint8
	text     []string
}

// newChunkBuilder starts a chunk at event first, after state s. It takes
// the memory of spent, a chunk written out, when given: a chunk is
// megabytes, and reading a long trace allocates no more than two.
func newChunkBuilder(first int, s *runState, spent *chunkBuilder) *chunkBuilder {
	c := &chunkBuilder{}
	if spent != nil {
		*c = chunkBuilder{t: spent.t[:0], b: spent.b[:0], node: spent.node[:0], peer: spent.peer[:0],
			a: spent.a[:0], c: spent.c[:0], kind: spent.kind[:0], flag: spent.flag[:0], keyframe: spent.keyframe[:0]}
	}
	c.first, c.nodes, c.types = first, s.n, len(s.sent)
	c.keyframe, c.links, c.cuts, c.grays = encodeKeyframe(c.keyframe, s, first)
	return c
}

func (c *chunkBuilder) len() int { return len(c.t) }

// Flags of a value event.
const (
	valueRose   = 1
	valueFell   = 2
	valueBefore = 4 // c holds the value before
)

// said fills in the value event just added (e), as mv tells it: whether
// it rose or fell, from what, and, when it crossed, its words.
func (c *chunkBuilder) said(mv metrics.ValueMove) {
	j := len(c.t) - 1
	c.a[j] = -1
	var flag uint8
	if mv.Known {
		switch {
		case mv.To > mv.From:
			flag = valueRose
		case mv.To < mv.From:
			flag = valueFell
		}
		if mv.From >= math.MinInt32 && mv.From <= math.MaxInt32 {
			flag |= valueBefore
			c.c[j] = int32(mv.From)
		}
	}
	c.flag[j] = flag
	if mv.Crossed() {
		c.a[j] = int32(len(c.text))
		c.text = append(c.text, mv.String())
	}
}

// add appends e.
func (c *chunkBuilder) add(e *trace.Event) {
	var a, cc int32
	var b float64
	var flag uint8
	switch e.Kind {
	case trace.NodeAdded, trace.ValueChanged, trace.ClockRate, trace.ClockJumped, trace.Slowed:
		b = float64(e.Value)
	case trace.Sent, trace.Delivered, trace.Dropped:
		a = -1
		if int(e.Msg.Type) < c.types {
			a = int32(e.Msg.Type)
		}
		if e.Kind == trace.Dropped {
			flag = uint8(e.Reason)
		}
	case trace.StatusChanged:
		a, b, cc = int32(e.Status.Leader), float64(e.Status.Index.Num), int32(e.Status.Index.ID)
		flag = 1 + uint8(e.Status.State)
	case trace.LinkUp, trace.LinkDown:
		if e.Moved {
			flag = 1
		}
	case trace.TimerFired:
		a = int32(e.Timer)
	case trace.Reported, trace.Panicked, trace.Acted:
		a = int32(len(c.text))
		c.text = append(c.text, e.Text)
	case trace.End:
		if e.Quiescent {
			flag = 1
		}
	}
	c.t = append(c.t, float64(e.At))
	c.b = append(c.b, b)
	c.node = append(c.node, int32(e.Node))
	c.peer = append(c.peer, int32(e.Peer))
	c.a = append(c.a, a)
	c.c = append(c.c, cc)
	c.kind = append(c.kind, uint8(e.Kind))
	c.flag = append(c.flag, flag)
}

// encode writes the chunk as the page reads it, appended to b.
func (c *chunkBuilder) encode(b []byte) []byte {
	text, _ := json.Marshal(c.text)
	if c.text == nil {
		text = []byte("[]")
	}
	n := len(c.t)
	b = slices.Grow(b, chunkHeader+len(c.keyframe)+pad8(34*n)+len(text))
	for _, x := range []int{chunkMagic, chunkVersion, n, c.nodes, c.links, c.types, len(c.keyframe), len(text), c.cuts, c.grays} {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	b = append(b, c.keyframe...)
	b = appendFloats(b, c.t)
	b = appendFloats(b, c.b)
	for _, col := range [][]int32{c.node, c.peer, c.a, c.c} {
		b = appendInts(b, col)
	}
	b = append(b, c.kind...)
	b = append(b, c.flag...)
	b = padTo8(b)
	return append(b, text...)
}

// encodeKeyframe appends to b s as a chunk's keyframe, before event
// first, and says how many links, directions cut and gray nodes it holds.
func encodeKeyframe(b []byte, s *runState, first int) ([]byte, int, int, int) {
	links, cuts, grays := s.sortedLinks(), s.sortedCuts(), s.sortedGray()
	b = slices.Grow(b, keyframeHead+8*len(s.sent)+35*s.n+4*len(links)+4*len(cuts)+44*len(grays))
	b = appendFloats(b, []float64{float64(first), s.msNow, s.elections, s.leaderlessMS, s.aliveMS,
		float64(s.aliveN), float64(s.ledN), s.sentTotal, s.valueChanges})
	b = appendFloats(b, s.sent)
	b = appendFloats(b, s.value)
	b = appendFloats(b, s.idxNum)
	b = appendFloats(b, s.since)
	for _, v := range grays {
		g := s.gray[v]
		b = appendFloats(b, []float64{g.rate, g.slow, g.jumped, g.jumpMS, g.jumpBy})
	}
	b = appendInts(b, s.leader)
	b = appendInts(b, s.idxID)
	b = appendInts(b, links)
	b = appendInts(b, cuts)
	b = appendInts(b, grays)
	b = append(b, s.alive...)
	b = append(b, s.state...)
	return padTo8(b), len(links) / 2, len(cuts) / 2, len(grays)
}

// keyframeHead is the bytes of a keyframe's first floats.
const keyframeHead = 9 * 8

func appendFloats(b []byte, xs []float64) []byte {
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func appendInts(b []byte, xs []int32) []byte {
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

func pad8(n int) int { return (n + 7) &^ 7 }

func padTo8(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

// decodeKeyframe reads back the keyframe of an encoded chunk: the state
// before its first event, and that event's number.
func decodeKeyframe(b []byte) (*runState, int, error) {
	h, err := chunkHead(b)
	if err != nil {
		return nil, 0, err
	}
	nodes, links, types, kf, cuts, grays := h[3], h[4], h[5], h[6], h[8], h[9]
	if kf < keyframeHead+8*types+34*nodes+8*links+8*cuts+44*grays || chunkHeader+kf > len(b) {
		return nil, 0, fmt.Errorf("a keyframe of %d bytes for %d nodes", kf, nodes)
	}
	off := chunkHeader
	f64s := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[off:]))
			off += 8
		}
		return out
	}
	i32s := func(n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(b[off:]))
			off += 4
		}
		return out
	}
	u8s := func(n int) []uint8 {
		out := append([]uint8(nil), b[off:off+n]...)
		off += n
		return out
	}
	head := f64s(keyframeHead / 8)
	s := &runState{n: nodes, msNow: head[1], elections: head[2], leaderlessMS: head[3], aliveMS: head[4],
		aliveN: int(head[5]), ledN: int(head[6]), sentTotal: head[7], valueChanges: head[8], links: make(map[uint64]struct{}, links),
		cuts: make(map[uint64]struct{}, cuts), gray: make(map[int32]grayNode, grays)}
	s.sent, s.value, s.idxNum, s.since = f64s(types), f64s(nodes), f64s(nodes), f64s(nodes)
	gray := f64s(5 * grays)
	s.leader, s.idxID = i32s(nodes), i32s(nodes)
	pairs := i32s(2 * links)
	for j := 0; j < len(pairs); j += 2 {
		s.links[s.linkKey(algo.NodeID(pairs[j]), algo.NodeID(pairs[j+1]))] = struct{}{}
	}
	pairs = i32s(2 * cuts)
	for j := 0; j < len(pairs); j += 2 {
		s.cuts[uint64(pairs[j])*uint64(nodes)+uint64(pairs[j+1])] = struct{}{}
	}
	for j, v := range i32s(grays) {
		g := gray[5*j:]
		s.gray[v] = grayNode{rate: g[0], slow: g[1], jumped: g[2], jumpMS: g[3], jumpBy: g[4]}
	}
	s.alive, s.state = u8s(nodes), u8s(nodes)
	return s, int(head[0]), nil
}

// chunkHead reads a chunk's header.
func chunkHead(b []byte) ([10]int, error) {
	var h [10]int
	if len(b) < chunkHeader {
		return h, fmt.Errorf("a chunk of %d bytes", len(b))
	}
	for i := range h {
		h[i] = int(binary.LittleEndian.Uint32(b[4*i:]))
	}
	if h[0] != chunkMagic || h[1] != chunkVersion {
		return h, fmt.Errorf("not a chunk of version %d", chunkVersion)
	}
	return h, nil
}

// chunkEvent is one event of a decoded chunk, as the server reads it back
// to answer about a node (GET /node).
type chunkEvent struct {
	ns         float64
	kind       trace.Kind
	node, peer int32
	a, c       int32
	b          float64
	flag       uint8
	text       string
}

// decodeChunk reads back the events of an encoded chunk.
func decodeChunk(b []byte) ([]chunkEvent, error) {
	h, err := chunkHead(b)
	if err != nil {
		return nil, err
	}
	n, kf, textLen := h[2], h[6], h[7]
	off := chunkHeader + kf
	if len(b) != off+pad8(34*n)+textLen {
		return nil, fmt.Errorf("a chunk of %d events in %d bytes", n, len(b))
	}
	f64 := func(col, i int) float64 {
		return math.Float64frombits(binary.LittleEndian.Uint64(b[off+8*(col*n+i):]))
	}
	i32 := func(col, i int) int32 {
		return int32(binary.LittleEndian.Uint32(b[off+16*n+4*(col*n+i):]))
	}
	u8 := func(col, i int) uint8 { return b[off+32*n+col*n+i] }
	var text []string
	if err := json.Unmarshal(b[off+pad8(34*n):], &text); err != nil {
		return nil, fmt.Errorf("a chunk's texts: %w", err)
	}
	out := make([]chunkEvent, n)
	for i := range out {
		out[i] = chunkEvent{ns: f64(0, i), b: f64(1, i), node: i32(0, i), peer: i32(1, i), a: i32(2, i), c: i32(3, i),
			kind: trace.Kind(u8(0, i)), flag: u8(1, i)}
		if (out[i].kind.HasText() || out[i].kind == trace.ValueChanged) && int(out[i].a) < len(text) && out[i].a >= 0 {
			out[i].text = text[out[i].a]
		}
	}
	return out, nil
}

// event is e as the trace's event, as far as a runState reads it.
func (e *chunkEvent) event() trace.Event {
	ev := trace.Event{At: time.Duration(e.ns), Kind: e.kind, Node: algo.NodeID(e.node), Peer: algo.NodeID(e.peer)}
	// A value past int64 in float64 (2^63, rounded up from the largest)
	// is the largest: its float64, all a state keeps, is the same.
	switch {
	case e.b >= math.MaxInt64:
		ev.Value = math.MaxInt64
	case e.b <= math.MinInt64:
		ev.Value = math.MinInt64
	default:
		ev.Value = int64(e.b)
	}
	switch e.kind {
	case trace.Sent, trace.Delivered, trace.Dropped:
		ev.Msg.Type = 255 // none of the header's (a is -1): counted in no type
		if e.a >= 0 {
			ev.Msg.Type = algo.MsgType(e.a)
		}
	case trace.StatusChanged:
		ev.Status = algo.Status{Leader: algo.NodeID(e.a), State: algo.State(e.flag - 1),
			Index: algo.Index{Num: uint32(e.b), ID: algo.NodeID(e.c)}}
	case trace.LinkUp, trace.LinkDown:
		ev.Moved = e.flag == 1
	}
	return ev
}

// describe says what e was, for a node's history.
func (e *chunkEvent) describe(types []string) string {
	typ := func() string {
		if e.a >= 0 && int(e.a) < len(types) {
			return types[e.a]
		}
		return "message"
	}
	switch e.kind {
	case trace.Sent:
		if algo.NodeID(e.peer) == algo.Everyone {
			return "sent " + typ() + " to everyone"
		}
		return fmt.Sprintf("sent %s to %d", typ(), e.peer)
	case trace.Delivered:
		return fmt.Sprintf("got %s from %d", typ(), e.peer)
	case trace.StatusChanged:
		state := "?"
		if names := stateNames(); int(e.flag) < len(names) {
			state = names[e.flag]
		}
		return fmt.Sprintf("%s, leader %d", state, e.a)
	case trace.Reported:
		return "reports: " + e.text
	case trace.Panicked:
		return "panicked " + e.text
	case trace.Acted:
		return e.text
	case trace.ValueChanged:
		if e.text != "" {
			return e.text // its words: it crossed
		}
		how := "becomes"
		switch {
		case e.flag&valueRose != 0:
			how = "rises to"
		case e.flag&valueFell != 0:
			how = "falls to"
		}
		what := fmt.Sprintf("value %s %s", how, strconv.FormatFloat(e.b, 'f', -1, 64))
		if e.flag&valueBefore != 0 {
			what += fmt.Sprintf(" (was %d)", e.c)
		}
		return what
	case trace.Cut:
		return fmt.Sprintf("link %d→%d cut one way: %d no longer hears %d", e.node, e.peer, e.peer, e.node)
	case trace.Uncut:
		return fmt.Sprintf("link %d→%d carries again", e.node, e.peer)
	case trace.ClockRate:
		if e.b == 1e6 {
			return "clock runs true again"
		}
		return "clock runs at " + rateWord(e.b)
	case trace.ClockJumped:
		return "clock jumps " + jumpWord(e.b)
	case trace.Slowed:
		if e.b == 0 {
			return "handles its inputs on time again"
		}
		return "slowed: handles its inputs " + durationWord(e.b) + " late"
	}
	return e.kind.String()
}

// rateWord writes a clock's rate, given in parts per million of true
// time, as a factor: "×0.8".
func rateWord(ppm float64) string {
	return "×" + strconv.FormatFloat(ppm/1e6, 'f', -1, 64)
}

// jumpWord writes a clock's jump, given in nanoseconds, signed: "+2 s",
// "-1 h".
func jumpWord(ns float64) string {
	if ns < 0 {
		return "-" + durationWord(-ns)
	}
	return "+" + durationWord(ns)
}

// durationWord writes a duration of ns nanoseconds (0 or more) short, in
// its largest unit, as the page does (web/common.js): "200 ms", "1.5 s",
// "1 h".
func durationWord(ns float64) string {
	units := []struct {
		ns   float64
		name string
	}{{3600e9, "h"}, {60e9, "min"}, {1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}}
	for _, u := range units {
		if ns >= u.ns {
			return strconv.FormatFloat(math.Round(ns/u.ns*1000)/1000, 'f', -1, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(ns, 'f', -1, 64) + " ns"
}
