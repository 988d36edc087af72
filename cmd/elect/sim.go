package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// scenarioFlags are the flags that name the common cases without a file; each
// one set overrides the scenario.
type scenarioFlags struct {
	file          string
	algo          string
	topology      string
	nodes         int
	seed          uint64
	duration      string
	values        string
	delay         string
	loss          float64
	params        []string
	initiator     string
	stabilization string
	liveness      string
}

func (f *scenarioFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&f.file, "scenario", "f", "", "scenario file (YAML); flags override it")
	fl.StringVar(&f.algo, "algo", "", "algorithm (list them with: elect algos)")
	fl.StringVar(&f.topology, "topology", "", "line:N ring:N star:N grid:WxH complete:N tree:N geometric:N:RANGE[:WxH] gnp:N:P ba:N:M layered:L file:PATH")
	fl.IntVar(&f.nodes, "nodes", 0, "node count, for topologies given without one (--topology ring --nodes 10)")
	fl.Uint64Var(&f.seed, "seed", 0, "random seed: the same seed gives the same run")
	fl.StringVar(&f.duration, "duration", "", "virtual time limit (0: until no event is left)")
	fl.StringVar(&f.values, "values", "", "node desirability values: id (value = id) or random")
	fl.StringVar(&f.delay, "delay", "", "link delay: constant:D, uniform:MIN:MAX or exponential:MEAN")
	fl.Float64Var(&f.loss, "loss", 0, "probability that a message is lost, in [0, 1)")
	fl.StringArrayVarP(&f.params, "param", "p", nil, "algorithm parameter NAME=VALUE (repeatable)")
	fl.StringVar(&f.initiator, "initiator", "", "the initiating node, for algorithms with an initiator parameter")
	fl.StringVar(&f.stabilization, "stabilization", "", "checker: how long a component must be unchanged before its Norm nodes must agree")
	fl.StringVar(&f.liveness, "liveness", "", "checker: how long a component must be unchanged before it must have settled on its most valued node")
}

// scenario builds the scenario: the built-in default, then the file, then
// the flags that were set.
func (f *scenarioFlags) scenario(cmd *cobra.Command, args []string) (*scenario.Scenario, error) {
	if len(args) > 0 {
		if f.file != "" {
			return nil, fmt.Errorf("give the scenario file either as an argument or with --scenario, not both")
		}
		f.file = args[0]
	}
	s := scenario.Default()
	if f.file != "" {
		var err error
		if s, err = scenario.Load(f.file, s); err != nil {
			return nil, err
		}
	}
	set := cmd.Flags().Changed
	if set("algo") {
		if _, err := algo.Lookup(f.algo); err != nil {
			return nil, fmt.Errorf("--algo: %w", err)
		}
		if s.Algorithm != f.algo {
			s.Params = nil // the file's parameters belong to its algorithm
		}
		s.Algorithm = f.algo
	}
	if set("topology") || set("nodes") {
		spec := s.Topology
		if set("topology") {
			spec = f.topology
		}
		if _, err := topo.Parse(spec, f.nodes); err != nil {
			return nil, fmt.Errorf("--topology: %w", err)
		}
		s.Topology, s.Nodes = spec, f.nodes
	}
	if set("seed") {
		s.Seed = f.seed
	}
	if set("duration") {
		d, err := algo.ParseDuration(f.duration)
		if err != nil {
			return nil, fmt.Errorf("--duration: %w", err)
		}
		s.Duration = d
	}
	if set("values") {
		m, err := sim.ParseValueMode(f.values)
		if err != nil {
			return nil, fmt.Errorf("--values: %w", err)
		}
		s.Values = sim.Values{Mode: m}
	}
	if set("delay") {
		d, err := sim.ParseDelay(f.delay)
		if err != nil {
			return nil, fmt.Errorf("--delay: %w", err)
		}
		s.Delay = d
	}
	if set("loss") {
		if f.loss < 0 || f.loss >= 1 {
			return nil, fmt.Errorf("--loss: %v is outside [0, 1)", f.loss)
		}
		s.Loss = f.loss
	}
	if set("stabilization") {
		d, err := algo.ParseDuration(f.stabilization)
		if err != nil {
			return nil, fmt.Errorf("--stabilization: %w", err)
		}
		s.Check.Stabilization = d
	}
	if set("liveness") {
		d, err := algo.ParseDuration(f.liveness)
		if err != nil {
			return nil, fmt.Errorf("--liveness: %w", err)
		}
		s.Check.Liveness = d
	}
	params := map[string]string{}
	for k, v := range s.Params {
		params[k] = v
	}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		params[k] = v
	}
	if set("initiator") {
		params["initiator"] = f.initiator
	}
	s.Params = params
	a, err := algo.Lookup(s.Algorithm)
	if err != nil {
		return nil, err
	}
	if _, err := a.Resolve(s.Params); err != nil {
		if set("initiator") {
			return nil, fmt.Errorf("--initiator: %w", err)
		}
		return nil, err
	}
	return s, nil
}

func newSimCmd() *cobra.Command {
	var f scenarioFlags
	var asJSON bool
	var tracePath string
	cmd := &cobra.Command{
		Use:   "sim [SCENARIO]",
		Short: "Run one scenario in the simulator and check it",
		Long: `Run one scenario in the deterministic simulator, check it against the
specification and print a summary (or, with --json, one JSON object).

With no scenario and no flags it runs the built-in default: extinction (every
node initiates) on a random geometric network of 200 nodes.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.scenario(cmd, args)
			if err != nil {
				return err
			}
			var opt runner.Options
			if tracePath != "" {
				tf, err := os.Create(tracePath)
				if err != nil {
					return fmt.Errorf("--trace: %w", err)
				}
				defer tf.Close()
				opt.Trace = tf
			}
			sum, err := runner.Run(s, opt)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				if err := enc.Encode(sum); err != nil {
					return err
				}
			} else if err := metrics.WriteText(out, sum); err != nil {
				return err
			}
			if sum.ViolationCount > 0 {
				return violationError{sum.ViolationCount}
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	cmd.Flags().StringVar(&tracePath, "trace", "", "write every event to this file as JSON lines (re-check it with: elect check FILE)")
	return cmd
}
