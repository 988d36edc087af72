package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/emulate"
)

func newSoakCmd() *cobra.Command {
	var cfg emulate.SoakConfig
	var asJSON, verbose bool
	cmd := &cobra.Command{
		Use:   "soak [--runs N] [--nodes N] [--seed S]",
		Short: "Run randomized schedules of faults on real nodes in namespaces, each checked against the specification",
		Long:  helpText("soak"),
		Example: `  sudo elect soak --runs 200
  sudo elect soak --seed 57 --runs 1 -v     # one schedule again, with the emulator's lines`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.Runs < 1 {
				return fmt.Errorf("--runs %d: want at least 1", cfg.Runs)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := emulate.Preflight(); err != nil {
				return err
			}
			bin, err := os.Executable()
			if err != nil {
				return err
			}
			cfg.Binary = bin
			if cfg.KeepFailed != "" {
				if err := os.MkdirAll(cfg.KeepFailed, 0o755); err != nil {
					return fmt.Errorf("--keep-failed: %w", err)
				}
			}
			errOut := cmd.ErrOrStderr()
			if verbose {
				cfg.Log = func(format string, a ...any) { fmt.Fprintf(errOut, "emulate: "+format+"\n", a...) }
			}
			start := time.Now()
			cfg.Each = func(r emulate.SoakRun) { fmt.Fprintf(errOut, "soak: %s\n", r.Line()) }
			runs, err := emulate.Soak(ctx, cfg)
			rep := emulate.NewSoakReport(runs, time.Since(start))
			if asJSON {
				rep.WriteJSON(cmd.OutOrStdout())
			} else {
				rep.WriteText(cmd.OutOrStdout(), cfg.Nodes)
			}
			switch {
			case err != nil:
				return err
			case len(rep.Violated) > 0:
				return violationError{len(rep.Violated)}
			case len(rep.Failed) > 0:
				return errors.New("some schedules could not run (see their lines)")
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&cfg.Runs, "runs", 20, "schedules to run")
	fl.IntVar(&cfg.Nodes, "nodes", 5, "nodes of each schedule (3 to 250)")
	fl.Uint64Var(&cfg.Seed, "seed", 1, "seed of the first schedule; schedule i is drawn from seed+i")
	fl.StringVar(&cfg.Algorithm, "algo", "vkt", "the algorithm: one that survives crashes, partitions and loss (vkt, park, or yours)")
	fl.BoolVar(&asJSON, "json", false, "print every schedule's result as one JSON object")
	fl.StringVar(&cfg.KeepFailed, "keep-failed", "", "leave in this directory the trace (soak-SEED.jsonl) and the nodes' logs and state (soak-SEED/) of every schedule that broke the specification")
	fl.BoolVarP(&verbose, "verbose", "v", false, "also print what the emulator does")
	return cmd
}
