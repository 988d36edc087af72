package node

import (
	"math/rand/v2"
	"net/netip"
	"time"

	"github.com/electgo/elect/algo"
)

// env is the algo.Env the node hands its machine: the Node seen through
// the methods a machine may call, and no others.
type env Node

func (n *Node) env() *env { return (*env)(n) }

func (e *env) ID() algo.NodeID { return e.cfg.ID }
func (e *env) Value() int64    { return e.value }
func (e *env) Now() time.Duration {
	if e.sync != nil {
		return e.sync.now // the synchronizer's clock (pulses.go)
	}
	return e.gray.now(time.Now()) // the node's clock, gray or true (gray.go)
}
func (e *env) Rand() *rand.Rand         { return e.rng }
func (e *env) Neighbors() []algo.NodeID { return e.up }

// Send encodes m and sends it to its neighbour's last known address. A
// message to a node that is not a neighbour is lost, as the contract says,
// with one exception: a neighbour taken down by silence keeps its reliable
// link (lose), and a message for it goes on that link rather than being
// lost. Silence at high loss is most often loss, and an algorithm that
// tolerates none would wait for ever for the message the false alarm cost
// (a ring's gather); if the neighbour really went, the link's bound says
// so.
func (e *env) Send(to algo.NodeID, m algo.Message) {
	n := (*Node)(e)
	n.declared(m.Type)
	nb := n.nbrs[to]
	if nb == nil || !nb.up && (!n.reliable || nb.link == nil) {
		n.metrics.unroutable.Add(1)
		return
	}
	m.From, m.To = n.cfg.ID, to
	if n.cfg.Corrupt {
		m.Corrupt() // a joker's message leaves altered
	}
	if n.sync != nil {
		n.sync.sent++
	}
	if n.reliable {
		n.sendReliable(to, nb, m)
		n.metrics.sent[m.Type].Add(1)
		return
	}
	n.sendDatagram(&m, nb.addr)
}

// sendDatagram sends an addressed message as one datagram to addr (a
// neighbour's, or the broadcast address), counting it, and says whether
// it went.
func (n *Node) sendDatagram(m *algo.Message, addr netip.AddrPort) bool {
	b, err := n.codec.AppendMessage(n.buf[:0], n.nextSeq(), m)
	if err != nil {
		// Only a message too large for one datagram fails: a neighbour
		// list longer than about a hundred nodes.
		n.metrics.unroutable.Add(1)
		n.log.Error("message not sent", "type", n.names[m.Type], "to", m.To, "err", err)
		return false
	}
	n.buf = b
	n.write(b, addr)
	n.metrics.sent[m.Type].Add(1)
	n.metrics.messageBytes.Add(uint64(len(b)))
	return true
}

// Broadcast sends m as one datagram to the broadcast address (Config.Broadcast:
// a subnet broadcast, or a multicast group), addressed to algo.Everyone,
// which every node that hears it takes: one transmission, as on a radio.
// Signed and numbered as any datagram, it passes each receiver's replay
// window for its sender. A node with no broadcast address, or whose
// algorithm runs over reliable links (one per neighbour), sends a copy to
// each neighbour instead, as algo.Broadcast does on a driver without a
// broadcast medium.
func (e *env) Broadcast(m algo.Message) {
	n := (*Node)(e)
	n.declared(m.Type)
	if n.reliable || !n.cfg.Broadcast.IsValid() {
		for _, u := range n.up { // Send changes no neighbour
			e.Send(u, m)
		}
		return
	}
	m.From, m.To = n.cfg.ID, algo.Everyone
	if n.cfg.Corrupt {
		m.Corrupt()
	}
	if n.sendDatagram(&m, n.cfg.Broadcast) {
		n.metrics.broadcasts.Add(1)
	}
}

// SetTimer arms timer t. Each arming has a generation; an expiry of an
// older generation that is already on its way to the loop is ignored there.
// A timer for d on the node's clock expires after d/Gray.ClockRate of true
// time, converted now: a later change of rate leaves it be, as a jump does.
func (e *env) SetTimer(t algo.Timer, d time.Duration) {
	n := (*Node)(e)
	if n.sync != nil {
		n.sync.timers[t] = n.sync.now + d
		return
	}
	for int(t) >= len(n.timers) {
		n.timers = append(n.timers, nil)
		n.gens = append(n.gens, 0)
	}
	if n.timers[t] != nil {
		n.timers[t].Stop()
	}
	n.gens[t]++
	fire := timerFire{t: t, gen: n.gens[t]}
	n.timers[t] = time.AfterFunc(n.gray.trueDelay(d), func() {
		select {
		case n.timerC <- fire:
		case <-n.done:
		}
	})
}

// StopTimer disarms timer t.
func (e *env) StopTimer(t algo.Timer) {
	n := (*Node)(e)
	if n.sync != nil {
		delete(n.sync.timers, t)
		return
	}
	if int(t) < len(n.timers) && n.timers[t] != nil {
		n.timers[t].Stop()
		n.gens[t]++
	}
}

// Report logs what the algorithm detected.
func (e *env) Report(what string) {
	n := (*Node)(e)
	n.metrics.reports.Add(1)
	n.reports.add(what, time.Now())
	n.log.Warn("algorithm report", "what", what)
}
