package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/emulate"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/trace"
)

func newEmulateCmd() *cobra.Command {
	var f scenarioFlags
	var asJSON, compare, cleanup, keep, quiet bool
	var tracePath, dir, hello, serve string
	var helloLoss, port int
	var faults string
	cmd := &cobra.Command{
		Use:   "emulate [SCENARIO]",
		Short: "Run one scenario on real nodes in Linux network namespaces and check it",
		Long:  helpText("emulate"),
		Example: `  sudo elect emulate --topology geometric:12:400 --duration 20s
  sudo elect emulate scenarios/emulate-grid.yaml --compare
  sudo elect emulate --cleanup`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			logf := func(format string, a ...any) {
				if !quiet {
					fmt.Fprintf(cmd.ErrOrStderr(), "emulate: "+format+"\n", a...)
				}
			}
			if cleanup {
				if len(args) > 0 || f.anySet(cmd) || f.file != "" {
					return fmt.Errorf("--cleanup takes no scenario: it removes what killed runs left")
				}
				removed, err := emulate.Cleanup(ctx)
				for _, tag := range removed {
					fmt.Fprintf(cmd.OutOrStdout(), "removed run %s\n", tag)
				}
				if err == nil && len(removed) == 0 {
					fmt.Fprintln(cmd.OutOrStdout(), "nothing to remove")
				}
				return err
			}
			s, err := f.scenario(cmd, args)
			if err != nil {
				return err
			}
			cfg := emulate.Config{Scenario: s, HelloLoss: helloLoss, Port: port, Dir: dir, Keep: keep, Log: logf}
			if hello != "" {
				if cfg.Hello, err = algo.ParseDuration(hello); err != nil || cfg.Hello <= 0 {
					return fmt.Errorf("--hello %q: want a duration above 0, like 250ms", hello)
				}
			}
			if cmd.Flags().Changed("hello-loss") && helloLoss < 1 {
				return fmt.Errorf("--hello-loss %d: want at least 1", helloLoss)
			}
			if cfg.Faults, err = runtime.ParseFaults(faults); err != nil {
				return fmt.Errorf("--faults: %w", err)
			}
			if cmd.Flags().Changed("port") && (port < 1 || port > 65535) {
				return fmt.Errorf("--port %d: want 1 to 65535", port)
			}
			if cfg.Binary, err = os.Executable(); err != nil {
				return err
			}
			// The trace and the page open with the header the simulator
			// would write.
			var h trace.Header
			if tracePath != "" || serve != "" {
				if h, err = emulate.TraceHeader(s); err != nil {
					return err
				}
			}
			var tf *traceFile
			var tw *trace.Writer
			if tracePath != "" {
				if tf, err = createTrace(tracePath); err != nil {
					return err
				}
				defer tf.Close() // on the error paths; closed and checked below
				if tw, err = trace.NewWriter(tf, h); err != nil {
					return fmt.Errorf("--trace: %w", err)
				}
				cfg.Observers = append(cfg.Observers, tw)
			}
			var ls *liveServer
			if serve != "" {
				if ls, err = serveLive(cmd, serve, h); err != nil {
					return err
				}
				defer ls.close()
				cfg.Observers = append(cfg.Observers, ls.live)
			}
			res, err := emulate.Run(ctx, cfg)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("interrupted; every node, namespace and rule of the run is removed")
				}
				return err
			}
			if tw != nil {
				if err := tw.Close(); err != nil {
					return fmt.Errorf("--trace: %w", err)
				}
				if err := tf.Close(); err != nil {
					return err
				}
			}
			if res.Dir != "" {
				logf("logs and state kept in %s", res.Dir)
			}
			sum := res.Emulated
			var cmp *emulate.Comparison
			if compare {
				cmp = emulate.Compare(res.Emulated, res.Simulated)
			}
			if err := emulate.WriteReport(cmd.OutOrStdout(), sum, cmp, s.Seed, asJSON); err != nil {
				return err
			}
			if ls != nil {
				ls.finish(ctx, cmd)
			}
			if sum.ViolationCount > 0 {
				return violationError{sum.ViolationCount}
			}
			if cmp != nil && !cmp.SameFinalLeaders {
				return emulate.DifferentError{Nodes: len(cmp.Differences)}
			}
			return nil
		},
	}
	f.register(cmd)
	fl := cmd.Flags()
	// The scenario flags are elect sim's, whose --duration 0 (until no event
	// is left) an emulation, which runs in real time, refuses.
	fl.Lookup("duration").Usage = "how long the emulation runs, in real time, above 0 (default: the scenario's duration, 60s when it gives none)"
	fl.BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary (with --compare: {emulated, simulated, same_final_leaders, differences})")
	fl.StringVar(&tracePath, "trace", "", "write the emulated run's events to this file as JSON lines, compressed with gzip when its name ends in .gz (re-check it with: elect check FILE)")
	fl.BoolVar(&compare, "compare", false, "also run the simulator on the same scenario and seed, show both, and fail if the final leaders differ")
	fl.BoolVar(&cleanup, "cleanup", false, "remove the namespaces, bridges, rules and processes that killed runs left, and exit")
	fl.StringVar(&hello, "hello", "", "the nodes' hello beacon period (default 250ms)")
	fl.IntVar(&helloLoss, "hello-loss", 0, "beacons unheard before a node drops a neighbour (default 4)")
	fl.IntVar(&port, "port", 0, fmt.Sprintf("the nodes' UDP port (default %d)", emulate.DefaultPort))
	fl.StringVar(&faults, "faults", "", "inject faults into what every node sends, on the real links (elect node --faults, each node seeded apart): loss=P,duplicate=P,delay=D,jitter=D,seed=N")
	fl.StringVar(&dir, "dir", "", "keep the nodes' logs, state directories and sockets in this directory (default: a temporary one, removed)")
	fl.BoolVar(&keep, "keep", false, "keep the temporary directory of logs and state, and say where it is")
	fl.BoolVarP(&quiet, "quiet", "q", false, "say nothing on stderr while the run goes")
	fl.StringVar(&serve, "serve", "", "show the run on a web page at this address (HOST:PORT) as it goes")
	return cmd
}
