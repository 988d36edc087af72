package node

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// An algorithm whose model does not tolerate lost messages runs over
// reliable FIFO links (runtime.Reliable), one to each neighbour: numbered
// frames, cumulative acknowledgements, retransmission with backoff. The
// layer follows the model, not the algorithm's name: vkt and park, written
// for lossy links, keep the datagrams they were written for. A link that
// stays unacknowledged past its bound takes its neighbour down, as a
// silent neighbour is taken down, and the machine hears NeighborDown.

// needsReliable says an algorithm of model m runs over reliable links.
// A synchronous algorithm's synchronizer needs them whatever the model says.
func needsReliable(m algo.Model) bool { return !m.Loss || m.Synchronous }

// linkTick is how often the links' retransmission deadlines are looked at:
// well under their first wait (runtime.DefaultReliable.RTO), or that wait
// when a node's is shorter.
func (n *Node) linkTick() time.Duration { return min(25*time.Millisecond, n.cfg.Reliable.RTO) }

// linkTo returns the link to neighbour nb, making it at the first message
// either way. Each link made gets a higher epoch than the one before, so
// that the neighbour starts over with a link made again after a failure.
func (n *Node) linkTo(nb *neighbor) *runtime.Reliable[algo.Message] {
	if nb.link == nil {
		n.linkEpoch++
		nb.link = runtime.NewReliable[algo.Message](n.cfg.Reliable, n.linkEpoch)
	}
	return nb.link
}

// sendReliable sends m to neighbour to on its link.
func (n *Node) sendReliable(to algo.NodeID, nb *neighbor, m algo.Message) {
	l := n.linkTo(nb)
	before := l.Stats()
	n.sendFrames(to, nb, l.Send(m, time.Now()))
	n.countLink(before, l.Stats())
}

// receiveFrame takes a frame from neighbour nb: the messages it completes
// go to the machine in order, and what the link answers goes back.
func (n *Node) receiveFrame(d *runtime.Datagram, nb *neighbor) {
	if !n.booted && n.sync == nil && len(n.early)+n.cfg.Reliable.Window > earlyLimit {
		// Before the boot the messages a frame completes wait in the early
		// queue, which is bounded: without room for a window's worth, the
		// frame is not acknowledged, and so sent again later. A frame
		// acknowledged and then dropped there would be a message the link
		// promised and lost. (A synchronous run holds them in its pulses.)
		return
	}
	l := n.linkTo(nb)
	before := l.Stats()
	msgs, out := l.Receive(runtime.Frame[algo.Message]{FrameHeader: d.Frame, Payload: d.Message}, time.Now())
	n.countLink(before, l.Stats())
	n.sendFrames(d.Sender, nb, out)
	if n.sync != nil {
		for i := range msgs {
			n.receivePulsed(d.Sender, &msgs[i])
		}
		n.pulseProgress() // an acknowledgement, a safe or a message may let the pulse move
		return
	}
	for i := range msgs {
		n.deliver(&msgs[i])
	}
}

// tickLinks sends again the frames whose acknowledgement is late, and takes
// down the neighbours whose link failed. A neighbour taken down by silence
// keeps its link (lose), whose frames keep going to where it was last
// heard: an answer brings it back up, and the link's bound finds it gone.
func (n *Node) tickLinks(now time.Time) {
	var ids []algo.NodeID
	for id, nb := range n.nbrs {
		if nb.link != nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		nb := n.nbrs[id]
		before := nb.link.Stats()
		n.sendFrames(id, nb, nb.link.Tick(now))
		n.countLink(before, nb.link.Stats())
		if !nb.link.Failed() {
			continue
		}
		n.metrics.linkFailures.Add(1)
		n.log.Warn("link failed: no acknowledgement", "peer", id)
		if nb.up {
			n.lose(id, nb, true)
		} else {
			nb.link = nil
		}
	}
}

// sendFrames encodes and sends frames to neighbour to.
func (n *Node) sendFrames(to algo.NodeID, nb *neighbor, fs []runtime.Frame[algo.Message]) {
	for i := range fs {
		b, err := n.codec.AppendFrame(n.buf[:0], n.cfg.ID, to, n.nextSeq(), &fs[i])
		if err != nil {
			n.metrics.unroutable.Add(1)
			n.log.Error("frame not sent", "to", to, "err", err)
			continue
		}
		n.buf = b
		n.write(b, nb.addr)
	}
}

// countLink adds what a link did between two of its counts to the node's.
func (n *Node) countLink(before, after runtime.ReliableStats) {
	n.metrics.retransmits.Add(after.Retransmits - before.Retransmits)
	n.metrics.acks.Add(after.Acks - before.Acks)
}
