package vkt

import (
	"testing"

	"github.com/electgo/elect/algo"
)

func broadcastNode(id algo.NodeID) *node {
	n := testNode(id)
	c := *n.cfg
	c.up.Broadcast = true
	n.cfg = &c
	n.up.Cfg = &c.up
	return n
}

// The broadcast medium, input by input: one Election naming the parent,
// neighbours settled by their own Elections, Acks to the parent alone,
// probes answered as in unicast, the finished node's Leader for latecomers.
func TestBroadcastMachine(t *testing.T) {
	c := algo.Index{Num: 1, ID: 0}
	elect := func(from, parent algo.NodeID, level int32) *algo.Message {
		return &algo.Message{Type: Election, From: from, Index: c, Peer: algo.Peer{ID: parent}, Level: level}
	}
	env := newEnv(3, 0, 5, 7, 8)
	n := broadcastNode(3)
	steps := []struct {
		what string
		do   func()
		want string
	}{
		{"joins under 0: one Election naming 0", func() { n.Receive(env, elect(0, algo.None, 0)) }, "election>* <1,0> 0"},
		{"7 joined under 4: not a child", func() { n.Receive(env, elect(7, 4, 0)) }, ""},
		{"5 joined under 3: a child", func() { n.Receive(env, elect(5, 3, 0)) }, ""},
		{"8's Election was lost: probe 5 and 8", func() { n.Timer(env, timerProbe) }, "probe>5 <1,0> 0; probe>8 <1,0> 0"},
		{"the parent probes: still waiting", func() { n.Receive(env, &algo.Message{Type: Probe, From: 0, Index: c}) }, "reply>0 <1,0> 0"},
		{"8 answers the probe as a non-parent", func() {
			n.Receive(env, &algo.Message{Type: Ack, From: 8, Index: c, Peer: algo.NoPeer})
		}, ""},
		{"5's Ack: the subtree is done", func() {
			n.Receive(env, &algo.Message{Type: Ack, From: 5, Index: c, Peer: algo.Peer{ID: 5, Value: 5}})
		}, "ack>0 <1,0> 5"},
		{"the parent probes again: its Ack was lost", func() { n.Receive(env, &algo.Message{Type: Probe, From: 0, Index: c}) }, "ack>0 <1,0> 5"},
		{"a non-parent probes: it lost this node's Election", func() { n.Receive(env, &algo.Message{Type: Probe, From: 7, Index: c}) }, "ack>7 <1,0> -1"},
		{"the Leader: one broadcast", func() {
			n.Receive(env, &algo.Message{Type: Leader, From: 0, Index: c, Peer: algo.Peer{ID: 5, Value: 5}})
		}, "leader>* <1,0> 5"},
		{"another copy dies", func() {
			n.Receive(env, &algo.Message{Type: Leader, From: 5, Index: c, Peer: algo.Peer{ID: 5, Value: 5}})
		}, ""},
		{"a latecomer's Election of the finished computation", func() { n.Receive(env, elect(8, 7, 0)) }, "leader>8 <1,0> 5"},
		{"a latecomer's probe", func() { n.Receive(env, &algo.Message{Type: Probe, From: 7, Index: c}) }, "leader>7 <1,0> 5"},
		{"a higher computation: joined, one Election", func() {
			n.Receive(env, &algo.Message{Type: Election, From: 7, Index: algo.Index{Num: 2, ID: 9}, Peer: algo.Peer{ID: 9}})
		}, "election>* <2,9> 7"},
		{"a neighbour appears: the Election alone, to be answered as a probe", func() { n.NeighborUp(env, 6) }, "election>6 <2,9> 7 (again)"},
		{"it is in the computation under another node", func() {
			n.Receive(env, &algo.Message{Type: Election, From: 6, Index: algo.Index{Num: 2, ID: 9}, Peer: algo.Peer{ID: 2}, Level: 1})
		}, "ack>6 <2,9> -1"},
	}
	for _, s := range steps {
		s.do()
		if got := env.Take(); got != s.want {
			t.Fatalf("%s: sent %q, want %q", s.what, got, s.want)
		}
	}
	if i, found := n.find(6); found {
		t.Errorf("6 named another parent and is still awaited (S[%d])", i)
	}
}

// A leaf acks at once and transmits nothing: its only neighbour is the
// parent. Heartbeats are forwarded as one broadcast, and not at all by a
// node whose only neighbour sent them.
func TestBroadcastLeafAndHeartbeats(t *testing.T) {
	env := newEnv(9, 0)
	n := broadcastNode(9)
	n.Receive(env, &algo.Message{Type: Election, From: 0, Index: algo.Index{Num: 1, ID: 0}, Peer: algo.Peer{ID: algo.None}})
	expect(t, env, "ack>0 <1,0> 9")

	env = newEnv(4, 1, 2, 3)
	n = broadcastNode(4)
	n.follow(env, algo.Peer{ID: 5, Value: 5})
	hb := &algo.Message{Type: Heartbeat, From: 1, Peer: algo.Peer{ID: 5, Value: 5}, Index: algo.Index{Num: 1, ID: 5}}
	n.Receive(env, hb)
	expect(t, env, "heartbeat>* <1,5> 5")
	n.Receive(env, hb)
	expect(t, env, "")

	env = newEnv(6, 1)
	n = broadcastNode(6)
	n.follow(env, algo.Peer{ID: 7, Value: 7})
	n.Receive(env, &algo.Message{Type: Heartbeat, From: 1, Peer: algo.Peer{ID: 7, Value: 7}, Index: algo.Index{Num: 1, ID: 7}})
	expect(t, env, "")
}
