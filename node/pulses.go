package node

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// A synchronous algorithm (Model.Synchronous: all-to-all, capture-sync)
// runs in pulses: every message sent in pulse k is heard at the start of
// pulse k+1, and the machine reads the pulse from its clock (Env.Now, in
// units of algo.PulseLength), as the simulator drives it. A real network
// gives no such thing, so the node builds it with Awerbuch's α
// synchronizer (1985) on its reliable FIFO links:
//
//   - The node runs pulse k on a virtual clock: it hands the machine the
//     messages sent to it in pulse k-1, at time k·PulseLength, then fires
//     the timers due within the pulse, in order, each at its own time.
//   - Pulse k ends at the node when its links are settled (every message
//     it sent is acknowledged: the neighbour holds it) and it has told
//     every neighbour so with a safe message for pulse k.
//   - The node moves to pulse k+1 once every neighbour has said it is safe
//     for pulse k. A neighbour's messages between its safe for k-1 and its
//     safe for k are those of its pulse k, since the link keeps order.
//
// The pulses are only run while there is something to run them for: a
// node moves on when it or a neighbour was busy in pulse k (a timer armed,
// a message sent or waiting, an input waiting), or a neighbour has moved
// on already. When nobody is busy every node stops at the same pulse, and
// the network is quiet until an input (Elect) wakes a node, whose next
// safe wakes its neighbours in turn. Safe messages travel on the links
// like the algorithm's, and are counted apart (elect_sync_messages_total).

// syncSafe is the synchronizer's safe message: Level the pulse, Peer.Value
// 1 when the sender was busy in it. It is outside every algorithm's types
// (an algorithm names at most syncSafe of them).
const syncSafe algo.MsgType = 254

// pulser is the synchronizer's state; nil for asynchronous algorithms.
type pulser struct {
	pulse    int64                        // the pulse the node is in
	now      time.Duration                // the machine's clock
	timers   map[algo.Timer]time.Duration // armed timers: when they are due
	sent     int                          // messages the machine sent this pulse
	ended    bool                         // this pulse's events have run
	safeSent bool                         // the safe for this pulse went out
	wasBusy  bool                         // and said so
	heard    map[algo.NodeID]int64        // per neighbour, the last pulse it said safe (-1: none)
	nbBusy   map[algo.NodeID]bool         // and whether it was busy in it
	inbox    []tagged                     // messages received, with their pulse
	pending  []func()                     // inputs from outside, run at the next pulse's start
}

// tagged is a message and the pulse it was sent in.
type tagged struct {
	pulse int64
	m     algo.Message
}

func newPulser() *pulser {
	return &pulser{timers: map[algo.Timer]time.Duration{}, heard: map[algo.NodeID]int64{}, nbBusy: map[algo.NodeID]bool{}}
}

// busy says whether anything is left for a later pulse at this node.
func (s *pulser) busy() bool {
	return len(s.timers) > 0 || s.sent > 0 || len(s.inbox) > 0 || len(s.pending) > 0
}

// said is the last pulse neighbour u said was safe.
func (s *pulser) said(u algo.NodeID) int64 {
	if k, ok := s.heard[u]; ok {
		return k
	}
	return -1
}

// later runs f at the start of the next pulse: an input from outside the
// pulses (Elect, a neighbour coming or going) happens at a pulse's start,
// as a simulated one happens at an instant.
func (n *Node) later(f func()) {
	n.sync.pending = append(n.sync.pending, f)
	n.pulseProgress()
}

// runPulse runs the events of the node's current pulse.
func (n *Node) runPulse() {
	s := n.sync
	start := time.Duration(s.pulse) * algo.PulseLength
	end := start + algo.PulseLength
	s.now, s.sent, s.ended, s.safeSent = start, 0, false, false
	pending := s.pending
	s.pending = nil
	for _, f := range pending {
		f()
	}
	// The messages of the pulse before, by sender and then in the order
	// each sender's link delivered them.
	var due []tagged
	s.inbox = slices.DeleteFunc(s.inbox, func(t tagged) bool {
		if t.pulse < s.pulse {
			due = append(due, t)
			return true
		}
		return false
	})
	slices.SortStableFunc(due, func(a, b tagged) int { return int(a.m.From) - int(b.m.From) })
	for i := range due {
		if n.crashesOn(&due[i].m) {
			return
		}
		n.m.Receive(n.env(), &due[i].m)
		n.after()
	}
	// The timers due within the pulse, earliest first (ties by number);
	// one a handler arms within the pulse runs in it too.
	for n.dead == nil {
		var t algo.Timer
		at, found := end, false
		for k, d := range s.timers {
			if d < at || d == at && found && k < t {
				t, at, found = k, d, true
			}
		}
		if !found || at >= end {
			break
		}
		delete(s.timers, t)
		s.now = max(s.now, at)
		n.m.Timer(n.env(), t)
		n.after()
	}
	s.ended = true
}

// pulseProgress ends the current pulse and starts the next ones while the
// synchronizer allows.
func (n *Node) pulseProgress() {
	s := n.sync
	for n.booted && s.ended && n.dead == nil {
		if !s.safeSent {
			if !n.linksSettled() {
				return // an acknowledgement will call again
			}
			s.wasBusy = s.busy()
			busy := int64(0)
			if s.wasBusy {
				busy = 1
			}
			for _, u := range n.up {
				n.sendReliable(u, n.nbrs[u], algo.Message{Type: syncSafe, From: n.cfg.ID, To: u, Level: int32(s.pulse), Peer: algo.Peer{ID: n.cfg.ID, Value: busy}})
				n.metrics.syncSent.Add(1)
			}
			s.safeSent = true
		}
		if !n.mayAdvance() {
			return // a neighbour's safe, a message or an input will call again
		}
		s.pulse++
		n.metrics.pulses.Store(s.pulse)
		n.runPulse()
	}
}

// mayAdvance says whether the node may move to the next pulse: every
// neighbour is safe for this one, and there is a reason to.
func (n *Node) mayAdvance() bool {
	s := n.sync
	wanted := s.wasBusy || len(s.pending) > 0 || len(s.inbox) > 0
	for _, u := range n.up {
		k := s.said(u)
		if k < s.pulse {
			return false
		}
		if k > s.pulse || s.nbBusy[u] {
			wanted = true
		}
	}
	return wanted
}

// linksSettled says whether every message sent to a live neighbour has
// been acknowledged.
func (n *Node) linksSettled() bool {
	for _, u := range n.up {
		if l := n.nbrs[u].link; l != nil && !l.Settled() {
			return false
		}
	}
	return true
}

// receivePulsed takes a message from neighbour u in a synchronous run: a
// safe is the synchronizer's; the algorithm's wait for the next pulse.
func (n *Node) receivePulsed(u algo.NodeID, m *algo.Message) {
	s := n.sync
	if m.Type == syncSafe {
		s.heard[u], s.nbBusy[u] = int64(m.Level), m.Peer.Value != 0
		return
	}
	if int(m.Type) >= len(n.names) {
		n.metrics.rejected[runtime.ReasonPayload].Add(1)
		return
	}
	n.metrics.received[m.Type].Add(1)
	s.inbox = append(s.inbox, tagged{pulse: s.said(u) + 1, m: *m})
}
