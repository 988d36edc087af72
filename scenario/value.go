package scenario

import (
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

var valueFields = []string{"node", "to"}

// valueEvent reads the value of a value event into a.
func (d *decoder) valueEvent(n *yaml.Node, path string, a *sim.Action) error {
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	got := map[string]bool{}
	for _, f := range fields {
		p := join(path, f.Key)
		key := f.Key
		if key == "nodes" {
			key = "node"
		}
		switch key {
		case "node":
			if v := Resolve(f.V); v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) == "leader" {
				a.Leader = true
				break
			}
			a.Nodes, err = d.nodeSet(f.V, p)
		case "to":
			a.Value, err = d.int64(f.V, p)
		default:
			return d.Unknown(f, path, valueFields)
		}
		if err != nil {
			return err
		}
		got[key] = true
	}
	if !got["node"] || !got["to"] {
		return d.Errf(Resolve(n), path, "want {node: N, to: V}: the node (or nodes, or leader) and its new value")
	}
	return nil
}

// int64 reads a signed integer.
func (d *decoder) int64(n *yaml.Node, path string) (int64, error) {
	v, err := d.Scalar(n, path, "an integer value")
	if err != nil {
		return 0, err
	}
	x, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "value %q: want an integer from %d to %d", strings.TrimSpace(v), int64(-1<<63), int64(1<<63-1))
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
