package explore

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// enabled appends to out the steps that state w may take next, in a fixed
// order (deliveries by link, timers by node, then faults), and says whether
// w is where a run may end: no message in flight and no timer armed
// (quiescent), or, timed, nothing left before the horizon.
func (w *world) enabled(out []Step) (steps []Step, end, quiescent bool) {
	s := w.s
	m := s.Algorithm.Model
	pending := false
	at := w.now + Tick // untimed
	limit := time.Duration(1<<63 - 1)
	if s.Timed {
		limit = w.deadline()
	}
	for i, l := range w.links {
		if l == nil || len(l.msgs) == 0 {
			continue
		}
		pending = true
		from, to := algo.NodeID(i/w.n), algo.NodeID(i%w.n)
		for k, f := range l.msgs {
			if k > 0 && !s.Reorder {
				break // only the head of a FIFO link may arrive
			}
			if !s.Timed {
				out = append(out, Step{At: at, Kind: Deliver, Node: to, Peer: from, Seq: f.seq})
				if w.used.Losses < s.Budget.Losses && m.Loss {
					out = append(out, Step{At: at, Kind: Lose, Node: to, Peer: from, Seq: f.seq})
				}
				continue
			}
			for _, t := range w.arrivals(f, limit) {
				out = append(out, Step{At: t, Kind: Deliver, Node: to, Peer: from, Seq: f.seq})
			}
			if w.used.Losses < s.Budget.Losses && m.Loss {
				out = append(out, Step{At: w.now, Kind: Lose, Node: to, Peer: from, Seq: f.seq})
			}
		}
	}
	for v, nd := range w.nodes {
		if nd.m == nil {
			continue
		}
		for _, a := range nd.timers {
			pending = true
			switch {
			case !s.Timed:
				out = append(out, Step{At: at, Kind: Fire, Node: algo.NodeID(v), Peer: algo.None, Timer: a.t})
			case a.at <= limit:
				out = append(out, Step{At: a.at, Kind: Fire, Node: algo.NodeID(v), Peer: algo.None, Timer: a.t})
			}
		}
	}
	algorithmic := len(out)
	faultAt := at
	if s.Timed {
		faultAt = w.now
		if w.now > s.Horizon-s.Check.Liveness {
			// Faults strike early enough for the checker to judge what
			// follows them before the run ends.
			return out, algorithmic == 0 || w.now >= s.Horizon, !pending
		}
	}
	if w.used.Crashes < s.Budget.Crashes && m.Crash {
		for v, nd := range w.nodes {
			if nd.m != nil {
				out = append(out, Step{At: faultAt, Kind: Crash, Node: algo.NodeID(v), Peer: algo.None})
			}
		}
	}
	if w.used.Restarts < s.Budget.Restarts && m.Crash {
		for v, nd := range w.nodes {
			if nd.m == nil {
				out = append(out, Step{At: faultAt, Kind: Restart, Node: algo.NodeID(v), Peer: algo.None},
					Step{At: faultAt, Kind: Recover, Node: algo.NodeID(v), Peer: algo.None})
			}
		}
	}
	if w.used.LinkChanges < s.Budget.LinkChanges && (m.Partition || m.Mobility) {
		for _, e := range s.Graph.Edges() {
			kind := LinkDown
			if w.down[int(e.A)*w.n+int(e.B)] {
				kind = LinkUp
			}
			out = append(out, Step{At: faultAt, Kind: kind, Node: e.A, Peer: e.B})
		}
	}
	end = algorithmic == 0
	if s.Timed && !end && w.now >= s.Horizon {
		end = true
	}
	return out, end, !pending
}

// deadline is the latest time the next step may take, timed: no message
// may stay in flight past its longest delay, no timer past its time, and
// the run ends at the horizon.
func (w *world) deadline() time.Duration {
	d := w.s.Horizon
	for _, l := range w.links {
		if l == nil {
			continue
		}
		for _, f := range l.msgs {
			_, latest := w.window(f)
			d = min(d, latest)
		}
	}
	for _, nd := range w.nodes {
		if nd.m == nil {
			continue
		}
		for _, a := range nd.timers {
			d = min(d, a.at)
		}
	}
	return d
}

// window is when a message in flight may arrive: from its shortest delay
// to its longest, or, for a synchronous algorithm, at the start of the
// pulse after the one it was sent in.
func (w *world) window(f flight) (earliest, latest time.Duration) {
	if w.s.Algorithm.Model.Synchronous {
		t := (f.sent/algo.PulseLength + 1) * algo.PulseLength
		return t, t
	}
	d := w.s.Delays
	return f.sent + d[0], f.sent + d[len(d)-1]
}

// arrivals are the times f may arrive at, up to limit: after each of the
// delays it may take, and now, if now is within its window (other events
// took the time up to there).
func (w *world) arrivals(f flight, limit time.Duration) []time.Duration {
	lo, hi := w.window(f)
	var out []time.Duration
	if lo <= w.now && w.now <= hi && w.now <= limit {
		out = append(out, w.now)
	}
	if w.s.Algorithm.Model.Synchronous {
		if lo > w.now && lo <= limit {
			out = append(out, lo)
		}
		return out
	}
	for _, d := range w.s.Delays {
		if t := f.sent + d; t > w.now && t <= limit {
			out = append(out, t)
		}
	}
	return out
}

// fits says why step s is not one that state w may take next, if it is
// not: a replay's check of a schedule written by hand.
func (w *world) fits(s Step) error {
	steps, _, _ := w.enabled(nil)
	for _, e := range steps {
		if e.Kind == s.Kind && e.Node == s.Node && e.Peer == s.Peer && e.Seq == s.Seq && e.Timer == s.Timer {
			if !w.s.Timed || e.At == s.At {
				return nil
			}
		}
	}
	if w.s.Timed {
		var when []time.Duration
		for _, e := range steps {
			if e.Kind == s.Kind && e.Node == s.Node && e.Peer == s.Peer && e.Seq == s.Seq && e.Timer == s.Timer {
				when = append(when, e.At)
			}
		}
		if len(when) > 0 {
			return fmt.Errorf("%v: timed, it may happen at %v only", s, when)
		}
	}
	return fmt.Errorf("%v: not possible in this state", s)
}
