package torture

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
)

// RunGuarded is Run, with a panic of elect's own turned into an error. A
// machine's panic is a failure of its run (the simulator reports it as a
// violation, and it is shrunk); one that comes here is elect's own (the
// simulator's, the generator's): its stack goes to w, and the error says
// so. Left alone it would end the process with status 2, which reads as
// "failures found".
func RunGuarded(cfg Config, w io.Writer) (rep *Report, err error) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(w, "fuzz %s panicked:\n%s", cfg.Algorithm, debug.Stack())
			rep, err = nil, fmt.Errorf("fuzz %s: panic: %v (the stack is above)", cfg.Algorithm, v)
		}
	}()
	return Run(cfg)
}

// Campaign is elect fuzz's search: a campaign against each of several
// algorithms in turn (RunGuarded), every failure's smallest scenario
// written to a directory (WriteFailure), and each algorithm's Result
// reported as soon as it is known, so that an error in a later campaign
// does not lose it.
type Campaign struct {
	// Algorithms are searched in turn, each with Config: the campaign
	// sets its Algorithm, and its Progress when Log is set.
	Algorithms []string
	Config     Config
	// Out is the directory the failing scenarios go to.
	Out string
	// JSON reports each algorithm as a Result in JSON on a line of its
	// own; without it, as text (Result.WriteText).
	JSON bool
	// Log, when set, receives a line every 1000 runs of a campaign and
	// the stack of a panic of elect's own.
	Log io.Writer
}

// Totals is what a Campaign found within its algorithms' models: a
// campaign outside them (Config.Outside) counts nothing, as failures are
// expected there.
type Totals struct {
	// Runs counts the runs within the model, Broke those that broke the
	// specification, and Violations the violations the checker found in
	// them.
	Runs, Broke, Violations int
}

// Run runs the campaign, reporting each algorithm on w. It stops at the
// first error (a bad algorithm or parameter, a generated scenario that
// does not run, a panic of elect's own, a failing scenario that could not
// be written: a *DirError), with the algorithms done before reported.
func (c *Campaign) Run(w io.Writer) (Totals, error) {
	var t Totals
	log := c.Log
	if log == nil {
		log = io.Discard
	}
	enc := json.NewEncoder(w)
	for _, name := range c.Algorithms {
		cfg := c.Config
		cfg.Algorithm = name
		if c.Log != nil {
			cfg.Progress = func(done, failed int) {
				if done%1000 == 0 && done < cfg.Runs {
					fmt.Fprintf(c.Log, "fuzz %s: %d runs, %d failed\n", name, done, failed)
				}
			}
		}
		rep, err := RunGuarded(cfg, log)
		if err != nil {
			return t, err
		}
		r := NewResult(cfg, rep)
		for _, f := range rep.Failures {
			ff, err := WriteFailure(c.Out, name, cfg.Seed, &f)
			if err != nil {
				return t, err
			}
			r.Failures = append(r.Failures, ff)
			if !cfg.Outside {
				t.Violations += f.Summary.ViolationCount
			}
		}
		if !cfg.Outside {
			t.Broke += r.Failed
			t.Runs += r.Runs
		}
		if c.JSON {
			if err := enc.Encode(r); err != nil {
				return t, err
			}
		} else {
			r.WriteText(w)
		}
	}
	return t, nil
}
