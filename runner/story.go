package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/sim"
)

// struck are the nodes the run crashed at time at (a scenario's "crash:
// leader" names no node: the run decides which).
func struck(crashes []sim.CrashAt, at time.Duration) []algo.NodeID {
	var out []algo.NodeID
	for _, c := range crashes {
		if c.At == at && !slices.Contains(out, c.Node) {
			out = append(out, c.Node)
		}
	}
	slices.Sort(out)
	return out
}

// faults says in words what each event of the scenario did, in time order.
func faults(events []sim.Action, crashes []sim.CrashAt) []metrics.Moment {
	var out []metrics.Moment
	for _, a := range events {
		var what string
		switch a.Kind {
		case sim.Crash:
			hit := struck(crashes, a.At)
			switch {
			case len(hit) == 0:
				what = "a crash finds no live node to stop"
				if a.Leader {
					what = "a crash of the leader finds none"
				}
			case a.Leader && len(a.Nodes) == 0:
				what = fmt.Sprintf("the leader, node %d, crashes", hit[0])
			default:
				what = nodes(hit) + " " + verb(hit, "crashes", "crash")
			}
		case sim.Restart:
			what = nodes(a.Nodes) + " " + verb(a.Nodes, "restarts", "restart") + " with no state"
		case sim.Recover:
			what = nodes(a.Nodes) + " " + verb(a.Nodes, "recovers", "recover") + " its state"
		case sim.Partition:
			var names []string
			for _, g := range a.Groups {
				names = append(names, g.Name)
			}
			what = "the network splits (" + strings.Join(names, ", ") + ", and the rest)"
			if len(a.Groups) > 1 {
				what = "the network splits into " + strings.Join(names, ", ")
			}
		case sim.Heal:
			what = "the partition heals"
		case sim.LinkDown:
			what = fmt.Sprintf("link %d-%d goes down", a.Link.A, a.Link.B)
		case sim.LinkUp:
			what = fmt.Sprintf("link %d-%d comes back", a.Link.A, a.Link.B)
		case sim.ElectAt:
			what = nodes(a.Nodes) + " " + verb(a.Nodes, "is", "are") + " asked to elect"
		case sim.CrashOn:
			what = fmt.Sprintf("%s will die at the first %s message", nodes(a.Nodes), a.Message)
		case sim.Corrupt:
			what = nodes(a.Nodes) + " " + verb(a.Nodes, "alters", "alter") + " every message sent from now on"
		default:
			continue
		}
		out = append(out, metrics.Moment{AtMS: metrics.MS(a.At), What: what})
	}
	slices.SortStableFunc(out, func(x, y metrics.Moment) int { return cmp.Compare(x.AtMS, y.AtMS) })
	return out
}

// nodes names a set of nodes: "node 3", "nodes 1, 4 and 7".
func nodes(ids []algo.NodeID) string {
	switch len(ids) {
	case 0:
		return "no node"
	case 1:
		return fmt.Sprintf("node %d", ids[0])
	}
	s := make([]string, len(ids))
	for i, v := range ids {
		s[i] = fmt.Sprint(v)
	}
	if len(s) > 6 {
		return fmt.Sprintf("%d nodes (%s, ...)", len(s), strings.Join(s[:3], ", "))
	}
	return "nodes " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func verb(ids []algo.NodeID, one, many string) string {
	if len(ids) == 1 {
		return one
	}
	return many
}
