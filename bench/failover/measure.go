package failover

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"
)

// Options are the measurement's own settings, the same for both systems.
type Options struct {
	Poll         time.Duration // interval between rounds of /status polls (a round polls every survivor at once)
	StartTimeout time.Duration // for a fresh cluster to agree on its first leader
	MaxFailover  time.Duration // a failover taking longer is an error
	Rand         *rand.Rand    // the pause before the kill (nil: unseeded)
}

// DefaultOptions polls every 5ms.
func DefaultOptions() Options {
	return Options{Poll: 5 * time.Millisecond, StartTimeout: 30 * time.Second, MaxFailover: 60 * time.Second}
}

// Result is one failover.
type Result struct {
	System    string
	N         int
	Setting   Setting
	Run       int
	Old, New  int           // the killed leader and the one agreed on after it
	Detect    time.Duration // kill -> first poll round in which a survivor no longer follows the old leader
	Failover  time.Duration // kill -> end of the first poll round that shows every survivor agreeing on the new leader
	Rounds    int           // poll rounds from the kill to the agreement
	StartedIn time.Duration // launch -> first agreement of the fresh cluster (not measured, for information)
}

// Measure starts a fresh cluster of n nodes of sys, waits until it agrees on
// a leader, lets it run for two timeouts (plus a random fraction of a
// heartbeat, so that the kill falls at any phase of the beacons), checks the
// leader again, kills it with SIGKILL and polls the survivors until they
// agree on a new one. Every process is gone when it returns.
func Measure(ctx context.Context, sys System, bin string, n int, s Setting, opt Options) (Result, error) {
	res := Result{System: sys.Name(), N: n, Setting: s}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	launched := time.Now()
	c, err := Start(ctx, sys, bin, n, s)
	if err != nil {
		return res, err
	}
	defer c.Close()
	if _, err := c.AwaitLeader(ctx, opt.Poll, launched.Add(opt.StartTimeout)); err != nil {
		return res, err
	}
	res.StartedIn = time.Since(launched)

	pause := 2 * s.Timeout
	if opt.Rand != nil {
		pause += time.Duration(opt.Rand.Int64N(int64(s.Heartbeat)))
	} else {
		pause += time.Duration(rand.Int64N(int64(s.Heartbeat)))
	}
	if err := sleepCtx(ctx, pause); err != nil {
		return res, err
	}
	old, err := c.AwaitLeader(ctx, opt.Poll, time.Now().Add(opt.StartTimeout))
	if err != nil {
		return res, fmt.Errorf("before the kill: %w", err)
	}
	res.Old = old

	var survivors []*Node
	for _, nd := range c.Nodes {
		if nd.ID != old {
			survivors = append(survivors, nd)
		}
	}
	t0, err := c.Kill(old)
	if err != nil {
		return res, err
	}
	var last []Status
	for {
		start := time.Now()
		sts, oks, _ := c.Round(ctx, survivors)
		end := time.Now()
		res.Rounds++
		last = sts
		for i, nd := range survivors {
			if nd.Exited() {
				return res, nd.failure(fmt.Sprintf("ended during the failover from leader %d", old))
			}
			if res.Detect == 0 && oks[i] && !sys.Follows(sts[i], old) {
				res.Detect = end.Sub(t0)
			}
		}
		if !slices.Contains(oks, false) {
			if l, ok := sys.Agreed(sts); ok && l != old {
				res.New = l
				res.Failover = end.Sub(t0)
				return res, nil
			}
		}
		if end.Sub(t0) > opt.MaxFailover {
			return res, fmt.Errorf("%s, %d nodes, %v: no agreement %v after killing leader %d; last statuses: %s",
				sys.Name(), n, s, opt.MaxFailover, old, describe(last))
		}
		if err := sleepCtx(ctx, opt.Poll-time.Since(start)); err != nil {
			return res, err
		}
	}
}

// Plan is a sweep: every system, size and setting, Runs times each. Runs
// of the systems alternate, so that whatever else the machine does affects
// both alike.
type Plan struct {
	Systems  []System
	Bins     map[string]string // system name -> binary
	Nodes    []int
	Settings []Setting
	Runs     int
	Opt      Options
	Progress io.Writer // one line a run (nil: none)
}

// Run measures the plan, stopping at the first error.
func (p Plan) Run(ctx context.Context) ([]Result, error) {
	var out []Result
	for _, s := range p.Settings {
		for _, n := range p.Nodes {
			for r := range p.Runs {
				for _, sys := range p.Systems {
					res, err := Measure(ctx, sys, p.Bins[sys.Name()], n, s, p.Opt)
					res.Run = r
					if err != nil {
						return out, fmt.Errorf("%s, %d nodes, %v, run %d: %w", sys.Name(), n, s, r+1, err)
					}
					if p.Progress != nil {
						fmt.Fprintf(p.Progress, "%-5s n=%d %-11v run %2d: leader %d killed, %d agreed in %7.1f ms (first survivor left it at %6.1f ms)\n",
							sys.Name(), n, s, r+1, res.Old, res.New, ms(res.Failover), ms(res.Detect))
					}
					out = append(out, res)
				}
			}
		}
	}
	return out, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
