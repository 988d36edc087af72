package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/torture"
)

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
			c := torture.Campaign{Algorithms: names, Out: out, JSON: asJSON, Log: cmd.ErrOrStderr(),
				Config: torture.Config{Runs: runs, Seed: seed, First: first, Outside: outside,
					Limits: torture.Limits{MaxNodes: maxNodes}, ShrinkBudget: budget, Params: fixed}}
			t, err := c.Run(cmd.OutOrStdout())
			var dir *torture.DirError
			if errors.As(err, &dir) {
				return fmt.Errorf("--out: %w", dir.Err)
			}
			if err != nil {
				return err
			}
			if t.Broke > 0 {
				return fmt.Errorf("%d of %d runs broke the specification within their algorithm's model (shrunk scenarios in %s): %w",
					t.Broke, t.Runs, out, violationError{t.Violations})
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
