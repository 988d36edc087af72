package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

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
//	initiators: 0           # the nodes that start an election at boot (default: the algorithm's)
//	crash_on: {node: 2, message: gather}   # node 2 dies on its first gather
//	corrupt: 3              # node 3 alters every message it sends (a joker)
//	steps:
//	  - elect: 0            # POST /elect: the control process starts an election
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
	Hello     time.Duration
	HelloLoss int
	Values    *sim.Values
	Seed      *uint64
	Topology  string
	// Initiators is a node set ("0", "all", "0,3-5"); "" leaves the
	// algorithm's default.
	Initiators string
	// CrashOn maps a node to the message type it dies on; Corrupt lists
	// the jokers.
	CrashOn map[int]string
	Corrupt []int
	Steps   []clusterStep
	set     scenario.Positions // where each field was set
}

// clusterStep is one step of a script.
type clusterStep struct {
	Line   int
	Path   string        // "steps[3]"
	At     time.Duration // not before this long after the start (-1: not given)
	After  time.Duration // not before this long after the previous step ended
	Action string        // kill, stop, restart, recover, elect or expect
	Nodes  []int         // the nodes it acts on
	Leader bool          // act on the leader of the moment instead
	Expect clusterExpect
	where  scenario.Position // of the nodes field, for ids found out of range later
}

// clusterExpect is what an expect step waits for.
type clusterExpect struct {
	Leader    int  // every live node follows this node in Norm (-1: not asked)
	Agree     bool // every component follows its most valued live node
	Within    time.Duration
	Elections []electionCount // per node, its process's election counter
	// Failure, when Phase is set, is a failure the control process must
	// have been told of (Node -1: whichever node).
	Failure controlFailure
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
	if f := e.Failure; f.Phase != "" {
		if f.Node >= 0 {
			parts = append(parts, fmt.Sprintf("a failure in %s naming node %d", f.Phase, f.Node))
		} else {
			parts = append(parts, "a failure in "+f.Phase)
		}
	}
	return fmt.Sprintf("expect %s within %v", strings.Join(parts, ", "), e.Within)
}

var (
	clusterTopFields  = []string{"nodes", "algorithm", "params", "hello", "hello_loss", "values", "seed", "topology", "initiators", "crash_on", "corrupt", "steps"}
	clusterStepFields = []string{"at", "after", "kill", "stop", "restart", "recover", "elect", "expect"}
	clusterExpFields  = []string{"leader", "agree", "within", "elections", "failure"}
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
	d := scriptDecoder{scenario.Doc{File: file, What: "a cluster script"}}
	s := &clusterScript{File: file, set: scenario.Positions{}}
	root, err := d.Parse(data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, d.Errf(&yaml.Node{Line: 1}, "", "the script is empty (want at least steps: [...])")
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.Errf(root, "", "a cluster script must be a mapping of fields like \"nodes: 8\", got %s", scenario.Describe(root))
	}
	entries, err := d.Mapping(root, "", "field")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		s.set.Set(e.Key, e.V)
		switch e.Key {
		case "nodes":
			var v int64
			v, err = d.integer(e.V, e.Key, "node count", 1, maxClusterNodes)
			s.Nodes = int(v)
		case "algorithm":
			s.Algorithm, err = d.Name(e.V, e.Key, "an algorithm name")
		case "topology":
			s.Topology, err = d.Name(e.V, e.Key, "a topology spec")
		case "params":
			s.Params, err = d.Params(e.V, e.Key, s.set)
		case "hello":
			s.Hello, err = d.Duration(e.V, e.Key)
			if err == nil && s.Hello <= 0 {
				err = d.Errf(e.V, e.Key, "want a positive duration")
			}
		case "hello_loss":
			var v int64
			v, err = d.integer(e.V, e.Key, "number of beacon intervals", 1, 1000)
			s.HelloLoss = int(v)
		case "values":
			var v sim.Values
			v, err = d.values(e.V, e.Key)
			s.Values = &v
		case "seed":
			var txt string
			if txt, err = d.Name(e.V, e.Key, "an unsigned integer"); err == nil {
				seed, perr := strconv.ParseUint(txt, 10, 64)
				if perr != nil {
					err = d.Errf(e.V, e.Key, "invalid seed %q (want an unsigned decimal integer)", txt)
				}
				s.Seed = &seed
			}
		case "initiators":
			s.Initiators, err = d.NodeSet(e.V, e.Key)
		case "crash_on":
			s.CrashOn, err = d.crashOn(e.V, e.Key)
		case "corrupt":
			s.Corrupt, err = d.nodeList(e.V, e.Key)
		case "steps":
			s.Steps, err = d.steps(e.V, e.Key)
		default:
			err = d.Unknown(e, "", clusterTopFields)
		}
		if err != nil {
			return nil, err
		}
	}
	if _, ok := s.set["steps"]; !ok {
		return nil, d.Errf(root, "", `missing "steps" (a list of steps like {at: 2s, kill: 7})`)
	}
	return s, nil
}

// checkNodes checks the node ids of the faults and of every step against
// the cluster's size.
func (s *clusterScript) checkNodes(n int) error {
	for id := range s.CrashOn {
		if id >= n {
			return s.blame(fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1), "crash_on")
		}
	}
	for _, id := range s.Corrupt {
		if id >= n {
			return s.blame(fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1), "corrupt")
		}
	}
	bad := func(st clusterStep, path string, id int) error {
		return &scenario.Error{File: s.File, Line: st.where.Line, Column: st.where.Column, Path: path,
			Msg: fmt.Sprintf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)}
	}
	for _, st := range s.Steps {
		for _, id := range st.Nodes {
			if id >= n {
				return bad(st, st.Path+"."+st.Action, id)
			}
		}
		if st.Expect.Failure.Node >= n {
			return bad(st, st.Path+".expect.failure.node", st.Expect.Failure.Node)
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
	return s.set.Blame(s.File, err, field)
}

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
		if id >= maxClusterNodes {
			return sim.Values{}, d.Errf(scenario.Resolve(n), path, "node %d is out of range: a cluster has at most %d nodes", id, maxClusterNodes)
		}
	}
	return v, nil
}

func (d *scriptDecoder) steps(n *yaml.Node, path string) ([]clusterStep, error) {
	if scenario.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errf(n, path, "want a list of steps, got %s", scenario.Describe(n))
	}
	var out []clusterStep
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

func (d *scriptDecoder) step(n *yaml.Node, path string) (clusterStep, error) {
	st := clusterStep{Line: n.Line, Path: path, At: -1, Expect: clusterExpect{Leader: -1, Failure: controlFailure{Node: -1}}}
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
		case "kill", "stop", "restart", "recover", "elect", "expect":
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
		return st, d.Errf(n, path, "a step needs exactly one action: kill, stop, restart, recover, elect or expect (got %s)", got)
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
	switch {
	case e.V.Kind == yaml.ScalarNode && e.V.Value == "leader":
		st.Leader = true
	case e.V.Kind == yaml.SequenceNode:
		if len(e.V.Content) == 0 {
			return st, d.Errf(e.V, apath, "an empty list names no node")
		}
		for i, item := range e.V.Content {
			id, err := d.nodeID(scenario.Resolve(item), fmt.Sprintf("%s[%d]", apath, i))
			if err != nil {
				return st, err
			}
			st.Nodes = append(st.Nodes, id)
		}
	default:
		id, err := d.nodeID(e.V, apath)
		if err != nil {
			return st, d.Errf(e.V, apath, "want a node id, a list of ids or \"leader\", got %s", scenario.Describe(e.V))
		}
		st.Nodes = []int{id}
	}
	return st, nil
}

func (d *scriptDecoder) expect(n *yaml.Node, path string) (clusterExpect, error) {
	x := clusterExpect{Leader: -1, Within: defaultWithin, Failure: controlFailure{Node: -1}}
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
				x.Elections = append(x.Elections, electionCount{id, uint64(cnt)})
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
func (d *scriptDecoder) failure(n *yaml.Node, path string) (controlFailure, error) {
	f := controlFailure{Node: -1}
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
