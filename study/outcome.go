package study

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// DefaultOut is the directory a study writes to when it is given none:
// study-out/NAME-small or study-out/NAME-full.
func (s *Study) DefaultOut(small bool) string {
	return filepath.Join("study-out", s.Name+"-"+formName(small))
}

// Count is how many of the claims' outcomes have verdict v.
func (r *Result) Count(v Verdict) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Verdict == v {
			n++
		}
	}
	return n
}

// WriteSummary writes to w what the study run with opt did: how many runs
// it ran and kept; for a shard, how to merge the shards and report; else
// each claim's verdict (WriteVerdicts), where the report is, and, when no
// run failed, how many runs are missing. The failed runs are the caller's
// to list.
func (r *Result) WriteSummary(w io.Writer, opt Options) {
	fmt.Fprintf(w, "%d runs run, %d kept from %s\n", r.Ran, r.Kept, opt.Out)
	if r.Report == "" {
		fmt.Fprintf(w, "shard %d/%d written; once every shard is done: elect study merge %s%s --out %s, then %s\n",
			opt.Shard.K, opt.Shard.N, r.Study.File, smallFlag(opt.Small), opt.Out, command(r.Study, opt))
		return
	}
	r.WriteVerdicts(w)
	fmt.Fprintf(w, "report: %s (and %s)\n", r.Report, strings.TrimSuffix(r.Report, ".md")+".html")
	if len(r.Failed) == 0 && r.Missing > 0 {
		fmt.Fprintf(w, "%d runs of the study are not in %s: the verdicts rest on the others\n", r.Missing, opt.Out)
	}
}

// WriteMerged writes to w the results files that Merge joined, and the
// command that then reports on the study of file in out.
func WriteMerged(w io.Writer, files []string, file string, small bool, out string) {
	for _, f := range files {
		fmt.Fprintf(w, "merged: %s\n", f)
	}
	fmt.Fprintf(w, "report with: elect study %s%s --out %s\n", file, smallFlag(small), out)
}
