package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/electgo/elect/algo"
)

// The trace file is JSON lines: a header object, then one object per event.
//
//	{"ev":"header","version":1,"algorithm":"echo","seed":1,...}
//	{"t":0,"ev":"node","node":3,"value":3}
//	{"t":0,"ev":"link_up","node":0,"peer":1}
//	{"t":4200000,"ev":"link_down","node":0,"peer":1,"moved":true}
//	{"t":1000000,"ev":"send","node":0,"peer":1,"msg":{"type":"explorer","index":[1,0],"peer":[0,0]}}
//	{"t":1000000,"ev":"status","node":1,"leader":-1,"state":"Wait","index":[1,0]}
//	{"t":9000000,"ev":"drop","node":2,"peer":5,"reason":"loss","msg":{...}}
//	{"t":9000000,"ev":"end","quiescent":true}
//
// "t" is virtual time in nanoseconds. Message fields that are zero are left
// out and read back as zero; "peer" is left out when an event has none.

// Writer writes a trace as JSON lines.
type Writer struct {
	w *bufio.Writer
	// names holds the header's message type names, each already written as
	// a JSON string.
	names [][]byte
	buf   []byte
	err   error
}

// NewWriter writes the header and returns a Writer for the events.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Version = FormatVersion
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<16), names: make([][]byte, len(h.Messages))}
	for i, n := range h.Messages {
		// JSON's quoting, not Go's: strconv.Quote writes control characters
		// as \a or \x07, which no JSON reader accepts.
		if tw.names[i], err = json.Marshal(n); err != nil {
			return nil, err
		}
	}
	tw.buf = append(tw.buf, `{"ev":"header",`...)
	tw.buf = append(tw.buf, hb[1:]...)
	tw.buf = append(tw.buf, '\n')
	_, tw.err = tw.w.Write(tw.buf)
	return tw, tw.err
}

// Observe writes one event. Errors are kept and reported by Close.
func (tw *Writer) Observe(e *Event) {
	if tw.err != nil {
		return
	}
	b := tw.buf[:0]
	b = append(b, `{"t":`...)
	b = strconv.AppendInt(b, int64(e.At), 10)
	b = append(b, `,"ev":"`...)
	b = append(b, e.Kind.String()...)
	b = append(b, '"')
	if e.Kind.HasNode() {
		b = appendInt(b, "node", int64(e.Node))
	}
	if e.Peer != algo.None {
		b = appendInt(b, "peer", int64(e.Peer))
	}
	switch e.Kind {
	case NodeAdded, ValueChanged, ClockRate, ClockJumped, Slowed:
		b = appendInt(b, "value", e.Value)
	case LinkUp, LinkDown:
		if e.Moved {
			b = append(b, `,"moved":true`...)
		}
	case Dropped:
		b = append(b, `,"reason":"`...)
		b = append(b, e.Reason.String()...)
		b = append(b, '"')
		b = tw.appendMsg(b, &e.Msg)
	case Sent, Delivered:
		b = tw.appendMsg(b, &e.Msg)
	case TimerFired:
		b = appendInt(b, "timer", int64(e.Timer))
	case StatusChanged:
		b = appendInt(b, "leader", int64(e.Status.Leader))
		b = append(b, `,"state":"`...)
		b = append(b, e.Status.State.String()...)
		b = append(b, `","index":`...)
		b = appendPair(b, int64(e.Status.Index.Num), int64(e.Status.Index.ID))
	case End:
		b = append(b, `,"quiescent":`...)
		b = strconv.AppendBool(b, e.Quiescent)
	case Reported, Panicked, Acted:
		b = append(b, `,"text":`...)
		b = appendJSONString(b, e.Text)
	}
	b = append(b, "}\n"...)
	tw.buf = b
	_, tw.err = tw.w.Write(b)
}

func (tw *Writer) appendMsg(b []byte, m *algo.Message) []byte {
	b = append(b, `,"msg":{"type":`...)
	if int(m.Type) < len(tw.names) {
		b = append(b, tw.names[m.Type]...)
	} else {
		b = append(b, `"type`...)
		b = strconv.AppendUint(b, uint64(m.Type), 10)
		b = append(b, '"')
	}
	if m.Level != 0 {
		b = appendInt(b, "level", int64(m.Level))
	}
	if !m.Index.IsZero() {
		b = append(b, `,"index":`...)
		b = appendPair(b, int64(m.Index.Num), int64(m.Index.ID))
	}
	if m.Peer != (algo.Peer{}) {
		b = append(b, `,"peer":`...)
		b = appendPair(b, int64(m.Peer.ID), m.Peer.Value)
	}
	if len(m.Peers) > 0 {
		b = append(b, `,"peers":[`...)
		for i, p := range m.Peers {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPair(b, int64(p.ID), p.Value)
		}
		b = append(b, ']')
	}
	if len(m.Data) > 0 {
		b = append(b, `,"data":"`...)
		b = hex.AppendEncode(b, m.Data)
		b = append(b, '"')
	}
	return append(b, '}')
}

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendPair(b []byte, x, y int64) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, x, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, y, 10)
	return append(b, ']')
}

// Flush writes out the events held so far (a live reader wants each
// as it comes).
func (tw *Writer) Flush() error {
	if tw.err != nil {
		return tw.err
	}
	return tw.w.Flush()
}

// Close flushes the trace.
func (tw *Writer) Close() error { return tw.Flush() }

// Reader reads a trace written by Writer.
//
// Besides the syntax, it checks what a consumer indexes by: node, peer and
// leader ids name nodes of the header's network (0 to nodes-1, or -1 for
// none where the format allows it), links name their lower id first, and
// ids and indexes inside messages fit their types. Errors read
// "NAME:LINE: ...".
type Reader struct {
	sc     *bufio.Scanner
	line   int
	name   string
	Header Header
	types  map[string]algo.MsgType
	// Gzipped says the trace was compressed with gzip (read uncompressed).
	Gzipped bool
	// scratch is what the fast path's decoded pointers point to.
	scratch struct {
		t, node, peer, leader int64
		msg                   jsonMsg
	}
}

// NewReader reads the header of a trace. name is used in error messages.
// A trace compressed with gzip (a .jsonl.gz file: elect sim --trace
// FILE.gz) is read as it is, uncompressed on the way.
func NewReader(r io.Reader, name string) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	gzipped := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	r = br
	if gzipped {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	tr := &Reader{sc: sc, name: name, Gzipped: gzipped}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, fmt.Errorf("%s: empty trace (no header line)", name)
	}
	tr.line = 1
	var h struct {
		Ev string `json:"ev"`
		Header
	}
	if err := decodeStrict(sc.Bytes(), &h); err != nil {
		// Say so when the first line is an event rather than a broken header.
		var probe struct {
			Ev string `json:"ev"`
		}
		if json.Unmarshal(sc.Bytes(), &probe) == nil && probe.Ev != "" && probe.Ev != "header" {
			return nil, fmt.Errorf("%s:1: first line is %q, want the header", name, probe.Ev)
		}
		return nil, fmt.Errorf("%s:1: bad header: %v", name, err)
	}
	if h.Ev != "header" {
		return nil, fmt.Errorf("%s:1: first line is %q, want the header", name, h.Ev)
	}
	if h.Version != FormatVersion {
		return nil, fmt.Errorf("%s:1: trace format version %d, this elect reads version %d", name, h.Version, FormatVersion)
	}
	switch {
	case h.Nodes < 0 || int64(h.Nodes) > maxNodes:
		return nil, fmt.Errorf("%s:1: bad header: nodes %d is not a node count (0 to %d)", name, h.Nodes, int64(maxNodes))
	case h.Stabilization < 0:
		return nil, fmt.Errorf("%s:1: bad header: stabilization_ns %d is negative", name, h.Stabilization)
	case h.Liveness < 0:
		return nil, fmt.Errorf("%s:1: bad header: liveness_ns %d is negative", name, h.Liveness)
	case len(h.Messages) > 256:
		return nil, fmt.Errorf("%s:1: %d message types, at most 256", name, len(h.Messages))
	}
	tr.Header = h.Header
	tr.types = make(map[string]algo.MsgType, len(h.Messages))
	for i, n := range h.Messages {
		if _, dup := tr.types[n]; dup {
			return nil, fmt.Errorf("%s:1: bad header: message type %q named twice in message_types", name, n)
		}
		tr.types[n] = algo.MsgType(i)
	}
	return tr, nil
}

// maxNodes is the most nodes a network can have: ids are int32.
const maxNodes = 1 << 31

// Line returns the number of the line the last header or event came from
// (1 for the header), for callers that report problems of their own.
func (tr *Reader) Line() int { return tr.line }

// Name returns the name given to NewReader.
func (tr *Reader) Name() string { return tr.name }

// decodeStrict decodes one JSON object that makes up the whole of raw, with
// no field v does not have.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	// Decode stops after the first value: a second one, or garbage, is a
	// broken line (two lines run together, a torn write), not a comment.
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after the object")
	}
	return nil
}

// pair is a JSON list of exactly two integers: [num,id] for an index,
// [id,value] for a peer. A plain [2]int64 would take [1] for [1,0] and drop
// the rest of [1,2,3].
type pair [2]int64

func (p *pair) UnmarshalJSON(b []byte) error {
	s := bytes.TrimSpace(b)
	if string(s) == "null" {
		return nil // as encoding/json does for a missing value
	}
	bad := func() error { return fmt.Errorf("%s is not a pair [x,y] of integers", b) }
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return bad()
	}
	x, y, ok := bytes.Cut(s[1:len(s)-1], []byte{','})
	if !ok {
		return bad()
	}
	var err error
	if p[0], err = strconv.ParseInt(string(bytes.TrimSpace(x)), 10, 64); err != nil {
		return bad()
	}
	if p[1], err = strconv.ParseInt(string(bytes.TrimSpace(y)), 10, 64); err != nil {
		return bad()
	}
	return nil
}

type jsonMsg struct {
	Type  string `json:"type"`
	Level int32  `json:"level"`
	Index pair   `json:"index"`
	Peer  pair   `json:"peer"`
	Peers []pair `json:"peers"`
	Data  string `json:"data"`
}

type jsonEvent struct {
	T         *int64   `json:"t"`
	Ev        string   `json:"ev"`
	Node      *int64   `json:"node"`
	Peer      *int64   `json:"peer"`
	Value     int64    `json:"value"`
	Reason    string   `json:"reason"`
	Msg       *jsonMsg `json:"msg"`
	Timer     int64    `json:"timer"`
	Leader    *int64   `json:"leader"`
	State     string   `json:"state"`
	Index     pair     `json:"index"`
	Quiescent bool     `json:"quiescent"`
	Moved     bool     `json:"moved"`
	Text      string   `json:"text"`
}

// Next reads the next event into e. It returns io.EOF after the last one.
// After an error in the content of a line, the next call reads on from the
// line after it; an error reading the input (or a line longer than 1 GiB)
// is final: every later call returns it again.
func (tr *Reader) Next(e *Event) error {
	for tr.sc.Scan() {
		tr.line++
		raw := bytes.TrimSpace(tr.sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if err := tr.decode(raw, e); err != nil {
			return fmt.Errorf("%s:%d: %v", tr.name, tr.line, err)
		}
		return nil
	}
	if err := tr.sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", tr.name, tr.line+1, err)
	}
	return io.EOF
}

func (tr *Reader) decode(raw []byte, e *Event) error {
	var j jsonEvent
	if !tr.scanEvent(raw, &j) {
		j = jsonEvent{}
		if err := decodeStrict(raw, &j); err != nil {
			return err
		}
	}
	*e = Event{Peer: algo.None}
	kind, ok := parseKind(j.Ev)
	if !ok {
		return fmt.Errorf("unknown event %q", j.Ev)
	}
	e.Kind = kind
	if j.T == nil || *j.T < 0 {
		return fmt.Errorf("%s event without a time \"t\" >= 0", j.Ev)
	}
	e.At = time.Duration(*j.T)
	if kind.HasNode() {
		if j.Node == nil {
			return fmt.Errorf("%s event without \"node\"", j.Ev)
		}
		id, err := tr.nodeID(*j.Node, "node")
		if err != nil {
			return err
		}
		e.Node = id
	}
	if j.Peer != nil {
		id, err := tr.nodeID(*j.Peer, "peer")
		if err != nil {
			return err
		}
		e.Peer = id
	}
	switch kind {
	case NodeAdded, ValueChanged, ClockJumped:
		e.Value = j.Value
	case ClockRate:
		if j.Value <= 0 {
			return fmt.Errorf("clock event with rate %d ppm: want more than 0", j.Value)
		}
		e.Value = j.Value
	case Slowed:
		if j.Value < 0 {
			return fmt.Errorf("slow event by %d ns: want 0 or more", j.Value)
		}
		e.Value = j.Value
	case Cut, Uncut:
		if e.Peer == algo.None || e.Peer == e.Node {
			return fmt.Errorf("%s event without a \"peer\" other than its node", j.Ev)
		}
	case LinkUp, LinkDown:
		if e.Peer == algo.None {
			return fmt.Errorf("%s event without \"peer\"", j.Ev)
		}
		if e.Node >= e.Peer {
			return fmt.Errorf("%s event from node %d to peer %d: links name their lower id first", j.Ev, e.Node, e.Peer)
		}
		e.Moved = j.Moved
	case Sent, Delivered, Dropped:
		if j.Msg == nil {
			return fmt.Errorf("%s event without \"msg\"", j.Ev)
		}
		if err := tr.decodeMsg(j.Msg, &e.Msg); err != nil {
			return err
		}
		if kind == Dropped {
			r, ok := parseReason(j.Reason)
			if !ok {
				return fmt.Errorf("unknown drop reason %q", j.Reason)
			}
			e.Reason = r
		}
	case TimerFired:
		if j.Timer < 0 || j.Timer > 255 {
			return fmt.Errorf("timer %d out of range", j.Timer)
		}
		e.Timer = algo.Timer(j.Timer)
	case StatusChanged:
		if j.Leader == nil {
			return fmt.Errorf("status event without \"leader\"")
		}
		if *j.Leader == -1 {
			e.Status.Leader = algo.None
		} else {
			id, err := tr.nodeID(*j.Leader, "leader")
			if err != nil {
				return err
			}
			e.Status.Leader = id
		}
		st, err := algo.ParseState(j.State)
		if err != nil {
			return err
		}
		e.Status.State = st
		idx, err := index(j.Index)
		if err != nil {
			return err
		}
		e.Status.Index = idx
	case End:
		e.Quiescent = j.Quiescent
	case Reported, Panicked, Acted:
		e.Text = j.Text
	}
	return nil
}

func (tr *Reader) decodeMsg(j *jsonMsg, m *algo.Message) error {
	t, ok := tr.types[j.Type]
	if !ok {
		return fmt.Errorf("message type %q is not in the header's message_types", j.Type)
	}
	idx, err := index(j.Index)
	if err != nil {
		return err
	}
	p, err := peer(j.Peer, "msg peer")
	if err != nil {
		return err
	}
	*m = algo.Message{Type: t, Level: j.Level, Index: idx, Peer: p}
	if len(j.Peers) > 0 {
		m.Peers = make([]algo.Peer, len(j.Peers))
		for i, jp := range j.Peers {
			if m.Peers[i], err = peer(jp, fmt.Sprintf("msg peers[%d]", i)); err != nil {
				return err
			}
		}
	}
	if j.Data != "" {
		if m.Data, err = hex.DecodeString(j.Data); err != nil {
			return fmt.Errorf("msg data %q is not hexadecimal", j.Data)
		}
	}
	return nil
}

// peer reads an [id,value] pair of a message: the id is a node or -1 (the id
// of algo.NoPeer); messages may speak of nodes the trace does not know.
func peer(p pair, what string) (algo.Peer, error) {
	if p[0] < -1 || p[0] > 1<<31-1 {
		return algo.Peer{}, fmt.Errorf("%s %v out of range", what, [2]int64(p))
	}
	return algo.Peer{ID: algo.NodeID(p[0]), Value: p[1]}, nil
}

func index(p pair) (algo.Index, error) {
	if p[0] < 0 || p[0] > 1<<32-1 || p[1] < -1 || p[1] > 1<<31-1 {
		return algo.Index{}, fmt.Errorf("index %v out of range", [2]int64(p))
	}
	return algo.Index{Num: uint32(p[0]), ID: algo.NodeID(p[1])}, nil
}

// nodeID reads the id of a node of the network.
func (tr *Reader) nodeID(v int64, field string) (algo.NodeID, error) {
	if v < 0 || v > 1<<31-1 {
		return algo.None, fmt.Errorf("%s %d is not a node id", field, v)
	}
	if n := int64(tr.Header.Nodes); v >= n {
		if n == 0 {
			return algo.None, fmt.Errorf("%s %d is not a node id (the header declares no nodes)", field, v)
		}
		return algo.None, fmt.Errorf("%s %d is not a node id (the trace has nodes 0..%d)", field, v, n-1)
	}
	return algo.NodeID(v), nil
}

func parseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

func parseReason(s string) (DropReason, bool) {
	for i, n := range reasonNames {
		if n == s {
			return DropReason(i), true
		}
	}
	return 0, false
}

// appendJSONString appends s as a JSON string. Reports are rare: the
// standard encoder's allocation does not matter.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
