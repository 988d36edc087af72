package cluster

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/sim"
)

// Overrides are a cluster's settings given apart from a script, as a
// command's flags give them: each one given (a pointer set, a list or a
// string not empty) wins over the script's. FromScript merges them.
type Overrides struct {
	// Algorithm, Nodes, Topology, Seed, Hello, HelloLoss, Initiators and
	// Corrupt, when set, win over the script's (nil: the script's, or the
	// default: node.DefaultAlgorithm, the topology's own size or 5,
	// complete or the network the algorithm's model needs, seed 1,
	// node.DefaultHello, node.DefaultHelloLoss, the algorithm's initiators,
	// no joker).
	Algorithm  *string
	Nodes      *int
	Topology   *string
	Seed       *uint64
	Hello      *time.Duration
	HelloLoss  *int
	Initiators *string
	Corrupt    *string // a node set, like 3 or 1,4-5
	// Values are the nodes' values: id, random (drawn with the seed), or
	// V0,V1,... one per node (nil: the script's, or id).
	Values *string
	// Params are the algorithm's parameters, added to the script's.
	Params map[string]string
	// CrashOn, NODE=TYPE items, wins over the script's crash_on when not
	// nil.
	CrashOn []string
	// Faults are injected into what every node sends, as
	// runtime.ParseFaults reads them.
	Faults string
	// Elect, with no script, makes the control process's script: start an
	// election at this node (a node id), or none (the initiators start
	// it), then wait Within for every live node to follow the most valued
	// one.
	Elect  string
	Within time.Duration
	// KeyFile ("": none) is made absolute and must exist; LogLevel,
	// BasePort, Dir, Keep, Poll and Trace are Config's.
	KeyFile  string
	LogLevel string
	BasePort int
	Dir      string
	Keep     bool
	Poll     time.Duration
	Trace    string
	// Name names a field of Overrides (Nodes, Topology, ...), or Script
	// for the script, in errors and notes as its caller calls it (nil: by
	// the field's own name).
	Name func(field string) string
	// Note, when set, hears FromScript's notes, such as the network it
	// picked for the algorithm.
	Note func(text string)
}

// name is what o's caller calls field.
func (o *Overrides) name(field string) string {
	if o.Name == nil {
		return field
	}
	return o.Name(field)
}

// FieldError says which field of Overrides is at fault (Field), in a
// message that names it as Overrides.Name does.
type FieldError struct {
	Field string // the field of Overrides: Nodes, Topology, Values...
	Err   error  // what is wrong, naming the field
}

// Error says what is wrong, naming the field.
func (e *FieldError) Error() string { return e.Err.Error() }

// Unwrap returns what is wrong.
func (e *FieldError) Unwrap() error { return e.Err }

// bad is a *FieldError of field: format's arguments follow the field's
// name.
func (o *Overrides) bad(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, append([]any{o.name(field)}, args...)...)}
}

// Merged is a cluster merged from a script and Overrides: its Config, the
// script to run, and where each setting came from, to name the override
// or the script's line that cluster.New finds wrong.
type Merged struct {
	Config
	// Script is what the control process runs: the script given, the
	// one Overrides.Elect makes, or nil.
	Script *Script
	// script is the script given; fromScript maps a field of Config to
	// the script's field that set it.
	script     *Script
	fromScript map[string]string
	over       Overrides
}

// FromScript merges script (nil: none) and over, over winning, into a
// cluster's configuration, checking what only they can say: its error
// names the field of over (a *FieldError) or the script's line at fault.
func FromScript(script *Script, over Overrides) (*Merged, error) {
	s, o := script, &over
	m := &Merged{script: s, over: over, fromScript: map[string]string{}}
	cfg := &m.Config
	cfg.Algorithm, cfg.Hello, cfg.HelloLoss = node.DefaultAlgorithm, node.DefaultHello, node.DefaultHelloLoss
	cfg.Params = map[string]string{}
	cfg.LogLevel, cfg.BasePort, cfg.Dir, cfg.Keep, cfg.Poll, cfg.Trace = over.LogLevel, over.BasePort, over.Dir, over.Keep, over.Poll, over.Trace
	switch {
	case over.Algorithm != nil:
		cfg.Algorithm = *over.Algorithm
	case s != nil && s.Algorithm != "":
		cfg.Algorithm = s.Algorithm
		m.fromScript["Algorithm"] = "algorithm"
	}
	switch {
	case over.Hello != nil:
		cfg.Hello = *over.Hello
	case s != nil && s.Hello > 0:
		cfg.Hello = s.Hello
	}
	switch {
	case over.HelloLoss != nil:
		cfg.HelloLoss = *over.HelloLoss
	case s != nil && s.HelloLoss > 0:
		cfg.HelloLoss = s.HelloLoss
	}
	if s != nil {
		maps.Copy(cfg.Params, s.Params)
	}
	maps.Copy(cfg.Params, over.Params)
	if cfg.Hello <= 0 {
		return nil, o.bad("Hello", "%s %v: want a positive duration", cfg.Hello)
	}
	if cfg.HelloLoss < 1 {
		return nil, o.bad("HelloLoss", "%s %d: want at least 1", cfg.HelloLoss)
	}
	if over.Nodes != nil && (*over.Nodes < 1 || *over.Nodes > MaxNodes) {
		return nil, o.bad("Nodes", "%s %d: want 1 to %d (every node is a process)", *over.Nodes, MaxNodes)
	}
	seed := uint64(1)
	switch {
	case over.Seed != nil:
		seed = *over.Seed
	case s != nil && s.Seed != nil:
		seed = *s.Seed
	}
	if err := m.network(seed); err != nil {
		return nil, err
	}
	cfg.Seed = seed

	rng := rand.New(rand.NewPCG(seed, 0x76616c756573)) // "values"
	var err error
	if s != nil && s.Values != nil && over.Values == nil {
		if cfg.Values, err = s.Values.Resolve(cfg.Nodes, rng); err != nil {
			return nil, s.Blame(err, "values")
		}
	} else {
		values := "id"
		if over.Values != nil {
			values = *over.Values
		}
		if cfg.Values, err = o.values(values, cfg.Nodes, rng); err != nil {
			return nil, err
		}
	}
	if s != nil {
		if err := s.CheckNodes(cfg.Nodes); err != nil {
			return nil, err
		}
	}
	if cfg.Faults, err = runtime.ParseFaults(over.Faults); err != nil {
		return nil, o.bad("Faults", "%s: %w", err)
	}
	if err := m.faultsAndInitiators(); err != nil {
		return nil, err
	}
	if over.KeyFile != "" {
		abs, err := filepath.Abs(over.KeyFile)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return nil, o.bad("KeyFile", "%s: %w", err)
		}
		cfg.KeyFile = abs
	}
	return m, nil
}

// network builds the cluster's graph: its size comes from Nodes, the
// script, the topology spec, or the default 5, in that order.
func (m *Merged) network(seed uint64) error {
	s, o, cfg := m.script, &m.over, &m.Config
	nodes, nodesFrom, scriptNodes := 0, "", false
	switch {
	case o.Nodes != nil:
		nodes, nodesFrom = *o.Nodes, o.name("Nodes")
	case s != nil && s.Nodes > 0:
		nodes, nodesFrom, scriptNodes = s.Nodes, "nodes", true
	}
	spec, picked := "complete", false
	if o.Topology != nil {
		spec = *o.Topology
	}
	if s != nil && s.Topology != "" && o.Topology == nil {
		spec = s.Topology
	} else if md := ModelTopology(cfg.Algorithm); o.Topology == nil && md != "" && md != spec {
		// The default, complete, is not what a ring algorithm runs on:
		// take the family its model needs.
		spec, picked = md, true
	}
	g, name, err := Topology(spec, nodes, seed)
	if err != nil {
		if s != nil && o.Topology == nil {
			return s.Blame(err, "topology")
		}
		return o.bad("Topology", "%s: %w", err)
	}
	if g.N() < 1 || g.N() > MaxNodes {
		err := fmt.Errorf("%d nodes: want 1 to %d (every node is a process)", g.N(), MaxNodes)
		if scriptNodes {
			return s.Blame(err, "nodes")
		}
		return o.bad("Topology", "%s %s: %w", spec, err)
	}
	if nodes > 0 && g.N() != nodes {
		err := fmt.Errorf("topology %s has %d nodes, but %s says %d", name, g.N(), nodesFrom, nodes)
		if scriptNodes {
			return s.Blame(err, "nodes")
		}
		return &FieldError{Field: "Nodes", Err: err}
	}
	cfg.Nodes, cfg.Graph, cfg.Topology = g.N(), g, name
	if picked && o.Note != nil {
		o.Note(fmt.Sprintf("%s needs a %s network (Model.Topology): the cluster is %s (%s chooses another)", cfg.Algorithm, spec, name, o.name("Topology")))
	}
	return nil
}

// values reads Overrides.Values: id, random, or one value per node.
func (o *Overrides) values(s string, n int, rng *rand.Rand) ([]int64, error) {
	if mode, err := sim.ParseValueMode(s); err == nil {
		return sim.Values{Mode: mode}.Resolve(n, rng)
	}
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, o.bad("Values", "%s %q: want id, random, or %d comma-separated integers (one per node), got %d", s, n, len(parts))
	}
	out := make([]int64, n)
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, o.bad("Values", "%s: value %d of node %d is not an integer", i, i)
		}
		out[i] = v
	}
	return out, nil
}

// faultsAndInitiators merges the initiators and the injected faults,
// overrides over the script (New checks them), and makes Elect the
// control process's script.
func (m *Merged) faultsAndInitiators() error {
	s, o, cfg := m.script, &m.over, &m.Config
	n := cfg.Nodes
	switch {
	case o.Initiators != nil:
		cfg.Initiators = *o.Initiators
	case s != nil && s.Initiators != "":
		cfg.Initiators = s.Initiators
		m.fromScript["Initiators"] = "initiators"
	case o.Elect != "" && o.Elect != "none":
		cfg.ControlElects = true // the control process starts the election
	}

	cfg.CrashOn = map[int]string{}
	if o.CrashOn != nil {
		for _, item := range o.CrashOn {
			idText, msg, ok := strings.Cut(item, "=")
			id, err := strconv.Atoi(strings.TrimSpace(idText))
			if !ok || err != nil || id < 0 || strings.TrimSpace(msg) == "" {
				return o.bad("CrashOn", "%s %q: want NODE=TYPE, e.g. 2=gather", item)
			}
			if id >= n {
				return o.bad("CrashOn", "%s %q: node %d is out of range: the cluster has nodes 0..%d", item, id, n-1)
			}
			cfg.CrashOn[id] = strings.TrimSpace(msg)
		}
	} else if s != nil {
		maps.Copy(cfg.CrashOn, s.CrashOn)
		m.fromScript["CrashOn"] = "crash_on"
	}

	switch {
	case o.Corrupt != nil:
		jokers, all, err := algo.ParseNodeSet(*o.Corrupt)
		if err != nil || all {
			return o.bad("Corrupt", "%s %q: want a node set like 3 or 1,4-5", *o.Corrupt)
		}
		for _, id := range jokers {
			cfg.Corrupt = append(cfg.Corrupt, int(id))
		}
	case s != nil:
		cfg.Corrupt = s.Corrupt
	}

	m.Script = s
	if o.Elect != "" {
		if s != nil {
			return &FieldError{Field: "Elect", Err: errors.New(o.name("Elect") + " and " + o.name("Script") +
				": give one (a script starts elections with its elect steps)")}
		}
		if o.Within <= 0 {
			return o.bad("Within", "%s %v: want a positive duration", o.Within)
		}
		// The control process's run is a script of two steps, or of the
		// wait alone when the initiators start the election (none).
		var steps []Step
		if o.Elect != "none" {
			id, err := strconv.Atoi(o.Elect)
			if err != nil || id < 0 || id >= n {
				return o.bad("Elect", "%s %q: want a node id from 0 to %d, or none", o.Elect, n-1)
			}
			steps = append(steps, Step{Path: o.name("Elect"), At: -1, Action: "elect", Nodes: []int{id}})
		}
		steps = append(steps, Step{Path: o.name("Within"), At: -1, Action: "expect", Expect: ExpectAgreement(o.Within)})
		m.Script = &Script{File: o.name("Elect"), Steps: steps}
	}
	return nil
}

// Blame names the override or the script's line that set what err, a
// *ConfigError of m's Config, finds wrong; other errors are returned as
// they are.
func (m *Merged) Blame(err error) error {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	if field, ok := m.fromScript[ce.Field]; ok {
		return m.script.Blame(ce.Err, field)
	}
	o := &m.over
	switch ce.Field {
	case "Initiators":
		set := m.Initiators
		if set == "" && m.ControlElects {
			set = "none"
		}
		return &FieldError{Field: ce.Field, Err: fmt.Errorf("%s %q: %w", o.name("Initiators"), set, ce.Err)}
	case "CrashOn", "Corrupt", "Dir", "Trace":
		return o.bad(ce.Field, "%s: %w", ce.Err)
	case "Hello", "HelloLoss", "LogLevel", "BasePort":
		return o.bad(ce.Field, "%s %w", ce.Err)
	}
	return ce.Err
}

// New lays the cluster out (New), its errors naming the override or the
// script's line at fault (Blame).
func (m *Merged) New() (*Cluster, error) {
	c, err := New(m.Config)
	return c, m.Blame(err)
}
