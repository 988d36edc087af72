package bench

import (
	"fmt"
	"io"
	"strings"
)

// SweepError is how a sweep ends that did not go well: runs failed (they
// are not in its results file), or the checker found violations in runs
// that completed.
type SweepError struct {
	// Failed counts the runs that did not complete.
	Failed int
	// Violated counts the completed runs that broke the specification,
	// Violations the violations the checker found in them.
	Violated, Violations int
	msg                  string
}

// Error says how the sweep ended.
func (e *SweepError) Error() string { return e.msg }

// Outcome is how a sweep of total runs ends, once its outputs are written
// (its results to path): a *SweepError when runs failed, which lists them
// on w first (WriteFailures), or when the checker found violations in the
// runs that completed; nil when all is well.
func Outcome(w io.Writer, path string, total int, results []*Result, failed []*RunError) error {
	e := &SweepError{Failed: len(failed)}
	for _, r := range results {
		if r.Violations > 0 {
			e.Violated++
			e.Violations += r.Violations
		}
	}
	broke := ""
	if e.Violated > 0 {
		broke = fmt.Sprintf("%d of %d completed runs broke the specification (the violations column of %s)", e.Violated, len(results), path)
	}
	switch {
	case len(failed) > 0:
		WriteFailures(w, failed)
		e.msg = fmt.Sprintf("%d of %d runs failed (listed above) and are not in %s", len(failed), total, path)
		if broke != "" {
			e.msg += "; " + broke
		}
	case e.Violated > 0:
		e.msg = broke
	default:
		return nil
	}
	return e
}

// WriteFailures writes the runs that failed on w, grouped by cause (each
// cause with its first run, and how many more), then the stack of the
// first that panicked.
func WriteFailures(w io.Writer, failed []*RunError) {
	var causes []string
	byCause := map[string][]*RunError{}
	for _, f := range failed {
		cause := strings.TrimPrefix(f.Error(), f.Run.Label()+": ")
		if _, ok := byCause[cause]; !ok {
			causes = append(causes, cause)
		}
		byCause[cause] = append(byCause[cause], f)
	}
	if len(failed) == 1 {
		fmt.Fprintln(w, "1 run failed:")
	} else {
		fmt.Fprintf(w, "%d runs failed:\n", len(failed))
	}
	for _, c := range causes {
		fs := byCause[c]
		who := fs[0].Run.Label()
		if len(fs) > 1 {
			who += fmt.Sprintf(" and %d more", len(fs)-1)
		}
		fmt.Fprintf(w, "  %s: %s\n", who, c)
	}
	for _, f := range failed {
		if f.Stack != nil {
			fmt.Fprintf(w, "%s panicked:\n%s", f.Run.Label(), f.Stack)
			break
		}
	}
}

// BoundsLine says how long the liveness bounds of the runs of results (at
// least one) were after each change, and where they come from.
func BoundsLine(results []*Result) string {
	lo, hi := results[0].Liveness, results[0].Liveness
	for _, r := range results {
		lo, hi = min(lo, r.Liveness), max(hi, r.Liveness)
	}
	span := lo.String()
	if hi != lo {
		span += " to " + hi.String()
	}
	return fmt.Sprintf("bounds: liveness %s after each change: the algorithm's timers and %d crossings of its network (results.csv: hops to duration_ms; elect bench --help)", span, Crossings)
}
