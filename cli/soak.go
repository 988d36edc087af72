package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
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
			cfg.Each = func(r emulate.SoakRun) {
				verdict := "ok"
				switch {
				case r.Err != "":
					verdict = "ERROR " + r.Err
				case r.Violations > 0:
					verdict = fmt.Sprintf("VIOLATED (%d): %s", r.Violations, r.First)
				}
				fmt.Fprintf(errOut, "soak: seed %d: %s; links %s; %d elections, %.1f%% leaderless%s; %s (%.1fs)\n",
					r.Seed, r.Schedule, orNone(r.Faults), r.Elections, 100*r.Leaderless, attacked(r), verdict, r.WallMS/1000)
			}
			runs, err := emulate.Soak(ctx, cfg)
			var violated, failed []uint64
			for _, r := range runs {
				if r.Err != "" {
					failed = append(failed, r.Seed)
				} else if r.Violations > 0 {
					violated = append(violated, r.Seed)
				}
			}
			if asJSON {
				b, _ := json.Marshal(struct {
					Runs     []emulate.SoakRun `json:"runs"`
					Violated []uint64          `json:"violated"`
					Failed   []uint64          `json:"failed"`
					WallMS   float64           `json:"wall_ms"`
				}{runs, nonNil(violated), nonNil(failed), float64(time.Since(start).Milliseconds())})
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", b)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "soak: %d schedules on %d nodes in %v: %d broke the specification %v, %d failed to run %v\n",
					len(runs), cfg.Nodes, time.Since(start).Round(time.Second), len(violated), violated, len(failed), failed)
			}
			switch {
			case err != nil:
				return err
			case len(violated) > 0:
				return violationError{len(violated)}
			case len(failed) > 0:
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

func orNone(s string) string {
	if s == "" {
		return "clean"
	}
	return s
}

func nonNil(v []uint64) []uint64 {
	if v == nil {
		return []uint64{}
	}
	return v
}

// attacked says what a schedule's attacks sent and what the nodes refused
// of the kinds they could be refused for ("" without attacks).
func attacked(r emulate.SoakRun) string {
	if r.Replayed == 0 && r.Forged == 0 {
		return ""
	}
	var refused []string
	for _, why := range []string{"replay", "range", "unsigned"} {
		if n := r.Rejected[why]; n > 0 {
			refused = append(refused, fmt.Sprintf("%d as %s", n, why))
		}
	}
	if len(refused) == 0 {
		refused = append(refused, "none")
	}
	return fmt.Sprintf("; spy replayed %d, forged %d, refused %s", r.Replayed, r.Forged, strings.Join(refused, ", "))
}
