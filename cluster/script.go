package cluster

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

// Script is a cluster script, the YAML file of elect cluster --script
// (scenarios/cluster-scripts/): settings of the cluster (each overridden by
// its flag) and a list of steps, run in the order written (Cluster.Run). Its errors are *scenario.Error, FILE:LINE:COLUMN: FIELD: MSG,
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
//	  # gray failures, as elect sim's scenarios have them (POST /gray):
//	  - {at: 8s, cut: {from: 4, to: 0}}    # 0 no longer hears 4 (4 still hears 0); uncut ends it
//	  - {at: 9s, clock: {node: 5, rate: 0.8}}          # 5's clock runs 20% slow; jump: -1h jumps it
//	  - {at: 9s, slow: {node: 6, by: 200ms, for: 10s}}  # 6 handles each input 200 ms late, for 10 s
//	  # a value change, as elect sim's scenarios have it (POST /value):
//	  - {at: 12s, value: {node: leader, to: 1}}        # the leader's value falls to 1: another takes over
//
// A gray step's node is an id, a list or "leader"; a node not running
// keeps its gray failures for its next life (a restart, a recovery), as a
// machine's hardware would, and a value step's node starts its next life
// with the value set.
type Script struct {
	File string // its name, in errors and step lines
	// The settings, as Config's fields (0, "" or nil: not given).
	Nodes     int
	Algorithm string
	Params    map[string]string
	Hello     time.Duration
	HelloLoss int
	Values    *sim.Values // id, random, or node: value
	Seed      *uint64
	Topology  string
	// Initiators is a node set ("0", "all", "0,3-5"); "" leaves the
	// algorithm's default.
	Initiators string
	// CrashOn maps a node to the message type it dies on; Corrupt lists
	// the jokers.
	CrashOn map[int]string
	Corrupt []int
	Steps   []Step             // run in the order written
	set     scenario.Positions // where each field was set
}

// Step is one step of a script: an action on nodes (see Cluster.Act), a
// gray failure (cut, uncut, clock, slow: see Cluster.Cut, Clock, Slow), a
// value change (value: see Cluster.SetValue), or an expectation to wait
// for.
type Step struct {
	Line    int               // in the script's file (0: not from a file)
	Path    string            // "steps[3]"
	At      time.Duration     // not before this long after the start (-1: not given)
	After   time.Duration     // not before this long after the previous step ended
	Action  string            // kill, stop, restart, recover, elect, expect; cut, uncut, clock or slow; value
	Nodes   []int             // the nodes it acts on
	Leader  bool              // act on the leader of the moment instead
	Expect  Expect            // what an expect step waits for
	Gray    GrayFault         // what a gray step (cut, uncut, clock, slow) does
	Value   int64             // the value a value step sets
	where   scenario.Position // of the nodes field (a cut's from), for ids found out of range later
	whereTo scenario.Position // of a cut's to
}

// Expect is what an expect step waits for (Cluster.Wait): every part
// given holds at the end of one poll round. Its zero value asks node 0 to
// lead: start from ExpectLeader or ExpectAgreement, which ask nothing else.
type Expect struct {
	Leader    int             // every live node follows this node in Norm (-1: not asked)
	Agree     bool            // every component follows its most valued live node
	Within    time.Duration   // how long to wait (0: DefaultWithin)
	Elections []ElectionCount // per node, its process's election counter
	// Failure, when Phase is set, is a failure the control process must
	// have been told of (Node -1: whichever node).
	Failure Failure
}

// ElectionCount is how many elections a node's process took part in
// since it started (its counter Elections).
type ElectionCount struct {
	Node  int    // the node
	Count uint64 // its elections, exactly
}

// ExpectLeader expects every live node to follow node id in Norm, within
// that time.
func ExpectLeader(id int, within time.Duration) Expect {
	x := noExpect(within)
	x.Leader = id
	return x
}

// ExpectAgreement expects every component of the live nodes to follow its
// most valued node, within that time: --elect's wait.
func ExpectAgreement(within time.Duration) Expect {
	x := noExpect(within)
	x.Agree = true
	return x
}

// noExpect asks nothing yet.
func noExpect(within time.Duration) Expect {
	return Expect{Leader: -1, Within: within, Failure: Failure{Node: -1}}
}

// DefaultWithin is how long an expect step waits by default.
const DefaultWithin = 3 * time.Second

// describe renders a step like a keyboard command.
func (s Step) describe() string {
	if s.Action == "expect" {
		return s.Expect.describe()
	}
	ids := make([]string, len(s.Nodes))
	for i, id := range s.Nodes {
		ids[i] = strconv.Itoa(id)
	}
	nodes := strings.Join(ids, " ")
	if s.Leader {
		nodes = "leader"
	}
	if isGray(s.Action) {
		return s.describeGray(nodes)
	}
	if s.Action == "value" {
		return "value " + nodes + " " + strconv.FormatInt(s.Value, 10)
	}
	return s.Action + " " + nodes
}

func (e Expect) describe() string {
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
	clusterStepFields = []string{"at", "after", "kill", "stop", "restart", "recover", "elect", "expect", "cut", "uncut", "clock", "slow", "value"}
	clusterExpFields  = []string{"leader", "agree", "within", "elections", "failure"}
)

// LoadScript reads and parses a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseScript(path, data)
}

// ParseScript parses the text of a script named file.
func ParseScript(file string, data []byte) (*Script, error) {
	d := scriptDecoder{scenario.Doc{File: file, What: "a cluster script"}}
	s := &Script{File: file, set: scenario.Positions{}}
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
			v, err = d.integer(e.V, e.Key, "node count", 1, MaxNodes)
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

// CheckNodes checks the node ids of the faults and of every step against
// the cluster's size.
func (s *Script) CheckNodes(n int) error {
	for id := range s.CrashOn {
		if id >= n {
			return s.Blame(fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1), "crash_on")
		}
	}
	for _, id := range s.Corrupt {
		if id >= n {
			return s.Blame(fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1), "corrupt")
		}
	}
	bad := func(st Step, path string, id int) error {
		return &scenario.Error{File: s.File, Line: st.where.Line, Column: st.where.Column, Path: path,
			Msg: fmt.Sprintf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)}
	}
	for _, st := range s.Steps {
		path := st.Path + "." + st.Action
		if st.Action == "clock" || st.Action == "slow" || st.Action == "value" {
			path += ".node"
		}
		for _, id := range st.Nodes {
			if id >= n {
				return bad(st, path, id)
			}
		}
		if st.Action == "cut" || st.Action == "uncut" {
			if st.Gray.From >= n {
				return bad(st, path+".from", st.Gray.From)
			}
			if st.Gray.To >= n {
				st.where = st.whereTo
				return bad(st, path+".to", st.Gray.To)
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

// Blame attributes err to the field of the script that set it, when the
// script set it: FILE:LINE:COLUMN: FIELD: MSG.
func (s *Script) Blame(err error, field string) error {
	if s == nil {
		return err
	}
	return s.set.Blame(s.File, err, field)
}

// Sets reports whether the script sets field (algorithm, nodes, ...).
func (s *Script) Sets(field string) bool {
	if s == nil {
		return false
	}
	_, ok := s.set[field]
	return ok
}
