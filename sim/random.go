package sim

import (
	"math/rand/v2"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// RandomTimeline draws a schedule of faults for g until the given time: one
// event every 0.2 to 3.2 s, each a crash of the leader or of a random node,
// a restart or a recovery, a partition of the nodes west of a random line
// from the rest (networks with positions) or a heal, or a link going down or
// up. Tests and fuzzing drive algorithms through it.
func RandomTimeline(rng *rand.Rand, g *topo.Graph, until time.Duration) []Action {
	var out []Action
	n := g.N()
	node := func() algo.NodeID { return algo.NodeID(rng.IntN(n)) }
	edges := g.Edges()
	for at := time.Second; at < until; at += time.Duration(200+rng.IntN(3000)) * time.Millisecond {
		a := Action{At: at}
		switch rng.IntN(8) {
		case 0:
			a.Kind, a.Leader = Crash, true
		case 1:
			a.Kind, a.Nodes = Crash, []algo.NodeID{node()}
		case 2:
			a.Kind, a.Nodes = Restart, []algo.NodeID{node()}
		case 3:
			a.Kind, a.Nodes = Recover, []algo.NodeID{node()}
		case 4:
			if g.Pos == nil {
				continue
			}
			x := g.Width * (0.2 + 0.6*rng.Float64())
			a.Kind, a.Groups = Partition, []Group{{Name: "west", Area: &Rect{X0: 0, Y0: 0, X1: x, Y1: g.Height}}}
		case 5:
			a.Kind = Heal
		case 6, 7:
			if len(edges) == 0 {
				continue
			}
			a.Kind, a.Link = LinkDown, edges[rng.IntN(len(edges))]
			if rng.IntN(2) == 0 {
				a.Kind = LinkUp
			}
		}
		out = append(out, a)
	}
	return out
}
