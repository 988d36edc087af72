package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/torture"
)

// fuzzResult is one algorithm's campaign in --json form.
type fuzzResult struct {
	Algorithm  string         `json:"algorithm"`
	Faults     string         `json:"faults"`
	Outside    bool           `json:"outside"`
	Seed       uint64         `json:"seed"`
	First      int            `json:"first"`
	Runs       int            `json:"runs"`
	Failed     int            `json:"failed"`
	ByProperty map[string]int `json:"by_property"`
	Events     uint64         `json:"events"`
	WallMS     float64        `json:"wall_ms"`
	Failures   []fuzzFailure  `json:"failures"`
}

type fuzzFailure struct {
	Run       int    `json:"run"`
	Property  string `json:"property"`
	Reason    string `json:"reason"`
	Nodes     int    `json:"nodes"`       // of the shrunk scenario
	Events    int    `json:"events"`      // of the shrunk scenario
	File      string `json:"file"`        // where the shrunk scenario went
	ShrinkRun int    `json:"shrink_runs"` // runs spent shrinking
}

func newFuzzCmd() *cobra.Command {
	var algos string
	var runs, first, maxNodes, budget int
	var seed uint64
	var outside, asJSON bool
	var out string
	var params []string
	var shardFlag string
	cmd := &cobra.Command{
		Use:   "fuzz",
		Short: "Run random fault schedules against an algorithm and shrink what fails",
		Long: `Generate random scenarios for an algorithm (network family and size, values,
delays, the algorithm's initiators, and the faults its model tolerates: loss,
crashes with restarts and recoveries, partitions and heals, cut links, moving
nodes), run each in the simulator with the checker, and report every run that
breaks the specification. Run i of seed S is the same scenario every time
(--seed S --first i --runs 1 reproduces it). A failing run is shrunk (fewer
events, fewer nodes, no loss or movement, plain values and delays, a shorter
run) while it still fails, and written as a scenario file to --out, ready for
elect sim and for a regression test.

--outside goes outside the model instead: every fault the algorithm does not
declare, to document how it fails (failures are expected there and do not
make the command fail).

Exit status: 0 when no run failed within the model; 1 on bad input or
error; 2 when runs within the model broke the specification.`,
		Example: `  elect fuzz --algo vkt --runs 10000 --seed 1
  elect fuzz --algo vkt -p medium=broadcast --runs 10000
  elect fuzz --algo all --runs 1000 --json
  elect fuzz --algo echo --outside --runs 2000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			names := []string{algos}
			if algos == "all" {
				names = nil
				for _, n := range algo.Names() {
					if !strings.HasPrefix(n, "test-") {
						names = append(names, n)
					}
				}
			} else if _, err := algo.Lookup(algos); err != nil {
				return fmt.Errorf("--algo: %w", err)
			}
			switch {
			case runs < 1:
				return fmt.Errorf("--runs %d: want at least 1", runs)
			case first < 0:
				return fmt.Errorf("--first %d: want 0 or more", first)
			case maxNodes < 3:
				return fmt.Errorf("--max-nodes %d: want at least 3", maxNodes)
			}
			shard, err := shardOf(cmd, shardFlag)
			if err != nil {
				return err
			}
			first, runs = shard.Range(first, runs)
			if runs == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: shard %d/%d holds no run\n", shard.K, shard.N)
				return nil
			}
			given, err := runner.ParseGiven("--param", params)
			if err != nil {
				return err
			}
			fixed := map[string]string{}
			for _, p := range given {
				fixed[p.Name] = p.Value
			}
			if len(fixed) > 0 && algos == "all" {
				return errors.New("--param names a parameter of one algorithm: give --algo NAME with it")
			}
			if len(fixed) > 0 {
				a, _ := algo.Lookup(algos) // looked up above
				if _, err := a.Resolve(fixed); err != nil {
					return fmt.Errorf("--param: %w", err)
				}
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			var broke, inModel, violations int
			for _, name := range names {
				cfg := torture.Config{Algorithm: name, Runs: runs, Seed: seed, First: first, Outside: outside,
					Limits: torture.Limits{MaxNodes: maxNodes}, ShrinkBudget: budget, Params: fixed}
				cfg.Progress = func(done, failed int) {
					if done%1000 == 0 && done < runs {
						fmt.Fprintf(cmd.ErrOrStderr(), "fuzz %s: %d runs, %d failed\n", name, done, failed)
					}
				}
				rep, err := campaign(cfg, cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				r := fuzzResult{Algorithm: name, Faults: rep.Faults.String(), Outside: outside, Seed: seed, First: first,
					Runs: rep.Runs, Failed: len(rep.Failures), ByProperty: rep.ByProperty, Events: rep.Events,
					WallMS: float64(rep.Wall.Microseconds()) / 1000, Failures: []fuzzFailure{}}
				for _, f := range rep.Failures {
					ff, err := writeFailure(out, name, seed, &f)
					if err != nil {
						return err
					}
					r.Failures = append(r.Failures, ff)
					if !outside {
						violations += f.Summary.ViolationCount
					}
				}
				if !outside {
					broke += r.Failed
					inModel += r.Runs
				}
				// Each algorithm's report as soon as it is known: an error in
				// a later campaign does not lose it.
				if asJSON {
					if err := enc.Encode(r); err != nil {
						return err
					}
				} else {
					printFuzz(cmd, r)
				}
			}
			if broke > 0 {
				return fmt.Errorf("%d of %d runs broke the specification within their algorithm's model (shrunk scenarios in %s): %w",
					broke, inModel, out, violationError{violations})
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&algos, "algo", "vkt", "the algorithm (all: every one in turn; list them with: elect algos)")
	fl.IntVar(&runs, "runs", 1000, "how many scenarios to run")
	fl.Uint64Var(&seed, "seed", 1, "the campaign's seed: run i of seed S is the same scenario every time")
	fl.IntVar(&first, "first", 0, "the number of the first run (--first i --runs 1 reproduces run i)")
	fl.BoolVar(&outside, "outside", false, "go outside the algorithm's fault model, to document how it fails")
	fl.IntVar(&maxNodes, "max-nodes", 24, "the largest network to draw")
	fl.IntVar(&budget, "shrink-budget", 300, "runs to spend shrinking each failure (negative: do not shrink)")
	fl.StringVar(&out, "out", "fuzz-failures", "directory for the failing scenarios, shrunk")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object per algorithm instead of the report")
	fl.StringVar(&shardFlag, "shard", "", "run only part K of N of the runs (K/N): a block of them, the failures of every part going to the same --out without clashing; in a Slurm job array or a Kubernetes Indexed Job the task's own by default")
	fl.StringArrayVarP(&params, "param", "p", nil, "algorithm parameter NAME=VALUE that every run takes, over what the search draws (repeatable), e.g. -p medium=broadcast")
	return cmd
}

// writeFailure writes a failure's shrunk scenario to dir.
func writeFailure(dir, name string, seed uint64, f *torture.Failure) (fuzzFailure, error) {
	s, sum := f.Smallest()
	b, err := f.File()
	if err != nil {
		return fuzzFailure{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fuzzFailure{}, fmt.Errorf("--out: %w", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-seed%d-run%d.yaml", name, seed, f.Run))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fuzzFailure{}, fmt.Errorf("--out: %w", err)
	}
	ff := fuzzFailure{Run: f.Run, Nodes: sum.Nodes, Events: len(s.Events), File: path, ShrinkRun: f.ShrinkRuns}
	if len(sum.Violations) > 0 { // a count may come without details
		ff.Property, ff.Reason = sum.Violations[0].Property, sum.Violations[0].Reason
	}
	return ff, nil
}

// campaign runs a fuzzing campaign. A machine's panic is a failure of its
// run (the simulator reports it as a violation, and it is shrunk); one
// that comes here is elect's own (the simulator's, the generator's), an
// error with its stack on w: left alone it would end the process with
// status 2, which reads as "failures found".
func campaign(cfg torture.Config, w io.Writer) (rep *torture.Report, err error) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(w, "fuzz %s panicked:\n%s", cfg.Algorithm, debug.Stack())
			rep, err = nil, fmt.Errorf("fuzz %s: panic: %v (the stack is above)", cfg.Algorithm, v)
		}
	}()
	return torture.Run(cfg)
}

func printFuzz(cmd *cobra.Command, r fuzzResult) {
	w := cmd.OutOrStdout()
	model := "in its model"
	if r.Outside {
		model = "outside its model"
	}
	fmt.Fprintf(w, "%s, %s (faults: %s), seed %d, runs %d-%d: %d failed of %d (%d events, %.0f ms)\n",
		r.Algorithm, model, r.Faults, r.Seed, r.First, r.First+r.Runs-1, r.Failed, r.Runs, r.Events, r.WallMS)
	props := make([]string, 0, len(r.ByProperty))
	for p := range r.ByProperty {
		props = append(props, p)
	}
	sort.Strings(props)
	for _, p := range props {
		fmt.Fprintf(w, "  %s: %d\n", p, r.ByProperty[p])
	}
	for i, f := range r.Failures {
		if i == 10 {
			fmt.Fprintf(w, "  ... %d more in %s\n", len(r.Failures)-10, filepath.Dir(f.File))
			break
		}
		fmt.Fprintf(w, "  run %d: %s (shrunk to %d nodes, %d events: %s)\n", f.Run, f.Reason, f.Nodes, f.Events, f.File)
	}
}
