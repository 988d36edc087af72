package sim

import (
	"github.com/electgo/elect/internal/batches"
	"github.com/electgo/elect/mobility"
)

// A radio's link changes depend on nothing the run does: the nodes' tracks
// are fixed before it starts. On a large moving network, computing them is
// a good part of the run (the pairs of nodes near one another, when each
// comes into range and out of it), so a feed computes them on another
// core, batches ahead of the engine, which reads them in the same order as
// it would have asked for them one by one. Only the radio goes behind, whose
// Positions (for partition areas, asked in the engine's goroutine) reads
// its plan alone, which Next does not change: a Motion of the caller's may
// not expect Next from another goroutine.

// feedMin is the network size from which a radio's changes are fed from
// another core; below it the changes cost little, and the goroutine and its
// batches would be most of that.
const feedMin = 10_000

// feedLen is the number of changes in a batch, and feedBatches how many
// batches may exist: the feed runs at most feedBatches-1 ahead of the
// engine.
const (
	feedLen     = 1024
	feedBatches = 4
)

// feed reads a Motion's changes on another goroutine.
type feed struct {
	line *batches.Line[mobility.Change]
	cur  []mobility.Change // the batch being read
	at   int               // the next change in cur
}

// feedable says whether the run's motion is computed behind the engine.
func (e *Engine) feedable() bool {
	_, radio := e.cfg.Motion.(*mobility.Radio)
	return radio && len(e.nodes) >= feedMin
}

// startFeed starts computing m's changes behind the engine.
func startFeed(m Motion) *feed {
	f := &feed{line: batches.New[mobility.Change](feedLen, feedBatches)}
	go func() {
		defer func() { f.line.Close(batches.Recovered(recover())) }()
		for {
			c, ok := m.Next()
			if !ok || !f.line.Put(c) {
				return // no change left, or the engine is done
			}
		}
	}()
	return f
}

// next returns the motion's next change; false when there is none left.
func (f *feed) next() (mobility.Change, bool) {
	if f.at == len(f.cur) {
		b, ok := f.line.Next()
		if !ok {
			if v := f.line.ClosedWith(); v != nil {
				panic(v) // the motion's, raised where it was asked for
			}
			return mobility.Change{}, false
		}
		f.cur, f.at = b, 0
	}
	f.at++
	return f.cur[f.at-1], true
}

// close stops the feed, wherever it is.
func (f *feed) close() {
	f.line.Leave(nil)
	f.line.Drain()
}
