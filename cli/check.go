package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
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
		Long: `Read a trace written by ` + "`elect sim --trace`" + `, check it against the
specification again and print the same summary as the run did. The trace
hash printed is recomputed from the file: it equals the run's when the file
holds the whole run.`,
		Args: cobra.ExactArgs(1),
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
			h := tr.Header
			// Nodes only sizes the checker's arrays up front: a header
			// cannot make it allocate more than this before the events
			// that need it.
			cfg := check.Config{Stabilization: h.Stabilization, Liveness: h.Liveness, Spontaneous: h.Spontaneous, Unelected: h.Unelected, UnelectedUninitiated: h.UnelectedUninitiated, Lossy: h.Lossy, Moving: h.Mobility != "", Nodes: min(h.Nodes, maxPrealloc), AmongInitiators: h.AmongInitiators}
			unbound := ""
			if h.MessageBound != "" {
				// The bound's function is the algorithm's: it is checked
				// where the algorithm is registered, as where the run was
				// made, and said when it cannot be.
				if a, err := algo.Lookup(h.Algorithm); err == nil {
					cfg.MessageBound = runner.BoundOf(a, h.Params, h.MaxDelay)
				} else {
					unbound = fmt.Sprintf("the message bound (%s) was not checked: %v", h.MessageBound, err)
				}
			}
			if cfg.Expect, err = check.ParseExpect(h.Expect); err != nil {
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
			sum, err := replay(tr, cfg)
			if err != nil {
				return err
			}
			if unbound != "" {
				sum.Notes = append(sum.Notes, unbound)
				fmt.Fprintln(cmd.ErrOrStderr(), "elect: note:", unbound)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				err = metrics.WriteJSON(out, sum)
			} else {
				err = metrics.WriteText(out, sum)
			}
			if err != nil {
				return err
			}
			if sum.ViolationCount > 0 {
				return violationError{sum.ViolationCount}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	cmd.Flags().StringVar(&stabilization, "stabilization", "", "override the trace's stabilisation bound")
	cmd.Flags().StringVar(&liveness, "liveness", "", "override the trace's liveness bound")
	return cmd
}

// maxPrealloc bounds the node count a trace's header may make the checker
// allocate for before any event.
const maxPrealloc = 1 << 22

// replay feeds a trace to a fresh checker and counter.
//
// The checker trusts its event stream as the simulator emits it, and a trace
// file may have been cut or edited: so replay first checks what the checker
// relies on (time never goes back; nodes are declared, in id order, before
// any other event names them; nothing follows the end) and reports a
// breach as FILE:LINE.
func replay(tr *trace.Reader, cfg check.Config) (*metrics.Summary, error) {
	h := tr.Header
	mon := check.New(cfg)
	counter := metrics.NewCounter(len(h.Messages))
	story := metrics.NewStory()
	hash := trace.NewHasher()
	start := time.Now()
	var e trace.Event
	var order trace.Order
	edges := 0 // links declared at the start: the network's edges
	initial := true
	for {
		err := tr.Next(&e)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := order.Next(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", tr.Name(), tr.Line(), err)
		}
		initial = initial && e.At == 0 && (e.Kind == trace.NodeAdded || e.Kind == trace.LinkUp)
		if initial && e.Kind == trace.LinkUp {
			edges++
		}
		hash.Add(&e)
		mon.Observe(&e)
		counter.Observe(&e)
		story.Observe(&e)
	}
	if !order.Ended() {
		return nil, fmt.Errorf("%s:%d: the trace stops without an end event (was the run cut short?)", tr.Name(), tr.Line())
	}
	sum := &metrics.Summary{
		Algorithm: h.Algorithm, Params: h.Params, Seed: h.Seed, Topology: h.Topology,
		Nodes: mon.Nodes(), Edges: edges, Initiators: len(h.Initiators),
		WallMS:    metrics.MS(time.Since(start)),
		TraceHash: fmt.Sprintf("%016x", hash.Sum()),
	}
	mon.Messages(counter.Transmissions())
	sum.FromCheck(mon, mon.Report())
	counter.Fill(sum, h.Messages)
	story.Fill(sum)
	return sum, nil
}
