package node

import (
	"maps"
	"slices"
	"strconv"

	"github.com/electgo/elect/algo"
)

// initiatorParams returns the parameters that node id of a, a spontaneous
// algorithm, runs with when it is started as an initiator
// (Config.Initiator). Such a node starts its election at boot itself, in
// Start, as its document has it; the node asks no second one (Elect).
// Where a reads who does in a boot parameter (algo.Param.Boot, vkt's and
// park's initiators, every node by default), an initiator is put in that
// set: raw with id added to a set that leaves it out, raw itself when the
// set holds it already (or cannot be read: Instantiate says why). added
// reports whether it was, boot names the parameter: empty for an algorithm
// without one, whose every node elects at boot.
func initiatorParams(a *algo.Algorithm, id algo.NodeID, raw map[string]string) (params map[string]string, added bool, boot string) {
	i := slices.IndexFunc(a.Params, func(p algo.Param) bool { return p.Boot })
	if i < 0 {
		return raw, false, ""
	}
	name := a.Params[i].Name
	set, given := raw[name]
	if !given {
		set = a.Params[i].Default
	}
	ids, all, err := algo.ParseNodeSet(set)
	if _, in := slices.BinarySearch(ids, id); err != nil || all || in {
		return raw, false, name
	}
	params = maps.Clone(raw)
	if params == nil {
		params = map[string]string{}
	}
	params[name] = strconv.Itoa(int(id))
	if len(ids) > 0 {
		params[name] = set + "," + params[name]
	}
	return params, true, name
}
