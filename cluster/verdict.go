package cluster

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/electgo/elect/metrics"
)

// Verdict is the checker's judgement of a run (Summary.Check): check.Monitor
// on the run's events as they happened (see Config.Trace), what `elect
// check` says of the run's trace file.
type Verdict struct {
	// OK says the checker found no violation.
	OK bool `json:"ok"`
	// Violations are the first 100 violations in detail (property, time,
	// nodes, reason), ViolationCount all of them.
	Violations     []metrics.Violation `json:"violations"`
	ViolationCount int                 `json:"violation_count"`
	// Elections are the election episodes the checker saw complete: from
	// the first node of a component to leave Norm until all of them follow
	// one leader in Norm.
	Elections metrics.Elections `json:"elections"`
	// Unchecked counts the components whose liveness could not be judged:
	// the run ended before their liveness bound had passed since they
	// last changed (had one of them not settled by then, that would be a
	// violation). LivenessJudged says there was none.
	Unchecked      int  `json:"unchecked"`
	LivenessJudged bool `json:"liveness_judged"`
	// StabilizationMS and LivenessMS are the checker's bounds; EndMS is
	// when the checker's run ended, from time 0 of the run.
	StabilizationMS float64 `json:"stabilization_ms"`
	LivenessMS      float64 `json:"liveness_ms"`
	EndMS           float64 `json:"end_ms"`
	// OutsideModel says why the run went outside the algorithm's model,
	// if it did: a crash (kill, stop, or a node's death of its own, a
	// crash_on's) of an algorithm whose model has none, a joker. Its
	// violations are then reported and fail nothing, as `elect emulate`
	// refuses such runs and `elect bench` runs them only to document how
	// the algorithm fails; a machine's panic still does (Summary.Violated).
	OutsideModel []string `json:"outside_model,omitempty"`
	// Events counts the events judged, LateEvents those read too late to
	// be judged in their place (judged at the time of the event before).
	Events     int `json:"events"`
	LateEvents int `json:"late_events"`
	// TraceHash fingerprints the events judged, as `elect check` does
	// those of the trace file (Trace, when written).
	TraceHash string `json:"trace_hash"`
	Trace     string `json:"trace,omitempty"`
}

// Violated counts the violations that fail the run summed up as s (elect
// cluster then exits with status 2, as elect sim does) and says what they
// are (n 0: ""). They are the checker's (Check), unless the run went
// outside the algorithm's model, less, when the run failed (Error: a step
// not met in time, an interruption), those it found at the end, which
// that failure cut short (a component not settled when the run ended);
// and the nodes whose machine panicked, which always fail it: that is the
// algorithm's bug whatever was done to it.
func (s *Summary) Violated() (n int, why string) {
	panics := 0
	for _, e := range s.Control.Events {
		if e.panicked {
			panics++
		}
	}
	var says []string
	if panics > 0 {
		says = append(says, fmt.Sprintf("%d node(s) ended as their machine panicked (see the control events)", panics))
	}
	n = panics
	if v := s.Check; v != nil && v.ViolationCount > 0 && len(v.OutsideModel) == 0 {
		counted := v.ViolationCount
		if s.Error != "" {
			// The run failed first (a step not met in time, an
			// interruption) and ended there: what the checker finds
			// unsettled at that end is put down to that failure.
			for _, x := range v.Violations {
				if x.AtMS >= v.EndMS {
					counted--
				}
			}
		}
		if counted > 0 {
			n = max(n, counted)
			first := v.Violations[0]
			says = append(says, fmt.Sprintf("the checker found %d violation(s), the first at %.3fs: %s: %s", counted, first.AtMS/1000, first.Property, first.Reason))
		}
	}
	return n, strings.Join(says, "; ")
}

// Err is why the run summed up as s failed (Error, given to Finish, or a
// trace that could not be written), nil when it did not.
func (s *Summary) Err() error {
	if s.Error == "" {
		return nil
	}
	return errors.New(s.Error)
}

// writeText writes the verdict for people, after the summary.
func (v *Verdict) writeText(w io.Writer) {
	switch {
	case v.OK && v.LivenessJudged:
		fmt.Fprintln(w, "check: OK, safety and liveness hold")
	case v.OK:
		fmt.Fprintf(w, "check: no violation; liveness not judged in %d component(s): the run ended within the liveness bound (%v) of their last change\n", v.Unchecked, msText(v.LivenessMS))
	default:
		fmt.Fprintf(w, "check: %d VIOLATION(S)\n", v.ViolationCount)
		for _, x := range v.Violations {
			fmt.Fprintf(w, "  %8.3fs  %s: %s (nodes %v)\n", x.AtMS/1000, x.Property, x.Reason, x.Nodes)
		}
		if len(v.OutsideModel) > 0 {
			fmt.Fprintf(w, "  outside the algorithm's model, so failing nothing: %s\n", strings.Join(v.OutsideModel, "; "))
		}
	}
	fmt.Fprintf(w, "  %d elections completed; %d events judged (%d late), hash %s", v.Elections.Completed, v.Events, v.LateEvents, v.TraceHash)
	if v.Trace != "" {
		fmt.Fprintf(w, "; trace %s (elect check reads it)", v.Trace)
	}
	fmt.Fprintln(w)
}

// msText writes milliseconds as a duration: 30s, 1.5s.
func msText(ms float64) string {
	return fmt.Sprintf("%gs", ms/1000)
}
