package runner

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// Overrides are changes made to a scenario from outside its file (a
// command line's flags): each field that is set (not nil) replaces the
// scenario's own. Values are given as text, read as a scenario file's are.
//
// Errors name the override at fault by its field: "algorithm",
// "topology", "nodes", "seed", "duration", "values", "delay", "loss",
// "params", "initiators", "unelected", "stabilization", "liveness",
// "expect", "mobility", "range", "values_over_time". Label says how they are named in messages.
type Overrides struct {
	Algorithm, Topology     *string
	Nodes                   *int
	Seed                    *uint64
	Duration, Values, Delay *string
	Loss                    *float64
	Params                  []string // NAME=VALUE, over the file's
	Initiators, Unelected   *string
	Stabilization, Liveness *string
	Expect, Mobility        *string
	Range                   *float64
	// ValuesOver is the value model (scenario.Scenario.ValuesOver).
	ValuesOver *string
	// DropLate leaves out the events after the run's end, with a note,
	// rather than refusing them: for a scenario that no file gave (the
	// demo), whose events the user did not write.
	DropLate bool
	// Label names a field in messages (a command line: its flag, like
	// "--algo"); nil names it as it is.
	Label func(field string) string
	// Note, when set, is given the notes: what Apply chose or left out
	// that the user did not ask for.
	Note func(string)
	// InitiatorsNote, when not empty, is given to Note once Initiators is
	// taken (a command line: that the flag it came from is deprecated).
	InitiatorsNote string
}

// OverrideError is an override that cannot be applied: Fields are those of
// the overrides at fault that were set, Err says why.
type OverrideError struct {
	Fields []string
	Err    error
	label  func(string) string
}

// Error formats the error as LABEL[, LABEL...]: ERR.
func (e *OverrideError) Error() string {
	names := slices.Clone(e.Fields)
	if e.label != nil {
		for i, f := range names {
			names[i] = e.label(f)
		}
	}
	return strings.Join(names, ", ") + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *OverrideError) Unwrap() error { return e.Err }

func (o *Overrides) label(field string) string {
	if o.Label == nil {
		return field
	}
	return o.Label(field)
}

func (o *Overrides) note(format string, args ...any) {
	if o.Note != nil {
		o.Note(fmt.Sprintf(format, args...))
	}
}

// fail makes err the fault of field.
func (o *Overrides) fail(err error, fields ...string) error {
	return &OverrideError{Fields: fields, Err: err, label: o.label}
}

// blame blames err on those of fields that were set (set says which), or,
// when none was, on the first of them that the file set (Scenario.Blame).
func (o *Overrides) blame(s *scenario.Scenario, err error, set map[string]bool, fields ...string) error {
	var given []string
	for _, f := range fields {
		if set[f] {
			given = append(given, f)
		}
	}
	if len(given) > 0 {
		return o.fail(err, given...)
	}
	return s.Blame(err, fields...)
}

// parse sets *dst to value read by parse when value is set.
func parse[T any](o *Overrides, field string, value *string, read func(string) (T, error), dst *T) error {
	if value == nil {
		return nil
	}
	v, err := read(*value)
	if err != nil {
		return o.fail(err, field)
	}
	*dst = v
	return nil
}

// Apply applies the overrides to s and checks the result: the algorithm
// against the registry, the topology, mobility, parameters and node sets
// against the network, the events against the run's end. Each error names
// what is at fault: an override (an *OverrideError, or for parameters and
// node sets an error that names its Label), or the file's line and field.
// An algorithm that needs a network of its own (Model.Topology) gets one
// of the size given when no topology was, with a note.
func (o *Overrides) Apply(s *scenario.Scenario) error {
	set := map[string]bool{"topology": o.Topology != nil, "nodes": o.Nodes != nil,
		"duration": o.Duration != nil, "mobility": o.Mobility != nil, "range": o.Range != nil,
		"values_over_time": o.ValuesOver != nil}
	if o.Algorithm != nil && s.Algorithm != *o.Algorithm {
		s.Algorithm, s.Params = *o.Algorithm, nil // the file's parameters belong to its algorithm
	}
	a, err := algo.Lookup(s.Algorithm)
	switch {
	case err != nil && o.Algorithm != nil:
		return o.fail(err, "algorithm")
	case err != nil:
		return s.Blame(err, "algorithm")
	}
	picked := o.Topology == nil && !s.Sets("topology") && PickTopology(a, s)
	// Parse reads a count of 0 as none given; ParseNodes takes even an
	// override of 0 at its word.
	parseTopo := topo.Parse
	if o.Topology != nil {
		s.Topology, s.Nodes = *o.Topology, 0
		if o.Nodes != nil {
			s.Nodes = *o.Nodes
		}
	}
	if o.Nodes != nil {
		s.Nodes, parseTopo = *o.Nodes, topo.ParseNodes
	}
	if _, err := parseTopo(s.Topology, s.Nodes); err != nil {
		return o.blame(s, err, set, "topology", "nodes")
	}
	if picked {
		if spec, err := topo.Parse(s.Topology, s.Nodes); err == nil {
			o.note("%s needs a %s network (Model.Topology): it runs on %s (%s chooses another)", a.Name, a.Model.Topology, spec, o.label("topology"))
		}
	}
	if o.Seed != nil {
		s.Seed = *o.Seed
	}
	if err := parse(o, "duration", o.Duration, algo.ParseDuration, &s.Duration); err != nil {
		return err
	}
	if err := o.checkEnd(s); err != nil {
		return err
	}
	valueMode := func(v string) (sim.Values, error) {
		m, err := sim.ParseValueMode(v)
		return sim.Values{Mode: m}, err
	}
	if err := parse(o, "values", o.Values, valueMode, &s.Values); err != nil {
		return err
	}
	if err := parse(o, "delay", o.Delay, sim.ParseDelay, &s.Delay); err != nil {
		return err
	}
	if o.Loss != nil {
		if *o.Loss < 0 || *o.Loss >= 1 {
			return o.fail(fmt.Errorf("%v is outside [0, 1)", *o.Loss), "loss")
		}
		s.Loss = *o.Loss
	}
	if err := parse(o, "stabilization", o.Stabilization, algo.ParseDuration, &s.Check.Stabilization); err != nil {
		return err
	}
	if err := parse(o, "liveness", o.Liveness, algo.ParseDuration, &s.Check.Liveness); err != nil {
		return err
	}
	if err := parse(o, "expect", o.Expect, check.ParseExpect, &s.Check.Expect); err != nil {
		return err
	}
	if o.Mobility != nil {
		s.Mobility = *o.Mobility
	}
	if o.Mobility != nil || s.Mobility != "" {
		if _, err := mobility.Parse(s.Mobility); err != nil {
			return o.blame(s, err, set, "mobility")
		}
	}
	if o.ValuesOver != nil {
		s.ValuesOver = *o.ValuesOver
	}
	if s.ValuesOver != "" {
		if _, err := sim.ParseValueModel(s.ValuesOver); err != nil {
			return o.blame(s, err, set, "values_over_time")
		}
	}
	if o.Range != nil {
		if r := *o.Range; !(r > 0) || math.IsInf(r, 0) {
			return o.fail(fmt.Errorf("%v is not a number of metres > 0", r), "range")
		}
		s.Range = *o.Range
	}
	if s.Range != 0 && s.Mobility == "" {
		return o.blame(s, ErrRangeAlone, set, "range")
	}
	given, err := ParseGiven(o.label("params"), o.Params)
	if err == nil {
		err = SetParams(s, a, given)
	}
	if err != nil {
		return err
	}
	initiators, unelected := "", ""
	if o.Initiators != nil {
		initiators, s.Initiators = o.label("initiators"), *o.Initiators
		if o.InitiatorsNote != "" {
			o.note("%s", o.InitiatorsNote)
		}
	}
	if o.Unelected != nil {
		unelected, s.Unelected = o.label("unelected"), *o.Unelected
	}
	return CheckNodeSets(s, a, given, initiators, unelected)
}

// checkEnd refuses an event after the run's end (Scenario.CheckEnd), or
// with DropLate leaves them out, saying so.
func (o *Overrides) checkEnd(s *scenario.Scenario) error {
	if o.DropLate {
		if late := s.Late(); len(late) > 0 {
			at := make([]string, len(late))
			for i, a := range late {
				at[i] = a.At.String()
			}
			s.Events = slices.DeleteFunc(s.Events, func(a sim.Action) bool { return a.At > s.Duration })
			o.note("the run ends at %v (%s), before the demo's events at %s: they are left out", s.Duration, o.label("duration"), strings.Join(at, ", "))
		}
	}
	flag := ""
	if o.Duration != nil {
		flag = o.label("duration")
	}
	return s.CheckEnd(flag)
}
