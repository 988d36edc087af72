package cli

import (
	"fmt"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/viz"
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
	initiators    string
	unelected     string
	stabilization string
	liveness      string
	expect        string
	mobility      string
	rangeM        float64
	// base, when set, is the scenario before the file and the flags (the
	// demo or the default otherwise).
	base func() *scenario.Scenario
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
	fl.StringVar(&f.initiators, "initiators", "", "the nodes that start an election at boot, and no other: all, none, or a set like 0,3-5 (0 is node 0 alone; default: the algorithm's, for elect's own node 0 for echo and ring and every node for the others; bully takes only all)")
	fl.StringVar(&f.initiators, "initiator", "", "deprecated: --initiators")
	fl.MarkHidden("initiator")
	fl.StringVar(&f.unelected, "unelected", "", "nodes where no election is expected (a node set, or uninitiated: every component without an initiator): the checker does not fail their components for being unreached or unsettled at the end")
	fl.StringVar(&f.stabilization, "stabilization", "", "checker: how long a component must be unchanged before its Norm nodes must agree")
	fl.StringVar(&f.liveness, "liveness", "", "checker: how long a component must be unchanged before it must have settled on its most valued node")
	fl.StringVar(&f.expect, "expect", "", "checker: which components must elect: initiated (the default: those holding an initiator, every one for a spontaneous algorithm; the others are reported, not failed) or every-component")
	fl.StringVar(&f.mobility, "mobility", "", "how nodes move: static, waypoint:MINSPEED:MAXSPEED:PAUSE, walk:MINSPEED:MAXSPEED:INTERVAL (speeds in m/s) or ns2:PATH (an ns-2 movement trace, e.g. from setdest)")
	fl.Float64Var(&f.rangeM, "range", 0, "radio range in metres for moving nodes: two nodes are linked while this close (default: the geometric topology's range, or 250)")
}

// scenarioFlagNames are the flags that shape a scenario.
var scenarioFlagNames = []string{"algo", "topology", "nodes", "seed", "duration", "values", "delay", "loss", "param", "initiators", "initiator", "unelected", "stabilization", "liveness", "expect", "mobility", "range"}

// anySet reports whether a flag shaping the scenario was given.
func (f *scenarioFlags) anySet(cmd *cobra.Command) bool {
	return slices.ContainsFunc(scenarioFlagNames, cmd.Flags().Changed)
}

// keepsDemo says the demo's events still make sense under the flags given
// with no file: not when they change the network the events are written
// for (its partition is an area of that field), nor for an algorithm whose
// model does not survive a crash and a partition or needs a network of its
// own (Model.Topology). The run then starts from the plain default, with no
// events.
func (f *scenarioFlags) keepsDemo(cmd *cobra.Command) bool {
	set := cmd.Flags().Changed
	if slices.ContainsFunc([]string{"topology", "nodes", "mobility", "range"}, set) {
		return false
	}
	a, err := algo.Lookup(f.algo)
	return !set("algo") || err != nil || (a.Model.Crash && a.Model.Partition && a.Model.Topology == "")
}

// scenario builds the scenario: the built-in demo when nothing is given,
// otherwise the built-in default, then the file, then
// the flags that were set. Every error names what is at fault: the flag, or
// the file, line and field.
func (f *scenarioFlags) scenario(cmd *cobra.Command, args []string) (*scenario.Scenario, error) {
	if len(args) > 0 {
		if f.file != "" {
			return nil, fmt.Errorf("give the scenario file either as an argument or with --scenario, not both")
		}
		f.file = args[0]
	}
	s := scenario.Default()
	if f.base != nil {
		s = f.base()
	} else if f.file == "" && f.keepsDemo(cmd) {
		// The demo, with the flags on top, keeping its events where they
		// still make sense.
		s = scenario.Demo()
	}
	if f.file != "" {
		var err error
		if s, err = scenario.Load(f.file, s); err != nil {
			return nil, err
		}
	}
	// The scenario package reads algorithm, topology and params as plain
	// strings; they are checked here, against the registry and the topology
	// parser, and blamed on the file when the file gave them.
	set := cmd.Flags().Changed
	if set("algo") && s.Algorithm != f.algo {
		s.Algorithm, s.Params = f.algo, nil // the file's parameters belong to its algorithm
	}
	a, err := algo.Lookup(s.Algorithm)
	switch {
	case err != nil && set("algo"):
		return nil, fmt.Errorf("--algo: %w", err)
	case err != nil:
		return nil, s.Blame(err, "algorithm")
	}
	picked := !set("topology") && !s.Sets("topology") && runner.PickTopology(a, s)
	// Parse reads a count of 0 as none given, as f.nodes is without
	// --nodes; ParseNodes takes even --nodes 0 at its word.
	parse := topo.Parse
	if set("topology") {
		s.Topology, s.Nodes = f.topology, f.nodes
	}
	if set("nodes") {
		s.Nodes, parse = f.nodes, topo.ParseNodes
	}
	if _, err := parse(s.Topology, s.Nodes); err != nil {
		return nil, blameFlag(cmd, s, err, "topology", "nodes")
	}
	if picked {
		if spec, err := topo.Parse(s.Topology, s.Nodes); err == nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: %s needs a %s network (Model.Topology): it runs on %s (--topology chooses another)\n", a.Name, a.Model.Topology, spec)
		}
	}
	if set("seed") {
		s.Seed = f.seed
	}
	if err := parseFlag(cmd, "duration", f.duration, algo.ParseDuration, &s.Duration); err != nil {
		return nil, err
	}
	if err := f.checkEnd(cmd, s); err != nil {
		return nil, err
	}
	valueMode := func(v string) (sim.Values, error) {
		m, err := sim.ParseValueMode(v)
		return sim.Values{Mode: m}, err
	}
	if err := parseFlag(cmd, "values", f.values, valueMode, &s.Values); err != nil {
		return nil, err
	}
	if err := parseFlag(cmd, "delay", f.delay, sim.ParseDelay, &s.Delay); err != nil {
		return nil, err
	}
	if set("loss") {
		if f.loss < 0 || f.loss >= 1 {
			return nil, fmt.Errorf("--loss: %v is outside [0, 1)", f.loss)
		}
		s.Loss = f.loss
	}
	if err := parseFlag(cmd, "stabilization", f.stabilization, algo.ParseDuration, &s.Check.Stabilization); err != nil {
		return nil, err
	}
	if err := parseFlag(cmd, "liveness", f.liveness, algo.ParseDuration, &s.Check.Liveness); err != nil {
		return nil, err
	}
	if err := parseFlag(cmd, "expect", f.expect, check.ParseExpect, &s.Check.Expect); err != nil {
		return nil, err
	}
	if set("mobility") {
		s.Mobility = f.mobility
	}
	if set("mobility") || s.Mobility != "" {
		if _, err := mobility.Parse(s.Mobility); err != nil {
			return nil, blameFlag(cmd, s, err, "mobility")
		}
	}
	if set("range") {
		if !(f.rangeM > 0) || math.IsInf(f.rangeM, 0) {
			return nil, fmt.Errorf("--range: %v is not a number of metres > 0", f.rangeM)
		}
		s.Range = f.rangeM
	}
	if s.Range != 0 && s.Mobility == "" {
		return nil, blameFlag(cmd, s, runner.ErrRangeAlone, "range")
	}
	given, err := runner.ParseGiven("--param", f.params)
	if err == nil {
		err = runner.SetParams(s, a, given)
	}
	if err != nil {
		return nil, err
	}
	return s, f.setInitiators(cmd, s, a, given)
}

// parseFlag sets *dst to the value of the flag name, read by parse, when
// the flag was given.
func parseFlag[T any](cmd *cobra.Command, name, value string, parse func(string) (T, error), dst *T) error {
	if !cmd.Flags().Changed(name) {
		return nil
	}
	v, err := parse(value)
	if err != nil {
		return fmt.Errorf("--%s: %w", name, err)
	}
	*dst = v
	return nil
}

// blameFlag blames err on those of the flags names that were given, or, when
// none was, on the first of the fields of those names that the file set
// (Scenario.Blame).
func blameFlag(cmd *cobra.Command, s *scenario.Scenario, err error, names ...string) error {
	var given []string
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			given = append(given, "--"+n)
		}
	}
	if len(given) > 0 {
		return fmt.Errorf("%s: %w", strings.Join(given, ", "), err)
	}
	return s.Blame(err, names...)
}

// checkEnd refuses an event after the run's end (scenario.CheckEnd),
// except the demo's own, which a --duration that ends the run before them
// leaves out, saying so: the user wrote the duration, not those events.
func (f *scenarioFlags) checkEnd(cmd *cobra.Command, s *scenario.Scenario) error {
	if f.file == "" {
		if late := s.Late(); len(late) > 0 {
			at := make([]string, len(late))
			for i, a := range late {
				at[i] = a.At.String()
			}
			s.Events = slices.DeleteFunc(s.Events, func(a sim.Action) bool { return a.At > s.Duration })
			fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: the run ends at %v (--duration), before the demo's events at %s: they are left out\n", s.Duration, strings.Join(at, ", "))
		}
	}
	flag := ""
	if cmd.Flags().Changed("duration") {
		flag = "--duration"
	}
	return s.CheckEnd(flag)
}

// setInitiators takes --initiators and --unelected into the scenario and
// checks them against the network, blaming the flag or the file.
func (f *scenarioFlags) setInitiators(cmd *cobra.Command, s *scenario.Scenario, a *algo.Algorithm, given []runner.Given) error {
	set := cmd.Flags().Changed
	initiators, unelected := "", ""
	for _, name := range []string{"initiators", "initiator"} {
		if set(name) {
			initiators, s.Initiators = "--"+name, f.initiators
		}
	}
	if set("initiator") {
		fmt.Fprintln(cmd.ErrOrStderr(), "elect: note: --initiator is deprecated: use --initiators")
	}
	if set("unelected") {
		unelected, s.Unelected = "--unelected", f.unelected
	}
	return runner.CheckNodeSets(s, a, given, initiators, unelected)
}

func newSimCmd() *cobra.Command {
	var f scenarioFlags
	var asJSON bool
	var tracePath, ns2Path, serve string
	var speed float64
	cmd := &cobra.Command{
		Use:   "sim [SCENARIO]",
		Short: "Run one scenario in the simulator and check it",
		Long:  helpText("sim"),
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.scenario(cmd, args)
			if err != nil {
				return err
			}
			// Here rather than in scenario, which emulate shares: an
			// emulation refuses any run without a duration, in its words.
			if a, err := algo.Lookup(s.Algorithm); err == nil {
				if err := runner.Endless(s, a); err != nil {
					return blameFlag(cmd, s, err, "duration")
				}
			}
			var opt runner.Options
			var tf *traceFile
			if tracePath != "" {
				if tf, err = createTrace(tracePath); err != nil {
					return err
				}
				defer tf.Close() // on the error paths; closed and checked below
				opt.Trace = tf
			}
			var nf *os.File
			if ns2Path != "" {
				if nf, err = os.Create(ns2Path); err != nil {
					return fmt.Errorf("--ns2: %w", err)
				}
				defer nf.Close() // on the error paths; closed and checked below
				opt.NS2 = nf
			}
			var ls *liveServer
			if serve != "" {
				if speed <= 0 {
					return fmt.Errorf("--speed %g: want more than 0", speed)
				}
				h, err := runner.Header(s)
				if err != nil {
					return err
				}
				if ls, err = serveLive(cmd, serve, h); err != nil {
					return err
				}
				defer ls.close()
				opt.Observers = append(opt.Observers, viz.NewPacer(speed), ls.live)
			} else if cmd.Flags().Changed("speed") {
				return fmt.Errorf("--speed paces a run shown with --serve; give --serve too")
			}
			sum, err := runner.Run(s, opt)
			if err != nil {
				return err
			}
			for _, note := range sum.Notes {
				fmt.Fprintln(cmd.ErrOrStderr(), "elect: note:", note)
			}
			if nf != nil {
				if err := nf.Close(); err != nil {
					return fmt.Errorf("--ns2: %w", err)
				}
			}
			if tf != nil {
				if err := tf.Close(); err != nil {
					return err
				}
			}
			if err := printSummary(cmd.OutOrStdout(), sum, asJSON); err != nil {
				return err
			}
			if ls != nil {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				ls.finish(ctx, cmd)
			}
			return violations(sum)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&serve, "serve", "", "show the run on a web page at this address (HOST:PORT) as it goes, paced by --speed")
	cmd.Flags().Float64Var(&speed, "speed", 1, "with --serve: seconds of virtual time per second of real time")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	cmd.Flags().StringVar(&tracePath, "trace", "", "write every event to this file as JSON lines, compressed with gzip when its name ends in .gz (re-check it with: elect check FILE; elect viz reads both)")
	cmd.Flags().StringVar(&ns2Path, "ns2", "", "write the nodes' positions and movement to this file as an ns-2 movement trace (for ns-2, ns-3, CORE, or --mobility ns2:FILE)")
	return cmd
}
