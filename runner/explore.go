package runner

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// Mode is how an exploration treats time.
type Mode uint8

const (
	// ModeDefault follows the algorithm's model: untimed for an
	// algorithm that declares itself asynchronous, timed otherwise.
	ModeDefault Mode = iota
	ModeUntimed
	ModeTimed
)

// Exploring is how a scenario is explored: its time (Mode), whether
// messages may overtake one another on a link, and the faults' budget.
type Exploring struct {
	Mode    Mode
	Reorder bool
	Budget  explore.Budget
}

// ExploreSetup is what explore needs of scenario s: the same network,
// values, initiators, parameters and checker as a simulated run of s, with
// time as how.Mode says (timed: the scenario's delay model gives the
// delays a message may take, its shortest and longest, and its duration
// the horizon) and the faults that the budget allows. The scenario's events
// and loss are the simulator's; exploration draws its own faults from the
// budget, and refuses a scenario that names either.
func ExploreSetup(s *scenario.Scenario, how Exploring) (*explore.Setup, error) {
	a, err := algo.Lookup(s.Algorithm)
	if err != nil {
		return nil, err
	}
	if s.Mobility != "" {
		return nil, s.Blame(fmt.Errorf("mobility: exploration takes a still network; its link changes are the budget's (--link-changes)"), "mobility")
	}
	if len(s.Events) > 0 {
		return nil, s.Blame(fmt.Errorf("events: exploration makes its own faults from the budget (--crashes, --restarts, --losses, --link-changes); a scenario to explore names none"), "events")
	}
	if s.Loss > 0 {
		return nil, s.Blame(fmt.Errorf("loss: exploration loses messages from the budget (--losses), not at random"), "loss")
	}
	return setupOf(s, a, how)
}

// setupOf builds the explorer's setup of s for algorithm a.
func setupOf(s *scenario.Scenario, a *algo.Algorithm, how Exploring) (*explore.Setup, error) {
	if how.Reorder && a.Model.FIFO {
		return nil, fmt.Errorf("%s needs FIFO links (its model says so): messages may not overtake one another", a.Name)
	}
	params, err := Params(s, a)
	if err != nil {
		return nil, err
	}
	g, _, err := Network(s)
	if err != nil {
		return nil, err
	}
	if err := fits(s, g.N()); err != nil {
		return nil, err
	}
	if err := sim.Fits(a, g); err != nil {
		return nil, s.Blame(err, "topology")
	}
	n := g.N()
	initiators, _, err := Initiators(s, a, n)
	if err != nil {
		return nil, err
	}
	ccfg, err := checkConfig(s, a)
	if err != nil {
		return nil, err
	}
	if !how.Budget.Faulty() {
		ccfg.MessageBound = messageBound(s, a, params)
	}
	_, newNode, err := a.Instantiate(params, n)
	if err != nil {
		return nil, err
	}
	// The values as the simulator draws them: the first draws of its
	// stream.
	values, err := s.Values.Resolve(n, rand.New(rand.NewPCG(s.Seed, 0x656c656374)))
	if err != nil {
		return nil, err
	}
	setup := &explore.Setup{
		Algorithm: a, NewNode: newNode, Graph: g, Values: values, Initiators: initiators,
		Seed: s.Seed, Check: ccfg, Budget: how.Budget, Reorder: how.Reorder,
		Timed: how.Mode == ModeTimed || how.Mode == ModeDefault && !a.Model.Asynchronous,
	}
	if setup.Timed {
		if setup.Delays, err = delaysOf(s.Delay); err != nil && !a.Model.Synchronous {
			return nil, s.Blame(err, "delay")
		}
		setup.Horizon = s.Duration
		if setup.Horizon <= 0 {
			return nil, s.Blame(fmt.Errorf("duration: timed exploration needs one: it explores every run up to it"), "duration")
		}
	}
	return setup, nil
}

// delaysOf is the delays a message may take in timed exploration: the
// delay model's shortest and longest.
func delaysOf(d sim.Delay) ([]time.Duration, error) {
	hi := d.Max()
	switch {
	case d.Kind != sim.Constant && d.Kind != sim.Uniform:
		return nil, fmt.Errorf("delay %v has no longest value: timed exploration needs constant or uniform delays", d)
	case d.A == hi:
		return []time.Duration{hi}, nil
	}
	return []time.Duration{d.A, hi}, nil
}
