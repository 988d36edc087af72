package vkt

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
	"github.com/electgo/elect/algo/algotest"
)

// newEnv drives one vkt node by hand.
func newEnv(id algo.NodeID, nbrs ...algo.NodeID) *algotest.Env {
	return algotest.New(id, MessageNames, nbrs...)
}

func testNode(id algo.NodeID) *node {
	c := &config{up: adhoc.Config{Heartbeat: time.Second, Timeout: 3 * time.Second, Type: Heartbeat}, probe: 500 * time.Millisecond, electionTimeout: 10 * time.Second}
	return c.newNode(id).(*node)
}

func expect(t *testing.T, env *algotest.Env, want string) {
	t.Helper()
	if got := env.Take(); got != want {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

// A source whose child stops answering probes gives up on it after one
// unanswered probe and decides with what it has.
func TestProbeDropsLostChild(t *testing.T) {
	env := newEnv(0, 1, 2)
	n := testNode(0)
	n.Start(env)
	expect(t, env, "election>1 <1,0> 0; election>2 <1,0> 0")
	if env.Timers[timerProbe] != 500*time.Millisecond {
		t.Fatalf("probe timer %v", env.Timers)
	}
	n.Receive(env, &algo.Message{Type: Ack, From: 1, Index: algo.Index{Num: 1, ID: 0}, Peer: algo.Peer{ID: 1, Value: 1}})
	expect(t, env, "")
	n.Timer(env, timerProbe)
	expect(t, env, "probe>2 <1,0> 0")
	n.Timer(env, timerProbe) // 2 never replied: lost
	expect(t, env, "leader>1 <1,0> 1; leader>2 <1,0> 1")
	if st := n.Status(); st.State != algo.Norm || st.Leader != 1 {
		t.Errorf("status %+v, want Norm following 1", st)
	}
}

// A child that replies is kept, and probed again.
func TestProbeKeepsLiveChild(t *testing.T) {
	env := newEnv(0, 2)
	n := testNode(0)
	n.Start(env)
	env.Take()
	n.Timer(env, timerProbe)
	expect(t, env, "probe>2 <1,0> 0")
	n.Receive(env, &algo.Message{Type: Reply, From: 2, Index: algo.Index{Num: 1, ID: 0}})
	n.Timer(env, timerProbe)
	expect(t, env, "probe>2 <1,0> 0")
	if st := n.Status(); st.State != algo.Elect {
		t.Errorf("status %+v, want still electing", st)
	}
}

// A node answers a Probe of its computation while it elects, and not after:
// with a Reply while it still owes the prober its Ack, with the Ack again
// once it owes nothing (the Ack was lost, or crossed the probe).
func TestReply(t *testing.T) {
	src := algo.Index{Num: 1, ID: 0}
	probe := func(from algo.NodeID, idx algo.Index) *algo.Message {
		return &algo.Message{Type: Probe, From: from, Index: idx}
	}
	env := newEnv(3, 0, 5, 7)
	n := testNode(3)
	n.Receive(env, &algo.Message{Type: Election, From: 0, Index: src})
	expect(t, env, "election>5 <1,0> 0; election>7 <1,0> 0")
	n.Receive(env, probe(0, src)) // the parent, its subtree not done
	expect(t, env, "reply>0 <1,0> 0")
	n.Receive(env, &algo.Message{Type: Election, From: 7, Index: src}) // not a child
	expect(t, env, "ack>7 <1,0> -1")
	n.Receive(env, probe(7, src)) // that empty Ack was lost
	expect(t, env, "ack>7 <1,0> -1")
	n.Receive(env, &algo.Message{Type: Ack, From: 5, Index: src, Peer: algo.Peer{ID: 5, Value: 5}})
	n.Receive(env, &algo.Message{Type: Ack, From: 7, Index: src, Peer: algo.NoPeer})
	expect(t, env, "ack>0 <1,0> 5")
	n.Receive(env, probe(0, src)) // the parent probes: its Ack was lost
	expect(t, env, "ack>0 <1,0> 5")
	n.Receive(env, probe(0, algo.Index{Num: 9, ID: 0})) // not its computation
	expect(t, env, "")
	n.Receive(env, &algo.Message{Type: Leader, From: 0, Index: src, Peer: algo.Peer{ID: 5, Value: 5}})
	env.Take()
	n.Receive(env, probe(0, src)) // the election is over
	expect(t, env, "")
}

// A source whose child's Ack was lost gets it again at the next probe and
// decides then, instead of waiting for the election timeout.
func TestLostAckRecoveredByProbe(t *testing.T) {
	src := algo.Index{Num: 1, ID: 0}
	parent, child := newEnv(0, 1), newEnv(1, 0)
	p, c := testNode(0), testNode(1)
	p.Start(parent)
	expect(t, parent, "election>1 <1,0> 0")
	c.Receive(child, &algo.Message{Type: Election, From: 0, Index: src})
	expect(t, child, "ack>0 <1,0> 1") // lost on the way
	p.Timer(parent, timerProbe)
	expect(t, parent, "probe>1 <1,0> 0")
	c.Receive(child, &algo.Message{Type: Probe, From: 0, Index: src})
	expect(t, child, "ack>0 <1,0> 1")
	p.Receive(parent, &algo.Message{Type: Ack, From: 1, Index: src, Peer: algo.Peer{ID: 1, Value: 1}})
	expect(t, parent, "leader>1 <1,0> 1")
	if st := p.Status(); st.State != algo.Norm || st.Leader != 1 {
		t.Errorf("source %+v, want Norm following 1", st)
	}
}

// Heartbeats: the leader's are forwarded once; a better leader's is adopted
// and forwarded (a merge); a worse leader's is ignored.
func TestHeartbeatMerge(t *testing.T) {
	env := newEnv(4, 1, 2, 3)
	n := testNode(4)
	n.follow(env, algo.Peer{ID: 5, Value: 5})
	hb := func(from algo.NodeID, leader algo.NodeID, seq uint32) *algo.Message {
		return &algo.Message{Type: Heartbeat, From: from, Peer: algo.Peer{ID: leader, Value: int64(leader)}, Index: algo.Index{Num: seq, ID: leader}}
	}
	n.Receive(env, hb(1, 5, 1))
	expect(t, env, "heartbeat>2 <1,5> 5; heartbeat>3 <1,5> 5")
	n.Receive(env, hb(2, 5, 1)) // the same beat by another path
	expect(t, env, "")
	n.Receive(env, hb(3, 2, 7)) // a worse leader
	expect(t, env, "")
	n.Receive(env, hb(3, 9, 7)) // a better one: adopt, no election
	expect(t, env, "heartbeat>1 <7,9> 9; heartbeat>2 <7,9> 9")
	if st := n.Status(); st.State != algo.Norm || st.Leader != 9 {
		t.Errorf("status %+v, want Norm following 9", st)
	}
}

// A leader that hears a better leader steps down and stops beating.
func TestLeaderStepsDown(t *testing.T) {
	env := newEnv(5, 1)
	n := testNode(5)
	n.follow(env, algo.Peer{ID: 5, Value: 5})
	if _, ok := env.Timers[adhoc.TimerBeat]; !ok {
		t.Fatal("a leader must beat")
	}
	n.Receive(env, &algo.Message{Type: Heartbeat, From: 1, Peer: algo.Peer{ID: 8, Value: 8}, Index: algo.Index{Num: 3, ID: 8}})
	if _, ok := env.Timers[adhoc.TimerBeat]; ok {
		t.Error("a leader that stepped down still beats")
	}
	if _, ok := env.Timers[adhoc.TimerTimeout]; !ok {
		t.Error("a follower must watch for heartbeats")
	}
}

// Saved state comes back on recovery; garbage is refused.
func TestSaveRecover(t *testing.T) {
	env := newEnv(2, 1)
	n := testNode(2)
	n.num = 7
	n.src = algo.Index{Num: 7, ID: 9}
	n.follow(env, algo.Peer{ID: 9, Value: 1 << 40}) // more valued than node 2: followed
	m := testNode(2)
	if err := m.Recover(env, n.Save()); err != nil {
		t.Fatal(err)
	}
	if m.up.Leader != n.up.Leader || m.src != n.src || m.num != 7 || m.delta {
		t.Errorf("recovered %+v from %+v", m, n)
	}
	if err := m.Recover(env, []byte{1, 2}); err == nil {
		t.Error("accepted two bytes of state")
	}
}

// A node never follows a leader less valued than itself, however it hears
// of one: it starts an election instead.
func TestNeverFollowWorse(t *testing.T) {
	env := newEnv(7, 1)
	n := testNode(7)
	n.follow(env, algo.Peer{ID: 3, Value: 3})
	if st := n.Status(); st.State != algo.Elect {
		t.Errorf("following a worse leader: %+v", st)
	}
	env = newEnv(7, 1)
	n = testNode(7)
	n.follow(env, algo.Peer{ID: 9, Value: 9})
	env.Take()
	n.Receive(env, &algo.Message{Type: Heartbeat, From: 1, Peer: algo.Peer{ID: 5, Value: 50}, Index: algo.Index{Num: 1, ID: 5}})
	if n.up.Leader.ID != 5 {
		t.Fatalf("did not adopt the better leader 5: %+v", n.up.Leader)
	}
	// The leader's value drops below this node's (values can change at run
	// time): its next heartbeat makes the node elect.
	m := testNode(8)
	envM := newEnv(8, 1)
	m.follow(envM, algo.Peer{ID: 9, Value: 9})
	m.Receive(envM, &algo.Message{Type: Heartbeat, From: 1, Peer: algo.Peer{ID: 9, Value: 7}, Index: algo.Index{Num: 1, ID: 9}})
	if st := m.Status(); st.State != algo.Elect {
		t.Errorf("node 8 (value 8) still follows 9 at value 7: %+v", st)
	}
}

// A node that is not an initiator boots silent, as a follower whose leader
// is lost: the timeout armed, no beat. An election that reaches it is
// joined; if none does, the timeout makes it elect.
func TestNonInitiatorWaits(t *testing.T) {
	c := &config{up: adhoc.Config{Heartbeat: time.Second, Timeout: 3 * time.Second, Type: Heartbeat, Chosen: true, Initiators: []algo.NodeID{0}},
		probe: 500 * time.Millisecond, electionTimeout: 10 * time.Second}
	env := newEnv(4, 1, 2)
	n := c.newNode(4).(*node)
	n.Start(env)
	expect(t, env, "")
	if d, ok := env.Timers[adhoc.TimerTimeout]; !ok || d != 3*time.Second {
		t.Fatalf("timers %v, want the timeout armed at 3s", env.Timers)
	}
	if st := n.Status(); st.State != algo.Norm || st.Leader != algo.None {
		t.Errorf("status %+v, want Norm with no leader", st)
	}
	n.Receive(env, &algo.Message{Type: Election, From: 1, Index: algo.Index{Num: 1, ID: 0}})
	expect(t, env, "election>2 <1,0> 0")
	if st := n.Status(); st.State != algo.Wait || env.Timers[adhoc.TimerTimeout] != 10*time.Second {
		t.Errorf("status %+v, timers %v: want Wait in <1,0>, the election timeout armed", st, env.Timers)
	}

	env = newEnv(5, 1)
	m := c.newNode(5).(*node)
	m.Start(env)
	expect(t, env, "")
	m.Timer(env, adhoc.TimerTimeout)
	expect(t, env, "election>1 <1,5> 0")

	env = newEnv(0, 1)
	o := c.newNode(0).(*node)
	o.Start(env)
	expect(t, env, "election>1 <1,0> 0")
}
