package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/trace"
)

func newCheckCmd() *cobra.Command {
	var asJSON bool
	var stabilization, liveness string
	cmd := &cobra.Command{
		Use:   "check TRACE",
		Short: "Re-verify a run offline from its trace file",
		Long:  helpText("check"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			tr, err := trace.NewReader(f, args[0])
			if err != nil {
				return err
			}
			cfg, unbound, err := runner.TraceConfig(&tr.Header)
			if err != nil {
				return fmt.Errorf("%s: header: %w", args[0], err)
			}
			for _, o := range []struct {
				flag string
				val  string
				dst  *time.Duration
			}{{"stabilization", stabilization, &cfg.Stabilization}, {"liveness", liveness, &cfg.Liveness}} {
				if cmd.Flags().Changed(o.flag) {
					if *o.dst, err = algo.ParseDuration(o.val); err != nil {
						return fmt.Errorf("--%s: %w", o.flag, err)
					}
				}
			}
			sum, err := runner.Recheck(tr, cfg)
			if err != nil {
				return err
			}
			if unbound != "" {
				sum.Notes = append(sum.Notes, unbound)
			}
			for _, note := range sum.Notes {
				fmt.Fprintln(cmd.ErrOrStderr(), "elect: note:", note)
			}
			if err := printSummary(cmd.OutOrStdout(), sum, asJSON); err != nil {
				return err
			}
			return violations(sum)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	cmd.Flags().StringVar(&stabilization, "stabilization", "", "override the trace's stabilisation bound")
	cmd.Flags().StringVar(&liveness, "liveness", "", "override the trace's liveness bound")
	return cmd
}

// printSummary prints a run's summary on w: as text, or as one JSON object.
func printSummary(w io.Writer, sum *metrics.Summary, asJSON bool) error {
	if asJSON {
		return metrics.WriteJSON(w, sum)
	}
	return metrics.WriteText(w, sum)
}

// violations ends a command whose run broke the specification.
func violations(sum *metrics.Summary) error {
	if sum.ViolationCount > 0 {
		return violationError{sum.ViolationCount}
	}
	return nil
}
