package viz

import (
	"bytes"
	"net/http"
	"sync"
	"time"

	"github.com/electgo/elect/trace"
)

// Live shows a run as it goes (elect sim --serve, elect emulate --serve).
// It is a trace.Observer: each event is kept as its trace line and sent to
// every page as a server-sent event on GET /events, after the lines before
// it, so a page that opens late sees the whole run. The page is the
// replay's, following the end of the run while it grows.
type Live struct {
	mu     sync.Mutex
	lines  []byte // the header line, then one line per event
	ends   []int  // where each line ends in lines
	done   bool
	wake   chan struct{} // closed and replaced when lines grow or the run ends
	tw     *trace.Writer
	layout *Layout
}

// NewLive starts a live view of a run with header h.
func NewLive(h trace.Header) (*Live, error) {
	l := &Live{wake: make(chan struct{}), layout: layout(h)}
	tw, err := trace.NewWriter(sink{l}, h)
	if err != nil {
		return nil, err
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	l.tw = tw
	return l, nil
}

// sink appends what the trace writer writes, a line or more at a time.
type sink struct{ l *Live }

func (s sink) Write(b []byte) (int, error) {
	l := s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	from := len(l.lines)
	l.lines = append(l.lines, b...)
	for i := bytes.IndexByte(l.lines[from:], '\n'); i >= 0; i = bytes.IndexByte(l.lines[from:], '\n') {
		from += i + 1
		l.ends = append(l.ends, from)
	}
	l.wakeLocked()
	return len(b), nil
}

// wakeLocked tells the pages' streams that something happened.
func (l *Live) wakeLocked() {
	close(l.wake)
	l.wake = make(chan struct{})
}

// Observe takes one event of the run.
func (l *Live) Observe(e *trace.Event) {
	l.tw.Observe(e)
	l.tw.Flush()
}

// Close says the run is over; pages keep what they have.
func (l *Live) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = true
	l.wakeLocked()
}

// Handler serves the page, /layout, and /events: the run so far and then
// each event as it comes, one server-sent event per trace line (the header
// first), and an "end" event when the run is over.
func (l *Live) Handler() http.Handler {
	mux := page(l.layout, true, 0, 0)
	mux.HandleFunc("GET /events", l.events)
	return mux
}

func (l *Live) events(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	sent := 0 // lines sent
	start := 0
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		l.mu.Lock()
		ends, lines, done, wake := l.ends, l.lines, l.done, l.wake
		l.mu.Unlock()
		var buf []byte
		for sent < len(ends) && len(buf) < 1<<20 {
			// A trace line holds no newline but its last byte.
			buf = append(buf, "data: "...)
			buf = append(buf, lines[start:ends[sent]-1]...)
			buf = append(buf, "\n\n"...)
			start = ends[sent]
			sent++
		}
		if sent == len(ends) && done {
			buf = append(buf, "event: end\ndata: {}\n\n"...)
		}
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
		if sent == len(ends) && done {
			return
		}
		if sent < len(ends) {
			continue
		}
		select {
		case <-wake:
		case <-keepAlive.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}
