package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// exploreJSON is `elect explore --json`: the search and its verdict.
type exploreJSON struct {
	Algorithm  string         `json:"algorithm"`
	Topology   string         `json:"topology"`
	Nodes      int            `json:"nodes"`
	Mode       string         `json:"mode"` // timed or untimed
	Reorder    bool           `json:"reorder,omitempty"`
	Budget     explore.Budget `json:"budget"`
	States     int64          `json:"states"`
	Distinct   int64          `json:"distinct"`
	Ends       int64          `json:"ends"`
	Depth      int            `json:"depth"`
	Rate       float64        `json:"states_per_second"`
	WallMS     float64        `json:"wall_ms"`
	Complete   bool           `json:"complete"`
	Limit      string         `json:"limit,omitempty"`
	Reductions []string       `json:"reductions"`
	Pruned     int64          `json:"pruned"`
	StateBytes int            `json:"state_bytes"`
	Verdict    string         `json:"verdict"`
	Violations []string       `json:"violations,omitempty"`
	Steps      []string       `json:"counterexample,omitempty"`
	Files      []string       `json:"files,omitempty"`
	// With --arrangements: how many there are, were explored, and were
	// skipped by symmetry; Values, the counterexample's arrangement.
	Arrangements *arrangementsJSON `json:"arrangements,omitempty"`
}

type arrangementsJSON struct {
	Total     int     `json:"total"`
	Explored  int     `json:"explored"`
	Skipped   int     `json:"skipped_by_symmetry"`
	Symmetric bool    `json:"symmetric"`
	Values    []int64 `json:"values,omitempty"`
}

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
		Long: `Explore every state that a small network running an algorithm can reach:
every order in which its messages may arrive and its timers fire, and, within
the budgets given, every crash, restart, loss and link change its model
admits. Every state is checked against the same specification as elect sim
(safety at every state, liveness and the message bound wherever a run may
end), breadth first, so the first violation found is a shortest one.

Time: an algorithm whose model says it is asynchronous is explored untimed
(any enabled event may come next); any other timed (messages take the
shortest or the longest delay of --delay, or arrive in between as other events
take the time, timers fire at their time, and runs end at --duration), so
that a timeout that assumes a bound is never taken for a bug. --timed and
--untimed choose. Links are FIFO, as in the simulator and the documents;
--reorder lets messages overtake one another on a link.

A counterexample goes to --out DIR as counterexample.jsonl (a trace that elect
check judges the same way and elect viz shows) and counterexample.yaml (the
scenario with its schedule, which elect sim replays exactly).

When a limit stops the search, the verdict says how far it went ("no
violation up to depth D, N states"), never that the network is correct.

Exit status: 0 when no state broke the specification; 2 on a counterexample;
1 on bad input or error.`,
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
				res = sumArranged(arranged)
				if cx := arranged.Counterexample(); cx != nil {
					setup.Values = cx.Values
				}
			} else if res, err = explore.Explore(setup, opt); err != nil {
				return err
			}
			rep := exploreReport(s, setup, res, opt)
			if arranged != nil && arranged.Symmetric {
				rep.Reductions = append(rep.Reductions, "ring-rotations")
			}
			if arranged != nil {
				rep.Arrangements = &arrangementsJSON{Total: arranged.Total, Explored: len(arranged.Explored),
					Skipped: arranged.Skipped, Symmetric: arranged.Symmetric}
				if arranged.Counterexample() != nil {
					rep.Arrangements.Values = setup.Values
				}
			}
			if cx := res.Counterexample; cx != nil && out != "" {
				if rep.Files, err = writeCounterexample(out, s, setup, cx); err != nil {
					return err
				}
			}
			if asJSON {
				b, _ := json.Marshal(rep)
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", b)
			} else {
				printExplore(cmd.OutOrStdout(), rep, res)
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

// sumArranged adds up the explorations of the arrangements as one result:
// states and ends summed, the deepest depth, the counterexample of the
// last (the search stops at one), complete when every arrangement was.
func sumArranged(a *explore.ArrangeResult) *explore.Result {
	sum := &explore.Result{Complete: a.Complete()}
	for _, r := range a.Explored {
		sum.States += r.States
		sum.Distinct += r.Distinct
		sum.Ends += r.Ends
		sum.Pruned += r.Pruned
		sum.Depth = max(sum.Depth, r.Depth)
		sum.StateBytes, sum.Timed = r.StateBytes, r.Timed
		sum.Counterexample, sum.Limit = r.Counterexample, r.Limit
	}
	if !sum.Complete && sum.Counterexample == nil && sum.Limit == "" {
		sum.Limit = "time"
	}
	sum.Elapsed = a.Elapsed
	return sum
}

// exploreBase is the scenario explore starts from before a file and flags:
// the simulator's default on a network small enough to explore (3 nodes,
// or the smallest of the family the algorithm needs, see pickTopology).
func exploreBase() *scenario.Scenario {
	s := scenario.Default()
	s.Topology = "line:3"
	return s
}

// budgetFault is one fault of a budget: its flag, its name in words, and
// how many.
type budgetFault struct {
	flag, words string
	k           int
}

// faultsOf lists the faults of b, in the flags' order.
func faultsOf(b explore.Budget) []budgetFault {
	return []budgetFault{{"--crashes", "crashes", b.Crashes}, {"--restarts", "restarts", b.Restarts},
		{"--losses", "losses", b.Losses}, {"--link-changes", "link changes", b.LinkChanges}}
}

// checkBudget refuses a negative budget.
func checkBudget(b explore.Budget) error {
	for _, f := range faultsOf(b) {
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

// exploreReport is the result as --json prints it.
func exploreReport(s *scenario.Scenario, setup *explore.Setup, res *explore.Result, opt explore.Options) exploreJSON {
	r := exploreJSON{
		Algorithm: setup.Algorithm.Name, Topology: s.Topology, Nodes: setup.Graph.N(), Mode: "untimed",
		Reorder: setup.Reorder, Budget: setup.Budget, States: res.States, Distinct: res.Distinct, Ends: res.Ends,
		Depth: res.Depth, Rate: res.Rate(), WallMS: float64(res.Elapsed.Microseconds()) / 1000,
		Complete: res.Complete, Limit: res.Limit, Pruned: res.Pruned, StateBytes: res.StateBytes,
	}
	if !opt.NoFingerprints {
		r.Reductions = append(r.Reductions, "fingerprints")
	}
	if setup.Timed {
		r.Mode = "timed"
	}
	if !opt.NoSleepSets {
		r.Reductions = append(r.Reductions, "sleep-sets")
	}
	switch {
	case res.Counterexample != nil:
		r.Verdict = fmt.Sprintf("counterexample of %d steps", len(res.Counterexample.Steps))
		for _, v := range res.Counterexample.Report.Violations {
			r.Violations = append(r.Violations, v.String())
		}
		for _, st := range res.Counterexample.Steps {
			r.Steps = append(r.Steps, st.String())
		}
	case res.Complete:
		r.Verdict = fmt.Sprintf("every state explored: %d distinct, no violation", res.Distinct)
	default:
		r.Verdict = fmt.Sprintf("no violation up to depth %d, %d distinct states (stopped by --%s; not every state was explored)", res.Depth, res.Distinct, res.Limit)
	}
	return r
}

// printExplore writes the result for a reader.
func printExplore(w io.Writer, r exploreJSON, res *explore.Result) {
	faults := []string{}
	for _, f := range faultsOf(r.Budget) {
		if f.k > 0 {
			faults = append(faults, fmt.Sprintf("%d %s", f.k, f.words))
		}
	}
	if len(faults) == 0 {
		faults = append(faults, "none")
	}
	links := "FIFO links"
	if r.Reorder {
		links = "links that reorder"
	}
	fmt.Fprintf(w, "%s on %s (%d nodes), %s, %s, faults: %s\n", r.Algorithm, r.Topology, r.Nodes, r.Mode, links, strings.Join(faults, ", "))
	if a := r.Arrangements; a != nil {
		sym := ""
		if a.Symmetric {
			sym = fmt.Sprintf(", %d skipped as rotations of those", a.Skipped)
		}
		fmt.Fprintf(w, "values:   %d arrangements explored of %d%s\n", a.Explored, a.Total, sym)
		if a.Values != nil {
			fmt.Fprintf(w, "          the counterexample's: %v (by node)\n", a.Values)
		}
	}
	reductions := strings.Join(r.Reductions, ", ")
	if reductions == "" {
		reductions = "no reduction"
	}
	fmt.Fprintf(w, "states:   %d distinct, %d steps taken, %d pruned (%s), %d where a run ends\n", r.Distinct, r.States, r.Pruned, reductions, r.Ends)
	fmt.Fprintf(w, "search:   depth %d in %v, %.0f states/s; %d bytes a distinct state kept, and one depth's states whole\n", r.Depth, res.Elapsed.Round(time.Millisecond), r.Rate, r.StateBytes)
	fmt.Fprintf(w, "verdict:  %s\n", r.Verdict)
	if cx := res.Counterexample; cx != nil {
		for _, v := range cx.Report.Violations {
			fmt.Fprintf(w, "  VIOLATION %s\n", v)
		}
		fmt.Fprintf(w, "schedule:\n")
		for i, st := range cx.Steps {
			fmt.Fprintf(w, "  %3d. %s\n", i+1, st)
		}
		for _, f := range r.Files {
			fmt.Fprintf(w, "wrote %s\n", f)
		}
		if len(r.Files) > 0 {
			fmt.Fprintf(w, "replay: elect sim %s\n", r.Files[1])
		}
	}
}

// writeCounterexample writes cx to dir: its trace (the header of s, with
// the schedule's events, as elect check and elect viz read it) and the
// scenario s with the schedule, which elect sim replays.
func writeCounterexample(dir string, s *scenario.Scenario, setup *explore.Setup, cx *explore.Counterexample) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	replay := s.Clone()
	replay.Schedule = &scenario.Schedule{Timed: setup.Timed, Reorder: setup.Reorder, Steps: cx.Steps}
	replay.Values = sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{}}
	for v, x := range setup.Values {
		replay.Values.Explicit[algo.NodeID(v)] = x // the arrangement explored, whatever the mode drew
	}
	tracePath, yamlPath := filepath.Join(dir, "counterexample.jsonl"), filepath.Join(dir, "counterexample.yaml")
	h, err := runner.Header(replay)
	if err != nil {
		return nil, err
	}
	tf, err := os.Create(tracePath)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	tw, err := trace.NewWriter(tf, h)
	if err == nil {
		_, err = explore.Replay(setup, cx.Steps, tw)
		if cerr := tw.Close(); err == nil {
			err = cerr
		}
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", tracePath, err)
	}
	b, err := scenario.Format(replay)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(yamlPath, b, 0o644); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	return []string{tracePath, yamlPath}, nil
}
