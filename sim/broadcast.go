package sim

import (
	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// The simulator's medium is a radio: a broadcast is one transmission,
// heard by every node in range when it goes out.
//
// It is one Sent event (Peer: algo.Everyone), one message stored and one
// queue event, delivered at one instant (one delay drawn) to the sender's
// neighbours in ascending id: each reception is a Delivered event, or a
// Dropped one when the loss, drawn per receiver in that order, takes it.
// A node that left the sender's range before the delivery, or came into
// it after the sending, hears nothing, and nothing is said of it (a radio
// knows nothing of who did not hear); a sender that crashed meanwhile has
// no range left. Under random delays the delivery waits for the latest
// message scheduled on any of the sender's links, so that each link stays
// FIFO with the sender's unicast messages. A joker's broadcast is altered
// once, at sending, as one frame on the air.

// broadcast runs Env.Broadcast for the node env points at.
func (e *Engine) broadcast(m algo.Message) {
	nd := e.env.nd
	e.transmit(&m, algo.Everyone)
	if nd.deg == 0 {
		return // on the air, in nobody's range
	}
	at := e.cfg.Delay.deliveryTime(e.now, e.rng)
	if e.lasts != nil {
		lasts := e.lasts[nd.off : nd.off+nd.deg]
		for _, l := range lasts {
			at = max(at, l)
		}
		for i := range lasts {
			lasts[i] = at
		}
	}
	if e.pastEnd(at) {
		e.beyond++
		return
	}
	slot := e.flights.add(&m, e.changes)
	e.q.push(event{at: at, kind: evBroadcast, node: e.env.k, slot: slot})
}

// deliverBroadcast hands a transmission to the nodes that heard it: the
// sender's neighbours now whose link was up when it went out.
func (e *Engine) deliverBroadcast(ev event) {
	f := e.flights.at(ev.slot)
	snd := &e.nodes[ev.node]
	from := snd.id
	rs := e.receivers[:0]
	for i := range snd.deg {
		at := int(snd.off + i)
		if e.since == nil || e.since[at] <= f.sent {
			rs = append(rs, e.links[at])
		}
	}
	e.receivers = rs
	for _, k := range rs {
		nd := &e.nodes[k]
		to := nd.id
		// Each receiver its own copy, in one place the engine keeps: a
		// copy of its own would escape to the heap (89 million
		// allocations on 10,000 moving park nodes).
		e.received = f.m
		m := &e.received
		if len(e.crashOn) > 0 && e.diesOn(to, m.Type) {
			e.drop(from, to, m, trace.LinkBroke) // as deliver finds its link gone
			continue
		}
		if e.cfg.Loss > 0 && e.rng.Float64() < e.cfg.Loss {
			e.drop(from, to, m, trace.Lost)
			continue
		}
		if e.gray != nil {
			switch {
			case e.lostOneWay(from, to):
				e.drop(from, to, m, trace.Lost)
				continue
			case e.gray.cut(from, to):
				e.drop(from, to, m, trace.CutOff)
				continue
			case e.deferDelivery(k, m, -1):
				continue
			}
		}
		e.receive(k, m)
	}
	e.flights.release(ev.slot)
}
