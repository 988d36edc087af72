package echo

import (
	"fmt"

	"github.com/electgo/elect/algo"
)

const source = "002_4d397ad5cbfdc025.txt"

// The wave algorithms assume a static, reliable network and elect only where
// an initiator starts a wave: node 0 for echo, every node for extinction,
// unless the run names its own initiators.
var (
	echoModel       = algo.Model{Spontaneous: false, Asynchronous: true}
	extinctionModel = algo.Model{Spontaneous: false, Initiators: "all", Asynchronous: true}
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "echo",
		Summary:  "echo wave from one initiator: explorer out, echo back with the most valued node, info down the tree",
		Source:   source,
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "initiator", Default: "0", Doc: "deprecated: the node that starts the wave; use --initiators", Check: algo.CheckNodeID, Initiators: true},
			{Name: "tree", Default: "graph", Doc: "graph: the wave runs over every edge; virtual: over the virtual tree built at start-up", Check: checkTree},
			{Name: "root", Default: "", Doc: "root of the virtual tree (default: node 0)", Check: checkOptionalNodeID},
			{Name: "wave_at", Default: "1s", Doc: "with tree=virtual, the earliest time an initiator starts its wave: after the tree has settled", Check: algo.CheckDuration},
			{Name: "max_level", Default: "1024", Doc: "with tree=virtual, deepest level before a node counts the root unreachable", Check: checkPositiveInt},
		},
		Model:        echoModel,
		Build:        buildEcho,
		MessageBound: waveBound,
	})
	algo.Register(&algo.Algorithm{
		Name:     "extinction",
		Summary:  "echo with extinction (adoption): any number of initiators, the highest initiator's wave wins",
		Source:   source,
		Messages: MessageNames[:3],
		Params: []algo.Param{
			{Name: "initiators", Default: "all", Doc: "deprecated: the nodes that start a wave at boot (all, none, or a set like 0,4,7-9); use --initiators", Check: algo.CheckNodeSet, Initiators: true},
		},
		Model:        extinctionModel,
		Build:        buildExtinction,
		MessageBound: waveBound,
	})
}

func checkTree(s string) error {
	if s != "graph" && s != "virtual" {
		return fmt.Errorf("%q is neither graph nor virtual", s)
	}
	return nil
}

func checkOptionalNodeID(s string) error {
	if s == "" {
		return nil
	}
	return algo.CheckNodeID(s)
}

func checkPositiveInt(s string) error {
	var v int
	if _, err := fmt.Sscanf(s, "%d", &v); err != nil || v <= 0 || fmt.Sprint(v) != s {
		return fmt.Errorf("%q is not a positive integer", s)
	}
	return nil
}

// inNetwork checks that a node named by a parameter exists.
func inNetwork(param string, id algo.NodeID, n int) error {
	if int(id) >= n {
		return fmt.Errorf("%s %d does not exist (the network has nodes 0..%d)", param, id, n-1)
	}
	return nil
}

// buildEcho: the initiators are the driver's (Elect); the parameter
// initiator is its deprecated alias, which the machine does not read.
func buildEcho(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
	var err error
	cfg := &waveConfig{tree: p["tree"] == "virtual"}
	if p["root"] != "" {
		if cfg.root, err = algo.ParseNodeID(p["root"]); err != nil {
			return nil, err
		}
		if err := inNetwork("root", cfg.root, n); err != nil {
			return nil, err
		}
	}
	if cfg.waveAt, err = p.Duration("wave_at"); err != nil {
		return nil, err
	}
	maxLevel, err := p.Int("max_level")
	if err != nil {
		return nil, err
	}
	cfg.maxLevel = int32(maxLevel)
	return cfg.newWave, nil
}

// buildExtinction: the initiators are the driver's (Elect), every node by
// default; the parameter initiators is their deprecated alias.
func buildExtinction(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
	return (&waveConfig{}).newWave, nil
}
