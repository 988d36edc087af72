package viz

import (
	"net/http"

	"github.com/electgo/elect/trace"
)

// Live shows a run as it goes (elect sim --serve, elect emulate --serve).
// It is a trace.Observer that indexes each event as it comes, as a replay
// does: a page that opens late sees the whole run, and the page follows
// the end of the run while it grows, asking the index what is new.
type Live struct {
	index  *Index
	layout *Layout
}

// NewLive starts a live view of a run with header h.
func NewLive(h trace.Header) (*Live, error) { return newLive(h, chunkEvents) }

// newLive is NewLive with per events a chunk.
func newLive(h trace.Header, per int) (*Live, error) {
	x, err := newIndex(h, per)
	if err != nil {
		return nil, err
	}
	return &Live{index: x, layout: layout(h)}, nil
}

// Observe takes one event of the run.
func (l *Live) Observe(e *trace.Event) {
	// An index that failed says so on the page; the run goes on.
	l.index.add(e)
}

// Close says the run is over; pages keep what they have.
func (l *Live) Close() { l.index.finish(nil) }

// Release frees the disk the run's page was kept on: the page can fetch
// no more of it.
func (l *Live) Release() error { return l.index.Close() }

// Handler serves the page, /layout, /mode and the run's index.
func (l *Live) Handler() http.Handler { return page(l.layout, true, l.index) }
