// Package scenario reads the YAML files that describe one simulated run: which
// algorithm runs with which parameters, on which network, under which delays,
// losses and scheduled faults, and how long.
//
// # Format
//
// A scenario file is one YAML document holding a mapping. Every field is
// optional; a field left out keeps the value of the base scenario the caller
// passes (normally Default), so an empty file is the base scenario itself.
//
//	# elect scenario
//	algorithm: extinction        # a registered algorithm name (checked by the CLI)
//	params:                      # algorithm parameters: scalars, kept as strings;
//	  initiators: all            #   present = replaces the base parameters entirely
//	seed: 42                     # unsigned decimal integer
//	topology: geometric:200:120  # topology spec string (checked by the CLI)
//	nodes: 100                   # node count for specs that need one, like "ring"
//	values: id                   # id | random | a mapping node -> value: {3: 10, 4: 7}
//	delay: uniform:1ms:5ms       # constant:D | uniform:MIN:MAX | exponential:MEAN | D
//	loss: 0.01                   # message loss probability in [0, 1)
//	duration: 60s                # virtual time limit; absent = the base's (60s by default); 0 = until no event is left
//	                             #   (refused for an algorithm whose heartbeats never end, algo.Model.Heartbeats)
//	mobility: waypoint:1:20:2s   # static | waypoint:MINSPEED:MAXSPEED:PAUSE | walk:MINSPEED:MAXSPEED:INTERVAL | ns2:PATH
//	range: 250                   # radio range in metres, for mobility (default: the geometric topology's range)
//	initiators: 0,3              # the nodes the driver asks to elect at time 0: all | none | a node set | a list;
//	                             #   absent = the algorithm's default (node 0 for one that is not spontaneous)
//	unelected: 5                 # nodes where no election is expected: their components at the end are
//	                             #   not failed for being unreached or unsettled; "uninitiated": every
//	                             #   component that holds no initiator (not failed anyway unless
//	                             #   check.expect is every-component)
//	check:                       # checker deadlines; absent or 0 = the checker chooses
//	  stabilization: 5s
//	  liveness: 30s
//	  expect: every-component    # which components must elect: initiated (the default: those
//	                             #   holding an initiator) | every-component
//	events:                      # scheduled faults and triggers, in any order, none after the duration (CheckEnd)
//	  - at: 10s
//	    crash: 7                 # a node id, a list [1, 2], or a node set "1-3,7"
//	  - at: 20s
//	    restart: 7
//	  - at: 30s
//	    recover: 7
//	  - at: 40s
//	    partition:               # named groups, kept in the order written
//	      left: 0-10
//	      right: [11, 12]
//	  - at: 50s
//	    heal: true               # heal takes true and nothing else
//	  - at: 55s
//	    link_down: [3, 4]        # exactly two distinct node ids
//	  - at: 56s
//	    link_up: [3, 4]
//	  - at: 60s
//	    elect: 0
//	schedule:                    # the run's every event, replayed exactly (see Schedules below);
//	  steps: [...]               #   a scenario with one has no events, loss or mobility
//
// Durations are Go durations ("500ms", "2s", "1m30s"); a bare 0 is zero. Node
// ids are decimal integers >= 0. Node sets are comma-separated ids and ranges
// ("0,3,7-9", see algo.ParseNodeSet; quote them inside {...}, where a comma
// separates entries); "all" is not accepted in events, because a scenario
// names the nodes its faults hit. Every event holds "at" and exactly
// one action: crash, restart, recover, partition, heal, link_down, link_up or
// elect. Nodes in no partition group form one more group together. A link is
// stored with its lower id first. The events of one file may name at most
// 4Mi (4,194,304) node ids in all, counting repeats.
//
// # Schedules
//
// A schedule replaces the simulator's choices with explicit ones: which
// message arrives, which timer fires, which fault strikes, and when, from
// the boot on (explore.Step). It is what elect explore writes as
// counterexample.yaml, and `elect sim` on such a file replays the schedule
// exactly, step by step, through the same checker, counters and trace as
// any run (a step that does not fit the state it comes to is an error that
// names its line):
//
//	schedule:
//	  timed: false               # optional, default false: steps are a tick apart and the machines see
//	                             #   a clock that stands still; true: messages take the delay model's
//	                             #   shortest or longest delay, timers fire at their time, the run ends
//	                             #   at the duration
//	  reorder: false             # optional, default false: a message may overtake another on its link
//	  steps:                     # one step a line; "at" never decreases; [] for the boot alone
//	    - {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}  # node 2 receives the seq-th message (from 0)
//	                                                    #   that node 1 sent it
//	    - {at: 2ms, fire: {node: 3, timer: 1}}          # node 3's timer 1 (0 to 255) fires
//	    - {at: 3ms, lose: {from: 1, to: 2, seq: 1}}     # that message is lost
//	    - {at: 4ms, crash: 2}
//	    - {at: 5ms, restart: 2}                         # with no state
//	    - {at: 6ms, recover: 2}                         # with what it saved
//	    - {at: 7ms, link-down: [1, 2]}                  # a link of the topology
//	    - {at: 8ms, link-up: [1, 2]}
//
// Each step holds "at" and exactly one of deliver, fire, lose, crash,
// restart, recover, link-down or link-up (hyphenated, as elect explore
// names them); a link's ends are stored lower id first. An untimed run
// ends at its last step. A scenario with a schedule has no events, no loss
// and no mobility: its steps are the run's every event and fault (the
// algorithm's message bound holds a schedule of deliveries and timers
// alone).
//
// An explicit null counts as an empty collection for params (no parameters),
// check (nothing set) and events (no events); for any other field it is an
// error. Anchors and aliases are followed; merge keys ("<<") are not supported.
//
// # Errors
//
// Every error is an *Error and reads FILE:LINE:COLUMN: PATH: MESSAGE, where
// PATH is the field the problem lies in ("events[3].crash"), for example
//
//	run.yaml:12:12: events[3].crash: invalid node id "x" (want an integer >= 0)
//
// Syntax errors carry the line the YAML library reports and no column.
//
// A driver: it must not import runner, the real-node packages or cli
// (docs/architecture.md).
package scenario

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/scenarios"
	"github.com/electgo/elect/sim"
)

// Check holds the checker's deadlines (zero lets the checker choose) and
// which components must elect (check.Config.Expect).
type Check struct {
	Stabilization, Liveness time.Duration
	Expect                  check.Expect
}

// Schedule is an explicit order of a run's events: which message arrives,
// which timer fires, which fault strikes, and when (explore.Step), from the
// boot on. Timed says the steps keep to real time (messages take the
// scenario's delays, timers fire at their time, and the machines see the
// run's clock); untimed, steps are a tick apart and the machines see a
// clock that stands still, as elect explore ran them. Reorder says a
// message may overtake another on its link.
type Schedule struct {
	Timed, Reorder bool
	Steps          []explore.Step
	// Where is each step's "FILE:LINE", for errors.
	Where []string
}

// Scenario describes one simulated run.
type Scenario struct {
	File      string // path it was read from; "" for built-in
	Algorithm string
	Params    map[string]string
	Seed      uint64
	Topology  string
	Nodes     int
	Values    sim.Values
	Delay     sim.Delay
	Loss      float64
	Duration  time.Duration
	// Mobility moves the nodes (a spec checked by the caller, see
	// mobility.Parse; "" for none) and Range is their radio range in metres
	// (0: the topology's).
	Mobility string
	Range    float64
	// ValuesOver changes the nodes' values as the run goes: a value
	// model's spec (sim.ParseValueModel: "battery:tx=1", "position"),
	// checked by the caller; "" for none.
	ValuesOver string
	// Ranges gives moving nodes radio ranges of their own (the others
	// have Range): what node u sends node v arrives while they are at
	// most u's range apart, so a link between a strong transmitter and a
	// weak one may carry one way only (mobility.Radios). nil for none.
	Ranges map[algo.NodeID]float64
	// Initiators names the nodes the driver asks to elect at time 0 (a node
	// set string, "all" or "none"; "" for the algorithm's default, see
	// algo.Algorithm.Initiators). Unelected names nodes where no election
	// is expected (check.Config.Unelected); "" for none.
	Initiators string
	Unelected  string
	Check      Check
	// Events are sorted by At, stably (ties keep file order); each Action's
	// Where is "FILE:LINE" of its entry.
	Events []sim.Action
	// Schedule, when set, is the run's every event in order (a
	// counterexample of elect explore): the run follows it exactly, and
	// the simulator's random delays, loss and events do not apply.
	Schedule *Schedule

	// set records where the file set each field.
	set Positions
}

// Uninitiated is the value of unelected that declares every component
// holding no initiator at the end (a piece of the network that no
// initiator can reach).
const Uninitiated = "uninitiated"

// Sets reports whether the scenario file set a field: a top-level name
// ("params") or a parameter ("params.initiator").
func (s *Scenario) Sets(field string) bool {
	_, ok := s.set[field]
	return ok
}

// Blame attributes err to the first of fields that the file set, as
// FILE:LINE:COLUMN: FIELD: err. When the file set none of them (the value
// came from the built-in default), err is returned as it is.
func (s *Scenario) Blame(err error, fields ...string) error {
	return s.set.Blame(s.File, err, fields...)
}

// Default is what a scenario is made of before a file or flags say
// otherwise: algorithm "vkt" with its default parameters, seed 1, topology
// "geometric:50:250" (about ten neighbours each), random values, delay
// uniform:1ms:5ms, no loss, a duration of 60s (heartbeats never stop, so a
// run needs a limit), the checker's default bounds, no events.
func Default() *Scenario {
	return &Scenario{
		Algorithm: "vkt",
		Seed:      1,
		Topology:  "geometric:50:250",
		Values:    sim.Values{Mode: sim.ValueRandom},
		Delay:     sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond},
		Duration:  60 * time.Second,
	}
}

// Demo is what `elect sim` runs with no scenario: scenarios/demo.yaml,
// Default's network living through the document's tests (the leader
// crashes at 10s, the west half splits off at 30s, they merge at 60s, the
// run ends at 100s).
func Demo() *Scenario {
	s, err := Parse("demo", scenarios.Demo, nil)
	if err != nil {
		panic("scenario: scenarios/demo.yaml does not parse: " + err.Error()) // TestDemo keeps it from happening
	}
	return s
}

// Clone returns a deep copy of s: changing the copy's maps and slices leaves s
// alone.
func (s *Scenario) Clone() *Scenario {
	c := *s
	c.set = maps.Clone(s.set)
	c.Params = maps.Clone(s.Params)
	c.Values.Explicit = maps.Clone(s.Values.Explicit)
	c.Ranges = maps.Clone(s.Ranges)
	if s.Events != nil {
		c.Events = make([]sim.Action, len(s.Events))
		for i, a := range s.Events {
			a.Nodes = slices.Clone(a.Nodes)
			if a.Groups != nil {
				gs := make([]sim.Group, len(a.Groups))
				for j, g := range a.Groups {
					gs[j] = sim.Group{Name: g.Name, Nodes: slices.Clone(g.Nodes)}
				}
				a.Groups = gs
			}
			c.Events[i] = a
		}
	}
	if s.Schedule != nil {
		sch := *s.Schedule
		sch.Steps, sch.Where = slices.Clone(sch.Steps), slices.Clone(sch.Where)
		c.Schedule = &sch
	}
	return &c
}

// Load reads a scenario file. Fields absent from the file keep the values of
// base (callers pass Default(); nil means Default()); base is not modified.
// params present in the file replace base's params entirely; a file that
// changes the algorithm without giving params drops base's.
func Load(path string, base *Scenario) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, base)
}

// Parse is Load on bytes already read; name is used in messages and becomes
// the result's File.
func Parse(name string, data []byte, base *Scenario) (*Scenario, error) {
	if base == nil {
		base = Default()
	}
	if err := traceGiven(name, data); err != nil {
		return nil, err
	}
	d := decoder{Doc: Doc{File: name}}
	root, err := d.Parse(data)
	if err != nil {
		return nil, err
	}
	s := base.Clone()
	s.File = name
	s.set = nil // positions are this file's
	if root != nil {
		if err := d.scenario(root, s); err != nil {
			return nil, err
		}
	}
	// Parameters belong to their algorithm: a file that names another
	// algorithm than base's, and no params, runs it with its own defaults.
	if s.Algorithm != base.Algorithm && !s.Sets("params") {
		s.Params = nil
	}
	if err := scheduleAlone(name, s); err != nil {
		return nil, err
	}
	s.SortEvents()
	return s, nil
}

// CheckSchedule refuses, for a scenario with a schedule, what the schedule
// leaves no room for: events, loss, moving nodes (a schedule is the run's
// every event). Parse refuses them in a file; this is for what flags add
// after it. The error names the file's line where it can.
func (s *Scenario) CheckSchedule() error {
	return scheduleAlone(s.File, s)
}

// SortEvents puts the events in time order, those of one instant in the
// order written: the order a run takes them in.
func (s *Scenario) SortEvents() {
	slices.SortStableFunc(s.Events, func(a, b sim.Action) int { return cmp.Compare(a.At, b.At) })
}

// Late lists the events scheduled after the run's end (Duration; a run of
// duration 0 ends after its last event, so none is late): the run stops
// before them, though its story would tell them.
func (s *Scenario) Late() []sim.Action {
	var late []sim.Action
	for _, a := range s.Events {
		if s.Duration > 0 && a.At > s.Duration {
			late = append(late, a)
		}
	}
	return late
}

// CheckEnd refuses the first late event (Late), naming its file and line
// and where the run's end came from: flag when a flag set the duration
// ("--duration"), else the file's duration field or the default.
func (s *Scenario) CheckEnd(flag string) error {
	late := s.Late()
	if len(late) == 0 {
		return nil
	}
	a, from := late[0], flag
	switch {
	case from != "":
	case s.Sets("duration"):
		from = fmt.Sprintf("duration, line %d", s.set["duration"].Line)
	default:
		from = "the default duration"
	}
	where := "events"
	if a.Where != "" {
		where = a.Where + ": events"
	}
	return fmt.Errorf("%s: the %s at %v comes after the run's end at %v (%s): the run stops before it; give a longer duration or drop the event",
		where, a.Kind, a.At, s.Duration, from)
}
