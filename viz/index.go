package viz

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/trace"
)

// Index is a run cut into chunks for the page, as its events come (read
// from a trace file or observed live). Each chunk of chunkEvents events is
// kept with the state before its first event (its keyframe) in a spill
// file, and the page fetches only the chunks around the moment it shows:
// the server's memory holds the state now, the chunk being filled, the
// timeline's marks and the chart's samples, whatever the run's length, and
// the page's a few chunks.
//
// It serves GET /index (what there is so far: the chunks' times, the
// marks, the samples, whether the run is all there), GET /chunk?k=K (chunk
// K, as chunk.go describes, compressed with gzip), GET /state?ms=M (the
// state after every event at or before M milliseconds, as a chunk of no
// events) and GET /node?v=V&i=I (node V's last changes and messages
// before event I).
type Index struct {
	header trace.Header
	per    int // events a chunk holds: chunkEvents, fewer in tests

	mu       sync.Mutex
	spill    *os.File // the chunks filled, one after another
	unlinked bool
	spilled  int64
	chunks   []chunkInfo
	open     *chunkBuilder // the chunk being filled, nil between chunks
	spent    *chunkBuilder // the last chunk written out, whose memory the next takes
	enc      []byte        // the memory a chunk is encoded in to be written out
	state    *runState     // after every event so far
	marks    *marks
	samples  *samples
	// values tells each value event against the node's leader: its
	// words in the chunk, a mark when it crossed.
	values *metrics.ValueCrossings
	// leaders are the ids nodes followed, in the order they were first
	// followed: the page gives each its colour by its place here, so that
	// a leader keeps its colour whatever moment is shown.
	leaders  []int32
	followed map[int32]bool
	events   int
	end      time.Duration
	done     bool
	closed   bool
	err      error
	over     chan struct{} // closed when done
}

// chunkInfo is where a filled chunk is and what it covers.
type chunkInfo struct {
	first, n  int
	t0        time.Duration // its first event's time
	off, size int64
}

// ErrClosed is what feeding, or waiting for, an index that was closed
// (Replay.Close) returns.
var ErrClosed = errors.New("viz: the index was closed")

func newIndex(h trace.Header, per int) (*Index, error) {
	spill, err := os.CreateTemp("", "elect-viz-*.chunks")
	if err != nil {
		return nil, fmt.Errorf("viz: a file for the page's chunks: %w", err)
	}
	// Unlinked at once (where the system allows it), the file goes with
	// the process however it ends; Close removes it otherwise.
	unlinked := os.Remove(spill.Name()) == nil
	return &Index{header: h, per: per, spill: spill, unlinked: unlinked, state: newRunState(h.Nodes, len(h.Messages)),
		marks: newMarks(), samples: newSamples(), values: metrics.NewValueCrossings(), followed: map[int32]bool{}, over: make(chan struct{})}, nil
}

// add takes the run's next event.
func (x *Index) add(e *trace.Event) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return ErrClosed
	}
	if x.done {
		return x.err
	}
	x.samples.before(e.At, x.state)
	if x.open == nil {
		x.open = newChunkBuilder(x.events, x.state, x.spent)
	}
	x.open.add(e)
	x.marks.see(e, x.state)
	if mv, ok := x.values.Observe(e); ok {
		x.open.said(mv)
		x.marks.value(e.At, mv)
	}
	if l := int32(e.Status.Leader); e.Kind == trace.StatusChanged && l >= 0 && int(l) < x.header.Nodes && !x.followed[l] {
		x.followed[l] = true
		x.leaders = append(x.leaders, l)
	}
	x.state.apply(e)
	x.events++
	x.end = e.At
	if x.open.len() == x.per {
		return x.flushLocked()
	}
	return nil
}

// flushLocked writes the open chunk to the spill file.
func (x *Index) flushLocked() error {
	c := x.open
	x.open, x.spent = nil, c
	b := c.encode(x.enc[:0])
	x.enc = b
	if _, err := x.spill.WriteAt(b, x.spilled); err != nil {
		x.err, x.done = fmt.Errorf("viz: keeping the page's chunks: %w", err), true
		close(x.over)
		return x.err
	}
	x.chunks = append(x.chunks, chunkInfo{first: c.first, n: c.len(), t0: time.Duration(c.t[0]),
		off: x.spilled, size: int64(len(b))})
	x.spilled += int64(len(b))
	return nil
}

// finish says the run is all there, or what stopped it (err).
func (x *Index) finish(err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.done || x.closed {
		return
	}
	x.marks.closeRun()
	if x.open != nil && x.flushLocked() != nil {
		if err != nil {
			x.err = err // what stopped the run says more than the spill file
		}
		return
	}
	x.err, x.done = err, true
	close(x.over)
}

// Close frees the spill file; the page can fetch no more chunks.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	x.closed = true
	if !x.done {
		// Whoever waits for the whole run is told it will not come.
		x.err, x.done = ErrClosed, true
		close(x.over)
	}
	err := x.spill.Close()
	if !x.unlinked {
		os.Remove(x.spill.Name())
	}
	return err
}

// chunk returns chunk k as the page reads it: a filled one from the spill
// file, the one being filled as it is now.
func (x *Index) chunk(k int) ([]byte, error) {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil, ErrClosed
	}
	if k == len(x.chunks) && x.open != nil {
		defer x.mu.Unlock()
		return x.open.encode(nil), nil
	}
	if k < 0 || k >= len(x.chunks) {
		n := len(x.chunks)
		if x.open != nil {
			n++
		}
		x.mu.Unlock()
		return nil, fmt.Errorf("no chunk %d: there are %d so far", k, n)
	}
	c := x.chunks[k]
	x.mu.Unlock()
	b := make([]byte, c.size)
	if _, err := x.spill.ReadAt(b, c.off); err != nil {
		return nil, fmt.Errorf("chunk %d: %w", k, err)
	}
	return b, nil
}

// stateAt returns the state after every event at or before ms, as a
// chunk of no events whose keyframe it is: what the page needs to show a
// moment, a small part of a chunk. The page fetches the chunk itself when
// it plays on from there.
func (x *Index) stateAt(ms float64) ([]byte, error) {
	x.mu.Lock()
	k := sort.Search(len(x.chunks), func(k int) bool { return float64(x.chunks[k].t0)/1e6 > ms }) - 1
	if k == len(x.chunks)-1 && x.open != nil && x.open.t[0]/1e6 <= ms {
		k = len(x.chunks) // the chunk being filled
	}
	if k < 0 {
		defer x.mu.Unlock()
		return newChunkBuilder(0, newRunState(x.header.Nodes, len(x.header.Messages)), nil).encode(nil), nil
	}
	x.mu.Unlock()
	b, err := x.chunk(k)
	if err != nil {
		return nil, err
	}
	s, first, err := decodeKeyframe(b)
	if err != nil {
		return nil, err
	}
	evs, err := decodeChunk(b)
	if err != nil {
		return nil, err
	}
	i := first
	for j := range evs {
		if evs[j].ns/1e6 > ms {
			break
		}
		e := evs[j].event()
		s.apply(&e)
		i++
	}
	return newChunkBuilder(i, s, nil).encode(nil), nil
}

// indexInfo is GET /index: what the page needs to find its way in the run.
type indexInfo struct {
	Header trace.Header `json:"header"`
	// Kinds and States name the chunks' kind and state codes.
	Kinds       []string `json:"kinds"`
	States      []string `json:"states"`
	ChunkEvents int      `json:"chunk_events"`
	Events      int      `json:"events"`
	EndMS       float64  `json:"end_ms"`
	// Done says the run is all there; Error what cut it short.
	Done  bool   `json:"done"`
	Error string `json:"error,omitempty"`
	// Chunks are each chunk's first event, its events, and its first
	// event's time (ms), the one being filled last.
	Chunks [][3]float64 `json:"chunks"`
	Marks  []mark       `json:"marks"`
	// Leaders are the ids nodes followed, in the order first followed.
	Leaders      []int32 `json:"leaders"`
	SampleStepMS float64 `json:"sample_step_ms"`
	// Samples are the chart's points, one per step from 0: messages sent,
	// nodes alive without a leader, nodes alive; Now the same after the
	// last event.
	Samples [][3]float64 `json:"samples"`
	Now     [3]float64   `json:"now"`
}

func (x *Index) info() indexInfo {
	x.mu.Lock()
	defer x.mu.Unlock()
	in := indexInfo{Header: x.header, Kinds: kindNames(), States: stateNames(), ChunkEvents: x.per,
		Events: x.events, EndMS: float64(x.end) / 1e6, Done: x.done,
		Chunks: make([][3]float64, 0, len(x.chunks)+1), Marks: append([]mark{}, x.marks.list...), Leaders: append([]int32{}, x.leaders...),
		SampleStepMS: float64(x.samples.step) / 1e6, Samples: append([][3]float64{}, x.samples.points...), Now: x.state.sample()}
	if x.err != nil {
		in.Error = x.err.Error()
	}
	for _, c := range x.chunks {
		in.Chunks = append(in.Chunks, [3]float64{float64(c.first), float64(c.n), float64(c.t0) / 1e6})
	}
	if c := x.open; c != nil {
		in.Chunks = append(in.Chunks, [3]float64{float64(c.first), float64(c.len()), c.t[0] / 1e6})
	}
	return in
}

// kindNames lists the trace's event kinds by code.
func kindNames() []string {
	var names []string
	for k := trace.Kind(0); !strings.HasPrefix(k.String(), "kind("); k++ {
		names = append(names, k.String())
	}
	return names
}

// nodeHistory is GET /node: a node's last changes (status, crash,
// restart, recovery, election asked, its gray failures: a direction of
// one of its links cut or carrying again, its clock's rate or jump, its
// slowness; its value, the last historyValues changes of it that crossed
// no leader's and every one that did) and messages (sent or received)
// before an event, newest first, looking back at most LookedBack events.
type nodeHistory struct {
	Changes    []moment `json:"changes"`
	Messages   []moment `json:"messages"`
	LookedBack int      `json:"looked_back"`
}

type moment struct {
	MS   float64 `json:"t"`
	What string  `json:"what"`
}

// Past how many changes, messages and chunks a node's history stops.
const (
	historyChanges  = 12
	historyMessages = 8
	historyChunks   = 16
	// historyValues bounds the value changes that crossed no leader's
	// among a node's changes: a value model changes it every second.
	historyValues = 3
)

func (x *Index) history(v, before int) (nodeHistory, error) {
	h := nodeHistory{Changes: []moment{}, Messages: []moment{}}
	values := 0
	last := (before - 1) / x.per
	for k := last; k >= 0 && before > 0 && k > last-historyChunks; k-- {
		b, err := x.chunk(k)
		if err != nil {
			return h, err
		}
		evs, err := decodeChunk(b)
		if err != nil {
			return h, err
		}
		for j := min(len(evs), before-k*x.per) - 1; j >= 0; j-- {
			e := &evs[j]
			h.LookedBack++
			// A direction cut is a change of both its ends.
			if int(e.node) != v && !((e.kind == trace.Cut || e.kind == trace.Uncut) && int(e.peer) == v) {
				continue
			}
			m := moment{MS: e.ns / 1e6}
			switch e.kind {
			case trace.Sent, trace.Delivered:
				if len(h.Messages) < historyMessages {
					m.What = e.describe(x.header.Messages)
					h.Messages = append(h.Messages, m)
				}
			case trace.StatusChanged, trace.Crashed, trace.Restarted, trace.Recovered, trace.ElectCalled, trace.Reported, trace.Panicked,
				trace.Cut, trace.Uncut, trace.ClockRate, trace.ClockJumped, trace.Slowed:
				if len(h.Changes) < historyChanges {
					m.What = e.describe(x.header.Messages)
					h.Changes = append(h.Changes, m)
				}
			case trace.ValueChanged:
				if len(h.Changes) < historyChanges && (e.text != "" || values < historyValues) {
					if e.text == "" {
						values++
					}
					m.What = e.describe(x.header.Messages)
					h.Changes = append(h.Changes, m)
				}
			}
		}
		if len(h.Changes) == historyChanges && len(h.Messages) == historyMessages {
			break
		}
	}
	return h, nil
}

// routes adds the index's requests to mux.
func (x *Index) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /index", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(x.info())
	})
	mux.HandleFunc("GET /chunk", func(w http.ResponseWriter, req *http.Request) {
		k, err := strconv.Atoi(req.URL.Query().Get("k"))
		if err != nil {
			http.Error(w, "k: want a chunk number", http.StatusBadRequest)
			return
		}
		b, err := x.chunk(k)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		writeGzip(w, b)
	})
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, req *http.Request) {
		ms, err := strconv.ParseFloat(req.URL.Query().Get("ms"), 64)
		if err != nil || !(ms >= 0) || math.IsInf(ms, 0) { // NaN too
			http.Error(w, "ms: want a moment of the run in milliseconds", http.StatusBadRequest)
			return
		}
		b, err := x.stateAt(ms)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		// Small, it goes as it is: compressed, the browser's undoing it
		// would cost more than it saves.
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	})
	mux.HandleFunc("GET /node", func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		v, err1 := strconv.Atoi(q.Get("v"))
		i, err2 := strconv.Atoi(q.Get("i"))
		if err1 != nil || err2 != nil || v < 0 || v >= x.header.Nodes || i < 0 {
			http.Error(w, fmt.Sprintf("want v, a node 0..%d, and i, an event count", x.header.Nodes-1), http.StatusBadRequest)
			return
		}
		x.mu.Lock()
		i = min(i, x.events)
		x.mu.Unlock()
		h, err := x.history(v, i)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(h)
	})
}

// writeGzip sends b compressed, a sixth of its size, for the page to undo
// itself: headless Chromium here moves a response's bytes to the page at
// about 20 MB/s, and undoes gzip faster.
func writeGzip(w http.ResponseWriter, b []byte) {
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	zw.Write(b)
	zw.Close()
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", strconv.Itoa(z.Len()))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(z.Bytes())
}
