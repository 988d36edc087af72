package cluster

import (
	"fmt"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// scriptDecoder reads a script with the scenario files' reader, adding what
// only scripts have.
type scriptDecoder struct{ scenario.Doc }

// mapping is Doc.Mapping, but a null is refused rather than read as an empty
// mapping: every mapping of a script must say something.
func (d *scriptDecoder) mapping(n *yaml.Node, path, what string) ([]scenario.Entry, error) {
	if n = scenario.Resolve(n); scenario.IsNull(n) {
		return nil, d.Errf(n, path, "want a mapping, got nothing")
	}
	return d.Mapping(n, path, what)
}

// integer reads an integer from lo to hi; what names it in messages.
func (d *scriptDecoder) integer(n *yaml.Node, path, what string, lo, hi int64) (int64, error) {
	v, err := d.Name(n, path, "an integer")
	if err != nil {
		return 0, err
	}
	i, perr := strconv.ParseInt(v, 10, 64)
	if perr != nil || i < lo || i > hi {
		return 0, d.Errf(n, path, "invalid %s %q (want an integer from %d to %d)", what, v, lo, hi)
	}
	return i, nil
}

// nodeID reads a node id, as an int for the cluster's tables.
func (d *scriptDecoder) nodeID(n *yaml.Node, path string) (int, error) {
	id, err := d.NodeID(n, path)
	return int(id), err
}

// values reads node values as a scenario file has them, within the
// cluster's size.
func (d *scriptDecoder) values(n *yaml.Node, path string) (sim.Values, error) {
	v, err := d.Values(n, path)
	if err != nil {
		return v, err
	}
	for id := range v.Explicit {
		if id >= MaxNodes {
			return sim.Values{}, d.Errf(scenario.Resolve(n), path, "node %d is out of range: a cluster has at most %d nodes", id, MaxNodes)
		}
	}
	return v, nil
}

func (d *scriptDecoder) steps(n *yaml.Node, path string) ([]Step, error) {
	if scenario.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errf(n, path, "want a list of steps, got %s", scenario.Describe(n))
	}
	var out []Step
	lastAt, lastLine := time.Duration(-1), 0
	for i, item := range n.Content {
		st, err := d.step(scenario.Resolve(item), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		if st.At >= 0 {
			if st.At < lastAt {
				return nil, d.Errf(scenario.Resolve(item), st.Path+".at", "at %v is before the %v of the step on line %d: steps run in the order written", st.At, lastAt, lastLine)
			}
			lastAt, lastLine = st.At, st.Line
		}
		out = append(out, st)
	}
	return out, nil
}

func (d *scriptDecoder) step(n *yaml.Node, path string) (Step, error) {
	st := Step{Line: n.Line, Path: path, At: -1, Expect: noExpect(0)}
	if n.Kind != yaml.MappingNode {
		return st, d.Errf(n, path, "want a step, a mapping like {at: 2s, kill: 7}, got %s", scenario.Describe(n))
	}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return st, err
	}
	var acts []scenario.Entry
	for _, e := range entries {
		switch e.Key {
		case "at":
			st.At, err = d.Duration(e.V, path+".at")
		case "after":
			st.After, err = d.Duration(e.V, path+".after")
		case "kill", "stop", "restart", "recover", "elect", "expect", "cut", "uncut", "clock", "slow", "value":
			acts = append(acts, e)
		default:
			err = d.Unknown(e, path, clusterStepFields)
		}
		if err != nil {
			return st, err
		}
	}
	if len(acts) != 1 {
		got := "none"
		if len(acts) > 1 {
			got = acts[0].Key + ", " + acts[1].Key
		}
		return st, d.Errf(n, path, "a step needs exactly one action: kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow or value (got %s)", got)
	}
	if st.At >= 0 && st.After > 0 {
		return st, d.Errf(n, path, `give "at" or "after", not both`)
	}
	e := acts[0]
	st.Action = e.Key
	apath := path + "." + e.Key
	st.where = scenario.Position{Line: e.V.Line, Column: e.V.Column}
	if e.Key == "expect" {
		st.Expect, err = d.expect(e.V, apath)
		return st, err
	}
	if isGray(e.Key) {
		return st, d.gray(e.V, apath, &st)
	}
	if e.Key == "value" {
		return st, d.value(e.V, apath, &st)
	}
	return st, d.targets(e.V, apath, &st)
}

// targets reads the nodes a step acts on: an id, a list of ids, or
// "leader".
func (d *scriptDecoder) targets(v *yaml.Node, path string, st *Step) error {
	v = scenario.Resolve(v)
	switch {
	case v.Kind == yaml.ScalarNode && v.Value == "leader":
		st.Leader = true
	case v.Kind == yaml.SequenceNode:
		if len(v.Content) == 0 {
			return d.Errf(v, path, "an empty list names no node")
		}
		for i, item := range v.Content {
			id, err := d.nodeID(scenario.Resolve(item), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return err
			}
			st.Nodes = append(st.Nodes, id)
		}
	default:
		id, err := d.nodeID(v, path)
		if err != nil {
			return d.Errf(v, path, "want a node id, a list of ids or \"leader\", got %s", scenario.Describe(v))
		}
		st.Nodes = []int{id}
	}
	return nil
}

func (d *scriptDecoder) expect(n *yaml.Node, path string) (Expect, error) {
	x := noExpect(DefaultWithin)
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return x, d.Errf(n, path, "want a mapping like {leader: 7, within: 3s}, got %s", scenario.Describe(n))
	}
	for _, e := range entries {
		p := path + "." + e.Key
		switch e.Key {
		case "leader":
			x.Leader, err = d.nodeID(e.V, p)
		case "agree":
			if e.V.Kind != yaml.ScalarNode || e.V.ShortTag() != "!!bool" || e.V.Value != "true" {
				err = d.Errf(e.V, p, "agree takes true, got %s", scenario.Describe(e.V))
			}
			x.Agree = true
		case "within":
			x.Within, err = d.Duration(e.V, p)
			if err == nil && x.Within <= 0 {
				err = d.Errf(e.V, p, "want a positive duration")
			}
		case "failure":
			x.Failure, err = d.failure(e.V, p)
		case "elections":
			var es []scenario.Entry
			if es, err = d.mapping(e.V, p, "node"); err != nil {
				break
			}
			for _, c := range es {
				id, err := d.nodeID(c.K, p)
				if err != nil {
					return x, err
				}
				cnt, err := d.integer(c.V, fmt.Sprintf("%s.%d", p, id), "election count", 0, 1<<62)
				if err != nil {
					return x, err
				}
				x.Elections = append(x.Elections, ElectionCount{id, uint64(cnt)})
			}
		default:
			err = d.Unknown(e, path, clusterExpFields)
		}
		if err != nil {
			return x, err
		}
	}
	if x.Leader < 0 && !x.Agree && len(x.Elections) == 0 && x.Failure.Phase == "" {
		return x, d.Errf(n, path, "expect what? give leader: ID, agree: true, elections: {NODE: COUNT} or failure: PHASE")
	}
	return x, nil
}

// crashOn reads crash_on: {node: N, message: TYPE}, or a list of them.
func (d *scriptDecoder) crashOn(n *yaml.Node, path string) (map[int]string, error) {
	n = scenario.Resolve(n)
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	out := map[int]string{}
	for i, item := range items {
		p := path
		if n.Kind == yaml.SequenceNode {
			p = fmt.Sprintf("%s[%d]", path, i)
		}
		item = scenario.Resolve(item)
		if item.Kind != yaml.MappingNode {
			return nil, d.Errf(item, p, "want {node: N, message: TYPE}, got %s", scenario.Describe(item))
		}
		entries, err := d.mapping(item, p, "field")
		if err != nil {
			return nil, err
		}
		id, msg := -1, ""
		for _, e := range entries {
			switch e.Key {
			case "node":
				id, err = d.nodeID(e.V, p+".node")
			case "message":
				msg, err = d.Name(e.V, p+".message", "a message type of the algorithm")
			default:
				err = d.Unknown(e, p, []string{"node", "message"})
			}
			if err != nil {
				return nil, err
			}
		}
		if id < 0 || msg == "" {
			return nil, d.Errf(item, p, "want {node: N, message: TYPE}: both fields")
		}
		if _, dup := out[id]; dup {
			return nil, d.Errf(item, p, "node %d is given twice", id)
		}
		out[id] = msg
	}
	return out, nil
}

// nodeList reads a node id or a list of them.
func (d *scriptDecoder) nodeList(n *yaml.Node, path string) ([]int, error) {
	n = scenario.Resolve(n)
	if n.Kind != yaml.SequenceNode {
		id, err := d.nodeID(n, path)
		return []int{id}, err
	}
	var out []int
	for i, item := range n.Content {
		id, err := d.nodeID(scenario.Resolve(item), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// failure reads an expected failure: a phase (gathering, confirmation,
// checksum, or a message type), or {phase: P, node: N}.
func (d *scriptDecoder) failure(n *yaml.Node, path string) (Failure, error) {
	f := Failure{Node: -1}
	n = scenario.Resolve(n)
	if n.Kind == yaml.ScalarNode {
		var err error
		f.Phase, err = d.Name(n, path, "a phase: gathering, confirmation or checksum")
		return f, err
	}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return f, d.Errf(n, path, "want a phase or {phase: P, node: N}, got %s", scenario.Describe(n))
	}
	for _, e := range entries {
		switch e.Key {
		case "phase":
			f.Phase, err = d.Name(e.V, path+".phase", "a phase: gathering, confirmation or checksum")
		case "node":
			f.Node, err = d.nodeID(e.V, path+".node")
		default:
			err = d.Unknown(e, path, []string{"phase", "node"})
		}
		if err != nil {
			return f, err
		}
	}
	if f.Phase == "" {
		return f, d.Errf(n, path, "want {phase: P, node: N}: the phase is missing")
	}
	return f, nil
}
