package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
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
			cfg := check.Config{Stabilization: h.Stabilization, Liveness: h.Liveness, Spontaneous: h.Spontaneous, Nodes: h.Nodes}
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
			out := cmd.OutOrStdout()
			if asJSON {
				err = json.NewEncoder(out).Encode(sum)
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

// replay feeds a trace to a fresh checker and counter.
func replay(tr *trace.Reader, cfg check.Config) (*metrics.Summary, error) {
	h := tr.Header
	mon := check.New(cfg)
	counter := metrics.NewCounter(len(h.Messages))
	hash := trace.NewHasher()
	start := time.Now()
	var e trace.Event
	var events uint64
	edges := 0 // links declared at the start: the network's edges
	initial := true
	ended := false
	for {
		err := tr.Next(&e)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if ended {
			return nil, fmt.Errorf("trace: events after the end event")
		}
		initial = initial && e.At == 0 && (e.Kind == trace.NodeAdded || e.Kind == trace.LinkUp)
		if initial && e.Kind == trace.LinkUp {
			edges++
		}
		if e.Kind == trace.End {
			ended = true
		}
		events++
		hash.Add(&e)
		mon.Observe(&e)
		counter.Observe(&e)
	}
	if !ended {
		return nil, fmt.Errorf("trace: no end event (was the run cut short?)")
	}
	sum := &metrics.Summary{
		Algorithm: h.Algorithm, Params: h.Params, Seed: h.Seed, Topology: h.Topology,
		Nodes: mon.Nodes(), Edges: edges,
		Messages:  counter.Messages(h.Messages),
		WallMS:    metrics.MS(time.Since(start)),
		Events:    events,
		TraceHash: fmt.Sprintf("%016x", hash.Sum()),
	}
	sum.FromCheck(mon, mon.Report())
	return sum, nil
}
