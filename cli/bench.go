package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/bench"
)

// benchFlags define a sweep: its options, and how it runs.
type benchFlags struct {
	opt   bench.Options
	jobs  int
	out   string
	style bench.Style
	shard string
	quiet bool
}

// stillFigures and movingFigures name the plots, for the help.
var stillFigures, movingFigures = bench.FigureNames()

// helpList writes names comma-separated in lines of the help's width (78),
// each indented by indent spaces.
func helpList(names []string, indent int) string {
	var lines []string
	line := ""
	for i, n := range names {
		if i < len(names)-1 {
			n += ","
		}
		if line != "" && indent+len(line)+1+len(n) > 78 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += n
	}
	lines = append(lines, line)
	pad := strings.Repeat(" ", indent)
	return pad + strings.Join(lines, "\n"+pad)
}

func newBenchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run the documents' experiments as sweeps: CSV of every run, table and plots of the means",
		Long: helpText("bench",
			"stillFigures", helpList(stillFigures, 17), "movingFigures", helpList(movingFigures, 17),
			"crossings", strconv.Itoa(bench.Crossings), "exponentialSpan", strconv.Itoa(bench.ExponentialSpan)),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sw, err := f.sweep()
			if err != nil {
				return err
			}
			runs, err := sw.Runs()
			if err != nil {
				return err
			}
			for _, s := range sw.Skipped {
				fmt.Fprintln(cmd.ErrOrStderr(), "elect: note:", s)
			}
			if len(runs) == 0 {
				return fmt.Errorf("no run left: every experiment is outside the models of the algorithms (give --outside-model to run them anyway)")
			}
			shard, err := shardOf(cmd, f.shard)
			if err != nil {
				return err
			}
			runs = shard.Of(runs)
			name := "results.csv"
			if shard.N > 1 {
				name = fmt.Sprintf("results-%d-of-%d.csv", shard.K, shard.N)
			}
			path := filepath.Join(f.out, name)
			rows, err := bench.CreateResults(path, nil)
			if err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			results, failed, err := sw.RunInto(rows, runs, f.jobs, progress(cmd.ErrOrStderr(), f.quiet))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(failed) > 0 {
				fmt.Fprintf(out, "%d of %d runs written to %s (%d failed)\n", len(results), len(runs), path, len(failed))
			} else {
				fmt.Fprintf(out, "%d runs written to %s\n", len(results), path)
			}
			if len(results) > 0 {
				fmt.Fprintln(out, bench.BoundsLine(results))
			}
			if shard.N > 1 {
				fmt.Fprintf(out, "merge the shards and plot with: elect bench plot %s/results-*-of-%d.csv --out %s\n", f.out, shard.N, f.out)
			} else if err := bench.Report(out, results, f.out, f.style); err != nil {
				return err
			}
			return outcome(cmd.ErrOrStderr(), path, len(runs), results, failed)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.opt.Experiments, "experiments", "start,crash", "experiments, comma-separated: start, crash, partition, merge, mobile, battery")
	fl.StringVar(&f.opt.Algorithms, "algos", "vkt", "algorithms, comma-separated; a variant is NAME:PARAM=VALUE[:PARAM=VALUE], e.g. vkt,vkt:medium=broadcast")
	fl.StringArrayVar(&f.opt.Topologies, "topology", nil, "topology with {n} for the size, and its sizes after @ (repeatable; default "+strings.Join(bench.DefaultTopologies, " and ")+")")
	fl.StringVar(&f.opt.Sizes, "sizes", "", "sizes for the topologies given without @: 50,100 or 2..12 or 16..4096*2")
	fl.IntVar(&f.opt.Seeds, "seeds", 3, "seeds per combination (1..N)")
	fl.StringVar(&f.opt.Delay, "delay", "uniform:1ms:5ms", "link delay")
	fl.StringVar(&f.opt.Values, "values", "random", "node values: id or random")
	fl.StringArrayVarP(&f.opt.Params, "param", "p", nil, "algorithm parameter NAME=VALUE, for the algorithms that have it (repeatable)")
	fl.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "runs at once")
	fl.StringVar(&f.out, "out", "bench-out", "directory for the results, table and plots")
	fl.StringVar(&f.opt.Format, "format", "png", plotFormatDoc)
	fl.StringVar(&f.opt.PlotSize, "plot-size", "", plotSizeDoc)
	fl.StringVar(&f.shard, "shard", "", "run only part K of N of the sweep (K/N); in a Slurm job array or a Kubernetes Indexed Job the task's own by default")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fl.StringArrayVar(&f.opt.Mobility, "mobility", nil, "how nodes move, {v} standing for each speed (repeatable; default "+bench.DefaultMobility+" when --speeds is given)")
	fl.StringVar(&f.opt.Speeds, "speeds", "", "node speeds in m/s for moving networks: 0,1,2,5,10,20")
	fl.StringVar(&f.opt.Drains, "drains", "", "battery drains for the battery experiment: units of charge a byte sent (half that a byte received), like 0.5,1,2")
	fl.StringVar(&f.opt.Capacity, "capacity", "", "battery experiment: each battery's charge at the start (default 100000)")
	fl.StringVar(&f.opt.Duration, "duration", "", "virtual time of each run, instead of the experiment's own")
	fl.BoolVar(&f.opt.OutsideModel, "outside-model", false, "also run experiments that an algorithm's model does not admit (crash without Model.Crash, partition and merge without Model.Partition, mobile without Model.Mobility), to document how it fails")
	cmd.AddCommand(newBenchPlotCmd())
	return cmd
}

// sweep builds the sweep the flags describe (bench.Options.Sweep), saying
// which flag is at fault.
func (f *benchFlags) sweep() (*bench.Sweep, error) {
	sw, err := f.opt.Sweep()
	var e *bench.OptionError
	if errors.As(err, &e) {
		switch {
		case errors.Is(e.Err, bench.ErrNoNames):
			return nil, fmt.Errorf("--experiments and --algos need at least one name each")
		case e.Option == "Style":
			return nil, e.Err
		case e.Item != "":
			return nil, fmt.Errorf("%s %s: %w", benchFlagNames[e.Option], e.Item, e.Err)
		}
		return nil, fmt.Errorf("%s: %w", benchFlagNames[e.Option], e.Err)
	}
	if err != nil {
		return nil, err
	}
	f.style, err = f.opt.Style()
	return sw, err
}

// benchFlagNames are the flags of bench.Options' fields.
var benchFlagNames = map[string]string{
	"Algorithms": "--algos", "Topologies": "--topology", "Sizes": "--sizes", "Seeds": "--seeds",
	"Delay": "--delay", "Values": "--values", "Params": "--param", "Speeds": "--speeds",
	"Mobility": "--mobility", "Drains": "--drains", "Capacity": "--capacity", "Duration": "--duration",
}

// shardOf is the shard a command runs: --shard K/N when given, else the
// one an array job's scheduler gives the task (Slurm, Kubernetes), said on
// stderr; the whole of it otherwise.
func shardOf(cmd *cobra.Command, flag string) (bench.Shard, error) {
	if flag != "" {
		sh, err := bench.ParseShard(flag)
		if err != nil {
			return sh, fmt.Errorf("--shard: %w", err)
		}
		return sh, nil
	}
	sh, from, ok, err := bench.SchedulerShard(os.Getenv)
	if err != nil {
		return sh, fmt.Errorf("the shard from the scheduler: %w", err)
	}
	if ok {
		fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: running %s (--shard overrides it)\n", from)
	}
	return sh, nil
}

// The flags of the figures' style, the same for bench and bench plot.
const (
	plotFormatDoc = "plot formats: png, svg or pdf, or several comma-separated (png,pdf)"
	plotSizeDoc   = "each figure's size, WIDTHxHEIGHT in inches or centimetres: 3.5x2.5in for a column of a two-column paper (default 7x4.5in)"
)

// outcome is how a sweep ends, once its outputs are written
// (bench.Outcome): a violation when the checker found some in the runs
// that completed and none failed.
func outcome(w io.Writer, path string, total int, results []*bench.Result, failed []*bench.RunError) error {
	err := bench.Outcome(w, path, total, results, failed)
	if e, ok := err.(*bench.SweepError); ok && e.Failed == 0 {
		return fmt.Errorf("%w: %w", err, violationError{e.Violations})
	}
	return err
}

func newBenchPlotCmd() *cobra.Command {
	var out, format, size string
	cmd := &cobra.Command{
		Use:   "plot RESULTS.csv...",
		Short: "Merge results files (the shards of a sweep) and make the table and plots",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			style, err := bench.ParseStyle(format, size)
			if err != nil {
				return err
			}
			merged, missing, err := bench.MergeFiles(args...)
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: shards %s are missing: the table and plots hold the others' runs only\n", strings.Join(missing, ", "))
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			path := filepath.Join(out, "results.csv")
			if err := bench.WriteResults(path, merged); err != nil {
				return err
			}
			if err := bench.Report(cmd.OutOrStdout(), merged, out, style); err != nil {
				return err
			}
			return outcome(cmd.ErrOrStderr(), path, len(merged), merged, nil)
		},
	}
	cmd.Flags().StringVar(&out, "out", "bench-out", "directory for the merged results, table and plots")
	cmd.Flags().StringVar(&format, "format", "png", plotFormatDoc)
	cmd.Flags().StringVar(&size, "plot-size", "", plotSizeDoc)
	return cmd
}
