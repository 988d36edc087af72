package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/sim"
)

// A value event (sim.SetValue) sets nodes' values (their desirability)
// from then on:
//
//	- {at: 20s, value: {node: 7, to: 120}}
//	- {at: 30s, value: {node: leader, to: 0}}   # whichever node leads then

// valueFields are a value event's fields, as errors list them.
var valueFields = []string{"node", "to"}

// valueWant says what a value event looks like, in errors.
const valueWant = "{node: N, to: V} (N a node id, a list of them or leader; V an integer)"

// valueEvent reads the value of a value event into a.
func (d *decoder) valueEvent(n *yaml.Node, path string, a *sim.Action) error {
	v, err := d.ValueEvent(n, path, func(v *yaml.Node, path string) error {
		if r := Resolve(v); r.Kind == yaml.ScalarNode && strings.TrimSpace(r.Value) == "leader" {
			a.Leader = true
			return nil
		}
		var err error
		a.Nodes, err = d.nodeSet(v, path)
		return err
	})
	a.Value = v
	return err
}

// ValueEvent reads a value event's mapping, {node: N, to: V}, as a
// scenario file's value events and a cluster script's value steps (package
// cluster) both have it, and returns V. node reads N, at its path: a node
// id, a list of them, or leader, each reader to its own types. Any other
// field, or one missing, is an error.
func (d *Doc) ValueEvent(n *yaml.Node, path string, node func(v *yaml.Node, path string) error) (int64, error) {
	n = Resolve(n)
	if n.Kind != yaml.MappingNode {
		return 0, d.Errf(n, path, "want %s, got %s", valueWant, Describe(n))
	}
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return 0, err
	}
	var value int64
	got := map[string]bool{}
	for _, f := range fields {
		p := join(path, f.Key)
		switch f.Key {
		case "node":
			err = node(f.V, p)
		case "to":
			value, err = d.Int64(f.V, p)
		default:
			return 0, d.Unknown(f, path, valueFields)
		}
		if err != nil {
			return 0, err
		}
		got[f.Key] = true
	}
	for _, k := range valueFields {
		if !got[k] {
			return 0, d.Errf(n, path, "want %s: %s is missing", valueWant, k)
		}
	}
	return value, nil
}

// Int64 reads a signed integer, as ParseValue does.
func (d *Doc) Int64(n *yaml.Node, path string) (int64, error) {
	v, err := d.Scalar(n, path, "an integer")
	if err != nil {
		return 0, err
	}
	x, perr := ParseValue(v)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "%v", perr)
	}
	return x, nil
}

// ParseValue reads a node's value (its desirability as leader), an
// integer, as a value event's to and a cluster's one-line value command
// have it; its error says what it read and what it wants.
func ParseValue(s string) (int64, error) {
	s = strings.TrimSpace(s)
	x, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("value %q: want an integer from %d to %d", s, int64(-1<<63), int64(1<<63-1))
	case err != nil:
		return 0, fmt.Errorf("value %q: want an integer, like 120 or -3", s)
	}
	return x, nil
}

// formatValue writes a value event as valueEvent reads it.
func formatValue(a sim.Action) string {
	node := nodes(a.Nodes)
	if a.Leader {
		node = "leader"
	}
	return "value: {node: " + node + ", to: " + strconv.FormatInt(a.Value, 10) + "}"
}
