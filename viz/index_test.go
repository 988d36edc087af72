package viz

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// readEvents reads every event of the trace at path.
func readEvents(t *testing.T, path string) (trace.Header, []trace.Event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f, path)
	if err != nil {
		t.Fatal(err)
	}
	var out []trace.Event
	for {
		var e trace.Event
		if err := tr.Next(&e); errors.Is(err, io.EOF) {
			return tr.Header, out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

// TestIndexChunks cuts a run into chunks of 97 events and reads them back
// as the page does: every event comes back as the trace has it, in order,
// and each chunk's keyframe is the run's state before its first event,
// which after the last event is the simulator's own final state.
func TestIndexChunks(t *testing.T) {
	path := writeTrace(t)
	h, events := readEvents(t, path)
	r, err := newReplay(path, 97)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	info := r.info()
	if !info.Done || info.Events != len(events) || len(info.Chunks) != (len(events)+96)/97 {
		t.Fatalf("index of %d events in %d chunks (done %v), want %d in %d", info.Events, len(info.Chunks), info.Done, len(events), (len(events)+96)/97)
	}
	s := newRunState(h.Nodes, len(h.Messages))
	for k, c := range info.Chunks {
		b, err := r.chunk(k)
		if err != nil {
			t.Fatal(err)
		}
		first := k * 97
		if int(c[0]) != first || c[2] != float64(events[first].At)/1e6 {
			t.Fatalf("chunk %d says %v, want first event %d at %v", k, c, first, events[first].At)
		}
		_, at, err := decodeKeyframe(b)
		want, _, _, _ := encodeKeyframe(nil, s, first)
		if got := b[chunkHeader : chunkHeader+len(want)]; string(got) != string(want) || at != first || err != nil {
			t.Fatalf("chunk %d's keyframe is not the state before event %d", k, first)
		}
		evs, err := decodeChunk(b)
		if err != nil {
			t.Fatal(err)
		}
		for j, got := range evs {
			e := &events[first+j]
			if err := sameEvent(&got, e, h.Messages); err != nil {
				t.Fatalf("event %d: %v", first+j, err)
			}
			s.apply(e)
		}
	}
	final, _ := views(t, path, math.MaxInt64)
	for v, w := range final {
		state := "crashed"
		if s.alive[v] == 1 {
			state = stateNames()[s.state[v]]
		}
		if (s.alive[v] == 1) != w.Alive || int(s.leader[v]) != w.Leader || state != w.State {
			t.Errorf("node %d ends alive %d, leader %d, %s; the run has %+v", v, s.alive[v], s.leader[v], state, w)
		}
	}
}

// sameEvent says how the chunk's event differs from the trace's.
func sameEvent(got *chunkEvent, e *trace.Event, types []string) error {
	want := chunkEvent{ns: float64(e.At), kind: e.Kind, node: int32(e.Node), peer: int32(e.Peer)}
	switch e.Kind {
	case trace.NodeAdded, trace.ValueChanged:
		want.b = float64(e.Value)
	case trace.Sent, trace.Delivered, trace.Dropped:
		want.a = int32(e.Msg.Type)
		want.flag = uint8(e.Reason)
	case trace.StatusChanged:
		want.a, want.b, want.c, want.flag = int32(e.Status.Leader), float64(e.Status.Index.Num), int32(e.Status.Index.ID), 1+uint8(e.Status.State)
	case trace.LinkUp, trace.LinkDown:
		if e.Moved {
			want.flag = 1
		}
	case trace.TimerFired:
		want.a = int32(e.Timer)
	case trace.Reported, trace.Panicked, trace.Acted:
		want.a, want.text = got.a, e.Text
	case trace.End:
		if e.Quiescent {
			want.flag = 1
		}
	}
	if *got != want {
		return fmt.Errorf("read back as %+v, want %+v", *got, want)
	}
	return nil
}

// TestIndexServes: GET /index says what there is, GET /chunk serves a
// chunk and refuses a bad number in words, GET /node tells a node's last
// changes and messages.
func TestIndexServes(t *testing.T) {
	r, srv := serveReplay(t, writeTrace(t))
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	get := func(p string) (int, string, []byte) { return httpGet(t, srv.URL+p) }
	code, _, b := get("/index")
	var info indexInfo
	if err := json.Unmarshal(b, &info); err != nil || code != 200 {
		t.Fatalf("/index: %d %v", code, err)
	}
	if !info.Done || info.Events != r.Events() || info.Header.Nodes != 16 || info.ChunkEvents != chunkEvents ||
		len(info.Chunks) != 1 || info.Kinds[trace.StatusChanged] != "status" || info.States[normCode] != "Norm" {
		t.Errorf("/index: %+v", info)
	}
	// The run: the leader, node 15, crashes at 6 s; a partition at 12 s
	// heals at 18 s. The timeline has them.
	want := map[string]float64{"crash": 6000, "cut": 12000, "heal": 18000}
	elected := map[string]bool{}
	for _, m := range info.Marks {
		if at, ok := want[m.Kind]; ok && m.MS == at {
			delete(want, m.Kind)
		}
		if m.Kind == "elected" {
			elected[m.What] = true
		}
	}
	// Node 15 leads first; after its crash, node 14 does.
	if !elected["node 15 becomes leader"] || !elected["node 14 becomes leader"] {
		t.Errorf("elected marks %v, want nodes 15 and 14", elected)
	}
	if len(want) > 0 {
		t.Errorf("marks %+v lack %v", info.Marks, want)
	}
	// The chart: every node alive and led after the first election, a
	// sample a step.
	if last := info.Samples[len(info.Samples)-1]; len(info.Samples) < 100 || info.Now[2] != 15 || last[0] == 0 {
		t.Errorf("samples: %d, the last %v, now %v", len(info.Samples), last, info.Now)
	}
	code, ct, b := get("/chunk?k=0")
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(zr)
	if evs, err := decodeChunk(b); code != 200 || ct != "application/gzip" || err != nil || len(evs) != info.Events {
		t.Errorf("/chunk?k=0: %d %s, %d events (%v)", code, ct, len(evs), err)
	}
	// The state at a moment: at 6 s the leader, node 15, has crashed
	// (the events at 6 s included); before, it leads.
	for _, c := range []struct {
		ms    string
		alive uint8
		i     int
	}{{"6000", 0, -1}, {"5999.999", 1, -1}, {"0", 1, -1}, {"1e9", 0, info.Events}} {
		_, _, b := get("/state?ms=" + c.ms)
		s, i, err := decodeKeyframe(b)
		if err != nil || s.alive[15] != c.alive || c.i >= 0 && i != c.i || s.state[0] == 0 {
			t.Errorf("/state?ms=%s: node 15 alive %v after %d events, node 0 in state %d (%v); want alive %d", c.ms, s.alive[15], i, s.state[0], err, c.alive)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"/state?ms=-1", "ms: want a moment"},
		{"/state?ms=NaN", "ms: want a moment"},
		{"/chunk?k=-1", "no chunk -1"},
		{"/node?v=1&i=x", "want v, a node 0..15"},
		{"/chunk?k=x", "want a chunk number"},
		{"/chunk?k=1", "no chunk 1: there are 1 so far"},
		{"/node?v=16&i=5", "want v, a node 0..15"},
	} {
		if code, _, b := get(c.path); code < 400 || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %d %s, want an error saying %q", c.path, code, b, c.want)
		}
	}
	_, _, b = get(fmt.Sprintf("/node?v=15&i=%d", info.Events))
	var hist nodeHistory
	if err := json.Unmarshal(b, &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist.Changes) == 0 || hist.Changes[0].What != "crash" || hist.Changes[0].MS != 6000 || len(hist.Messages) != historyMessages {
		t.Errorf("node 15's history: %+v", hist)
	}
}

// TestReplayRefusesBrokenTrace: a broken trace stops the reading with its
// line; a broken header or a missing file is refused at once.
func TestReplayRefusesBrokenTrace(t *testing.T) {
	path := writeTrace(t)
	b, _ := os.ReadFile(path)
	write := func(name string, lines []string) string {
		p := t.TempDir() + "/" + name
		os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644)
		return p
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = `{"t":0,"ev":"nonsense"}` + "\n"
	r, err := NewReplay(write("bad.jsonl", lines))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Wait(); err == nil || !strings.Contains(err.Error(), "bad.jsonl:4") || !strings.Contains(r.info().Error, "bad.jsonl:4") {
		t.Errorf("a broken trace: %v (the page is told %q), want an error at line 4", err, r.info().Error)
	}
	// Time going back is refused too: the page searches events by time.
	lines = strings.SplitAfter(string(b), "\n")
	last := len(lines) - 2 // the end event; the last element is ""
	lines[last] = `{"t":0,"ev":"end","quiescent":false}` + "\n"
	r2, err := NewReplay(write("back.jsonl", lines))
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if err := r2.Wait(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("back.jsonl:%d", last+1)) {
		t.Errorf("a trace whose time goes back: %v, want an error at line %d", err, last+1)
	}
	if _, err := NewReplay(write("head.jsonl", []string{"{not json\n"})); err == nil {
		t.Error("a broken header: no error")
	}
	if _, err := NewReplay(t.TempDir() + "/none.jsonl"); err == nil {
		t.Error("a missing file: no error")
	}
}

// TestLiveIndex: a live run's index grows as its events come; the chunk
// being filled is served as it is; Close says the run is over.
func TestLiveIndex(t *testing.T) {
	live, err := NewLive(trace.Header{Algorithm: "vkt", Nodes: 2, Messages: []string{"election"}})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Release()
	x := live.index
	live.Observe(&trace.Event{Kind: trace.NodeAdded, Node: 0, Peer: algo.None, Value: 7})
	if in := x.info(); in.Done || in.Events != 1 || len(in.Chunks) != 1 || in.Chunks[0][1] != 1 {
		t.Errorf("after one event: %+v", in)
	}
	live.Observe(&trace.Event{At: time.Millisecond, Kind: trace.LinkUp, Node: 0, Peer: 1})
	b, err := x.chunk(0)
	if err != nil {
		t.Fatal(err)
	}
	if evs, _ := decodeChunk(b); len(evs) != 2 || evs[1].kind != trace.LinkUp || evs[1].ns != 1e6 {
		t.Errorf("the open chunk: %+v", evs)
	}
	live.Close()
	if in := x.info(); !in.Done || in.Events != 2 || in.EndMS != 1 {
		t.Errorf("after the run: %+v", in)
	}
}

// TestMarksAndSamplesBounded: however long the run, the marks and samples
// kept stay under their bounds, and nothing is lost from the marks'
// counts.
func TestMarksAndSamplesBounded(t *testing.T) {
	m, p := newMarks(), newSamples()
	s := newRunState(3, 0)
	const crashes = 50_000
	for i := range crashes {
		e := &trace.Event{At: time.Duration(i) * 7 * time.Millisecond, Kind: trace.Crashed, Node: algo.NodeID(i % 3)}
		p.before(e.At, s)
		m.see(e, s)
	}
	total := 0
	for _, x := range m.list {
		total += x.N
	}
	if len(m.list) > maxMarks || total != crashes || len(p.points) > maxSamples || len(p.points) < maxSamples/2 {
		t.Errorf("%d marks counting %d crashes, %d samples", len(m.list), total, len(p.points))
	}
	// Kinds taking turns (a loss, a crash, a loss...) merge each with its
	// own kind: a lossy run of moving nodes once held the index's lock
	// for good here.
	m = newMarks()
	for i := range 3 * maxMarks {
		e := &trace.Event{At: time.Duration(i) * time.Second, Kind: trace.Dropped, Reason: trace.Lost, Node: 0, Peer: 1}
		if i%2 == 1 {
			e = &trace.Event{At: e.At, Kind: trace.Crashed, Node: 2}
		}
		m.see(e, s)
	}
	counts := map[string]int{}
	for _, x := range m.list {
		counts[x.Kind] += x.N
	}
	if len(m.list) > maxMarks || counts["loss"] != 3*maxMarks/2 || counts["crash"] != 3*maxMarks/2 {
		t.Errorf("%d marks counting %v", len(m.list), counts)
	}
	// A sample is the state after every event at its moment.
	p2 := newSamples()
	s2 := newRunState(2, 1)
	for _, e := range []trace.Event{
		{Kind: trace.NodeAdded, Node: 0}, {Kind: trace.NodeAdded, Node: 1},
		{At: 2 * time.Millisecond, Kind: trace.Sent, Node: 0, Peer: 1},
		{At: 3500 * time.Microsecond, Kind: trace.StatusChanged, Node: 1, Status: algo.Status{Leader: 1, State: algo.Norm}},
		{At: 5 * time.Millisecond, Kind: trace.End},
	} {
		p2.before(e.At, s2)
		s2.apply(&e)
	}
	want := [][3]float64{{0, 2, 2}, {0, 2, 2}, {1, 2, 2}, {1, 2, 2}, {1, 1, 2}}
	if fmt.Sprint(p2.points) != fmt.Sprint(want) {
		t.Errorf("samples %v, want %v", p2.points, want)
	}
}

// TestIndexClosedEarly: closing an index whose run is not all there tells
// whoever waits for it (Replay.Wait) that it will not come, and refuses
// more events.
func TestIndexClosedEarly(t *testing.T) {
	x, err := newIndex(trace.Header{Nodes: 2}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.add(&trace.Event{Kind: trace.NodeAdded, Peer: algo.None}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	select {
	case <-x.over:
	case <-time.After(5 * time.Second):
		t.Fatal("closed, the index is still awaited")
	}
	if x.err != ErrClosed || x.add(&trace.Event{Kind: trace.NodeAdded, Node: 1, Peer: algo.None}) != ErrClosed {
		t.Errorf("after Close: err %v", x.err)
	}
}

// A machine's panic is a mark of its own on the timeline, saying which
// node and what, as the checker's violation does.
func TestPanicMark(t *testing.T) {
	m := newMarks()
	s := newRunState(3, 0)
	m.see(&trace.Event{At: 5 * time.Millisecond, Kind: trace.Panicked, Node: 1, Text: "in Receive of flood from 0: boom; at x.(*m).Receive (x.go:3)"}, s)
	if len(m.list) != 1 || m.list[0].Kind != "panic" || m.list[0].What != "node 1 panicked in Receive of flood from 0: boom; at x.(*m).Receive (x.go:3)" {
		t.Errorf("marks %+v", m.list)
	}
}
