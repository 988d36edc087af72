package park

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
	"github.com/electgo/elect/algo/algotest"
)

func testNode(id algo.NodeID) *node {
	c := &config{up: adhoc.Config{Heartbeat: time.Second, Timeout: 3 * time.Second, Type: Heartbeat},
		resend: 500 * time.Millisecond, ackTimeout: 2 * time.Second, electionTimeout: 10 * time.Second}
	return c.newNode(id).(*node)
}

func expect(t *testing.T, env *algotest.Env, want string) {
	t.Helper()
	if got := env.Take(); got != want {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

// Section 4.2, point 4: a member that does not answer is sent Election
// again (if it is a neighbour) after the resend interval, and dropped from
// wl after the ack timeout; the source then decides with the members it has.
func TestResendThenDrop(t *testing.T) {
	env := algotest.New(0, MessageNames, 1, 2)
	n := testNode(0)
	n.Start(env)
	expect(t, env, "election>1 <1,0> 0; election>2 <1,0> 0")
	// 1 answers and names 5, which is not a neighbour of the source.
	n.Receive(env, &algo.Message{Type: Ack, From: 1, Index: algo.Index{Num: 1, ID: 0}, Peer: algo.Peer{ID: 1, Value: 1},
		Peers: []algo.Peer{{ID: 0}, {ID: 5}}})
	if len(n.wl) != 2 || n.wl[0].id != 2 || n.wl[1].id != 5 {
		t.Fatalf("wl %+v, want 2 and 5", n.wl)
	}
	env.Clock = 500 * time.Millisecond
	n.Timer(env, timerResend)
	expect(t, env, "election>2 <1,0> 0 (again)") // 5 is not a neighbour: nothing to resend
	env.Clock = time.Second
	n.Timer(env, timerResend)
	expect(t, env, "") // once only
	env.Clock = 2 * time.Second
	n.Timer(env, timerResend) // 2 and 5 have been awaited for 2s: dropped
	expect(t, env, "leader>1 <1,0> 1; leader>2 <1,0> 1")
	if st := n.Status(); st.State != algo.Norm || st.Leader != 1 {
		t.Errorf("status %+v, want Norm following 1", st)
	}
}

// A node that joined answers a repeated Election with its Ack again, and
// passes other nodes' Acks on toward the source; it ignores plain copies.
func TestAckAgainAndRelay(t *testing.T) {
	env := algotest.New(3, MessageNames, 0, 4)
	n := testNode(3)
	src := algo.Index{Num: 1, ID: 9}
	n.Receive(env, &algo.Message{Type: Election, From: 0, Index: src})
	expect(t, env, "election>4 <1,9> 0; ack>0 <1,9> 3")
	n.Receive(env, &algo.Message{Type: Election, From: 4, Index: src})
	expect(t, env, "")
	n.Receive(env, &algo.Message{Type: Election, From: 0, Index: src, Level: 1})
	expect(t, env, "ack>0 <1,9> 3")
	n.Receive(env, &algo.Message{Type: Ack, From: 4, Index: src, Peer: algo.Peer{ID: 4, Value: 4}})
	expect(t, env, "ack>0 <1,9> 4")
	n.Receive(env, &algo.Message{Type: Ack, From: 4, Index: algo.Index{Num: 1, ID: 2}, Peer: algo.Peer{ID: 4}})
	expect(t, env, "") // an Ack of another election
}

// A node that is not an initiator boots silent, the timeout armed; it waits
// in an election that reaches it, and elects when the timeout fires.
func TestNonInitiatorWaits(t *testing.T) {
	c := &config{up: adhoc.Config{Heartbeat: time.Second, Timeout: 3 * time.Second, Type: Heartbeat, Chosen: true, Initiators: []algo.NodeID{0}},
		resend: 500 * time.Millisecond, ackTimeout: 2 * time.Second, electionTimeout: 10 * time.Second}
	env := algotest.New(4, MessageNames, 1, 2)
	n := c.newNode(4).(*node)
	n.Start(env)
	expect(t, env, "")
	if d, ok := env.Timers[adhoc.TimerTimeout]; !ok || d != 3*time.Second {
		t.Fatalf("timers %v, want the timeout armed at 3s", env.Timers)
	}
	n.Receive(env, &algo.Message{Type: Election, From: 1, Index: algo.Index{Num: 1, ID: 0}})
	expect(t, env, "election>2 <1,0> 0; ack>1 <1,0> 4")
	if st := n.Status(); st.State != algo.Wait {
		t.Errorf("status %+v, want Wait", st)
	}

	env = algotest.New(5, MessageNames, 1)
	m := c.newNode(5).(*node)
	m.Start(env)
	expect(t, env, "")
	m.Timer(env, adhoc.TimerTimeout)
	expect(t, env, "election>1 <1,5> 0")
}
