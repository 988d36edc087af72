package torture

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/blame"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// Config is one fuzzing campaign against one algorithm.
type Config struct {
	Algorithm string
	// Runs is how many scenarios to generate and run; run i draws from
	// the stream (Seed, i), so any run is reproduced alone (First = i,
	// Runs = 1).
	Runs  int
	Seed  uint64
	First int
	// Outside goes outside the algorithm's fault model: every fault it
	// does not declare, to document how it fails.
	Outside bool
	Limits  Limits
	// ShrinkBudget bounds the runs spent shrinking one failure (0: 300;
	// negative: do not shrink).
	ShrinkBudget int
	// Progress, when set, is called after every run.
	Progress func(done int, failed int)
	// Params are algorithm parameters every run takes, over what the
	// generator draws (elect fuzz -p NAME=VALUE): a variant of the
	// algorithm searched on its own, like vkt's medium=broadcast. Shrinking
	// keeps them.
	Params map[string]string
}

// Failure is a run that broke the specification.
type Failure struct {
	Run      int
	Scenario *scenario.Scenario
	Summary  *metrics.Summary
	// Shrunk is the smallest scenario found that still fails, and
	// ShrunkSummary its run; ShrinkRuns counts the runs shrinking took.
	Shrunk        *scenario.Scenario
	ShrunkSummary *metrics.Summary
	ShrinkRuns    int
}

// Report is a campaign's outcome.
type Report struct {
	Algorithm string
	Faults    Faults
	Seed      uint64
	Runs      int
	Failures  []Failure
	// ByProperty counts the failed runs by the property of their first
	// violation (safety, liveness, ...).
	ByProperty map[string]int
	// Events counts the events of every run, and Wall the time it all took.
	Events uint64
	Wall   time.Duration
}

// Run runs a campaign.
func Run(cfg Config) (*Report, error) {
	a, err := algo.Lookup(cfg.Algorithm)
	if err != nil {
		return nil, err
	}
	faults := Tolerated(a.Model)
	if cfg.Outside {
		faults = Untolerated(a.Model)
	}
	if cfg.Limits.MaxNodes == 0 {
		cfg.Limits.MaxNodes = 24
	}
	if cfg.ShrinkBudget == 0 {
		cfg.ShrinkBudget = 300
	}
	if _, err := a.Resolve(cfg.Params); err != nil {
		return nil, err
	}
	rep := &Report{Algorithm: a.Name, Faults: faults, Seed: cfg.Seed, ByProperty: map[string]int{}}
	start := time.Now()
	for i := cfg.First; i < cfg.First+cfg.Runs; i++ {
		s := Scenario(a, faults, cfg.Limits, cfg.Seed, i)
		if len(cfg.Params) > 0 {
			if s.Params == nil {
				s.Params = map[string]string{}
			}
			maps.Copy(s.Params, cfg.Params)
			if slices.ContainsFunc(a.Params, func(p algo.Param) bool { _, fixed := cfg.Params[p.Name]; return fixed && (p.Initiators || p.Boot) }) {
				// A fixed parameter that names the initiators (deprecated)
				// names every run's: those drawn would disagree with it.
				s.Initiators = ""
			}
		}
		sum, err := run(s)
		if err != nil {
			// A generated scenario the simulator refuses is a bug of the
			// generator: say which, so it can be reproduced.
			return rep, fmt.Errorf("run %d (seed %d): the generated scenario does not run: %w", i, cfg.Seed, err)
		}
		rep.Runs++
		rep.Events += sum.Events
		if sum.ViolationCount > 0 {
			f := Failure{Run: i, Scenario: s, Summary: sum}
			rep.ByProperty[sum.Violations[0].Property]++
			if cfg.ShrinkBudget > 0 {
				// The shrinker keeps the last scenario that failed: its run
				// is the last failing one, kept here rather than run again.
				f.ShrunkSummary = sum
				fails := func(c *scenario.Scenario) bool {
					got, err := run(c)
					if err != nil || got.ViolationCount == 0 {
						return false
					}
					f.ShrunkSummary = got
					return true
				}
				f.Shrunk, f.ShrinkRuns = shrink(s, fails, cfg.ShrinkBudget, cfg.Params)
			}
			rep.Failures = append(rep.Failures, f)
		}
		if cfg.Progress != nil {
			cfg.Progress(rep.Runs, len(rep.Failures))
		}
	}
	rep.Wall = time.Since(start)
	return rep, nil
}

// Scenario is run i of a campaign with seed: the same arguments give the
// same scenario.
func Scenario(a *algo.Algorithm, f Faults, lim Limits, seed uint64, i int) *scenario.Scenario {
	s := Generate(a, f, lim, rand.New(rand.NewPCG(seed, uint64(i))))
	s.File = fmt.Sprintf("fuzz:%s:seed=%d:run=%d", a.Name, seed, i)
	return s
}

// Fails reports whether a run of s breaks the specification or panics (a
// scenario the simulator refuses does not count as failing).
func Fails(s *scenario.Scenario) bool {
	sum, err := run(s)
	return err == nil && sum.ViolationCount > 0
}

// run runs s. A machine's panic during the run is a violation of its
// summary (the simulator recovers it: property "panic"), shrunk like any
// other. A panic of the algorithm's code outside its machines' calls (its
// Build) is a failure too: its summary holds one violation of property
// "panic" naming where it happened, and the campaign goes on. elect's own
// panics (an internal error) go on up.
func run(s *scenario.Scenario) (sum *metrics.Summary, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(*sim.InternalError); ok {
			panic(r)
		}
		p := blame.Recovered(r)
		if !p.Theirs {
			panic(&sim.InternalError{Panic: p})
		}
		v := metrics.Violation{Property: "panic", Reason: "the run panicked: " + p.Said("")}
		sum, err = &metrics.Summary{Algorithm: s.Algorithm, Seed: s.Seed, Violations: []metrics.Violation{v}, ViolationCount: 1}, nil
	}()
	return runner.Run(s, runner.Options{})
}

// Smallest is the smallest failing scenario and its run: the shrunk one,
// or the original when it was not shrunk.
func (f *Failure) Smallest() (*scenario.Scenario, *metrics.Summary) {
	if f.Shrunk != nil {
		return f.Shrunk, f.ShrunkSummary
	}
	return f.Scenario, f.Summary
}

// File is the scenario file of a failure: a comment that says where it
// came from and what it breaks, then its smallest scenario.
func (f *Failure) File() ([]byte, error) {
	s, sum := f.Smallest()
	body, err := scenario.Format(s)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("# %s: found by elect fuzz (%s), shrunk in %d runs\n", f.Scenario.File, f.Scenario.Algorithm, f.ShrinkRuns)
	if len(sum.Violations) > 0 {
		v := sum.Violations[0]
		head += fmt.Sprintf("# at %.3f ms, %s: %s\n", v.AtMS, v.Property, v.Reason)
	}
	return append([]byte(head), body...), nil
}
