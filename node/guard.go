package node

import (
	"time"

	"github.com/electgo/elect/algo"
)

// What a node keeps for, and sends to, a sender it does not know is
// bounded, whatever arrives (issue 20's findings 4 and 5):
//
//   - Who may be a neighbour. In a fixed network, its peers only. With a
//     key, any node that signs with it. Without a key, the listed peers,
//     and others only when the node discovers its neighbours (a --broadcast
//     address, or no peer list at all): a made-up sender's forged hello
//     or heartbeat is refused as a stranger's, not followed.
//   - Sequence numbers are bound to time. A node numbers its datagrams
//     one after the other, from its wall clock in nanoseconds, and catches
//     up with the clock at every tick of about a second (nextSeq), so its
//     numbers follow the clock; a number more than maxAhead ahead of the receiver's clock is
//     refused, and so is one more than maxBehind behind it (issue 31's
//     finding A): a datagram captured longer ago than that is refused
//     whoever receives it, and a replay window, which refuses what is
//     newer, is kept at least maxAhead + maxBehind after its sender was
//     last heard, even for a neighbour the node forgets. A forged datagram numbered
//     2⁶⁴−1 in a real node's name can no longer push that node's replay
//     window past every number it will ever send. Without a key nothing
//     tells a forged datagram from a real one, and a forger on the path
//     that numbers one with the present time still holds that link off;
//     with a key, unsigned datagrams never reach the window at all. That
//     is why a node beyond loopback needs a key.
//   - New senders that are not listed are taken at newPerSecond at most,
//     and the table of neighbours holds maxUnlisted of them: a flood of
//     made-up ids costs a bounded table and answers at most newPerSecond
//     hellos a second, fewer bytes than the flood. An unlisted neighbour
//     silent for forgetAfter loss limits, with no link, is forgotten.
const (
	maxAhead     = 10 * time.Second // well above the skew of clocks kept by NTP
	maxBehind    = 30 * time.Second // longer than any datagram is in flight, with skew
	newPerSecond = 64
	maxUnlisted  = 4096
	forgetAfter  = 10
)

// listed reports whether id is one of the configured peers.
func (n *Node) listed(id algo.NodeID) bool {
	_, ok := n.cfg.Peers[id]
	return ok
}

// discovers reports whether the node takes neighbours it was not told of.
func (n *Node) discovers() bool {
	return !n.fixed() && (len(n.cfg.Key) > 0 || n.cfg.Broadcast.IsValid() || len(n.cfg.Peers) == 0)
}

// ahead reports whether seq runs more than maxAhead ahead of now.
func ahead(seq uint64, now time.Time) bool {
	return seq > uint64(now.Add(maxAhead).UnixNano())
}

// behind reports whether seq runs more than maxBehind behind now: a
// datagram sent longer ago than that (or captured then), which no replay
// window may still hold.
func behind(seq uint64, now time.Time) bool {
	return seq < uint64(now.Add(-maxBehind).UnixNano())
}

// seqTick is the grain of the clock that numbers follow: 2^30 ns, about a
// second.
const seqTick = 1<<30 - 1

// nextSeq numbers a datagram: one more than the last, or the wall clock in
// nanoseconds rounded down to a seqTick if that is higher. Numbers so stay
// within about a second of the clock (behind can refuse what is older),
// and between two ticks they follow each other, as the replay window's
// bitmap needs to take datagrams that overtook one another. (Numbered with
// the clock itself, every datagram would leave the last far behind the
// window's 64 numbers, and reordering would become loss.)
func (n *Node) nextSeq() uint64 {
	n.seq = max(n.seq+1, uint64(time.Now().UnixNano())&^seqTick)
	return n.seq
}

// admitNew says whether a sender not in the table may enter it now,
// spending one of the new-sender allowance.
func (n *Node) admitNew(now time.Time) bool {
	if n.unlisted >= maxUnlisted {
		return false
	}
	// A token bucket: newPerSecond a second, as many at once.
	elapsed := now.Sub(n.newAt).Seconds()
	n.newAt = now
	n.newTokens = min(float64(newPerSecond), n.newTokens+elapsed*newPerSecond)
	if n.newTokens < 1 {
		return false
	}
	n.newTokens--
	return true
}

// forget drops the unlisted neighbours that have been down, linkless and
// silent for forgetAfter loss limits.
func (n *Node) forget(now time.Time) {
	// Its replay window goes with it: kept as long as a datagram it sent
	// could still be taken (behind, ahead), so that no replay outlives it.
	limit := max(forgetAfter*n.lossLimit(), maxAhead+maxBehind)
	for id, nb := range n.nbrs {
		if !nb.up && nb.link == nil && !n.listed(id) && now.Sub(nb.heard) > limit {
			delete(n.nbrs, id)
			n.unlisted--
		}
	}
}
