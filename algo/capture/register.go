package capture

import "github.com/electgo/elect/algo"

// model: a static, reliable complete network; elections only where
// candidates (the driver's initiators, every node by default) start them.
func model(synchronous bool) algo.Model {
	return algo.Model{Spontaneous: false, Synchronous: synchronous, Asynchronous: !synchronous, Topology: "complete", Initiators: "all", ElectsInitiator: true}
}

var (
	candidatesParam = algo.Param{Name: "candidates", Default: "all", Doc: "deprecated: the candidates N0 (all, none, or a set like 0,4,7-9); use --initiators", Check: algo.CheckNodeSet, Initiators: true}
	orderParam      = algo.Param{Name: "order", Default: "rotate", Doc: "the order in which a candidate tries its neighbours: rotate (the ids above its own, wrapping around) or random", Check: checkOrder}
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:         "all-to-all",
		Summary:      "synchronous election on a complete network: every candidate sends its identity to all at pulse 0, every node decides at pulse 1",
		Source:       source,
		Messages:     AllToAllMessages,
		Params:       []algo.Param{candidatesParam},
		Model:        model(true),
		MessageBound: allToAllBound,
		Build: func(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
			c, err := readConfig(p, n)
			if err != nil {
				return nil, err
			}
			return c.newAllToAll, nil
		},
	})
	algo.Register(&algo.Algorithm{
		Name:         "capture-sync",
		Summary:      "S_Elect_Leader_C: candidates capture 1, 2, 4, ... nodes every other pulse and give up at the first failure; the winner announces itself",
		Source:       source,
		Messages:     SyncMessages,
		Params:       []algo.Param{candidatesParam, orderParam},
		Model:        model(true),
		MessageBound: syncBound,
		Build: func(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
			c, err := readConfig(p, n)
			if err != nil {
				return nil, err
			}
			return c.newSync, nil
		},
	})
	algo.Register(&algo.Algorithm{
		Name:         "capture-async",
		Summary:      "A_Elect_Leader_C: asynchronous capture by levels with check/eliminate; the winner announces the most valued candidate",
		Source:       source,
		Messages:     AsyncMessages,
		Params:       []algo.Param{candidatesParam, orderParam},
		Model:        model(false),
		MessageBound: asyncBound,
		Build: func(p algo.Params, n int) (func(algo.NodeID) algo.Machine, error) {
			c, err := readConfig(p, n)
			if err != nil {
				return nil, err
			}
			return c.newAsync, nil
		},
	})
}
