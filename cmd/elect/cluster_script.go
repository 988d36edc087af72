package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// A cluster script is the YAML file of elect cluster --script: settings of
// the cluster (each overridden by its flag) and a list of steps run in the
// order written. Its errors are *scenario.Error, FILE:LINE:COLUMN: FIELD: MSG,
// as elect sim's scenario files have them.
//
//	nodes: 8
//	algorithm: vkt
//	params: {heartbeat: 200ms, timeout: 1s}
//	hello: 50ms
//	hello_loss: 4
//	values: id              # id, random, or a mapping node: value
//	seed: 1
//	topology: complete      # any topo spec; peers are the graph's neighbours
//	steps:
//	  - {at: 2s, kill: 7}   # SIGKILL; a node id, a list, or "leader"
//	  - {at: 5s, recover: 7}
//	  - {after: 1s, restart: 3}
//	  - {stop: 2}           # SIGTERM: a clean stop
//	  - expect: {leader: 7, within: 3s}
type clusterScript struct {
	File      string
	Nodes     int
	Algorithm string
	Params    map[string]string
	ParamKeys []string // in the order written
	Hello     time.Duration
	HelloLoss int
	Values    *sim.Values
	Seed      *uint64
	Topology  string
	Steps     []clusterStep
	set       map[string]yamlPos // where each top-level field was set
}

type yamlPos struct{ line, col int }

// clusterStep is one step of a script.
type clusterStep struct {
	Line   int
	Path   string        // "steps[3]"
	At     time.Duration // not before this long after the start (-1: not given)
	After  time.Duration // not before this long after the previous step ended
	Action string        // kill, stop, restart, recover or expect
	Nodes  []int         // the nodes it acts on
	Leader bool          // act on the leader of the moment instead
	Expect clusterExpect
	where  yamlPos // of the nodes field, for ids found out of range later
}

// clusterExpect is what an expect step waits for.
type clusterExpect struct {
	Leader    int  // every live node follows this node in Norm (-1: not asked)
	Agree     bool // every component follows its most valued live node
	Within    time.Duration
	Elections []electionCount // per node, its process's election counter
}

type electionCount struct {
	Node  int
	Count uint64
}

// defaultWithin is how long an expect step waits by default.
const defaultWithin = 3 * time.Second

// describe renders a step like a keyboard command.
func (s clusterStep) describe() string {
	if s.Action == "expect" {
		return s.Expect.describe()
	}
	if s.Leader {
		return s.Action + " leader"
	}
	ids := make([]string, len(s.Nodes))
	for i, id := range s.Nodes {
		ids[i] = strconv.Itoa(id)
	}
	return s.Action + " " + strings.Join(ids, " ")
}

func (e clusterExpect) describe() string {
	var parts []string
	if e.Leader >= 0 {
		parts = append(parts, fmt.Sprintf("leader %d", e.Leader))
	}
	if e.Agree {
		parts = append(parts, "agreement")
	}
	for _, c := range e.Elections {
		parts = append(parts, fmt.Sprintf("node %d elections = %d", c.Node, c.Count))
	}
	return fmt.Sprintf("expect %s within %v", strings.Join(parts, ", "), e.Within)
}

var (
	clusterTopFields  = []string{"nodes", "algorithm", "params", "hello", "hello_loss", "values", "seed", "topology", "steps"}
	clusterStepFields = []string{"at", "after", "kill", "stop", "restart", "recover", "expect"}
	clusterExpFields  = []string{"leader", "agree", "within", "elections"}
)

// loadClusterScript reads and parses a script file.
func loadClusterScript(path string) (*clusterScript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseClusterScript(path, data)
}

// parseClusterScript parses the text of a script named file.
func parseClusterScript(file string, data []byte) (*clusterScript, error) {
	d := scriptDecoder{file: file}
	s := &clusterScript{File: file, set: map[string]yamlPos{}}
	root, err := d.parse(data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, d.errf(&yaml.Node{Line: 1}, "", "the script is empty (want at least steps: [...])")
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.errf(root, "", "a cluster script must be a mapping of fields like \"nodes: 8\", got %s", describeNode(root))
	}
	entries, err := d.mapping(root, "", "field")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		s.set[e.key] = yamlPos{e.v.Line, e.v.Column}
		switch e.key {
		case "nodes":
			var v int64
			v, err = d.integer(e.v, e.key, "node count", 1, maxClusterNodes)
			s.Nodes = int(v)
		case "algorithm":
			s.Algorithm, err = d.text(e.v, e.key, "an algorithm name")
		case "topology":
			s.Topology, err = d.text(e.v, e.key, "a topology spec")
		case "params":
			err = d.params(e.v, e.key, s)
		case "hello":
			s.Hello, err = d.duration(e.v, e.key)
			if err == nil && s.Hello <= 0 {
				err = d.errf(e.v, e.key, "want a positive duration")
			}
		case "hello_loss":
			var v int64
			v, err = d.integer(e.v, e.key, "number of beacon intervals", 1, 1000)
			s.HelloLoss = int(v)
		case "values":
			var v sim.Values
			v, err = d.values(e.v, e.key)
			s.Values = &v
		case "seed":
			var txt string
			if txt, err = d.text(e.v, e.key, "an unsigned integer"); err == nil {
				seed, perr := strconv.ParseUint(txt, 10, 64)
				if perr != nil {
					err = d.errf(e.v, e.key, "invalid seed %q (want an unsigned decimal integer)", txt)
				}
				s.Seed = &seed
			}
		case "steps":
			s.Steps, err = d.steps(e.v, e.key)
		default:
			err = d.errf(e.k, "", "unknown field %q (known: %s)", e.key, strings.Join(clusterTopFields, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	if _, ok := s.set["steps"]; !ok {
		return nil, d.errf(root, "", `missing "steps" (a list of steps like {at: 2s, kill: 7})`)
	}
	return s, nil
}

// checkNodes checks the node ids of every step against the cluster's size.
func (s *clusterScript) checkNodes(n int) error {
	bad := func(st clusterStep, path string, id int) error {
		return &scenario.Error{File: s.File, Line: st.where.line, Column: st.where.col, Path: path,
			Msg: fmt.Sprintf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)}
	}
	for _, st := range s.Steps {
		for _, id := range st.Nodes {
			if id >= n {
				return bad(st, st.Path+"."+st.Action, id)
			}
		}
		if st.Expect.Leader >= n {
			return bad(st, st.Path+".expect.leader", st.Expect.Leader)
		}
		for _, c := range st.Expect.Elections {
			if c.Node >= n {
				return bad(st, st.Path+".expect.elections", c.Node)
			}
		}
	}
	return nil
}

// blame attributes err to the field of the script that set it, when the
// script set it.
func (s *clusterScript) blame(err error, field string) error {
	if s == nil {
		return err
	}
	if p, ok := s.set[field]; ok {
		return &scenario.Error{File: s.File, Line: p.line, Column: p.col, Path: field, Msg: err.Error()}
	}
	return err
}

// scriptDecoder walks a script's YAML, naming its file in errors.
type scriptDecoder struct{ file string }

func (d *scriptDecoder) errf(n *yaml.Node, path, format string, args ...any) *scenario.Error {
	return &scenario.Error{File: d.file, Line: n.Line, Column: n.Column, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// parse returns the root node of the one document of data (nil for none).
func (d *scriptDecoder) parse(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil { // the YAML library must not take us down
			root, err = nil, &scenario.Error{File: d.file, Msg: fmt.Sprintf("invalid YAML: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, d.syntax(data, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, d.errf(&next, "", "a cluster script holds one YAML document, but a second one starts here")
	} else if !errors.Is(err, io.EOF) {
		return nil, d.syntax(data, err)
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) != 1 {
			return nil, nil
		}
		root = doc.Content[0]
	} else {
		root = &doc
	}
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, nil
	}
	return root, nil
}

// syntax turns a YAML library error ("yaml: line 3: ...") into an error
// naming the file and line.
func (d *scriptDecoder) syntax(data []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &scenario.Error{File: d.file}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				e.Line, msg = n, tail
			}
		}
	}
	e.Msg = "invalid YAML: " + msg
	if lines := bytes.Split(data, []byte("\n")); e.Line > 0 && e.Line <= len(lines) && bytes.HasPrefix(lines[e.Line-1], []byte("\t")) {
		e.Msg += " (YAML indents with spaces, not tabs)"
	}
	return e
}

// deref follows an alias, keeping the position of its use.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		c := *n.Alias
		c.Line, c.Column = n.Line, n.Column
		n = &c
	}
	return n
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "nothing"
		}
		v := n.Value
		if len(v) > 40 {
			v = strings.ToValidUTF8(v[:40], "") + "..."
		}
		return strconv.Quote(v)
	}
	return "an alias"
}

type scriptEntry struct {
	key  string
	k, v *yaml.Node
}

// mapping returns the pairs of a mapping in the order written.
func (d *scriptDecoder) mapping(n *yaml.Node, path, what string) ([]scriptEntry, error) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, path, "want a mapping, got %s", describeNode(n))
	}
	var out []scriptEntry
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
			return nil, d.errf(k, path, "a %s name must be a plain scalar, got %s", what, describeNode(k))
		}
		if line, dup := seen[k.Value]; dup {
			return nil, d.errf(k, path, "duplicate %s %q (first on line %d)", what, k.Value, line)
		}
		seen[k.Value] = k.Line
		out = append(out, scriptEntry{key: k.Value, k: k, v: deref(n.Content[i+1])})
	}
	return out, nil
}

// text reads a non-empty scalar.
func (d *scriptDecoder) text(n *yaml.Node, path, want string) (string, error) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		return "", d.errf(n, path, "want %s, got %s", want, describeNode(n))
	}
	if n.ShortTag() == "!!null" || strings.TrimSpace(n.Value) == "" {
		return "", d.errf(n, path, "missing value (want %s)", want)
	}
	return strings.TrimSpace(n.Value), nil
}

// integer reads an integer from lo to hi; what names it in messages.
func (d *scriptDecoder) integer(n *yaml.Node, path, what string, lo, hi int64) (int64, error) {
	v, err := d.text(n, path, "an integer")
	if err != nil {
		return 0, err
	}
	i, perr := strconv.ParseInt(v, 10, 64)
	if perr != nil || i < lo || i > hi {
		return 0, d.errf(n, path, "invalid %s %q (want an integer from %d to %d)", what, v, lo, hi)
	}
	return i, nil
}

func (d *scriptDecoder) duration(n *yaml.Node, path string) (time.Duration, error) {
	v, err := d.text(n, path, "a duration like 2s")
	if err != nil {
		return 0, err
	}
	dur, perr := algo.ParseDuration(v)
	if perr != nil {
		return 0, d.errf(n, path, "%v", perr)
	}
	return dur, nil
}

func (d *scriptDecoder) nodeID(n *yaml.Node, path string) (int, error) {
	v, err := d.text(n, path, "a node id")
	if err != nil {
		return 0, err
	}
	id, perr := algo.ParseNodeID(v)
	if perr != nil {
		return 0, d.errf(n, path, "%v", perr)
	}
	return int(id), nil
}

func (d *scriptDecoder) params(n *yaml.Node, path string, s *clusterScript) error {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil
	}
	entries, err := d.mapping(n, path, "parameter")
	if err != nil {
		return err
	}
	s.Params = map[string]string{}
	for _, e := range entries {
		v, err := d.text(e.v, path+"."+e.key, "a scalar value")
		if err != nil {
			return err
		}
		s.Params[e.key] = v
		s.ParamKeys = append(s.ParamKeys, e.key)
		s.set[path+"."+e.key] = yamlPos{e.v.Line, e.v.Column}
	}
	return nil
}

func (d *scriptDecoder) values(n *yaml.Node, path string) (sim.Values, error) {
	if n.Kind == yaml.ScalarNode {
		v, err := d.text(n, path, "id, random, or a mapping of node: value")
		if err != nil {
			return sim.Values{}, err
		}
		mode, perr := sim.ParseValueMode(v)
		if perr != nil {
			return sim.Values{}, d.errf(n, path, "%v", perr)
		}
		return sim.Values{Mode: mode}, nil
	}
	entries, err := d.mapping(n, path, "node")
	if err != nil {
		return sim.Values{}, err
	}
	out := sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{}}
	for _, e := range entries {
		id, err := d.nodeID(e.k, path)
		if err != nil {
			return sim.Values{}, err
		}
		if id >= maxClusterNodes {
			return sim.Values{}, d.errf(e.k, path, "node %d is out of range: a cluster has at most %d nodes", id, maxClusterNodes)
		}
		v, err := d.integer(e.v, fmt.Sprintf("%s.%d", path, id), "value", -1<<62, 1<<62)
		if err != nil {
			return sim.Values{}, err
		}
		out.Explicit[algo.NodeID(id)] = v
	}
	return out, nil
}

func (d *scriptDecoder) steps(n *yaml.Node, path string) ([]clusterStep, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, path, "want a list of steps, got %s", describeNode(n))
	}
	var out []clusterStep
	lastAt, lastLine := time.Duration(-1), 0
	for i, item := range n.Content {
		st, err := d.step(deref(item), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		if st.At >= 0 {
			if st.At < lastAt {
				return nil, d.errf(deref(item), st.Path+".at", "at %v is before the %v of the step on line %d: steps run in the order written", st.At, lastAt, lastLine)
			}
			lastAt, lastLine = st.At, st.Line
		}
		out = append(out, st)
	}
	return out, nil
}

func (d *scriptDecoder) step(n *yaml.Node, path string) (clusterStep, error) {
	st := clusterStep{Line: n.Line, Path: path, At: -1, Expect: clusterExpect{Leader: -1}}
	if n.Kind != yaml.MappingNode {
		return st, d.errf(n, path, "want a step, a mapping like {at: 2s, kill: 7}, got %s", describeNode(n))
	}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return st, err
	}
	var acts []scriptEntry
	for _, e := range entries {
		switch e.key {
		case "at":
			st.At, err = d.duration(e.v, path+".at")
		case "after":
			st.After, err = d.duration(e.v, path+".after")
		case "kill", "stop", "restart", "recover", "expect":
			acts = append(acts, e)
		default:
			err = d.errf(e.k, path, "unknown field %q (known: %s)", e.key, strings.Join(clusterStepFields, ", "))
		}
		if err != nil {
			return st, err
		}
	}
	if len(acts) != 1 {
		got := "none"
		if len(acts) > 1 {
			got = acts[0].key + ", " + acts[1].key
		}
		return st, d.errf(n, path, "a step needs exactly one action: kill, stop, restart, recover or expect (got %s)", got)
	}
	if st.At >= 0 && st.After > 0 {
		return st, d.errf(n, path, `give "at" or "after", not both`)
	}
	e := acts[0]
	st.Action = e.key
	apath := path + "." + e.key
	st.where = yamlPos{e.v.Line, e.v.Column}
	if e.key == "expect" {
		st.Expect, err = d.expect(e.v, apath)
		return st, err
	}
	switch {
	case e.v.Kind == yaml.ScalarNode && e.v.Value == "leader":
		st.Leader = true
	case e.v.Kind == yaml.SequenceNode:
		if len(e.v.Content) == 0 {
			return st, d.errf(e.v, apath, "an empty list names no node")
		}
		for i, item := range e.v.Content {
			id, err := d.nodeID(deref(item), fmt.Sprintf("%s[%d]", apath, i))
			if err != nil {
				return st, err
			}
			st.Nodes = append(st.Nodes, id)
		}
	default:
		id, err := d.nodeID(e.v, apath)
		if err != nil {
			return st, d.errf(e.v, apath, "want a node id, a list of ids or \"leader\", got %s", describeNode(e.v))
		}
		st.Nodes = []int{id}
	}
	return st, nil
}

func (d *scriptDecoder) expect(n *yaml.Node, path string) (clusterExpect, error) {
	x := clusterExpect{Leader: -1, Within: defaultWithin}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return x, d.errf(n, path, "want a mapping like {leader: 7, within: 3s}, got %s", describeNode(n))
	}
	for _, e := range entries {
		p := path + "." + e.key
		switch e.key {
		case "leader":
			x.Leader, err = d.nodeID(e.v, p)
		case "agree":
			if e.v.Kind != yaml.ScalarNode || e.v.ShortTag() != "!!bool" || e.v.Value != "true" {
				err = d.errf(e.v, p, "agree takes true, got %s", describeNode(e.v))
			}
			x.Agree = true
		case "within":
			x.Within, err = d.duration(e.v, p)
			if err == nil && x.Within <= 0 {
				err = d.errf(e.v, p, "want a positive duration")
			}
		case "elections":
			var es []scriptEntry
			if es, err = d.mapping(e.v, p, "node"); err != nil {
				break
			}
			for _, c := range es {
				id, err := d.nodeID(c.k, p)
				if err != nil {
					return x, err
				}
				cnt, err := d.integer(c.v, fmt.Sprintf("%s.%d", p, id), "election count", 0, 1<<62)
				if err != nil {
					return x, err
				}
				x.Elections = append(x.Elections, electionCount{id, uint64(cnt)})
			}
		default:
			err = d.errf(e.k, path, "unknown field %q (known: %s)", e.key, strings.Join(clusterExpFields, ", "))
		}
		if err != nil {
			return x, err
		}
	}
	if x.Leader < 0 && !x.Agree && len(x.Elections) == 0 {
		return x, d.errf(n, path, "expect what? give leader: ID, agree: true or elections: {NODE: COUNT}")
	}
	return x, nil
}
