package runner

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
)

// PickTopology gives a scenario s that names no network the one a's model
// needs (Model.Topology), of the size it would have had: chang-roberts
// runs on a ring, not on the default's geometric network, which the
// algorithm would refuse. It reports whether it changed s; a family the
// topology parser does not know is left to the engine to refuse.
func PickTopology(a *algo.Algorithm, s *scenario.Scenario) bool {
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if a.Model.Topology == "" || err != nil || spec.Kind == topo.Kind(a.Model.Topology) {
		return false
	}
	need := fmt.Sprintf("%s:%d", a.Model.Topology, spec.N)
	if _, err := topo.Parse(need, 0); err != nil {
		return false
	}
	s.Topology, s.Nodes = need, 0
	return true
}

// Given is an algorithm parameter given outside a scenario's file (on a
// command line): its name and value, and Source, what an error about it
// blames ("--param NAME=VALUE").
type Given struct{ Name, Value, Source string }

// ParseGiven reads parameters given outside a scenario's file as
// NAME=VALUE, each blamed as flag followed by itself ("--param k=v").
func ParseGiven(flag string, params []string) ([]Given, error) {
	var given []Given
	for _, p := range params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flag, p)
		}
		given = append(given, Given{Name: k, Value: v, Source: flag + " " + p})
	}
	return given, nil
}

// SetParams sets the parameters given over those of s, a scenario of
// algorithm a, and checks the result: each entry of the file and each
// parameter given on its own (an unknown name, a malformed value), then the
// whole against the network's size (a node beyond the last one), blaming
// each problem on the file's entry that causes it (Scenario.Blame) or on
// the Source of the parameter given. A network whose size only its file
// tells (file:PATH) is not checked against: its problems surface when the
// run starts.
func SetParams(s *scenario.Scenario, a *algo.Algorithm, given []Given) error {
	base := maps.Clone(s.Params)
	if base == nil {
		base = map[string]string{}
	}
	// Each entry alone: an unknown name, a malformed value.
	for _, k := range slices.Sorted(maps.Keys(base)) {
		if _, err := a.Resolve(map[string]string{k: base[k]}); err != nil {
			return s.Blame(err, "params."+k, "params")
		}
	}
	for _, p := range given {
		if _, err := a.Resolve(map[string]string{p.Name: p.Value}); err != nil {
			return fmt.Errorf("%s: %w", p.Source, err)
		}
	}
	params := maps.Clone(base)
	for _, p := range given {
		params[p.Name] = p.Value
	}
	s.Params = params
	// Then against the network.
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if err != nil || spec.N == 0 {
		return nil
	}
	build := func(raw map[string]string) error {
		p, err := a.Resolve(raw)
		if err == nil {
			_, err = a.Build(p, spec.N)
		}
		return err
	}
	err = build(params)
	if err == nil {
		return nil
	}
	if berr := build(base); berr != nil {
		for _, k := range slices.Sorted(maps.Keys(base)) {
			if err := build(map[string]string{k: base[k]}); err != nil {
				return s.Blame(err, "params."+k, "params")
			}
		}
		return s.Blame(berr, "params")
	}
	for _, p := range given {
		one := maps.Clone(base)
		one[p.Name] = p.Value
		if err := build(one); err != nil {
			return fmt.Errorf("%s: %w", p.Source, err)
		}
	}
	sources := make([]string, len(given))
	for i, p := range given {
		sources[i] = p.Source
	}
	return fmt.Errorf("%s: %w", strings.Join(sources, ", "), err)
}

// CheckNodeSets checks the node sets of s, a scenario of algorithm a,
// against its network: its unelected nodes (CheckUnelected), then its
// initiators (Initiators). An error blames the file's field, or what gave
// the set outside the file: unelected or initiators when not "" (a flag);
// for the initiators, else the last of given that sets a parameter of a's
// that names them (a deprecated alias).
func CheckNodeSets(s *scenario.Scenario, a *algo.Algorithm, given []Given, initiators, unelected string) error {
	n := 1 << 30 // a file:PATH network has its size only once it is read
	if spec, err := topo.Parse(s.Topology, s.Nodes); err == nil && spec.N > 0 {
		n = spec.N
	}
	if err := CheckUnelected(s.Unelected, n); err != nil {
		if unelected != "" {
			return fmt.Errorf("%s: %w", unelected, err)
		}
		return s.Blame(err, "unelected")
	}
	alias := ""
	for _, p := range given {
		for _, d := range a.Params {
			if d.Initiators && d.Name == p.Name {
				alias = p.Source
			}
		}
	}
	if initiators = cmp.Or(initiators, alias); initiators == "" {
		_, _, err := Initiators(s, a, n)
		return err
	}
	if _, _, err := a.Initiators(s.Initiators, s.Params, n); err != nil {
		return fmt.Errorf("%s: %w", initiators, err)
	}
	return nil
}
