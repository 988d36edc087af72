package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

func newExploreCmd() *cobra.Command {
	var f scenarioFlags
	var timed, untimed, reorder, noSleep, noCache, asJSON, arrange, noSymmetry bool
	var budget explore.Budget
	var opt explore.Options
	var limit, out string
	f.base = exploreBase
	cmd := &cobra.Command{
		Use:   "explore [SCENARIO]",
		Short: "Explore every order of events of a small network, checking each state; print the shortest counterexample",
		Long:  helpText("explore"),
		Example: `  elect explore --algo chang-roberts --topology ring:4 --values id
  elect explore --algo echo --topology complete:4
  elect explore --algo vkt --topology line:3 --crashes 1 --duration 4s --liveness 2s \
      -p heartbeat=200ms -p timeout=600ms -p probe=200ms -p election_timeout=1s
  elect explore --algo chang-roberts --topology ring:3 --reorder --out cx/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.scenario(cmd, args)
			if err != nil {
				return err
			}
			how := runner.Exploring{Reorder: reorder, Budget: budget}
			switch {
			case timed && untimed:
				return fmt.Errorf("--timed and --untimed: give one")
			case timed:
				how.Mode = runner.ModeTimed
			case untimed:
				how.Mode = runner.ModeUntimed
			}
			if err := checkBudget(budget); err != nil {
				return err
			}
			if limit != "" {
				if opt.Time, err = algo.ParseDuration(limit); err != nil || opt.Time <= 0 {
					return fmt.Errorf("--time %q: want a duration above 0, like 30s", limit)
				}
			}
			if opt.MaxStates < 0 || opt.MaxDepth < 0 || opt.Workers < 0 {
				return fmt.Errorf("--max-states, --max-depth and --workers take a count of 0 (no limit, or one worker per core) or more")
			}
			setup, err := runner.ExploreSetup(s, how)
			if err != nil {
				return err
			}
			if setup.Timed && !cmd.Flags().Changed("duration") && !s.Sets("duration") {
				return fmt.Errorf("%s is explored timed (its model is not asynchronous): give --duration, the time every run is explored up to (it must outlast --liveness, %v, after the last fault)", s.Algorithm, setup.Check.Liveness)
			}
			opt.NoSleepSets, opt.NoFingerprints = noSleep, noCache
			errOut := cmd.ErrOrStderr()
			opt.Progress = progressLine(errOut, asJSON)
			var res *explore.Result
			var arranged *explore.ArrangeResult
			if arrange {
				if arranged, err = explore.Arrangements(setup, opt, !noSymmetry); err != nil {
					return err
				}
				res = arranged.Sum()
				if cx := arranged.Counterexample(); cx != nil {
					setup.Values = cx.Values
				}
			} else if res, err = explore.Explore(setup, opt); err != nil {
				return err
			}
			rep := explore.NewReport(s.Topology, setup, res, opt)
			if arranged != nil {
				rep.AddArrangements(arranged)
			}
			if cx := res.Counterexample; cx != nil && out != "" {
				if rep.Files, err = runner.WriteCounterexample(out, "--out", s, setup, cx); err != nil {
					return err
				}
			}
			if asJSON {
				b, _ := json.Marshal(rep)
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", b)
			} else {
				rep.WriteText(cmd.OutOrStdout())
			}
			if res.Counterexample != nil {
				return violationError{res.Counterexample.Report.ViolationCount}
			}
			return nil
		},
	}
	f.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&timed, "timed", false, "explore only what real time allows: messages take --delay's shortest or longest delay, timers fire at their time, up to --duration")
	fl.BoolVar(&untimed, "untimed", false, "explore every order of events, whatever their timing (the default for asynchronous algorithms)")
	fl.BoolVar(&reorder, "reorder", false, "let messages overtake one another on a link (links are FIFO otherwise)")
	fl.IntVar(&budget.Crashes, "crashes", 0, "crashes to add, at any node, at any moment (the model must admit crashes)")
	fl.IntVar(&budget.Restarts, "restarts", 0, "restarts (no state) or recoveries (saved state) of crashed nodes to add")
	fl.IntVar(&budget.Losses, "losses", 0, "messages to lose (the model must admit loss)")
	fl.IntVar(&budget.LinkChanges, "link-changes", 0, "links of the network to take down or bring back up (the model must admit partitions or mobility)")
	fl.Int64Var(&opt.MaxStates, "max-states", 10_000_000, "stop after this many distinct states (0: no limit)")
	fl.IntVar(&opt.MaxDepth, "max-depth", 0, "stop at this many steps from the boot (0: no limit)")
	fl.IntVar(&opt.Workers, "workers", 0, "goroutines expanding each depth's states (0: one per core); the search is the same whatever their number")
	fl.StringVar(&limit, "time", "", "stop after this long (e.g. 60s; default: no limit)")
	fl.BoolVar(&arrange, "arrangements", false, "explore every arrangement of the values over the nodes (--values id: every permutation of 0..n-1), each from the boot")
	fl.BoolVar(&noSymmetry, "no-symmetry", false, "with --arrangements, explore every one, also those a rotation of a ring maps to one explored")
	fl.BoolVar(&noCache, "no-fingerprints", false, "turn state caching off: every path explored as a tree, however often it meets a state met before (exponentially slower: for tiny networks)")
	fl.BoolVar(&noSleep, "no-por", false, "turn partial-order reduction (sleep sets) off: the same states, more steps taken")
	fl.StringVar(&out, "out", "", "write a counterexample to this directory: counterexample.jsonl (a trace) and counterexample.yaml (a scenario with its schedule)")
	fl.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	return cmd
}

// exploreBase is the scenario explore starts from before a file and flags:
// the simulator's default on a network small enough to explore (3 nodes,
// or the smallest of the family the algorithm needs, see pickTopology).
func exploreBase() *scenario.Scenario {
	s := scenario.Default()
	s.Topology = "line:3"
	return s
}

// checkBudget refuses a negative budget.
func checkBudget(b explore.Budget) error {
	for _, f := range []struct {
		flag string
		k    int
	}{{"--crashes", b.Crashes}, {"--restarts", b.Restarts}, {"--losses", b.Losses}, {"--link-changes", b.LinkChanges}} {
		if f.k < 0 {
			return fmt.Errorf("%s %d: want 0 or more", f.flag, f.k)
		}
	}
	return nil
}

// progressLine tells the search's progress on w: a line redrawn in place on
// a terminal, none otherwise (nor with --json).
func progressLine(w io.Writer, quiet bool) func(explore.Progress) {
	if f, ok := w.(*os.File); quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(p explore.Progress) {
		fmt.Fprintf(w, "\rexplore: %d states, %d distinct, depth %d, frontier %d, %.0f states/s   ", p.States, p.Distinct, p.Depth, p.Frontier, p.Rate())
		if p.Frontier == 0 {
			fmt.Fprintln(w)
		}
	}
}
