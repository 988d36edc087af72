package cli

import (
	"cmp"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
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
	valuesOver    string
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
	fl.StringVar(&f.valuesOver, "values-over-time", "", "values that change as the run goes: battery[:capacity=C,tx=T,rx=R,idle=I,recharge=G,every=D] (drains with the bytes a node sends and receives) or position[:around=centre|centroid,scale=S,every=D] (closeness to the area's centre or the component's); see docs/algorithms.md")
	fl.Float64Var(&f.rangeM, "range", 0, "radio range in metres for moving nodes: two nodes are linked while this close (default: the geometric topology's range, or 250)")
}

// scenarioFlagNames are the flags that shape a scenario.
var scenarioFlagNames = []string{"algo", "topology", "nodes", "seed", "duration", "values", "delay", "loss", "param", "initiators", "initiator", "unelected", "stabilization", "liveness", "expect", "mobility", "range", "values-over-time"}

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
// the flags that were set (runner.Overrides). Every error names what is at
// fault: the flag, or the file, line and field.
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
	set := cmd.Flags().Changed
	o := runner.Overrides{
		Algorithm: given(set, "algo", f.algo), Topology: given(set, "topology", f.topology),
		Nodes: given(set, "nodes", f.nodes), Seed: given(set, "seed", f.seed),
		Duration: given(set, "duration", f.duration), Values: given(set, "values", f.values),
		Delay: given(set, "delay", f.delay), Loss: given(set, "loss", f.loss), Params: f.params,
		Initiators: given(set, "initiators", f.initiators), Unelected: given(set, "unelected", f.unelected),
		Stabilization: given(set, "stabilization", f.stabilization), Liveness: given(set, "liveness", f.liveness),
		Expect: given(set, "expect", f.expect), Mobility: given(set, "mobility", f.mobility),
		Range: given(set, "range", f.rangeM), ValuesOver: given(set, "values-over-time", f.valuesOver),
		DropLate: f.file == "",
		Label: func(field string) string {
			if field == "initiators" && set("initiator") {
				return "--initiator"
			}
			return "--" + cmp.Or(flagOf[field], field)
		},
		Note: func(note string) { fmt.Fprintln(cmd.ErrOrStderr(), "elect: note: "+note) },
	}
	if set("initiator") {
		o.Initiators = &f.initiators
		o.InitiatorsNote = "--initiator is deprecated: use --initiators"
	}
	if err := o.Apply(s); err != nil {
		return nil, err
	}
	return s, nil
}

// flagOf names the flags whose names are not their fields' (runner.Overrides).
var flagOf = map[string]string{"algorithm": "algo", "params": "param", "values_over_time": "values-over-time"}

// given is &v when the flag name was given, else nil.
func given[T any](set func(string) bool, name string, v T) *T {
	if !set(name) {
		return nil
	}
	return &v
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
