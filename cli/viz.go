package cli

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/viz"
)

func newVizCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "viz TRACE",
		Short: "Serve a web page that replays a trace",
		Long:  helpText("viz"),
		Example: `  elect sim --trace run.jsonl && elect viz run.jsonl
  elect viz run.jsonl --addr 127.0.0.1:0`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := viz.NewReplay(args[0])
			if err != nil {
				return err
			}
			defer r.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("--addr: %w", err)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "replaying %s at http://%s/ (reading it through)\n", args[0], ln.Addr())
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A trace broken further on is said at once; the page keeps
			// what came before it until Ctrl-C, and then elect viz fails.
			broken := make(chan error, 1)
			go func() {
				start := time.Now()
				err := r.Wait()
				if errors.Is(err, viz.ErrClosed) {
					return // stopped before the end: nothing wrong with the trace
				}
				broken <- err
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "elect: %v\nthe page shows the %d events before it until Ctrl-C\n", err, r.Events())
					return
				}
				fmt.Fprintf(out, "read %d events in %.1f s\n", r.Events(), time.Since(start).Seconds())
			}()
			if err := viz.Serve(ctx, ln, r.Handler()); err != nil {
				return err
			}
			select {
			case err := <-broken:
				if err != nil {
					return fmt.Errorf("the trace is broken: %w", err)
				}
			default: // stopped before the whole trace was read
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on this address (port 0: any free port)")
	return cmd
}
