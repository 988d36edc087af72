package viz

import (
	"time"

	"github.com/electgo/elect/trace"
)

// Pacer holds a simulated run back to a pace a person can watch: speed
// seconds of run time per second of real time. It is a trace.Observer that
// sleeps when the run gets ahead; the run itself is the same, event for
// event, as an unpaced one.
type Pacer struct {
	start time.Time
	speed float64
}

// NewPacer paces from now on.
func NewPacer(speed float64) *Pacer { return &Pacer{start: time.Now(), speed: speed} }

// Observe waits until event e is due.
func (p *Pacer) Observe(e *trace.Event) {
	due := p.start.Add(time.Duration(float64(e.At) / p.speed))
	// Sleeping for less than a millisecond costs more than it shows.
	if d := time.Until(due); d > time.Millisecond {
		time.Sleep(d)
	}
}
