package runner

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// scheduleBudget lets a replay take every fault its schedule names: the
// schedule says which faults strike, not a budget.
var scheduleBudget = explore.Budget{Crashes: 1 << 30, Restarts: 1 << 30, Losses: 1 << 30, LinkChanges: 1 << 30}

// runSchedule runs s's schedule (scenario.Schedule, a counterexample of
// elect explore) in place of the simulator: explore.Replay takes its steps
// exactly, on the network, values, initiators and parameters a simulated
// run of s has, and the run's events go to the same checker, counters,
// story, trace and observers as a simulated run's. A step that does not
// fit the state it comes to is an error naming its line.
func runSchedule(s *scenario.Scenario, a *algo.Algorithm, opt Options) (*metrics.Summary, error) {
	sch := s.Schedule
	if err := s.CheckSchedule(); err != nil {
		return nil, err
	}
	if sch.Reorder && a.Model.FIFO {
		return nil, s.Blame(fmt.Errorf("reorder: %s needs FIFO links (its model says so): messages may not overtake one another", a.Name), "schedule")
	}
	mode := ModeUntimed
	if sch.Timed {
		mode = ModeTimed
	}
	setup, err := setupOf(s, a, Exploring{Mode: mode, Reorder: sch.Reorder, Budget: scheduleBudget})
	if err != nil {
		return nil, err
	}
	params, err := Params(s, a)
	if err != nil {
		return nil, err
	}
	net, err := Build(s) // the setup's graph, and the network's name
	if err != nil {
		return nil, err
	}
	net.Graph = setup.Graph
	_, note, err := Initiators(s, a, setup.Graph.N())
	if err != nil {
		return nil, err
	}
	// The budget is no fault's: the message bound holds unless the
	// schedule's steps strike one.
	setup.Check.MessageBound = boundFor(s, a, params)
	if opt.NS2 != nil {
		if err := net.writeNS2(opt.NS2); err != nil {
			return nil, err
		}
	}
	live := setup.Check
	live.Network = setup.Graph
	mon := check.New(live)
	rec := newRecorders(a)
	hash := &hashing{trace.NewHasher()}
	observers, err := rec.attach([]trace.Observer{hash, mon}, opt, header(s, a, params, net, setup.Initiators, setup.Check))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	r, err := explore.Replay(setup, sch.Steps, observers...)
	wall := time.Since(start)
	if cerr := rec.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, stepError(s, r, err)
	}
	sum := summary(s, a, params, net, len(setup.Initiators), note, wall, hash.h.Sum())
	rec.fill(sum, mon, a)
	return sum, nil
}

// hashing fingerprints a run's events, as the simulator does (sim.Result's
// Hash): the same schedule gives the same hash.
type hashing struct{ h trace.Hasher }

func (h *hashing) Observe(e *trace.Event) { h.h.Add(e) }

// stepError names the file and line of the step that a replay, which ran
// r.Steps steps, stopped at with err; an error of no step is blamed on the
// schedule.
func stepError(s *scenario.Scenario, r *explore.Replayed, err error) error {
	if w := s.Schedule.Where; r != nil && r.Steps < len(w) && w[r.Steps] != "" {
		return fmt.Errorf("%s: %w", w[r.Steps], err)
	}
	return s.Blame(err, "schedule")
}

// boundFor is the message bound that a run of s is held to
// (messageBound), or for a schedule none when its steps strike a fault,
// where the documents promise no count.
func boundFor(s *scenario.Scenario, a *algo.Algorithm, params algo.Params) *check.MessageBound {
	if s.Schedule != nil {
		for _, st := range s.Schedule.Steps {
			if st.Kind != explore.Deliver && st.Kind != explore.Fire {
				return nil
			}
		}
	}
	return messageBound(s, a, params)
}
