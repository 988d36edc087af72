package echo

import (
	"fmt"

	"github.com/electgo/elect/algo"
)

const source = "002_4d397ad5cbfdc025.txt"

// waveModel: the wave algorithms assume a static, reliable network and elect
// only where an initiator starts a wave.
var waveModel = algo.Model{Spontaneous: false}

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "echo",
		Summary:  "echo wave from one initiator: explorer out, echo back with the most valued node, info down the tree",
		Source:   source,
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "initiator", Default: "0", Doc: "the node that starts the wave", Check: algo.CheckNodeID},
			{Name: "tree", Default: "graph", Doc: "graph: the wave runs over every edge; virtual: over the virtual tree built at start-up", Check: checkTree},
			{Name: "root", Default: "", Doc: "root of the virtual tree (default: the initiator)", Check: checkOptionalNodeID},
			{Name: "wave_at", Default: "1s", Doc: "with tree=virtual, when the initiator starts the wave: after the tree has settled", Check: algo.CheckDuration},
			{Name: "max_level", Default: "1024", Doc: "with tree=virtual, deepest level before a node counts the root unreachable", Check: checkPositiveInt},
		},
		Model: waveModel,
		Build: buildEcho,
	})
	algo.Register(&algo.Algorithm{
		Name:     "extinction",
		Summary:  "echo with extinction (adoption): any number of initiators, the highest initiator's wave wins",
		Source:   source,
		Messages: MessageNames[:3],
		Params: []algo.Param{
			{Name: "initiators", Default: "all", Doc: "the nodes that start a wave at boot: all, none, or a set like 0,4,7-9", Check: algo.CheckNodeSet},
		},
		Model: waveModel,
		Build: buildExtinction,
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

func buildEcho(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
	initiator, err := algo.ParseNodeID(p["initiator"])
	if err != nil {
		return nil, err
	}
	if err := inNetwork("initiator", initiator, n); err != nil {
		return nil, err
	}
	cfg := &waveConfig{initiators: map[algo.NodeID]bool{initiator: true}, tree: p["tree"] == "virtual", root: initiator}
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

func buildExtinction(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
	ids, all, err := algo.ParseNodeSet(p["initiators"])
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if err := inNetwork("initiator", id, n); err != nil {
			return nil, err
		}
	}
	cfg := &waveConfig{}
	if !all {
		cfg.initiators = make(map[algo.NodeID]bool, len(ids))
		for _, id := range ids {
			cfg.initiators[id] = true
		}
	}
	return cfg.newWave, nil
}
