package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"go.yaml.in/yaml/v3"
)

// Doc reads one YAML document of a file, the way scenario files are read, and
// names the file, line, column and field of whatever it refuses. Scenario
// files and `elect cluster` scripts are both read with it, so both say the
// same things about the same mistakes.
type Doc struct {
	// File names the file in errors ("" for "<scenario>").
	File string
	// What the file is, for messages ("a cluster script"); "" is "a
	// scenario file".
	What string
}

// Position is where a value stands in its file.
type Position struct{ Line, Column int }

// Positions records where a file set each field ("algorithm",
// "params.timeout", ...), so that problems found later, once flags have been
// applied, can still be blamed on the file's line.
type Positions map[string]Position

// Set records where n, the value of field, stands.
func (p Positions) Set(field string, n *yaml.Node) {
	r := Resolve(n)
	p[field] = Position{r.Line, r.Column}
}

// Blame attributes err to the first of fields that file set, as
// FILE:LINE:COLUMN: FIELD: err. When the file set none of them, err is
// returned as it is.
func (p Positions) Blame(file string, err error, fields ...string) error {
	for _, f := range fields {
		if at, ok := p[f]; ok {
			return &Error{File: file, Line: at.Line, Column: at.Column, Path: f, Msg: err.Error()}
		}
	}
	return err
}

// Parse reads the one document of data and returns its root node, or nil
// when the file holds no document or a null one.
func (d *Doc) Parse(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decodeNode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(d.File, data, err)
	}
	var next yaml.Node
	switch err := decodeNode(dec, &next); {
	case err == nil:
		return nil, &Error{File: d.File, Line: next.Line, Column: next.Column,
			Msg: d.what() + " holds one YAML document, but a second one starts here"}
	case !errors.Is(err, io.EOF):
		return nil, syntaxError(d.File, data, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return nil, nil
		}
		root = root.Content[0]
	}
	root = Resolve(root)
	if IsNull(root) {
		return nil, nil
	}
	return root, nil
}

// Resolve follows an alias to the node it names, keeping the alias's position
// so that errors point where the value is used.
func Resolve(n *yaml.Node) *yaml.Node {
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

// IsNull reports whether n is YAML's null.
func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// Describe names the kind of a node for "want X, got Y" messages.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if IsNull(n) {
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

func (d *Doc) what() string {
	if d.What == "" {
		return "a scenario file"
	}
	return d.What
}

// Errf is an error at n, in field path.
func (d *Doc) Errf(n *yaml.Node, path, format string, args ...any) *Error {
	return &Error{File: d.File, Line: n.Line, Column: n.Column, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Scalar returns the text of a scalar node; null and collections are errors.
func (d *Doc) Scalar(n *yaml.Node, path, want string) (string, error) {
	n = Resolve(n)
	if n.Kind != yaml.ScalarNode {
		return "", d.Errf(n, path, "want %s, got %s", want, Describe(n))
	}
	if IsNull(n) {
		return "", d.Errf(n, path, "missing value (want %s)", want)
	}
	return n.Value, nil
}

// Entry is one key-value pair of a mapping: its key's text and nodes.
type Entry struct {
	Key  string
	K, V *yaml.Node
}

// Mapping returns the pairs of a mapping node in the order written. what names
// the keys ("field", "group", "parameter") in messages. A null is an empty
// mapping.
func (d *Doc) Mapping(n *yaml.Node, path, what string) ([]Entry, error) {
	n = Resolve(n)
	if IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.Errf(n, path, "want a mapping, got %s", Describe(n))
	}
	out := make([]Entry, 0, len(n.Content)/2)
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := Resolve(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return nil, d.Errf(k, path, "a %s name must be a scalar, got %s", what, Describe(k))
		}
		if k.ShortTag() == "!!merge" {
			return nil, d.Errf(k, path, `merge keys ("<<") are not supported`)
		}
		if line, dup := seen[k.Value]; dup {
			return nil, d.Errf(k, path, "duplicate %s %q (first on line %d)", what, k.Value, line)
		}
		seen[k.Value] = k.Line
		out = append(out, Entry{Key: k.Value, K: k, V: n.Content[i+1]})
	}
	return out, nil
}

// Unknown reports a key that is not one of known.
func (d *Doc) Unknown(e Entry, path string, known []string) *Error {
	return d.Errf(e.K, path, "unknown field %q (known: %s)", e.Key, strings.Join(known, ", "))
}

// Name reads a non-empty string (surrounding spaces removed).
func (d *Doc) Name(n *yaml.Node, path, want string) (string, error) {
	v, err := d.Scalar(n, path, want)
	if err != nil {
		return "", err
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return "", d.Errf(Resolve(n), path, "empty value (want %s)", want)
	}
	return v, nil
}

// Params reads a mapping of parameter names to scalar values, recording
// where each was set as path.NAME.
func (d *Doc) Params(n *yaml.Node, path string, set Positions) (map[string]string, error) {
	entries, err := d.Mapping(n, path, "parameter")
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		if strings.TrimSpace(e.Key) == "" {
			return nil, d.Errf(e.K, path, "empty parameter name")
		}
		v, err := d.Scalar(e.V, join(path, e.Key), "a scalar value")
		if err != nil {
			return nil, err
		}
		out[e.Key] = v
		set.Set(join(path, e.Key), e.V)
	}
	return out, nil
}

// Values reads node values: id, random, or a mapping of node: value.
func (d *Doc) Values(n *yaml.Node, path string) (sim.Values, error) {
	return d.values(n, path, nil)
}

// values is Values, recording in set where each node's entry stands
// ("values.3"), when set is not nil: a node outside the network is found
// only once the network is built, and is blamed on its entry.
func (d *Doc) values(n *yaml.Node, path string, set Positions) (sim.Values, error) {
	n = Resolve(n)
	if n.Kind == yaml.ScalarNode {
		v, err := d.Scalar(n, path, "id, random, or a mapping of node: value")
		if err != nil {
			return sim.Values{}, err
		}
		mode, err := sim.ParseValueMode(strings.TrimSpace(v))
		if err != nil {
			return sim.Values{}, d.Errf(n, path, "%v", err)
		}
		return sim.Values{Mode: mode}, nil
	}
	if n.Kind != yaml.MappingNode {
		return sim.Values{}, d.Errf(n, path, "want id, random, or a mapping of node: value, got %s", Describe(n))
	}
	entries, err := d.Mapping(n, path, "node")
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
		id, err := d.NodeID(e.K, path)
		if err != nil {
			return sim.Values{}, err
		}
		if first, dup := line[id]; dup {
			return sim.Values{}, d.Errf(e.K, path, "node %d is given a value twice (first on line %d)", id, first)
		}
		line[id] = e.K.Line
		vpath := fmt.Sprintf("%s.%d", path, id)
		v, err := d.Scalar(e.V, vpath, "an integer value")
		if err != nil {
			return sim.Values{}, err
		}
		val, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if perr != nil {
			return sim.Values{}, d.Errf(Resolve(e.V), vpath, "invalid value %q (want an integer)", v)
		}
		out.Explicit[id] = val
		if set != nil {
			set.Set(vpath, e.K)
		}
	}
	return out, nil
}

// Duration reads a duration like 10s.
func (d *Doc) Duration(n *yaml.Node, path string) (time.Duration, error) {
	v, err := d.Scalar(n, path, "a duration like 10s")
	if err != nil {
		return 0, err
	}
	dur, perr := algo.ParseDuration(v)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "%v", perr)
	}
	return dur, nil
}

// NodeID reads one node id.
func (d *Doc) NodeID(n *yaml.Node, path string) (algo.NodeID, error) {
	v, err := d.Scalar(n, path, "a node id")
	if err != nil {
		return 0, err
	}
	id, perr := algo.ParseNodeID(v)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "%v", perr)
	}
	return id, nil
}
