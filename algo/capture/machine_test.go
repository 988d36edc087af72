package capture

import (
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
)

func expect(t *testing.T, env *algotest.Env, want string) {
	t.Helper()
	if got := env.Take(); got != want {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

// A candidate of A_Elect_Leader_C walked by hand on complete:4, node 1
// (value 1): it captures 2, then 3 (whose owner 0 it must eliminate first),
// then 0, and wins; the winner names the most valued candidate it heard of.
func TestAsyncByHand(t *testing.T) {
	c := &config{}
	env := algotest.New(1, AsyncMessages, 0, 2, 3)
	a := c.newAsync(1).(*asyncNode)
	a.Start(env)
	a.Elect(env)                        // a candidate: the driver's initiator
	expect(t, env, "capture>2 <0,0> 1") // rotate: the first id above its own
	a.Receive(env, &algo.Message{Type: Ack, From: 2, Peer: algo.Peer{ID: 2, Value: 2}})
	if a.owns != 1 || a.level != 1 {
		t.Fatalf("owns %d level %d, want 1 and 1", a.owns, a.level)
	}
	// algotest writes a Level of 1 as "(again)": here, level 1.
	expect(t, env, "capture>3 <0,0> 1 (again)")
	a.Receive(env, &algo.Message{Type: Check, From: 3, Peer: algo.Peer{ID: 0}})
	expect(t, env, "eliminate>0 <0,0> 1 (again)")
	a.Receive(env, &algo.Message{Type: Eliminated, From: 0})
	expect(t, env, "capture>3 <0,0> 1 (again)")
	a.Receive(env, &algo.Message{Type: Ack, From: 3, Peer: algo.NoPeer})
	expect(t, env, "capture>0 <0,0> 1 (again)")
	a.Receive(env, &algo.Message{Type: Ack, From: 0, Peer: algo.Peer{ID: 0, Value: 0}})
	expect(t, env, "leader>0 <0,0> 2; leader>2 <0,0> 2; leader>3 <0,0> 2")
	if st := a.Status(); st.Leader != 2 || st.State != algo.Norm {
		t.Errorf("status %+v", st)
	}
}

// The capture action of A_Elect_Leader_C at a node that is not a candidate.
func TestAsyncCaptureActions(t *testing.T) {
	c := &config{} // not a candidate: no Elect
	env := algotest.New(5, AsyncMessages, 0, 1, 2, 3)
	a := c.newAsync(5).(*asyncNode)
	a.Start(env)
	expect(t, env, "")
	// No owner yet (reading 4): captured at once.
	a.Receive(env, &algo.Message{Type: Capture, From: 1, Level: 0, Peer: algo.Peer{ID: 1, Value: 1}})
	expect(t, env, "ack>1 <0,0> -1")
	// (0, 1) < (1, 0): level first; check(1) goes to the capturer.
	a.Receive(env, &algo.Message{Type: Capture, From: 0, Level: 1, Peer: algo.Peer{ID: 0}})
	expect(t, env, "check>0 <0,0> 1")
	// (1, 0) > (1, 2)? no: 2 is higher, it becomes p_owner.
	a.Receive(env, &algo.Message{Type: Capture, From: 2, Level: 1, Peer: algo.Peer{ID: 2, Value: 2}})
	expect(t, env, "check>2 <0,0> 1")
	// 0's capture again, after eliminating 1: p_owner is 2 now: nack.
	a.Receive(env, &algo.Message{Type: Capture, From: 0, Level: 1, Peer: algo.Peer{ID: 0}})
	expect(t, env, "nack>0 <0,0> 0")
	// 2's capture again: p_owner_id = id_2, it owns the node.
	a.Receive(env, &algo.Message{Type: Capture, From: 2, Level: 1, Peer: algo.Peer{ID: 2, Value: 2}})
	expect(t, env, "ack>2 <0,0> -1")
	if a.owner.ID != 2 {
		t.Errorf("owner %v", a.owner)
	}
}

// Eliminate at a candidate: a lower (level, id) is refused with nack, a
// higher one eliminates it.
func TestAsyncEliminate(t *testing.T) {
	c := &config{}
	env := algotest.New(2, AsyncMessages, 0, 1, 3)
	a := c.newAsync(2).(*asyncNode)
	a.Start(env)
	a.Elect(env) // a candidate: the driver's initiator
	expect(t, env, "capture>3 <0,0> 2")
	a.Receive(env, &algo.Message{Type: Eliminate, From: 1, Level: 0, Peer: algo.Peer{ID: 1, Value: 1}})
	expect(t, env, "nack>1 <0,0> 0")
	a.Receive(env, &algo.Message{Type: Eliminate, From: 0, Level: 1, Peer: algo.Peer{ID: 0}})
	expect(t, env, "eliminated>0 <0,0> 0")
	a.Receive(env, &algo.Message{Type: Ack, From: 3, Peer: algo.Peer{ID: 3, Value: 3}})
	expect(t, env, "") // reading 6: no longer a candidate
	if a.candidate || a.Status().State != algo.Wait {
		t.Errorf("still a candidate: %+v", a.Status())
	}
}

// S_Elect_Leader_C by hand at a node of complete:4: captured in pulse 1 by
// the best of two candidates, it acks only that one.
func TestSyncCapturedOnce(t *testing.T) {
	c := &config{} // not a candidate: no Elect
	env := algotest.New(1, SyncMessages, 0, 2, 3)
	s := c.newSync(1).(*syncNode)
	s.Start(env)
	env.Clock = algo.PulseLength
	s.Receive(env, &algo.Message{Type: SyncCapture, From: 3, Peer: algo.Peer{ID: 3, Value: 3}})
	s.Receive(env, &algo.Message{Type: SyncCapture, From: 2, Peer: algo.Peer{ID: 2, Value: 2}})
	if env.Timers[tick] != algo.PulseLength/2 {
		t.Fatalf("timer %v", env.Timers[tick])
	}
	env.Clock += algo.PulseLength / 2
	s.Timer(env, tick)
	expect(t, env, "ack>3 <0,0> 1")
	// Pulse 3: 2 tries again, but 3 owns the node.
	env.Clock = 3 * algo.PulseLength
	s.Receive(env, &algo.Message{Type: SyncCapture, From: 2, Peer: algo.Peer{ID: 2, Value: 2}})
	env.Clock += algo.PulseLength / 2
	s.Timer(env, tick)
	expect(t, env, "")
}
