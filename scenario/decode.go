package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"go.yaml.in/yaml/v3"
)

// parseYAML reads the one document of data and returns its root node, or nil
// when the file holds no document or a null one.
func parseYAML(file string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decodeNode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(file, data, err)
	}
	var next yaml.Node
	switch err := decodeNode(dec, &next); {
	case err == nil:
		return nil, &Error{File: file, Line: next.Line, Column: next.Column,
			Msg: "a scenario file holds one YAML document, but a second one starts here"}
	case !errors.Is(err, io.EOF):
		return nil, syntaxError(file, data, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return nil, nil
		}
		root = root.Content[0]
	}
	root = resolve(root)
	if isNull(root) {
		return nil, nil
	}
	return root, nil
}

// resolve follows an alias to the node it names, keeping the alias's position
// so that errors point where the value is used.
func resolve(n *yaml.Node) *yaml.Node {
	if n == nil { // the YAML library does not build these; be safe anyway
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	if n.Kind != yaml.AliasNode {
		return n
	}
	t := n.Alias
	for i := 0; t != nil && t.Kind == yaml.AliasNode && i < 8; i++ {
		t = t.Alias
	}
	if t == nil || t.Kind == yaml.AliasNode {
		return n // reported as a value of the wrong kind
	}
	c := *t
	c.Line, c.Column = n.Line, n.Column
	return &c
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names the kind of a node for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		v := n.Value
		if len(v) > 40 {
			v = strings.ToValidUTF8(v[:40], "") + "..."
		}
		return strconv.Quote(v)
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	return "an unknown node"
}

// maxNodeWork bounds the node ids all events of a file name together, 4Mi:
// room for many events over a million-node network. Aliases let a short file
// repeat a large node set in many events, and one short node set string can
// name millions of nodes (algo.ParseNodeSet takes about a second for 4Mi ids);
// the bound keeps any file, however written, from making Parse run for long or
// allocate much. It is a variable so that tests can lower it.
var maxNodeWork int64 = 1 << 22

// decoder walks a document, naming its file in errors.
type decoder struct {
	file string
	work int64 // node ids produced by events so far; see maxNodeWork
}

func (d *decoder) errf(n *yaml.Node, path, format string, args ...any) *Error {
	return &Error{File: d.file, Line: n.Line, Column: n.Column, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// scalar returns the text of a scalar node; null and collections are errors.
func (d *decoder) scalar(n *yaml.Node, path, want string) (string, error) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		return "", d.errf(n, path, "want %s, got %s", want, describe(n))
	}
	if isNull(n) {
		return "", d.errf(n, path, "missing value (want %s)", want)
	}
	return n.Value, nil
}

// entry is one key-value pair of a mapping.
type entry struct {
	key  string
	k, v *yaml.Node
}

// mapping returns the pairs of a mapping node in the order written. what names
// the keys ("field", "group", "parameter") in messages. A null is an empty
// mapping.
func (d *decoder) mapping(n *yaml.Node, path, what string) ([]entry, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, path, "want a mapping, got %s", describe(n))
	}
	out := make([]entry, 0, len(n.Content)/2)
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return nil, d.errf(k, path, "a %s name must be a scalar, got %s", what, describe(k))
		}
		if k.ShortTag() == "!!merge" {
			return nil, d.errf(k, path, `merge keys ("<<") are not supported`)
		}
		if line, dup := seen[k.Value]; dup {
			return nil, d.errf(k, path, "duplicate %s %q (first on line %d)", what, k.Value, line)
		}
		seen[k.Value] = k.Line
		out = append(out, entry{key: k.Value, k: k, v: n.Content[i+1]})
	}
	return out, nil
}

// unknown reports a key that is not one of known.
func (d *decoder) unknown(e entry, path string, known []string) *Error {
	return d.errf(e.k, path, "unknown field %q (known: %s)", e.key, strings.Join(known, ", "))
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

var topFields = []string{
	"algorithm", "params", "seed", "topology", "nodes", "values", "delay",
	"loss", "duration", "check", "events", "mobility", "range",
}

// scenario applies the fields of the root mapping to s.
func (d *decoder) scenario(root *yaml.Node, s *Scenario) error {
	if root.Kind != yaml.MappingNode {
		return d.errf(root, "", "a scenario must be a mapping of fields like \"algorithm: NAME\", got %s", describe(root))
	}
	entries, err := d.mapping(root, "", "field")
	if err != nil {
		return err
	}
	s.set = make(map[string]position, len(entries))
	for _, e := range entries {
		v := resolve(e.v)
		s.set[e.key] = position{v.Line, v.Column}
		var err error
		switch e.key {
		case "algorithm":
			s.Algorithm, err = d.name(e.v, e.key, "an algorithm name")
		case "params":
			s.Params, err = d.params(e.v, e.key, s.set)
		case "seed":
			s.Seed, err = d.seed(e.v, e.key)
		case "topology":
			s.Topology, err = d.name(e.v, e.key, "a topology spec")
		case "nodes":
			s.Nodes, err = d.nodes(e.v, e.key)
		case "values":
			s.Values, err = d.values(e.v, e.key)
		case "delay":
			s.Delay, err = d.delay(e.v, e.key)
		case "loss":
			s.Loss, err = d.loss(e.v, e.key)
		case "duration":
			s.Duration, err = d.duration(e.v, e.key)
		case "mobility":
			s.Mobility, err = d.name(e.v, e.key, "a mobility spec")
		case "range":
			s.Range, err = d.rangeM(e.v, e.key)
		case "check":
			err = d.check(e.v, e.key, &s.Check)
		case "events":
			s.Events, err = d.events(e.v, e.key)
		default:
			err = d.unknown(e, "", topFields)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// name reads a non-empty string.
func (d *decoder) name(n *yaml.Node, path, want string) (string, error) {
	v, err := d.scalar(n, path, want)
	if err != nil {
		return "", err
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return "", d.errf(resolve(n), path, "empty value (want %s)", want)
	}
	return v, nil
}

func (d *decoder) params(n *yaml.Node, path string, set map[string]position) (map[string]string, error) {
	entries, err := d.mapping(n, path, "parameter")
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		if strings.TrimSpace(e.key) == "" {
			return nil, d.errf(e.k, path, "empty parameter name")
		}
		v, err := d.scalar(e.v, join(path, e.key), "a scalar value")
		if err != nil {
			return nil, err
		}
		out[e.key] = v
		r := resolve(e.v)
		set[join(path, e.key)] = position{r.Line, r.Column}
	}
	return out, nil
}

func (d *decoder) seed(n *yaml.Node, path string) (uint64, error) {
	v, err := d.scalar(n, path, "an unsigned integer")
	if err != nil {
		return 0, err
	}
	t := strings.TrimSpace(v)
	if seed, perr := strconv.ParseUint(t, 10, 64); perr == nil {
		return seed, nil
	}
	n = resolve(n)
	switch {
	case strings.HasPrefix(t, "-") && isDigits(t[1:]):
		return 0, d.errf(n, path, "negative seed %q (want an integer from 0 to %d)", v, uint64(math.MaxUint64))
	case isDigits(t):
		return 0, d.errf(n, path, "seed %q is too large (want an integer from 0 to %d)", v, uint64(math.MaxUint64))
	}
	return 0, d.errf(n, path, "invalid seed %q (want an unsigned decimal integer)", v)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (d *decoder) nodes(n *yaml.Node, path string) (int, error) {
	v, err := d.scalar(n, path, "a node count")
	if err != nil {
		return 0, err
	}
	c, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if perr != nil || c < 1 {
		return 0, d.errf(resolve(n), path, "invalid node count %q (want an integer from 1 to %d)", v, math.MaxInt32)
	}
	return int(c), nil
}

func (d *decoder) values(n *yaml.Node, path string) (sim.Values, error) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode {
		v, err := d.scalar(n, path, "id, random, or a mapping of node: value")
		if err != nil {
			return sim.Values{}, err
		}
		mode, err := sim.ParseValueMode(strings.TrimSpace(v))
		if err != nil {
			return sim.Values{}, d.errf(n, path, "%v", err)
		}
		return sim.Values{Mode: mode}, nil
	}
	if n.Kind != yaml.MappingNode {
		return sim.Values{}, d.errf(n, path, "want id, random, or a mapping of node: value, got %s", describe(n))
	}
	entries, err := d.mapping(n, path, "node")
	if err != nil {
		return sim.Values{}, err
	}
	out := sim.Values{Mode: sim.ValueID}
	if len(entries) == 0 {
		return out, nil
	}
	out.Explicit = make(map[algo.NodeID]int64, len(entries))
	line := make(map[algo.NodeID]int, len(entries))
	for _, e := range entries {
		id, err := d.nodeID(e.k, path)
		if err != nil {
			return sim.Values{}, err
		}
		if first, dup := line[id]; dup {
			return sim.Values{}, d.errf(e.k, path, "node %d is given a value twice (first on line %d)", id, first)
		}
		line[id] = e.k.Line
		vpath := fmt.Sprintf("%s.%d", path, id)
		v, err := d.scalar(e.v, vpath, "an integer value")
		if err != nil {
			return sim.Values{}, err
		}
		val, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if perr != nil {
			return sim.Values{}, d.errf(resolve(e.v), vpath, "invalid value %q (want an integer)", v)
		}
		out.Explicit[id] = val
	}
	return out, nil
}

func (d *decoder) delay(n *yaml.Node, path string) (sim.Delay, error) {
	v, err := d.scalar(n, path, "a delay like uniform:1ms:5ms")
	if err != nil {
		return sim.Delay{}, err
	}
	dl, perr := sim.ParseDelay(v)
	if perr != nil {
		return sim.Delay{}, d.errf(resolve(n), path, "%v", perr)
	}
	return dl, nil
}

func (d *decoder) loss(n *yaml.Node, path string) (float64, error) {
	v, err := d.scalar(n, path, "a probability in [0, 1)")
	if err != nil {
		return 0, err
	}
	p, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil {
		return 0, d.errf(resolve(n), path, "invalid loss %q (want a probability in [0, 1), like 0.01)", v)
	}
	if !(p >= 0 && p < 1) {
		return 0, d.errf(resolve(n), path, "loss %s is outside [0, 1)", strings.TrimSpace(v))
	}
	return p, nil
}

func (d *decoder) rangeM(n *yaml.Node, path string) (float64, error) {
	v, err := d.scalar(n, path, "a radio range in metres")
	if err != nil {
		return 0, err
	}
	r, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil || !(r > 0) || math.IsInf(r, 0) {
		return 0, d.errf(resolve(n), path, "invalid range %q (want a number of metres > 0, like 250)", v)
	}
	return r, nil
}

func (d *decoder) duration(n *yaml.Node, path string) (time.Duration, error) {
	v, err := d.scalar(n, path, "a duration like 10s")
	if err != nil {
		return 0, err
	}
	dur, perr := algo.ParseDuration(v)
	if perr != nil {
		return 0, d.errf(resolve(n), path, "%v", perr)
	}
	return dur, nil
}

var checkFields = []string{"stabilization", "liveness"}

func (d *decoder) check(n *yaml.Node, path string, c *Check) error {
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return err
	}
	for _, e := range entries {
		var err error
		switch e.key {
		case "stabilization":
			c.Stabilization, err = d.duration(e.v, join(path, e.key))
		case "liveness":
			c.Liveness, err = d.duration(e.v, join(path, e.key))
		default:
			err = d.unknown(e, path, checkFields)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var eventFields = []string{"at", "crash", "restart", "recover", "partition", "heal", "link_down", "link_up", "elect", "crash_on", "corrupt"}

func (d *decoder) events(n *yaml.Node, path string) ([]sim.Action, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, path, "want a list of events, got %s", describe(n))
	}
	var out []sim.Action
	for i, item := range n.Content {
		a, err := d.event(item, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		d.work += 1 + int64(len(a.Nodes)) + int64(len(a.Groups))
		for _, g := range a.Groups {
			d.work += int64(len(g.Nodes))
		}
		if d.work > maxNodeWork {
			return nil, d.errf(resolve(item), fmt.Sprintf("%s[%d]", path, i),
				"the events name more than %d nodes in all", maxNodeWork)
		}
		out = append(out, a)
	}
	return out, nil
}

func (d *decoder) event(n *yaml.Node, path string) (sim.Action, error) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return sim.Action{}, d.errf(n, path, "want an event, a mapping like {at: 10s, crash: 7}, got %s", describe(n))
	}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return sim.Action{}, err
	}
	var at *entry
	var acts []entry
	for i, e := range entries {
		if e.key == "at" {
			at = &entries[i]
			continue
		}
		if _, ok := sim.ParseActionKind(e.key); !ok {
			return sim.Action{}, d.unknown(e, path, eventFields)
		}
		acts = append(acts, e)
	}
	if at == nil {
		return sim.Action{}, d.errf(n, path, `missing "at"`)
	}
	if len(acts) != 1 {
		names := "none"
		if len(acts) > 0 {
			ks := make([]string, len(acts))
			for i, e := range acts {
				ks[i] = e.key
			}
			names = strings.Join(ks, ", ")
		}
		return sim.Action{}, d.errf(n, path, `an event needs exactly one action besides "at" (got %s)`, names)
	}
	a := sim.Action{Where: fmt.Sprintf("%s:%d", displayName(d.file), n.Line)}
	if a.At, err = d.duration(at.v, join(path, "at")); err != nil {
		return sim.Action{}, err
	}
	e := acts[0]
	a.Kind, _ = sim.ParseActionKind(e.key)
	apath := join(path, e.key)
	switch a.Kind {
	case sim.CrashOn:
		err = d.crashOn(e.v, apath, &a)
	case sim.Crash, sim.Restart, sim.Recover, sim.ElectAt, sim.Corrupt:
		if v := resolve(e.v); a.Kind == sim.Crash && v.Kind == yaml.ScalarNode && v.Value == "leader" {
			a.Leader = true // whichever node leads when the event comes
			break
		}
		a.Nodes, err = d.nodeSet(e.v, apath)
	case sim.Partition:
		a.Groups, err = d.partition(e.v, apath)
	case sim.Heal:
		v := resolve(e.v)
		switch {
		case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && isTrue(v.Value):
		case v.Kind == yaml.ScalarNode && v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 && isTrue(v.Value):
			err = d.errf(v, apath, "heal takes true, unquoted; got the string %q", v.Value)
		default:
			err = d.errf(v, apath, "heal takes true, got %s", describe(v))
		}
	case sim.LinkDown, sim.LinkUp:
		err = d.link(e.v, apath, &a)
	}
	if err != nil {
		return sim.Action{}, err
	}
	return a, nil
}

func isTrue(s string) bool {
	b, err := strconv.ParseBool(s)
	return err == nil && b
}

// nodeID reads one node id.
func (d *decoder) nodeID(n *yaml.Node, path string) (algo.NodeID, error) {
	v, err := d.scalar(n, path, "a node id")
	if err != nil {
		return 0, err
	}
	id, perr := algo.ParseNodeID(v)
	if perr != nil {
		return 0, d.errf(resolve(n), path, "%v", perr)
	}
	return id, nil
}

// nodeSet reads the nodes an event acts on: one id, a list of ids, or a node
// set string like "1-3,7". The result is sorted, without duplicates, and never
// empty.
func (d *decoder) nodeSet(n *yaml.Node, path string) ([]algo.NodeID, error) {
	n = resolve(n)
	var ids []algo.NodeID
	switch n.Kind {
	case yaml.SequenceNode:
		for i, item := range n.Content {
			id, err := d.nodeID(item, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
	case yaml.ScalarNode:
		v, err := d.scalar(n, path, "a node id, a list of ids, or a node set like 1-3,7")
		if err != nil {
			return nil, err
		}
		t := strings.TrimSpace(v)
		if id, err := algo.ParseNodeID(t); err == nil {
			return []algo.NodeID{id}, nil
		}
		if t == "all" {
			return nil, d.errf(n, path, `"all" is not allowed in events (name the nodes, like 0-9)`)
		}
		if !strings.Contains(t, ",") && strings.LastIndexByte(t, '-') <= 0 && t != "none" && t != "" {
			_, err := algo.ParseNodeID(v)
			return nil, d.errf(n, path, "%v", err)
		}
		if c := setSize(t); c > maxNodeWork {
			return nil, d.errf(n, path, "node set %q names %d nodes, more than the %d the events of a file may name in all", t, c, maxNodeWork)
		} else if c > maxNodeWork-d.work {
			return nil, d.errf(n, path, "the events name more than %d nodes in all", maxNodeWork)
		}
		var perr error
		ids, _, perr = algo.ParseNodeSet(t)
		if perr != nil {
			return nil, d.errf(n, path, "%v", perr)
		}
	default:
		return nil, d.errf(n, path, "want a node id, a list of ids, or a node set like 1-3,7, got %s", describe(n))
	}
	if len(ids) == 0 {
		return nil, d.errf(n, path, "no nodes given")
	}
	return ids, nil
}

// setSize is an upper bound on the ids a node set string names, counted
// without building them; parts that do not parse count as one.
func setSize(s string) int64 {
	var total int64
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		size := int64(1)
		if i := strings.IndexByte(part, '-'); i > 0 {
			lo, err1 := strconv.ParseInt(strings.TrimSpace(part[:i]), 10, 32)
			hi, err2 := strconv.ParseInt(strings.TrimSpace(part[i+1:]), 10, 32)
			if err1 == nil && err2 == nil && hi > lo {
				size = hi - lo + 1
			}
		}
		total += size
	}
	return total
}

func (d *decoder) partition(n *yaml.Node, path string) ([]sim.Group, error) {
	entries, err := d.mapping(n, path, "group")
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, d.errf(resolve(n), path, "a partition needs at least one group, like {left: 0-4, right: 5-9}")
	}
	groups := make([]sim.Group, 0, len(entries))
	owner := map[algo.NodeID]string{}
	for _, e := range entries {
		if strings.TrimSpace(e.key) == "" {
			return nil, d.errf(e.k, path, "empty group name")
		}
		g := sim.Group{Name: e.key}
		gpath := join(path, e.key)
		if v := resolve(e.v); v.Kind == yaml.MappingNode {
			// {area: [X0, Y0, X1, Y1]}: the nodes placed in that rectangle.
			fields, err := d.mapping(v, gpath, "field")
			if err != nil {
				return nil, err
			}
			for _, f := range fields {
				if f.key != "area" {
					return nil, d.unknown(f, gpath, []string{"area"})
				}
				area, err := d.area(f.v, join(gpath, "area"))
				if err != nil {
					return nil, err
				}
				g.Area = &area
			}
			if g.Area == nil {
				return nil, d.errf(v, gpath, `a group is nodes (3, [1, 2], "0-9") or {area: [X0, Y0, X1, Y1]}`)
			}
			groups = append(groups, g)
			continue
		}
		ids, err := d.nodeSet(e.v, gpath)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if other, dup := owner[id]; dup {
				return nil, d.errf(resolve(e.v), path, "node %d is in both group %q and group %q", id, other, e.key)
			}
			owner[id] = e.key
		}
		g.Nodes = ids
		groups = append(groups, g)
	}
	return groups, nil
}

// area reads [X0, Y0, X1, Y1], a rectangle of the plane in metres.
func (d *decoder) area(n *yaml.Node, path string) (sim.Rect, error) {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode || len(n.Content) != 4 {
		return sim.Rect{}, d.errf(n, path, "want [X0, Y0, X1, Y1], four numbers, got %s", describe(n))
	}
	var c [4]float64
	for i, item := range n.Content {
		v, err := d.scalar(item, path, "a number")
		if err != nil {
			return sim.Rect{}, err
		}
		f, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return sim.Rect{}, d.errf(resolve(item), path, "%q is not a number", v)
		}
		c[i] = f
	}
	if c[2] <= c[0] || c[3] <= c[1] {
		return sim.Rect{}, d.errf(n, path, "empty area: want X0 < X1 and Y0 < Y1")
	}
	return sim.Rect{X0: c[0], Y0: c[1], X1: c[2], Y1: c[3]}, nil
}

// link reads the two ends of a link, stored lower id first.
func (d *decoder) link(n *yaml.Node, path string, a *sim.Action) error {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return d.errf(n, path, "want the two ends of a link, like [3, 4], got %s", describe(n))
	}
	if len(n.Content) != 2 {
		return d.errf(n, path, "want exactly two node ids, like [3, 4], got %d", len(n.Content))
	}
	x, err := d.nodeID(n.Content[0], path+"[0]")
	if err != nil {
		return err
	}
	y, err := d.nodeID(n.Content[1], path+"[1]")
	if err != nil {
		return err
	}
	if x == y {
		return d.errf(n, path, "a link joins two different nodes, got %d twice", x)
	}
	a.Link.A, a.Link.B = min(x, y), max(x, y)
	return nil
}

// crashOn reads {node: N, message: TYPE}: N crashes when a TYPE message
// reaches it.
func (d *decoder) crashOn(n *yaml.Node, path string, a *sim.Action) error {
	fields, err := d.mapping(n, path, "field")
	if err != nil {
		return err
	}
	for _, f := range fields {
		switch f.key {
		case "node", "nodes":
			if a.Nodes, err = d.nodeSet(f.v, join(path, f.key)); err != nil {
				return err
			}
		case "message":
			if a.Message, err = d.name(f.v, join(path, f.key), "a message type"); err != nil {
				return err
			}
		default:
			return d.unknown(f, path, []string{"node", "message"})
		}
	}
	if len(a.Nodes) == 0 || a.Message == "" {
		return d.errf(resolve(n), path, "want {node: N, message: TYPE}")
	}
	return nil
}
