package node

import (
	"math"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

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
// Nor as far as the other nodes are told: a node whose last save failed
// sends nothing (silent), so that to them it is a crashed node and their
// failure detection elects another leader within the usual failover.
// Telling only its users was not enough (issue 31, C): its machine still
// led, every other node kept following it, and so nobody led for as long
// as its storage stayed broken. Silence is the one step-down every
// algorithm already handles without a change to its machine (a crash),
// where a message saying so would need each algorithm to take it, and
// restarting the machine would only elect it again, the most valued node.
// It keeps listening and retries at every save (at least once a second
// while it hears anyone); once a save works it speaks again and comes
// back as a node that was paused does, taking a token above any issued
// meanwhile before it leads. A node that cannot save when it starts does
// not start at all (storable).
//
// The election index is there for a leader elected before the last token
// reached it: the leader it replaces may have been paused a moment after
// taking its token, before any hello carried it. An election that replaces
// a leader runs with a higher index than the one that made it, so a token
// above the index is above the paused leader's too.

// maxCounter is the highest counter of a token (its high 32 bits).
const maxCounter = 1<<32 - 1

// nextToken is the first token node id may issue above fence and an
// election index, and false when there is none: the counter would pass
// its 32 bits, and wrap to a token below every one issued. (The node
// refuses a fence or an election number at the end of the range from the
// wire, ReasonRange, so only a history of 2^32 leaderships gets here.)
func nextToken(fence, index uint64, id int32) (uint64, bool) {
	c := max(fence>>32, index)
	if c >= maxCounter {
		return 0, false
	}
	return (c+1)<<32 | uint64(uint32(id)), true
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
	if n.silent() {
		// It cannot save: it steps down, as far as its users are told,
		// and is silent to the others, until a save works (its token,
		// still the highest it knows, is reported again then).
		next.FencingToken, next.Fenced = n.fence, false
		return
	}
	if n.token == 0 || n.token < n.fence {
		t, ok := nextToken(n.fence, next.ElectionIndex, int32(n.cfg.ID))
		if !ok {
			// No token is left above the fence: it cannot lead as far as
			// its users are told, rather than issue one that went back.
			n.log.Error("no fencing token left above the fence", "fence", n.fence, "election_index", next.ElectionIndex)
			n.token = 0
			next.FencingToken, next.Fenced = n.fence, false
			return
		}
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

// silent says the node sends nothing, its last save having failed: no
// hello, no message, no frame of a reliable link (write). To the others it
// is a crashed node, which they stop following after a loss limit.
func (n *Node) silent() bool { return n.saveErr.Load() != nil }

// atRangeEnd says a datagram carries a counter at the end of its range,
// which nothing could follow without wrapping (runtime.ReasonRange): a
// hello's fence whose counter is 2^32-1 (no token above it: taken, it
// would stop every node from leading, or wrap a token to one below all
// issued), a message's election number 2^32-1 (the next election's would
// wrap to 0). Only a forger sends one.
func atRangeEnd(d *runtime.Datagram) bool {
	switch d.Kind {
	case runtime.KindHello:
		return d.Fence>>32 >= maxCounter
	case runtime.KindMessage, runtime.KindFrame:
		return d.Message.Index.Num == math.MaxUint32
	}
	return false
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
