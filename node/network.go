package node

import (
	"fmt"

	"github.com/electgo/elect/algo"
)

// A node takes its neighbours as they come: the nodes it hears. An
// algorithm written for a fixed network (Model.Topology: a ring, a complete
// graph) needs more: exactly its neighbours in that network and the
// network's true size n, which its Build validates and its machines use
// (a ring's successor is the next id modulo n). Config.Size gives both: the
// network is 0..Size-1, this node's neighbours in it are exactly its Peers
// (elect cluster builds them from a topology spec and the member list), and
// a datagram from anyone else is refused as a stranger's.

// fixed reports whether the node is in a fixed network (Config.Size).
func (n *Node) fixed() bool { return n.cfg.Size > 0 }

// stranger reports whether id may not be a neighbour: outside a fixed
// network, or not listed while the node does not discover (guard.go).
func (n *Node) stranger(id algo.NodeID) bool {
	return !n.listed(id) && (n.fixed() || !n.discovers())
}

// networkSize is the n the algorithm is built for: the fixed network's
// size, or else one more than the highest id the node knows of (node sets
// in parameters, initiators, are checked against it).
func networkSize(c Config) int {
	if c.Size > 0 {
		return c.Size
	}
	n := int(c.ID) + 1
	for id := range c.Peers {
		n = max(n, int(id)+1)
	}
	return n
}

// fitsNetwork refuses an algorithm that assumes a fixed network the
// configuration does not give, naming the assumption; it accepts every
// other.
func fitsNetwork(a *algo.Algorithm, c Config) error {
	t := a.Model.Topology
	if t == "" {
		return nil
	}
	if c.Size == 0 {
		return fmt.Errorf("algorithm %s assumes a fixed %s network (Model.Topology): give the network's size (Config.Size, elect node --size) and this node's neighbours in it as its peers (elect cluster --topology %s does both)", a.Name, t, t)
	}
	others := len(c.Peers)
	if _, self := c.Peers[c.ID]; self {
		others--
	}
	switch t {
	case "complete":
		if others != c.Size-1 {
			return fmt.Errorf("algorithm %s needs a complete network: node %d has %d peers, want all %d other nodes of the %d", a.Name, c.ID, others, c.Size-1, c.Size)
		}
	case "ring":
		if c.Size < 3 || others != 2 {
			return fmt.Errorf("algorithm %s needs a ring of 3 or more nodes: node %d of %d has %d peers, want its two neighbours on the ring", a.Name, c.ID, c.Size, others)
		}
	default:
		return fmt.Errorf("algorithm %s assumes a %q network (Model.Topology), which the runtime cannot check: only complete and ring are known", a.Name, t)
	}
	return nil
}
