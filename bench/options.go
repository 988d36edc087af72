package bench

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/sim"
)

// DefaultTopologies are the topologies of a sweep whose Options give none.
var DefaultTopologies = []string{"layered:{n}@2..8", "geometric:{n}:d10@16..2048*2"}

// Options are a sweep's settings in words, as a command line gives them;
// Sweep parses and checks them into a Sweep.
type Options struct {
	// Experiments and Algorithms are comma-separated names; an algorithm
	// may be a variant, NAME:PARAM=VALUE (Variant).
	Experiments, Algorithms string
	// Topologies are topology specs with {n} for the size and their sizes
	// after @ (ParseTopology); DefaultTopologies when there are none.
	Topologies []string
	// Sizes are the sizes of the topologies given without @ (ParseSizes).
	Sizes string
	// Seeds is how many seeds each combination runs, 1 to MaxRuns.
	Seeds int
	// Delay is the link delay (sim.ParseDelay), Values the node values:
	// id or random (sim.ParseValueMode).
	Delay, Values string
	// Params are algorithm parameters, NAME=VALUE each.
	Params []string
	// Speeds are node speeds in m/s (ParseSpeeds), Mobility mobility
	// specs with {v} for each speed.
	Speeds   string
	Mobility []string
	// Drains are the battery experiment's drain rates (ParseDrains), and
	// Capacity its batteries' charge at the start (DefaultCapacity when
	// "").
	Drains, Capacity string
	// Duration, when set, replaces the experiments' own virtual time.
	Duration string
	// Format and PlotSize are the figures' style (ParseStyle).
	Format, PlotSize string
	// OutsideModel runs experiments that an algorithm's model does not
	// admit (Sweep.OutsideModel).
	OutsideModel bool
}

// OptionError is an option of Options that Sweep rejects.
type OptionError struct {
	// Option is the field's name: "Experiments", "Algorithms",
	// "Topologies", "Sizes", "Seeds", "Delay", "Values", "Params",
	// "Speeds", "Mobility", "Drains", "Capacity", "Duration" or "Style" (Format and PlotSize,
	// whose Err names them itself, as ParseStyle does).
	Option string
	// Item, for a list option, is the element at fault as a message shows
	// it: quoted when it could not be read at all.
	Item string
	Err  error
}

func (e *OptionError) Error() string {
	if e.Item != "" {
		return "bench: " + e.Option + " " + e.Item + ": " + e.Err.Error()
	}
	return "bench: " + e.Option + ": " + e.Err.Error()
}

func (e *OptionError) Unwrap() error { return e.Err }

// ErrNoNames is the Err of an OptionError when Experiments or Algorithms
// name nothing.
var ErrNoNames = errors.New("experiments and algorithms need at least one name each")

// SplitList splits a comma-separated list, leaving out blank elements.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Style is the figures' style that Format and PlotSize give (ParseStyle).
func (o Options) Style() (Style, error) {
	return ParseStyle(o.Format, o.PlotSize)
}

// Sweep builds the sweep that the options describe, checking them in the
// order of Options' fields (Style last); a bad option is an *OptionError.
func (o Options) Sweep() (*Sweep, error) {
	bad := func(option, item string, err error) error {
		return &OptionError{Option: option, Item: item, Err: err}
	}
	sw := &Sweep{Params: map[string]string{}, OutsideModel: o.OutsideModel}
	sw.Experiments = SplitList(o.Experiments)
	sw.Algorithms = SplitList(o.Algorithms)
	if len(sw.Experiments) == 0 {
		return nil, bad("Experiments", "", ErrNoNames)
	}
	if len(sw.Algorithms) == 0 {
		return nil, bad("Algorithms", "", ErrNoNames)
	}
	for _, a := range sw.Algorithms {
		if _, _, err := Variant(a); err != nil {
			return nil, bad("Algorithms", "", err)
		}
	}
	var sizes []int
	if o.Sizes != "" {
		var err error
		if sizes, err = ParseSizes(o.Sizes); err != nil {
			return nil, bad("Sizes", "", err)
		}
	}
	tops := o.Topologies
	if len(tops) == 0 {
		tops = DefaultTopologies
	}
	for _, t := range tops {
		topo, err := ParseTopology(t, sizes)
		if err != nil {
			return nil, bad("Topologies", "", err)
		}
		sw.Topologies = append(sw.Topologies, topo)
	}
	if o.Seeds < 1 || o.Seeds > MaxRuns {
		return nil, bad("Seeds", "", fmt.Errorf("%d, want 1 to %d", o.Seeds, MaxRuns))
	}
	for s := 1; s <= o.Seeds; s++ {
		sw.Seeds = append(sw.Seeds, uint64(s))
	}
	var err error
	if sw.Delay, err = sim.ParseDelay(o.Delay); err != nil {
		return nil, bad("Delay", "", err)
	}
	mode, err := sim.ParseValueMode(o.Values)
	if err != nil {
		return nil, bad("Values", "", err)
	}
	sw.Values = sim.Values{Mode: mode}
	for _, p := range o.Params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, bad("Params", strconv.Quote(p), errors.New("want NAME=VALUE"))
		}
		if err := sw.CheckParam(k, v); err != nil {
			return nil, bad("Params", p, err)
		}
		sw.Params[k] = v
	}
	if o.Speeds != "" {
		if sw.Speeds, err = ParseSpeeds(o.Speeds); err != nil {
			return nil, bad("Speeds", "", err)
		}
	}
	for _, m := range o.Mobility {
		// Checked filled in with a speed: a template is not a spec itself.
		if _, err := mobility.Parse(MobilityAt(m, 1)); err != nil {
			return nil, bad("Mobility", strconv.Quote(m), err)
		}
		sw.Mobility = append(sw.Mobility, m)
	}
	if o.Drains != "" {
		if sw.Drains, err = ParseDrains(o.Drains); err != nil {
			return nil, bad("Drains", "", err)
		}
	}
	if o.Capacity != "" {
		c, err := strconv.ParseFloat(o.Capacity, 64)
		if err != nil || !(c > 0) || math.IsInf(c, 0) {
			return nil, bad("Capacity", "", fmt.Errorf("invalid capacity %q (want units of charge above 0)", o.Capacity))
		}
		sw.Capacity = c
	}
	if o.Duration != "" {
		if sw.Duration, err = algo.ParseDuration(o.Duration); err != nil {
			return nil, bad("Duration", "", err)
		}
	}
	if _, err := o.Style(); err != nil {
		return nil, bad("Style", "", err)
	}
	return sw, nil
}
