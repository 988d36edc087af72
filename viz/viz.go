// Package viz serves the web page that shows elections happen: a replay of
// a trace file (elect viz TRACE). The page draws the network at the nodes'
// positions (or a layout of its own for networks without), each node in
// the colour of its leader and in a look that says its state at any size
// (following a leader, following one that crashed, electing, leaderless,
// crashed), the leaders labelled, a crash where it happened, the links a
// partition cut, messages moving along the links, the gray failures (a
// link cut one way as an arrow the way it still carries, a clock off true
// time, a clock's jump, a slow node); zooming grows the nodes up to their
// ids. Beside it: a timeline to play, pause, step, scrub and change speed,
// an event log in words around the moment shown, counters that say "now"
// or "so far", the components with their leaders and sizes, a chart, a
// node's card and details, a search by id, and keys for all of it (? lists
// them). Every asset is embedded in the binary: nothing is fetched from
// the internet.
//
// The state the server writes into each chunk holds, for each node, since
// when it has had its leader (or crashed); the index lists the leaders in
// the order they were first followed, which gives each its colour.
//
// The page never holds a whole run: the server cuts it into chunks of
// events, each with the state before it (Index); the page asks the server
// for the state at a moment it jumps to and fetches the few chunks around
// the moment it plays. GET /layout gives the nodes'
// positions in metres when the trace's topology has them (null
// otherwise); GET /trace the trace file as it is, for scripts.
package viz

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"time"

	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

//go:embed web
var web embed.FS

// Layout is where the nodes stand, in metres: node i at (X[i], Y[i]) in a
// Width x Height area, at time 0. For moving nodes, Tracks[i] are node i's
// legs: from (X0, Y0) at StartMS to (X1, Y1) at EndMS, in time order, the
// node standing still between them.
type Layout struct {
	Width  float64   `json:"width"`
	Height float64   `json:"height"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Tracks [][]Leg   `json:"tracks,omitempty"`
}

// Leg is one straight move of a node.
type Leg struct {
	StartMS float64 `json:"t0"`
	EndMS   float64 `json:"t1"`
	X0      float64 `json:"x0"`
	Y0      float64 `json:"y0"`
	X1      float64 `json:"x1"`
	Y1      float64 `json:"y1"`
}

// Replay serves one trace file. It listens at once and indexes the trace
// as it reads it, so that the page shows the run's start while the rest
// is read; the page says how far the reading has come.
type Replay struct {
	*Index
	path    string
	gzipped bool // served with Content-Encoding: gzip
	Header  trace.Header
	// Layout is nil when the topology has no positions.
	Layout *Layout
}

// NewReplay opens the trace at path, lays its network out and starts
// reading it through. A trace whose header is broken is refused here;
// what is wrong further on (a broken line, time going back) stops the
// reading with the line, reported by Wait and on the page.
func NewReplay(path string) (*Replay, error) { return newReplay(path, chunkEvents) }

// newReplay is NewReplay with per events a chunk.
func newReplay(path string, per int) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	tr, err := trace.NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	idx, err := newIndex(tr.Header, per)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &Replay{Index: idx, path: path, Header: tr.Header, gzipped: tr.Gzipped, Layout: layout(tr.Header)}
	go r.read(f, tr)
	return r, nil
}

// read indexes the trace's events, checking them as elect check does.
func (r *Replay) read(f *os.File, tr *trace.Reader) {
	defer f.Close()
	// Decoding, most of the work, goes at the lowest priority (decode);
	// indexing, which holds the index's lock that the page's requests
	// wait for, at the process's: a thread of low priority holding it
	// would keep them waiting while others run.
	batches, free, stop := make(chan []trace.Event, 2), make(chan []trace.Event, 3), make(chan struct{})
	defer close(stop)
	for range cap(free) {
		free <- make([]trace.Event, 0, 1024)
	}
	var broken error // set before batches closes
	go func() {
		defer close(batches)
		broken = r.decode(tr, batches, free, stop)
	}()
	for b := range batches {
		for i := range b {
			if r.add(&b[i]) != nil {
				return // closed, or the spill file failed (the index says)
			}
		}
		free <- b
	}
	r.finish(broken)
}

// decode reads the trace's events in batches, checking them as elect
// check does, until the end (nil), a broken line (its error) or stop.
func (r *Replay) decode(tr *trace.Reader, batches, free chan []trace.Event, stop chan struct{}) error {
	readGently()
	// The page finds moments by searching the events' times and indexes
	// its arrays by node: it needs what elect check needs (trace.Order).
	var order trace.Order
	for {
		var b []trace.Event
		select {
		case b = <-free:
		case <-stop:
			return nil
		}
		b = b[:cap(b)]
		for i := range b {
			err := tr.Next(&b[i])
			if err == nil {
				if err = order.Next(&b[i]); err != nil {
					err = fmt.Errorf("%s:%d: %w", r.path, tr.Line(), err)
				}
			}
			if err != nil {
				select {
				case batches <- b[:i]:
				case <-stop:
				}
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
		select {
		case batches <- b:
		case <-stop:
			return nil
		}
	}
}

// Wait blocks until the whole trace is read and returns what was wrong
// with it, if anything (ErrClosed when Close came first).
func (r *Replay) Wait() error {
	<-r.over
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Events counts the events read so far (all of them once Wait returns).
func (r *Replay) Events() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.events
}

// layout places the nodes as the run's topology did, when it gives
// positions (geometric networks): the same spec and seed build the same
// graph. A grid is drawn as its lattice and a line as a line. Otherwise,
// or when the spec cannot be built here (a file that is not at hand), the
// page lays the network out itself.
func layout(h trace.Header) *Layout {
	if h.Topology == "" {
		return nil
	}
	// A spec that names its node count refuses a second one, and a spec
	// that needs one (ring --nodes 10 is written out as ring:10) has it.
	spec, err := topo.Parse(h.Topology, 0)
	if err != nil {
		return nil
	}
	switch spec.Kind {
	case topo.KindGrid:
		return lattice(spec.W, spec.H, h.Nodes)
	case topo.KindLine:
		return lattice(spec.N, 1, h.Nodes)
	case topo.KindRing, topo.KindComplete:
		return circle(h.Nodes)
	}
	s := scenario.Default()
	s.Topology, s.Seed = h.Topology, h.Seed
	if h.Mobility != "" {
		return moving(s, h)
	}
	g, _, err := runner.Network(s)
	if err != nil || g.Pos == nil || g.N() != h.Nodes {
		return nil
	}
	l := &Layout{Width: g.Width, Height: g.Height, X: make([]float64, g.N()), Y: make([]float64, g.N())}
	for i, p := range g.Pos {
		l.X[i], l.Y[i] = p.X, p.Y
	}
	return l
}

// moving rebuilds the tracks of a mobile run: the same topology, mobility,
// range, length and seed make the same plan. An ns-2 trace named by a
// path relative to its scenario is not at hand: no layout then.
func moving(s *scenario.Scenario, h trace.Header) *Layout {
	s.Mobility, s.Range, s.Duration = h.Mobility, h.RangeM, h.Duration
	net, err := runner.Build(s)
	if err != nil || net.Radio == nil || net.Graph.N() != h.Nodes {
		return nil
	}
	plan := net.Radio.Plan()
	n := len(plan.Tracks)
	l := &Layout{Width: plan.Width, Height: plan.Height, X: make([]float64, n), Y: make([]float64, n), Tracks: make([][]Leg, n)}
	for i, tr := range plan.Tracks {
		l.X[i], l.Y[i] = tr.Start.X, tr.Start.Y
		l.Tracks[i] = make([]Leg, len(tr.Legs))
		for j, g := range tr.Legs {
			l.Tracks[i][j] = Leg{StartMS: metricsMS(g.Start), EndMS: metricsMS(g.End), X0: g.From.X, Y0: g.From.Y, X1: g.To.X, Y1: g.To.Y}
		}
	}
	return l
}

func metricsMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// lattice places node y*w+x at (x, y), one unit apart, for n = w*h nodes.
func lattice(w, h, n int) *Layout {
	if w*h != n || n == 0 {
		return nil
	}
	l := &Layout{Width: float64(w), Height: float64(h), X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		l.X[i], l.Y[i] = float64(i%w)+0.5, float64(i/w)+0.5
	}
	return l
}

// circle places n nodes round a circle, node 0 at the top and the ids
// going clockwise: a ring as a ring (a complete network too, where any
// order is as good).
func circle(n int) *Layout {
	if n == 0 {
		return nil
	}
	l := &Layout{Width: 2, Height: 2, X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		l.X[i], l.Y[i] = 1+0.9*math.Sin(a), 1-0.9*math.Cos(a)
	}
	return l
}

// page is the mux that serves the embedded page, /layout and /mode (live
// or not) and the index's requests.
func page(l *Layout, live bool, x *Index) *http.ServeMux {
	mux := http.NewServeMux()
	static, err := fs.Sub(web, "web")
	if err != nil {
		panic(fmt.Sprintf("viz: embedded assets: %v", err))
	}
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /layout", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(l)
	})
	mux.HandleFunc("GET /mode", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"live\":%v}\n", live)
	})
	x.routes(mux)
	return mux
}

// Handler serves the page, its index, /layout, /mode and /trace (the
// trace file as it is, for scripts).
func (r *Replay) Handler() http.Handler {
	mux := page(r.Layout, false, r.Index)
	mux.HandleFunc("GET /trace", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Cache-Control", "no-store")
		if r.gzipped {
			// The browser undoes it: the page reads JSON lines either way.
			w.Header().Set("Content-Encoding", "gzip")
		}
		http.ServeFile(w, req, r.path)
	})
	return mux
}
