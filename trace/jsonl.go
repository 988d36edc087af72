package trace

import (
	"bufio"
	"bytes"
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
//	{"t":1000000,"ev":"send","node":0,"peer":1,"msg":{"type":"explorer","index":[1,0],"peer":[0,0]}}
//	{"t":1000000,"ev":"status","node":1,"leader":-1,"state":"Wait","index":[1,0]}
//	{"t":9000000,"ev":"drop","node":2,"peer":5,"reason":"loss","msg":{...}}
//	{"t":9000000,"ev":"end","quiescent":true}
//
// "t" is virtual time in nanoseconds. Message fields that are zero are left
// out and read back as zero; "peer" is left out when an event has none.

// Writer writes a trace as JSON lines.
type Writer struct {
	w     *bufio.Writer
	names []string
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
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<16), names: h.Messages}
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
	if e.Kind != End {
		b = appendInt(b, "node", int64(e.Node))
	}
	if e.Peer != algo.None {
		b = appendInt(b, "peer", int64(e.Peer))
	}
	switch e.Kind {
	case NodeAdded, ValueChanged:
		b = appendInt(b, "value", e.Value)
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
	}
	b = append(b, "}\n"...)
	tw.buf = b
	_, tw.err = tw.w.Write(b)
}

func (tw *Writer) appendMsg(b []byte, m *algo.Message) []byte {
	b = append(b, `,"msg":{"type":`...)
	name := fmt.Sprintf("type%d", m.Type)
	if int(m.Type) < len(tw.names) {
		name = tw.names[m.Type]
	}
	b = strconv.AppendQuote(b, name)
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

// Close flushes the trace.
func (tw *Writer) Close() error {
	if tw.err != nil {
		return tw.err
	}
	return tw.w.Flush()
}

// Reader reads a trace written by Writer.
type Reader struct {
	sc     *bufio.Scanner
	line   int
	name   string
	Header Header
	types  map[string]algo.MsgType
}

// NewReader reads the header of a trace. name is used in error messages.
func NewReader(r io.Reader, name string) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	tr := &Reader{sc: sc, name: name}
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
	dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%s:1: bad header: %v", name, err)
	}
	if h.Ev != "header" {
		return nil, fmt.Errorf("%s:1: first line is %q, want the header", name, h.Ev)
	}
	if h.Version != FormatVersion {
		return nil, fmt.Errorf("%s:1: trace format version %d, this elect reads version %d", name, h.Version, FormatVersion)
	}
	if len(h.Messages) > 256 {
		return nil, fmt.Errorf("%s:1: %d message types, at most 256", name, len(h.Messages))
	}
	tr.Header = h.Header
	tr.types = make(map[string]algo.MsgType, len(h.Messages))
	for i, n := range h.Messages {
		tr.types[n] = algo.MsgType(i)
	}
	return tr, nil
}

type jsonMsg struct {
	Type  string     `json:"type"`
	Level int32      `json:"level"`
	Index [2]int64   `json:"index"`
	Peer  [2]int64   `json:"peer"`
	Peers [][2]int64 `json:"peers"`
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
	Index     [2]int64 `json:"index"`
	Quiescent bool     `json:"quiescent"`
}

// Next reads the next event into e. It returns io.EOF after the last one.
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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
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
	if kind != End {
		if j.Node == nil {
			return fmt.Errorf("%s event without \"node\"", j.Ev)
		}
		id, err := nodeID(*j.Node, "node")
		if err != nil {
			return err
		}
		e.Node = id
	}
	if j.Peer != nil {
		id, err := nodeID(*j.Peer, "peer")
		if err != nil {
			return err
		}
		e.Peer = id
	}
	switch kind {
	case NodeAdded, ValueChanged:
		e.Value = j.Value
	case LinkUp, LinkDown:
		if e.Peer == algo.None {
			return fmt.Errorf("%s event without \"peer\"", j.Ev)
		}
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
			id, err := nodeID(*j.Leader, "leader")
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
	*m = algo.Message{Type: t, Level: j.Level, Index: idx, Peer: peer(j.Peer)}
	if len(j.Peers) > 0 {
		m.Peers = make([]algo.Peer, len(j.Peers))
		for i, p := range j.Peers {
			m.Peers[i] = peer(p)
		}
	}
	return nil
}

func peer(p [2]int64) algo.Peer { return algo.Peer{ID: algo.NodeID(p[0]), Value: p[1]} }

func index(p [2]int64) (algo.Index, error) {
	if p[0] < 0 || p[0] > 1<<32-1 || p[1] < -1 || p[1] > 1<<31-1 {
		return algo.Index{}, fmt.Errorf("index %v out of range", p)
	}
	return algo.Index{Num: uint32(p[0]), ID: algo.NodeID(p[1])}, nil
}

func nodeID(v int64, field string) (algo.NodeID, error) {
	if v < 0 || v > 1<<31-1 {
		return algo.None, fmt.Errorf("%s %d is not a node id", field, v)
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
