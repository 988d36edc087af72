package cluster

import (
	"fmt"
	"math/rand/v2"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// ModelTopology is the network the model of the algorithm named needs
// (Model.Topology), when topo builds it: what a cluster of it runs on when
// no topology is given. It is "" for an algorithm that runs on any.
func ModelTopology(algorithm string) string {
	a, err := algo.Lookup(algorithm)
	if err != nil || a.Model.Topology == "" || a.Model.Topology == "complete" {
		return ""
	}
	if _, err := topo.Parse(a.Model.Topology, 3); err != nil {
		return ""
	}
	return a.Model.Topology
}

// Topology builds the graph of spec, a topo spec, and names it; nodes (0:
// not given) supplies N for specs without one (5 by default), and seed
// draws a random one.
func Topology(spec string, nodes int, seed uint64) (*topo.Graph, string, error) {
	var sp topo.Spec
	var err error
	if nodes > 0 {
		sp, err = topo.Parse(spec, nodes)
		if err != nil {
			// grid:WxH, layered:L and file:PATH carry their own size.
			if own, err2 := topo.Parse(spec, 0); err2 == nil {
				sp, err = own, nil
			}
		}
	} else {
		sp, err = topo.Parse(spec, 0)
		if err != nil {
			if dflt, err2 := topo.Parse(spec, 5); err2 == nil {
				sp, err = dflt, nil
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	if sp.N > MaxNodes {
		return nil, "", fmt.Errorf("topology %s has %d nodes: want at most %d (every node is a process)", sp.String(), sp.N, MaxNodes)
	}
	g, err := sp.Build(rand.New(rand.NewPCG(seed, 0x746f706f)), "") // "topo"
	if err != nil {
		return nil, "", err
	}
	return g, sp.String(), nil
}
