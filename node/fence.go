package node

import "github.com/electgo/elect/algo"

// Fencing. A resource that a leader acts on keeps the highest token it has
// been shown and refuses anything below it, so that a deposed leader that
// has not noticed yet (paused, partitioned) is refused. That needs tokens
// that only grow across the cluster, whatever the algorithm's own election
// numbers do: a paused leader that comes back and takes its followers back
// by heartbeat (vkt's merge) leads without any new election, with an
// election index below the one they elected meanwhile.
//
// So the runtime issues tokens of its own. A token is a counter in its high
// 32 bits and the issuing node's id in its low 32, so that no two nodes
// issue the same one. Each node knows the highest token it has issued or
// heard of (its fence), persisted and carried in every hello. A node that
// starts leading, or learns of a token above its own while it leads, takes
// a counter above both its fence's and its election index, persists it,
// sends every peer a hello with it at once, and only then reports it
// (Status.FencingToken); a node that cannot persist it does not lead as far
// as its users are told (Status.Leading is false; /healthz fails).
//
// The election index is there for a leader elected before the last token
// reached it: the leader it replaces may have been paused a moment after
// taking its token, before any hello carried it. An election that replaces
// a leader runs with a higher index than the one that made it, so a token
// above the index is above the paused leader's too.

// nextToken is the first token node id may issue above fence and an
// election index.
func nextToken(fence, index uint64, id int32) uint64 {
	return (max(fence>>32, index)+1)<<32 | uint64(uint32(id))
}

// fencing sets next's fencing token: a leader's own, taken anew when it
// starts leading or its fence passed it; for the others, the fence.
func (n *Node) fencing(next *Status) {
	leads := next.State == algo.Norm && next.Leader == next.ID
	if !leads {
		n.token = 0
		next.FencingToken, next.Fenced = n.fence, false
		return
	}
	if n.saveErr.Load() != nil {
		// It cannot save: it steps down, as far as its users are told,
		// until a save works (its token, still the highest it knows, is
		// reported again then).
		next.FencingToken, next.Fenced = n.fence, false
		return
	}
	if n.token == 0 || n.token < n.fence {
		t := nextToken(n.fence, next.ElectionIndex, int32(n.cfg.ID))
		before := n.fence
		n.fence = t
		if err := n.persist(next.ElectionIndex); err != nil {
			n.fence, n.token = before, 0
			next.FencingToken, next.Fenced = 0, false
			return
		}
		n.token = t
		n.log.Info("fencing token taken", "token", t, "above", before)
		n.beacon() // the token travels at once, not at the next beacon
	}
	next.FencingToken, next.Fenced = n.token, true
}

// heardFence takes a fence from a neighbour's hello.
func (n *Node) heardFence(f uint64) {
	if f <= n.fence {
		return
	}
	n.fence = f
	if n.booted {
		n.after() // a leader passed by a newer token takes one above it
	}
}
