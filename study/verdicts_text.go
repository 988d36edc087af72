package study

import (
	"fmt"
	"io"
)

// WriteVerdicts writes each claim's verdict on w as elect study prints it:
// a line with the verdict, the claim's id and its statement, then a line
// for each check that fails (where, the mean or difference and its 95%
// interval, the runs, and by how much), then why the claim is undecided
// when its outcome says. A shard's result has no verdict to write.
func (r *Result) WriteVerdicts(w io.Writer) {
	for _, o := range r.Outcomes {
		fmt.Fprintf(w, "%-9s  %s: %s\n", o.Verdict, o.Claim.ID, o.Claim.Statement())
		for _, ch := range o.Checks {
			if ch.Verdict == Fails {
				what := "mean"
				if ch.Strict {
					what = "difference" // of a comparison or a trend's step
				}
				fmt.Fprintf(w, "           fails at %s: %s %.4g, 95%% interval ±%.3g (%d runs), %s\n", ch.Label, what, ch.Interval.Mean, ch.Interval.Half, len(ch.Runs), failedBy(ch))
			}
		}
		if o.Why != "" {
			fmt.Fprintf(w, "           %s\n", o.Why)
		}
	}
}

// failedBy says by how much a failed check failed, or why.
func failedBy(ch Check) string {
	if ch.Why != "" {
		return ch.Why
	}
	return fmt.Sprintf("%.4g past the bound", ch.By)
}
