// Package adhoc holds what the election algorithms for mobile ad hoc networks
// (vkt, park) share once a leader is elected: the leader's heartbeats,
// flooded through its component and forwarded once per beat; the timeout
// that reveals the leader's loss; merges, where a node that hears a better
// leader than its own adopts it with no election; and the rule that a node
// never follows a leader less valued than itself.
//
// It also holds who starts an election at boot: the run's initiators, which
// the driver writes into the parameter initiators (algo.Param.Boot); every
// node by default, as in the documents. A node left out of the set boots as
// a follower whose leader's heartbeats have stopped (Await): it joins any
// election that reaches it, and elects only if none has reached it by the
// timeout.
//
// It imports algo and nothing above it: no simulator, judge or driver
// (docs/architecture.md).
package adhoc

import (
	"fmt"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// The upkeep's timers. Algorithms number their own from FirstFreeTimer.
const (
	TimerBeat      algo.Timer = iota // leader: send the next heartbeat
	TimerTimeout                     // follower: no heartbeat for the timeout
	FirstFreeTimer                   //
)

// Params are the upkeep's tunables, for an algorithm's registry entry.
var Params = []algo.Param{
	{Name: "heartbeat", Default: "1s", Doc: "interval between the leader's heartbeats", Check: algo.CheckPositiveDuration},
	{Name: "timeout", Default: "3s", Doc: "how long without a heartbeat before a node starts an election", Check: algo.CheckPositiveDuration},
	{Name: "jitter", Default: "0s", Doc: "random backoff, up to this, before a node starts an election at boot or on a timeout (0: none, as in the documents)", Check: algo.CheckDuration},
	{Name: "medium", Default: "unicast", Doc: "how Election, Leader and Heartbeat go out: unicast, one message to each neighbour (as in the documents), or broadcast, one transmission every neighbour hears (seed 000's proposal: UDP multicast, a radio); Acks go to the parent alone either way", Check: checkMedium},
	{Name: "initiators", Default: "all", Doc: "deprecated: use --initiators, the nodes that start an election at boot (all by default, as in the documents); the others wait for one as a follower that lost its leader does, and elect only if none reaches them within the timeout (plus the jitter's backoff); a restart always elects", Check: algo.CheckNodeSet, Boot: true},
}

// Config is the upkeep of one run.
type Config struct {
	Heartbeat, Timeout, Jitter time.Duration
	// Type is the algorithm's heartbeat message type.
	Type algo.MsgType
	// Initiators, when Chosen, are the only nodes that elect at boot,
	// ascending; otherwise (the zero Config) every node does.
	Initiators []algo.NodeID
	Chosen     bool
	// Broadcast is the parameter medium=broadcast: what goes to every
	// neighbour goes as one transmission (Spread).
	Broadcast bool
}

// checkMedium accepts the values of the parameter medium.
func checkMedium(s string) error {
	if s != "unicast" && s != "broadcast" {
		return fmt.Errorf("%q: want unicast or broadcast", s)
	}
	return nil
}

// Spread sends m to every neighbour but from (algo.None: to all): one Send
// each with the unicast medium, exactly as the documents do; one
// transmission (algo.Broadcast) with the broadcast medium, which from hears
// too and takes for the copy it is, unless from is the only neighbour, when
// nothing goes out, as with unicast.
func (c *Config) Spread(env algo.Env, m algo.Message, from algo.NodeID) {
	nbrs := env.Neighbors()
	if !c.Broadcast {
		for _, u := range nbrs {
			if u != from {
				env.Send(u, m)
			}
		}
		return
	}
	if len(nbrs) == 0 || len(nbrs) == 1 && nbrs[0] == from {
		return
	}
	algo.Broadcast(env, m)
}

// Read takes the upkeep's parameters, for a network of n nodes (a node set
// must name nodes that exist).
func (c *Config) Read(p algo.Params, n int) error {
	if err := p.Durations(map[string]*time.Duration{"heartbeat": &c.Heartbeat, "timeout": &c.Timeout, "jitter": &c.Jitter}); err != nil {
		return err
	}
	ids, all, err := algo.ParseNodeSet(p["initiators"])
	if err != nil {
		return fmt.Errorf("parameter initiators: %w", err)
	}
	for _, id := range ids {
		if int(id) >= n {
			return fmt.Errorf("initiator %d does not exist (the network has nodes 0..%d)", id, n-1)
		}
	}
	c.Initiators, c.Chosen = ids, !all
	if err := checkMedium(p["medium"]); err != nil {
		return fmt.Errorf("parameter medium: %w", err)
	}
	c.Broadcast = p["medium"] == "broadcast"
	return nil
}

// Initiates reports whether node id starts an election at boot.
func (c *Config) Initiates(id algo.NodeID) bool {
	if !c.Chosen {
		return true
	}
	_, in := slices.BinarySearch(c.Initiators, id)
	return in
}

// Backoff draws a delay in [0, Jitter).
func (c *Config) Backoff(env algo.Env) time.Duration {
	if c.Jitter <= 0 {
		return 0
	}
	return time.Duration(env.Rand().Int64N(int64(c.Jitter)))
}

// Leadership is a node's leader in normal operation. Heartbeats are
// Heartbeat messages with Peer the leader and Index.Num the beat's sequence
// number.
type Leadership struct {
	Cfg    *Config
	Leader algo.Peer // NoPeer: none
	seq    uint32    // last beat of Leader seen (a follower)
	// beat is the last beat this node sent as leader. It never goes back
	// in the node's life: a leader elected again (another node's election
	// chose it, or it came back to itself) goes on from where it was, for
	// a follower that did not take part in that election still holds the
	// old sequence number and would take every beat below it for a copy.
	beat uint32
}

// Follow makes lid the leader: the leader beats, the others watch for its
// heartbeats. It refuses, changing nothing, when self is more valued than
// lid: whatever chose lid did not count this node (an election it was not
// part of, state it recovered), and the caller must start an election, which
// it will win.
func (l *Leadership) Follow(env algo.Env, self, lid algo.Peer) bool {
	if self.Better(lid) {
		return false
	}
	l.Leader, l.seq = lid, 0
	if lid.ID == self.ID {
		l.seq = l.beat
		env.StopTimer(TimerTimeout)
		env.SetTimer(TimerBeat, l.Cfg.Heartbeat)
		return true
	}
	env.StopTimer(TimerBeat)
	env.SetTimer(TimerTimeout, l.Cfg.Timeout+l.Cfg.Backoff(env))
	return true
}

// Await boots a node that does not initiate: it has no leader and waits
// for one exactly as a follower whose leader's heartbeats stopped does, for
// the timeout plus a backoff. An election that reaches it meanwhile is
// joined (and moves the timer); a heartbeat is adopted as at a merge; if
// nothing comes, TimerTimeout fires and the node elects.
func (l *Leadership) Await(env algo.Env) {
	l.Leader, l.seq = algo.NoPeer, 0
	env.StopTimer(TimerBeat)
	env.SetTimer(TimerTimeout, l.Cfg.Timeout+l.Cfg.Backoff(env))
}

// Stop ends normal operation, for an election: no more beats; the election
// sets its own timeout.
func (l *Leadership) Stop(env algo.Env) { env.StopTimer(TimerBeat) }

// Leads reports whether this node is the leader.
func (l *Leadership) Leads(self algo.NodeID) bool { return l.Leader.ID == self }

// Beat sends the leader's next heartbeat and schedules the one after.
func (l *Leadership) Beat(env algo.Env) {
	l.beat++
	l.seq = l.beat
	l.Leader.Value = env.Value() // the leader's own value may have changed
	l.Cfg.Spread(env, algo.Message{Type: l.Cfg.Type, Peer: l.Leader, Index: algo.Index{Num: l.beat, ID: l.Leader.ID}}, algo.None)
	env.SetTimer(TimerBeat, l.Cfg.Heartbeat)
}

// Heartbeat handles a heartbeat in normal operation. Each new beat of the
// node's leader is forwarded once; a beat naming a better leader is adopted
// and forwarded: a merge of partitions, settled with no election. It reports
// elect when the node must start an election: its leader is now worth less
// than itself.
func (l *Leadership) Heartbeat(env algo.Env, self algo.Peer, m *algo.Message) (elect bool) {
	hb := m.Peer
	switch {
	case hb.ID == l.Leader.ID:
		if m.Index.Num <= l.seq {
			return false // a copy already forwarded
		}
		l.Leader = hb // its value may have changed
	case hb.Better(l.Leader):
		if l.Leads(self.ID) {
			env.StopTimer(TimerBeat) // a better leader: this one steps down
		}
		l.Leader = hb
	default:
		return false // a worse leader's heartbeat: its side will adopt ours
	}
	if self.Better(l.Leader) {
		return true
	}
	if l.Leads(self.ID) {
		return false // this node's own heartbeat, come back
	}
	l.seq = m.Index.Num
	env.SetTimer(TimerTimeout, l.Cfg.Timeout+l.Cfg.Backoff(env))
	l.Cfg.Spread(env, algo.Message{Type: l.Cfg.Type, Peer: hb, Index: m.Index}, m.From)
	return false
}

// Tell lets a neighbour that just appeared know the leader, with a
// heartbeat, so that a merge does not wait for the next beat.
func (l *Leadership) Tell(env algo.Env, to algo.NodeID) {
	if l.Leader.ID != algo.None {
		env.Send(to, algo.Message{Type: l.Cfg.Type, Peer: l.Leader, Index: algo.Index{Num: l.seq, ID: l.Leader.ID}})
	}
}
