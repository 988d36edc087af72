package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// testHeader is the header of the hand-written traces of these tests.
func testHeader() Header {
	return Header{
		Algorithm: "echo",
		Params:    map[string]string{"initiator": "0", "tree": "graph"},
		Seed:      7,
		Topology:  "ring:8",
		Nodes:     8,
		Messages:  []string{"explorer", "echo", "info", "connect"},
		// A Spontaneous false header would test less: the zero value.
		Spontaneous:   true,
		Stabilization: 10 * time.Second,
		Liveness:      30 * time.Second,
	}
}

// sampleEvents holds every kind of event, with zero and non-zero fields,
// extreme values, every drop reason and both kinds of end.
func sampleEvents() []Event {
	none := algo.None
	ms := time.Millisecond
	maxID := algo.NodeID(7)
	return []Event{
		{Kind: NodeAdded, Node: 0, Peer: none, Value: 0},
		{Kind: NodeAdded, Node: 1, Peer: none, Value: -5},
		{Kind: NodeAdded, Node: 2, Peer: none, Value: math.MaxInt64},
		{Kind: NodeAdded, Node: maxID, Peer: none, Value: math.MinInt64},
		{Kind: LinkUp, Node: 0, Peer: 1},
		{Kind: LinkUp, Node: 1, Peer: maxID},
		{At: ms, Kind: LinkDown, Node: 0, Peer: 1},
		{At: ms, Kind: LinkUp, Node: 1, Peer: 2, Moved: true},
		{At: ms, Kind: LinkDown, Node: 1, Peer: 2, Moved: true},
		{At: ms, Kind: Crashed, Node: 2, Peer: none},
		{At: 2 * ms, Kind: Restarted, Node: 2, Peer: none},
		{At: 3 * ms, Kind: Recovered, Node: maxID, Peer: none},
		{At: 3 * ms, Kind: ElectCalled, Node: 0, Peer: none},
		// A message with every field zero.
		{At: 4 * ms, Kind: Sent, Node: 0, Peer: 1},
		// Peer is an event field: zero is a node like any other.
		{At: 4 * ms, Kind: Sent, Node: 1, Peer: 0, Msg: algo.Message{Type: 1}},
		{At: 4 * ms, Kind: Sent, Node: 1, Peer: 2, Msg: algo.Message{
			Type: 2, Level: -3, Index: algo.Index{Num: math.MaxUint32, ID: maxID},
			Peer: algo.Peer{ID: 5, Value: math.MinInt64},
		}},
		{At: 5 * ms, Kind: Delivered, Node: 2, Peer: 1, Msg: algo.Message{
			Type: 3, Level: math.MaxInt32, Index: algo.Index{Num: 1, ID: 0},
			Peer:  algo.NoPeer,
			Peers: []algo.Peer{{ID: 0, Value: 0}, {ID: 3, Value: -1}, algo.NoPeer, {ID: math.MaxInt32, Value: math.MaxInt64}},
		}},
		{At: 5 * ms, Kind: Delivered, Node: 2, Peer: 1, Msg: algo.Message{
			Type: 0, Level: math.MinInt32, Index: algo.Index{Num: 0, ID: algo.None},
			Peer:  algo.Peer{ID: 0, Value: 9},
			Peers: []algo.Peer{{ID: 4, Value: 4}},
		}},
		{At: 6 * ms, Kind: Dropped, Node: 1, Peer: 2, Reason: NoLink, Msg: algo.Message{Type: 1, Index: algo.Index{Num: 2}}},
		{At: 6 * ms, Kind: Dropped, Node: 1, Peer: 2, Reason: Lost, Msg: algo.Message{Type: 0}},
		{At: 6 * ms, Kind: Dropped, Node: 2, Peer: 1, Reason: CutOff, Msg: algo.Message{Type: 0}},
		{At: 6 * ms, Kind: Dropped, Node: 2, Peer: maxID, Reason: LinkBroke, Msg: algo.Message{
			Type: 2, Peers: []algo.Peer{{ID: 1, Value: 1}},
		}},
		{At: 7 * ms, Kind: TimerFired, Node: 3, Peer: none, Timer: 0},
		{At: 7 * ms, Kind: TimerFired, Node: 3, Peer: none, Timer: 255},
		{At: 8 * ms, Kind: StatusChanged, Node: 3, Peer: none, Status: algo.Status{Leader: none, State: algo.Elect, Index: algo.Index{Num: 1, ID: 3}}},
		{At: 8 * ms, Kind: StatusChanged, Node: 4, Peer: none, Status: algo.Status{Leader: 0, State: algo.Norm}},
		{At: 8 * ms, Kind: StatusChanged, Node: 5, Peer: none, Status: algo.Status{Leader: maxID, State: algo.Wait, Index: algo.Index{Num: math.MaxUint32, ID: algo.None}}},
		{At: 9 * ms, Kind: ValueChanged, Node: 6, Peer: none, Value: -1},
		{At: 9 * ms, Kind: ValueChanged, Node: 6, Peer: none, Value: 0},
		{At: 9 * ms, Kind: Reported, Node: 6, Peer: none, Text: "checksum mismatch: \"x\" \u2028 é"},
		{At: 9 * ms, Kind: Acted, Peer: none, Text: "the network splits (west, and the rest)"},
		{At: 9 * ms, Kind: Panicked, Node: 6, Peer: none, Text: "in Receive of Election from 2: runtime error: index out of range [3] with length 3; at mine.(*m).Receive (mine.go:42)"},
		{At: 9 * ms, Kind: Sent, Node: 6, Peer: 0, Msg: algo.Message{Type: 1, Data: []byte{0, 0xff, 7}}},
		{At: 9 * ms, Kind: Cut, Node: 6, Peer: 2},
		{At: 9 * ms, Kind: Uncut, Node: 2, Peer: 6},
		{At: 9 * ms, Kind: ClockRate, Node: 3, Peer: none, Value: PPM(0.8)},
		{At: 9 * ms, Kind: ClockJumped, Node: 3, Peer: none, Value: -int64(time.Hour)},
		{At: 9 * ms, Kind: Slowed, Node: 4, Peer: none, Value: int64(200 * ms)},
		{At: 10 * ms, Kind: End, Peer: none, Quiescent: false},
		{At: math.MaxInt64, Kind: End, Peer: none, Quiescent: true},
	}
}

// encode writes events under h.
func encode(t testing.TB, h Header, events []Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range events {
		e := events[i] // Observe may be handed a reused value
		tw.Observe(&e)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAll reads a whole trace.
func decodeAll(data []byte, name string) (Header, []Event, error) {
	tr, err := NewReader(bytes.NewReader(data), name)
	if err != nil {
		return Header{}, nil, err
	}
	var events []Event
	for {
		var e Event
		err := tr.Next(&e)
		if errors.Is(err, io.EOF) {
			return tr.Header, events, nil
		}
		if err != nil {
			return tr.Header, events, err
		}
		events = append(events, e)
	}
}

func hashOf(events []Event) uint64 {
	h := NewHasher()
	for i := range events {
		h.Add(&events[i])
	}
	return h.Sum()
}

// sameHeader compares headers, taking an empty map or list for a missing one:
// the file does not tell them apart.
func sameHeader(a, b Header) bool {
	if len(a.Params) == 0 && len(b.Params) == 0 {
		a.Params, b.Params = nil, nil
	}
	if len(a.Messages) == 0 && len(b.Messages) == 0 {
		a.Messages, b.Messages = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

func TestRoundTrip(t *testing.T) {
	h := testHeader()
	events := sampleEvents()
	seen := map[Kind]bool{}
	reasons := map[DropReason]bool{}
	for _, e := range events {
		seen[e.Kind] = true
		if e.Kind == Dropped {
			reasons[e.Reason] = true
		}
	}
	if len(seen) != int(numKinds) || len(reasons) != int(NumDropReasons) {
		t.Fatalf("sampleEvents covers %d kinds and %d drop reasons, want all %d and %d", len(seen), len(reasons), numKinds, NumDropReasons)
	}
	data := encode(t, h, events)
	gotH, got, err := decodeAll(data, "rt.jsonl")
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, data)
	}
	want := h
	want.Version = FormatVersion
	if !reflect.DeepEqual(gotH, want) {
		t.Errorf("header read back as %+v, want %+v", gotH, want)
	}
	if len(got) != len(events) {
		t.Fatalf("read %d events, wrote %d", len(got), len(events))
	}
	lines := strings.Split(string(data), "\n")
	for i := range events {
		if !reflect.DeepEqual(got[i], events[i]) {
			t.Errorf("event %d (line %q):\n got %+v\nwant %+v", i, lines[i+1], got[i], events[i])
		}
	}
	if a, b := hashOf(got), hashOf(events); a != b {
		t.Errorf("hash of the events read back %016x, of those written %016x", a, b)
	}
	// Writing what was read gives the same bytes.
	if again := encode(t, gotH, got); !bytes.Equal(again, data) {
		t.Errorf("re-encoding changed the file:\n%s\nthen\n%s", data, again)
	}
}

// Each event alone, so that a failure names its kind.
func TestRoundTripEach(t *testing.T) {
	h := testHeader()
	for i, e := range sampleEvents() {
		t.Run(fmt.Sprintf("%d-%v", i, e.Kind), func(t *testing.T) {
			data := encode(t, h, []Event{e})
			_, got, err := decodeAll(data, "one.jsonl")
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if len(got) != 1 || !reflect.DeepEqual(got[0], e) {
				t.Fatalf("wrote %+v, read %+v\n%s", e, got, data)
			}
		})
	}
}

// The format is meant to be read by people and by other tools: pin how each
// kind is written.
func TestWriterLines(t *testing.T) {
	h := testHeader()
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: NodeAdded, Node: 3, Peer: algo.None, Value: 3}, `{"t":0,"ev":"node","node":3,"value":3}`},
		{Event{Kind: LinkUp, Node: 0, Peer: 1}, `{"t":0,"ev":"link_up","node":0,"peer":1}`},
		{Event{At: 1000000, Kind: Sent, Node: 0, Peer: 1, Msg: algo.Message{Type: 0, Index: algo.Index{Num: 1}}},
			`{"t":1000000,"ev":"send","node":0,"peer":1,"msg":{"type":"explorer","index":[1,0]}}`},
		{Event{At: 1, Kind: Sent, Node: 0, Peer: 1, Msg: algo.Message{Type: 9}},
			`{"t":1,"ev":"send","node":0,"peer":1,"msg":{"type":"type9"}}`},
		{Event{At: 1, Kind: Delivered, Node: 1, Peer: 0, Msg: algo.Message{Type: 1, Level: 2, Peer: algo.NoPeer, Peers: []algo.Peer{{ID: 1, Value: 2}}}},
			`{"t":1,"ev":"deliver","node":1,"peer":0,"msg":{"type":"echo","level":2,"peer":[-1,-9223372036854775808],"peers":[[1,2]]}}`},
		{Event{At: 9, Kind: Dropped, Node: 2, Peer: 5, Reason: Lost, Msg: algo.Message{Type: 2}},
			`{"t":9,"ev":"drop","node":2,"peer":5,"reason":"loss","msg":{"type":"info"}}`},
		{Event{At: 1, Kind: TimerFired, Node: 1, Peer: algo.None, Timer: 3}, `{"t":1,"ev":"timer","node":1,"timer":3}`},
		{Event{At: 1, Kind: StatusChanged, Node: 1, Peer: algo.None, Status: algo.Status{Leader: algo.None, State: algo.Wait, Index: algo.Index{Num: 1}}},
			`{"t":1,"ev":"status","node":1,"leader":-1,"state":"Wait","index":[1,0]}`},
		{Event{At: 9, Kind: End, Peer: algo.None, Quiescent: true}, `{"t":9,"ev":"end","quiescent":true}`},
		{Event{At: 7, Kind: LinkDown, Node: 1, Peer: 4, Moved: true}, `{"t":7,"ev":"link_down","node":1,"peer":4,"moved":true}`},
		{Event{At: 7, Kind: LinkUp, Node: 1, Peer: 4}, `{"t":7,"ev":"link_up","node":1,"peer":4}`},
	} {
		data := encode(t, h, []Event{c.e})
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) != 2 || lines[1] != c.want {
			t.Errorf("%v written as\n%s\nwant\n%s", c.e.Kind, lines[1:], c.want)
		}
	}
	data := encode(t, Header{Algorithm: "a", Nodes: 1}, nil)
	if want := `{"ev":"header","version":1,"algorithm":"a","seed":0,"nodes":1,"message_types":null,"spontaneous":false,"stabilization_ns":0,"liveness_ns":0}` + "\n"; string(data) != want {
		t.Errorf("header written as\n%s\nwant\n%s", data, want)
	}
}

// Message type names are JSON strings whatever they hold.
func TestWriterQuotesNames(t *testing.T) {
	h := testHeader()
	h.Messages = []string{"a\x07b", "tab\there", `quote"and\back`, "<é>", "\u2028", "bad\xffutf8"}
	var events []Event
	for i := range h.Messages {
		events = append(events, Event{Kind: Sent, Node: 0, Peer: 1, Msg: algo.Message{Type: algo.MsgType(i)}})
	}
	data := encode(t, h, events)
	_, got, err := decodeAll(data, "names.jsonl")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !reflect.DeepEqual(got, events) {
		t.Fatalf("read %+v, want %+v\n%s", got, events, data)
	}
}

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after < len(p) {
		return 0, errors.New("disk full")
	}
	w.after -= len(p)
	return len(p), nil
}

func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(&failWriter{}, testHeader()); err != nil {
		t.Fatalf("the header is buffered, yet NewWriter failed: %v", err)
	}
	tw, _ := NewWriter(&failWriter{after: 100}, testHeader())
	e := Event{Kind: NodeAdded, Peer: algo.None}
	for range 10000 {
		tw.Observe(&e)
	}
	if err := tw.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Close after a failed write: %v, want the write error", err)
	}
}

const goodHeader = `{"ev":"header","version":1,"algorithm":"echo","seed":1,"nodes":8,"message_types":["explorer","echo","info","connect"],"spontaneous":false,"stabilization_ns":0,"liveness_ns":0}`

func TestReaderErrors(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       string // after "bad.jsonl:"
	}{
		{"empty", "", " empty trace"},
		{"blank header", "\n", "1: bad header"},
		{"garbage header", "hello\n", "1: bad header"},
		{"header not an object", "[1]\n", "1: bad header"},
		{"header trailing data", goodHeader + "x\n", "1: bad header"},
		{"header unknown field", `{"ev":"header","version":1,"colour":"red"}`, "1: bad header"},
		{"header wrong type", `{"ev":"header","version":1,"nodes":"five"}`, "1: bad header"},
		{"no header", `{"t":0,"ev":"node","node":0}`, `1: first line is "node", want the header`},
		{"wrong version", `{"ev":"header","version":2}`, "1: trace format version 2"},
		{"no version", `{"ev":"header"}`, "1: trace format version 0"},
		{"negative nodes", `{"ev":"header","version":1,"nodes":-1}`, "1: bad header: nodes -1"},
		{"too many nodes", `{"ev":"header","version":1,"nodes":2147483649}`, "1: bad header: nodes 2147483649"},
		{"negative bound", `{"ev":"header","version":1,"nodes":1,"liveness_ns":-1}`, "1: bad header: liveness_ns -1"},
		{"too many types", `{"ev":"header","version":1,"message_types":[` + strings.Repeat(`"a",`, 256) + `"b"]}`, "1: 257 message types"},
		{"duplicate type", `{"ev":"header","version":1,"message_types":["a","b","a"]}`, `1: bad header: message type "a" named twice`},

		{"unknown event", goodHeader + "\n" + `{"t":0,"ev":"boom","node":0}`, `2: unknown event "boom"`},
		{"header again", goodHeader + "\n" + goodHeader, `2: json: unknown field "version"`}, // the header has fields no event has
		{"no event name", goodHeader + "\n" + `{"t":0,"node":0}`, `2: unknown event ""`},
		{"unknown field", goodHeader + "\n" + `{"t":0,"ev":"node","node":0,"colour":1}`, `2: json: unknown field "colour"`},
		{"garbage", goodHeader + "\n" + `}{`, "2: invalid character"},
		{"truncated line", goodHeader + "\n" + `{"t":0,"ev":"no`, "2: unexpected EOF"},
		{"null line", goodHeader + "\n" + `null`, `2: unknown event ""`},
		{"trailing data", goodHeader + "\n" + `{"t":0,"ev":"end","quiescent":true} {"t":1}`, "2: trailing data"},
		{"two events on a line", goodHeader + "\n" + `{"t":0,"ev":"end"}{"t":0,"ev":"end"}`, "2: trailing data"},
		{"line counts blank lines", goodHeader + "\n\n   \n" + `{"t":0,"ev":"boom"}`, `4: unknown event "boom"`},
		{"after good lines", goodHeader + "\n" + `{"t":0,"ev":"node","node":0,"value":0}` + "\n" + `{"t":0,"ev":"link_up","node":0}`, `3: link_up event without "peer"`},

		{"missing time", goodHeader + "\n" + `{"ev":"end"}`, `2: end event without a time "t" >= 0`},
		{"null time", goodHeader + "\n" + `{"t":null,"ev":"end"}`, `2: end event without a time`},
		{"negative time", goodHeader + "\n" + `{"t":-1,"ev":"end"}`, `2: end event without a time "t" >= 0`},
		{"cut without peer", goodHeader + "\n" + `{"t":1,"ev":"cut","node":1}`, `2: cut event without a "peer" other than its node`},
		{"cut to itself", goodHeader + "\n" + `{"t":1,"ev":"uncut","node":1,"peer":1}`, `2: uncut event without a "peer" other than its node`},
		{"clock stopped", goodHeader + "\n" + `{"t":1,"ev":"clock","node":1,"value":0}`, `2: clock event with rate 0 ppm: want more than 0`},
		{"slow by less than nothing", goodHeader + "\n" + `{"t":1,"ev":"slow","node":1,"value":-5}`, `2: slow event by -5 ns: want 0 or more`},
		{"fractional time", goodHeader + "\n" + `{"t":1.5,"ev":"end"}`, `2: json: cannot unmarshal number 1.5`},
		{"time out of range", goodHeader + "\n" + `{"t":9223372036854775808,"ev":"end"}`, `2: json: cannot unmarshal number 9223372036854775808`},
		{"missing node", goodHeader + "\n" + `{"t":0,"ev":"crash"}`, `2: crash event without "node"`},
		{"missing peer", goodHeader + "\n" + `{"t":0,"ev":"link_down","node":1}`, `2: link_down event without "peer"`},
		{"missing msg", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1}`, `2: send event without "msg"`},
		{"null msg", goodHeader + "\n" + `{"t":0,"ev":"deliver","node":0,"peer":1,"msg":null}`, `2: deliver event without "msg"`},
		{"missing type", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{}}`, `2: message type "" is not in the header's message_types`},
		{"unknown type", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"nope"}}`, `2: message type "nope" is not in the header's message_types`},
		{"unknown msg field", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","colour":1}}`, `2: json: unknown field "colour"`},
		{"missing reason", goodHeader + "\n" + `{"t":0,"ev":"drop","node":0,"peer":1,"msg":{"type":"echo"}}`, `2: unknown drop reason ""`},
		{"unknown reason", goodHeader + "\n" + `{"t":0,"ev":"drop","node":0,"peer":1,"reason":"cosmic ray","msg":{"type":"echo"}}`, `2: unknown drop reason "cosmic ray"`},
		{"missing leader", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"state":"Norm","index":[0,0]}`, `2: status event without "leader"`},
		{"missing state", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":1,"index":[0,0]}`, `2: unknown state ""`},
		{"unknown state", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":1,"state":"norm","index":[0,0]}`, `2: unknown state "norm"`},

		{"negative node", goodHeader + "\n" + `{"t":0,"ev":"crash","node":-1}`, `2: node -1 is not a node id`},
		{"node beyond int32", goodHeader + "\n" + `{"t":0,"ev":"crash","node":2147483648}`, `2: node 2147483648 is not a node id`},
		{"node beyond the network", goodHeader + "\n" + `{"t":0,"ev":"crash","node":8}`, `2: node 8 is not a node id (the trace has nodes 0..7)`},
		{"node not a number", goodHeader + "\n" + `{"t":0,"ev":"crash","node":"3"}`, `2: json: cannot unmarshal string`},
		{"negative peer", goodHeader + "\n" + `{"t":0,"ev":"link_up","node":0,"peer":-2}`, `2: peer -2 is not a node id`},
		{"peer none on a link", goodHeader + "\n" + `{"t":0,"ev":"link_up","node":0,"peer":-1}`, `2: peer -1 is not a node id`},
		{"peer beyond the network", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":8,"msg":{"type":"echo"}}`, `2: peer 8 is not a node id (the trace has nodes 0..7)`},
		{"link backwards", goodHeader + "\n" + `{"t":0,"ev":"link_up","node":3,"peer":1}`, `2: link_up event from node 3 to peer 1: links name their lower id first`},
		{"link to itself", goodHeader + "\n" + `{"t":0,"ev":"link_down","node":3,"peer":3}`, `2: link_down event from node 3 to peer 3`},
		{"leader beyond the network", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":8,"state":"Norm","index":[0,0]}`, `2: leader 8 is not a node id (the trace has nodes 0..7)`},
		{"leader below none", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":-2,"state":"Norm","index":[0,0]}`, `2: leader -2 is not a node id`},
		{"timer negative", goodHeader + "\n" + `{"t":0,"ev":"timer","node":0,"timer":-1}`, `2: timer -1 out of range`},
		{"timer too big", goodHeader + "\n" + `{"t":0,"ev":"timer","node":0,"timer":256}`, `2: timer 256 out of range`},
		{"status index num", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":1,"state":"Norm","index":[4294967296,0]}`, `2: index [4294967296 0] out of range`},
		{"status index id", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":1,"state":"Norm","index":[1,-2]}`, `2: index [1 -2] out of range`},
		{"status index short", goodHeader + "\n" + `{"t":0,"ev":"status","node":0,"leader":1,"state":"Norm","index":[1]}`, `2: [1] is not a pair [x,y] of integers`},
		{"msg index negative", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","index":[-1,0]}}`, `2: index [-1 0] out of range`},
		{"msg index long", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","index":[1,2,3]}}`, `2: [1,2,3] is not a pair [x,y] of integers`},
		{"msg level", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","level":2147483648}}`, `2: json: cannot unmarshal number 2147483648`},
		{"msg peer id", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[4294967296,0]}}`, `2: msg peer [4294967296 0] out of range`},
		{"msg peer below none", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[-2,0]}}`, `2: msg peer [-2 0] out of range`},
		{"msg peer value", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[1,9223372036854775808]}}`, `2: [1,9223372036854775808] is not a pair [x,y] of integers`},
		{"msg peer one number", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[5]}}`, `2: [5] is not a pair [x,y] of integers`},
		{"msg peer not a list", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":5}}`, `2: 5 is not a pair [x,y] of integers`},
		{"msg peers id", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peers":[[1,1],[-7,0]]}}`, `2: msg peers[1] [-7 0] out of range`},
		{"msg pair of strings", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":["1","2"]}}`, `2: ["1","2"] is not a pair [x,y] of integers`},
		{"msg pair of floats", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","index":[1.0,2]}}`, `2: [1.0,2] is not a pair [x,y] of integers`},
		{"msg pair nested", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","index":[[1,2],3]}}`, `2: [[1,2],3] is not a pair [x,y] of integers`},
		{"node before any node exists", `{"ev":"header","version":1}` + "\n" + `{"t":0,"ev":"node","node":0}`, `2: node 0 is not a node id (the header declares no nodes)`},
		{"msg peers pair", goodHeader + "\n" + `{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peers":[[1,1],[]]}}`, `2: [] is not a pair [x,y] of integers`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decodeAll([]byte(c.data), "bad.jsonl")
			if err == nil {
				t.Fatalf("no error for\n%s", c.data)
			}
			if !strings.HasPrefix(err.Error(), "bad.jsonl:"+c.want) {
				t.Fatalf("error\n  %v\nwant it to start with\n  bad.jsonl:%s", err, c.want)
			}
		})
	}
}

// After an error the reader does not pretend the trace goes on.
func TestReaderAfterError(t *testing.T) {
	data := goodHeader + "\n" + `{"t":0,"ev":"boom"}` + "\n" + `{"t":0,"ev":"end","quiescent":true}` + "\n"
	tr, err := NewReader(strings.NewReader(data), "x")
	if err != nil {
		t.Fatal(err)
	}
	var e Event
	if err := tr.Next(&e); err == nil {
		t.Fatal("no error for an unknown event")
	}
	// The caller decides whether to go on; the next line is read normally.
	if err := tr.Next(&e); err != nil || e.Kind != End {
		t.Fatalf("after an error: %v %+v", err, e)
	}
	if err := tr.Next(&e); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
}

// A line that does not name an optional field reads it as zero or none.
func TestReaderDefaults(t *testing.T) {
	data := goodHeader + "\n" +
		`{"t":5,"ev":"node","node":3}` + "\n" +
		"\r\n" +
		`  {"t":5,"ev":"send","node":3,"peer":4,"msg":{"type":"info"}}  ` + "\r\n" +
		`{"t":6,"ev":"send","node":3,"peer":4,"msg":{"type":"echo","index":[ 1 , -1 ],"peer":null,"peers":null}}` + "\n" +
		`{"t":6,"ev":"end"}`
	_, got, err := decodeAll([]byte(data), "d")
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{At: 5, Kind: NodeAdded, Node: 3, Peer: algo.None},
		{At: 5, Kind: Sent, Node: 3, Peer: 4, Msg: algo.Message{Type: 2}},
		{At: 6, Kind: Sent, Node: 3, Peer: 4, Msg: algo.Message{Type: 1, Index: algo.Index{Num: 1, ID: algo.None}}},
		{At: 6, Kind: End, Peer: algo.None},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %+v\nwant %+v", got, want)
	}
}

// The reader reuses nothing of the previous event.
func TestReaderClearsEvent(t *testing.T) {
	events := sampleEvents()
	data := encode(t, testHeader(), events)
	tr, err := NewReader(bytes.NewReader(data), "c")
	if err != nil {
		t.Fatal(err)
	}
	var e Event
	for i := range events {
		if err := tr.Next(&e); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(e, events[i]) {
			t.Fatalf("event %d read into a used Event: %+v, want %+v", i, e, events[i])
		}
	}
}

// The header's value fields (check.Config.ValueAtElection and ValuesMove)
// are written under their keys when set, left out when not, and read back.
func TestHeaderValueFields(t *testing.T) {
	h := Header{Algorithm: "echo", Nodes: 1, ValueAtElection: true, ValuesOverTime: "battery:tx=1"}
	data := encode(t, h, nil)
	for _, want := range []string{`"value_at_election":true`, `"values_over_time":"battery:tx=1"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("header written as %s, without %s", data, want)
		}
	}
	got, _, err := decodeAll(data, "values.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !got.ValueAtElection || got.ValuesOverTime != "battery:tx=1" {
		t.Errorf("read back as %+v", got)
	}
	if data := encode(t, Header{Algorithm: "echo", Nodes: 1}, nil); strings.Contains(string(data), "value") {
		t.Errorf("unset value fields written: %s", data)
	}
}
