package runner

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/trace"
)

// maxPrealloc bounds the node count a trace's header may make the checker
// allocate for before any event.
const maxPrealloc = 1 << 22

// TraceConfig is the checker's configuration for re-checking a trace under
// header h as its run was checked. The message bound's function is the
// algorithm's: it is taken where the algorithm is registered, as where the
// run was made; when it cannot be, the bound is left out and note says so.
// The error is that of the header's expect field.
func TraceConfig(h *trace.Header) (cfg check.Config, note string, err error) {
	// Nodes only sizes the checker's arrays up front: a header cannot
	// make it allocate more than this before the events that need it.
	cfg = check.Config{Stabilization: h.Stabilization, Liveness: h.Liveness, Spontaneous: h.Spontaneous, Unelected: h.Unelected, UnelectedUninitiated: h.UnelectedUninitiated, Lossy: h.Lossy, Moving: h.Mobility != "", Nodes: min(h.Nodes, maxPrealloc), AmongInitiators: h.AmongInitiators,
		ValueAtElection: h.ValueAtElection, ValuesMove: h.ValuesOverTime != "", Algorithm: h.Algorithm}
	if h.MessageBound != "" {
		if a, err := algo.Lookup(h.Algorithm); err == nil {
			cfg.MessageBound = BoundOf(a, h.Params, h.MaxDelay)
		} else {
			note = fmt.Sprintf("the message bound (%s) was not checked: %v", h.MessageBound, err)
		}
	}
	cfg.Expect, err = check.ParseExpect(h.Expect)
	return cfg, note, err
}

// Recheck feeds a trace to a fresh checker configured by cfg and a fresh
// counter, and sums up the run as Run did.
//
// The checker trusts its event stream as the simulator emits it, and a
// trace file may have been cut or edited: so Recheck first checks what the
// checker relies on (time never goes back; nodes are declared, in id
// order, before any other event names them; nothing follows the end) and
// reports a breach as FILE:LINE.
func Recheck(tr *trace.Reader, cfg check.Config) (*metrics.Summary, error) {
	h := tr.Header
	mon := check.New(cfg)
	counter := metrics.NewCounter(len(h.Messages))
	story := metrics.NewStory()
	hash := trace.NewHasher()
	start := time.Now()
	var e trace.Event
	var order trace.Order
	edges := 0 // links declared at the start: the network's edges
	initial := true
	for {
		err := tr.Next(&e)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := order.Next(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", tr.Name(), tr.Line(), err)
		}
		initial = initial && e.At == 0 && (e.Kind == trace.NodeAdded || e.Kind == trace.LinkUp)
		if initial && e.Kind == trace.LinkUp {
			edges++
		}
		hash.Add(&e)
		mon.Observe(&e)
		counter.Observe(&e)
		story.Observe(&e)
	}
	if !order.Ended() {
		return nil, fmt.Errorf("%s:%d: the trace stops without an end event (was the run cut short?)", tr.Name(), tr.Line())
	}
	sum := &metrics.Summary{
		Algorithm: h.Algorithm, Params: h.Params, Seed: h.Seed, Topology: h.Topology,
		Nodes: mon.Nodes(), Edges: edges, Initiators: len(h.Initiators),
		WallMS:    metrics.MS(time.Since(start)),
		TraceHash: fmt.Sprintf("%016x", hash.Sum()),
	}
	mon.Messages(counter.Transmissions())
	sum.FromCheck(mon, mon.Report())
	counter.Fill(sum, h.Messages)
	story.Fill(sum)
	return sum, nil
}
