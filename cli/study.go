package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/electgo/elect/bench"
	"github.com/electgo/elect/study"
)

// claimsError ends a study whose claims do not all hold: a claim failed
// (ExitViolation), or none failed and some are undecided (ExitUndecided).
type claimsError struct {
	undecided bool
	msg       string
}

func (e claimsError) Error() string { return e.msg }

type studyFlags struct {
	small    bool
	out      string
	jobs     int
	shard    string
	sweeps   []string
	runs     string
	fresh    bool
	format   string
	plotSize string
	quiet    bool
}

func newStudyCmd() *cobra.Command {
	var f studyFlags
	cmd := &cobra.Command{
		Use:   "study FILE",
		Short: "Run a study file: its sweeps, and the verdict on each published claim it states",
		Long:  helpText("study", "measures", strings.Join(bench.Measures(), ", ")),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := study.Load(args[0])
			if err != nil {
				return err
			}
			opt, err := f.options(cmd, st)
			if err != nil {
				return err
			}
			res, err := st.Run(opt)
			if err != nil {
				return err
			}
			return studyOutcome(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, opt)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.small, "small", false, "run the small form of every sweep (the one CI runs)")
	fl.StringVar(&f.out, "out", "", "directory of the results, figures and report (default study-out/NAME-small or -full)")
	fl.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "runs at once")
	fl.StringVar(&f.shard, "shard", "", "run only part K of N of every sweep (K/N); in a Slurm job array or a Kubernetes Indexed Job the task's own by default")
	fl.StringArrayVar(&f.sweeps, "sweep", nil, "run only this sweep (repeatable)")
	fl.StringVar(&f.runs, "runs", "", "run only these runs of each sweep, by index: 3,7-9 (a line of the report)")
	fl.BoolVar(&f.fresh, "fresh", false, "run again the runs that OUT already holds")
	fl.StringVar(&f.format, "format", "png", plotFormatDoc)
	fl.StringVar(&f.plotSize, "plot-size", "", plotSizeDoc)
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	cmd.AddCommand(newStudyMergeCmd())
	return cmd
}

func (f *studyFlags) options(cmd *cobra.Command, st *study.Study) (study.Options, error) {
	opt := study.Options{Small: f.small, Out: f.out, Jobs: f.jobs, Sweeps: f.sweeps, Fresh: f.fresh, Log: cmd.ErrOrStderr()}
	if opt.Out == "" {
		opt.Out = st.DefaultOut(f.small)
	}
	var err error
	if opt.Style, err = bench.ParseStyle(f.format, f.plotSize); err != nil {
		return opt, err
	}
	if opt.Shard, err = shardOf(cmd, f.shard); err != nil {
		return opt, err
	}
	if f.runs != "" {
		if opt.Runs, err = bench.ParseRunList(f.runs); err != nil {
			return opt, fmt.Errorf("--runs: %w", err)
		}
	}
	if f.jobs < 1 {
		return opt, fmt.Errorf("--jobs: %d, want 1 or more", f.jobs)
	}
	opt.Progress = progress(cmd.ErrOrStderr(), f.quiet)
	return opt, nil
}

// progress is a progress bar on w for the runs of a sweep or a study, made
// when the first run ends (a study knows then how many it runs), or nil
// when w is not a terminal (a bar redrawn with carriage returns only
// garbles a log) or quiet is set.
func progress(w io.Writer, quiet bool) func(done, total int) {
	if f, ok := w.(*os.File); quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("runs"),
				progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
		}
		bar.Set(done)
	}
}

// studyOutcome prints what the study did and each claim's verdict
// (study.Result.WriteSummary), and ends it with the exit status of its
// verdict.
func studyOutcome(out, errw io.Writer, res *study.Result, opt study.Options) error {
	res.WriteSummary(out, opt)
	if len(res.Failed) > 0 {
		bench.WriteFailures(errw, res.Failed)
		if res.Report == "" {
			return fmt.Errorf("%d runs failed (listed above)", len(res.Failed))
		}
		return fmt.Errorf("%d runs failed (listed above) and are not counted: the study is incomplete", len(res.Failed))
	}
	if res.Report == "" {
		return nil
	}
	switch res.Verdict() {
	case study.Fails:
		return claimsError{msg: fmt.Sprintf("%d of %d claims fail (see %s)", res.Count(study.Fails), len(res.Outcomes), res.Report)}
	case study.Undecided:
		msg := fmt.Sprintf("%d of %d claims are undecided: more seeds may decide them (see %s)", res.Count(study.Undecided), len(res.Outcomes), res.Report)
		if res.Missing > 0 && res.Count(study.Undecided) == 0 {
			msg = fmt.Sprintf("every claim holds on the runs there are, but %d runs are missing", res.Missing)
		}
		return claimsError{undecided: true, msg: msg}
	}
	return nil
}

func newStudyMergeCmd() *cobra.Command {
	var out string
	var small bool
	cmd := &cobra.Command{
		Use:   "merge FILE",
		Short: "Join the shards' results of a study (SWEEP/results-K-of-N.csv) into SWEEP/results.csv",
		Long:  helpText("study-merge"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := study.Load(args[0])
			if err != nil {
				return err
			}
			if out == "" {
				out = st.DefaultOut(small)
			}
			files, err := st.Merge(out, small)
			if err != nil {
				return err
			}
			study.WriteMerged(cmd.OutOrStdout(), files, args[0], small, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the study's directory (default study-out/NAME-small or -full)")
	cmd.Flags().BoolVar(&small, "small", false, "the shards ran the small form")
	return cmd
}
