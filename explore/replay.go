package explore

import (
	"fmt"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Replayed is how a replayed schedule ended.
type Replayed struct {
	// Steps is how many steps ran: all of them, unless a machine panicked.
	Steps int
	// Quiescent says no event was left at the end; End is its time.
	Quiescent bool
	End       trace.Event
	// Sent counts transmissions, for the message bound.
	Sent uint64
	// Panic is the Panicked event, if a machine panicked (the run ends
	// there, as a simulated one does).
	Panic *trace.Event
}

// Replay runs the schedule steps on s from the boot, handing every event to
// observers (a checker, a trace writer, counters), and ends the run with an
// End event: at the last step's time, quiescent when nothing was left, or,
// timed, at the horizon. A step that does not fit the state it comes to
// (a message not in flight, a timer not armed, a time real delays do not
// allow) is an error naming the step, with nothing run after it. This is
// how `elect sim` runs a scenario with a schedule, and how a
// counterexample becomes a trace.
func Replay(s *Setup, steps []Step, observers ...trace.Observer) (*Replayed, error) {
	return replay(s, steps, true, observers)
}

// replay is Replay, ending the run with its End event or not: a path to a
// state in the middle of a run, which the checker judges as it stands.
func replay(s *Setup, steps []Step, end bool, observers []trace.Observer) (*Replayed, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	w := newWorld(s)
	w.emit = func(e *trace.Event) {
		for _, o := range observers {
			o.Observe(e)
		}
	}
	out := &Replayed{}
	w.boot()
	for i, st := range steps {
		if w.panicked != nil {
			break
		}
		if err := w.fits(st); err != nil {
			return out, fmt.Errorf("schedule step %d: %w", i+1, err)
		}
		if err := w.apply(st); err != nil {
			return out, fmt.Errorf("schedule step %d: %v: %w", i+1, st, err)
		}
		out.Steps++
	}
	out.Sent, out.Panic = w.sent, w.panicked
	if !end {
		return out, nil
	}
	_, _, quiescent := w.enabled(nil)
	e := endOf(w, quiescent && w.panicked == nil)
	w.emit(&e)
	out.Quiescent, out.End = e.Quiescent, e
	return out, nil
}

// endOf is the End event of a run that ends in state w: now, or, timed and
// with events left, at the horizon.
func endOf(w *world, quiescent bool) trace.Event {
	e := trace.Event{At: w.now, Kind: trace.End, Peer: algo.None, Quiescent: quiescent}
	if w.s.Timed && !quiescent {
		e.At = max(w.now, w.s.Horizon)
	}
	return e
}

// Judge replays steps through a checker of s's configuration and returns
// its report: what `elect check` says of the counterexample's trace.
func Judge(s *Setup, steps []Step, observers ...trace.Observer) (check.Report, *Replayed, error) {
	return judge(s, steps, true, observers...)
}

func judge(s *Setup, steps []Step, end bool, observers ...trace.Observer) (check.Report, *Replayed, error) {
	cfg := s.Check
	cfg.Nodes = s.Graph.N()
	mon := check.New(cfg)
	r, err := replay(s, steps, end, append([]trace.Observer{mon}, observers...))
	if err != nil {
		return check.Report{}, r, err
	}
	if end {
		mon.Messages(r.Sent)
	}
	return mon.Report(), r, nil
}

// check says what is wrong with s, if anything.
func (s *Setup) check() error {
	switch {
	case s.Algorithm == nil || s.NewNode == nil:
		return fmt.Errorf("explore: no algorithm")
	case s.Graph == nil || s.Graph.N() == 0:
		return fmt.Errorf("explore: empty network")
	case len(s.Values) != s.Graph.N():
		return fmt.Errorf("explore: %d values for %d nodes", len(s.Values), s.Graph.N())
	case s.Timed && len(s.Delays) == 0 && !s.Algorithm.Model.Synchronous:
		return fmt.Errorf("explore: timed, with no delay for messages")
	case s.Timed && s.Horizon <= 0:
		return fmt.Errorf("explore: timed, with no horizon")
	}
	for i, d := range s.Delays {
		if d < 0 || i > 0 && d <= s.Delays[i-1] {
			return fmt.Errorf("explore: delays %v: want distinct, ascending, not negative", s.Delays)
		}
	}
	return nil
}
