package node

import (
	"sync"
	"testing"
	"time"
)

// resource is what a leader acts on: it refuses a token below the highest
// it has been shown, as a fenced store does.
type resource struct {
	mu      sync.Mutex
	highest uint64
}

func (r *resource) write(token uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if token == 0 || token < r.highest {
		return false
	}
	r.highest = token
	return true
}

// The first finding of issue 20: a leader paused (as by SIGSTOP) while the
// others elect another, then resumed, took its followers back by heartbeat
// with its old election index. Its tokens now: the paused leader's writes
// with the token it held are refused once the new leader has written; when
// it leads again it holds a token above the new leader's, and its writes are
// accepted while the deposed one's are refused.
func TestPausedLeaderFenced(t *testing.T) {
	c := newCluster(t, 3, nil)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	var res resource
	old := c.nodes[2].Status()
	if !old.Leading() || !old.Fenced || !res.write(old.FencingToken) {
		t.Fatalf("leader 2: %+v, its write refused", old)
	}

	// Node 2 freezes: its loop runs nothing for a second, as a stopped
	// process does; its datagrams wait in its queue.
	resumed := make(chan struct{})
	go func() {
		c.nodes[2].do(func() { time.Sleep(time.Second) })
		close(resumed)
	}()
	c.waitAgree(ids(0, 2), 1, 5*time.Second)
	mid := c.nodes[1].Status()
	if !mid.Leading() || mid.FencingToken <= old.FencingToken || !res.write(mid.FencingToken) {
		t.Fatalf("new leader 1: token %d (the old one's %d), leading %v", mid.FencingToken, old.FencingToken, mid.Leading())
	}
	<-resumed
	// What the resumed leader's application still holds is refused.
	if res.write(old.FencingToken) {
		t.Errorf("the resumed leader's token %d was accepted after %d", old.FencingToken, mid.FencingToken)
	}

	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	var back Status
	waitFor(5*time.Second, func() bool { back = c.nodes[2].Status(); return back.Fenced && back.FencingToken > mid.FencingToken })
	if !back.Leading() || back.FencingToken <= mid.FencingToken {
		t.Fatalf("node 2 leads again with token %d, not above %d: %+v", back.FencingToken, mid.FencingToken, back)
	}
	if !res.write(back.FencingToken) {
		t.Errorf("the current leader's token %d was refused", back.FencingToken)
	}
	if res.write(mid.FencingToken) {
		t.Errorf("the deposed leader's token %d was accepted after %d", mid.FencingToken, back.FencingToken)
	}
	// Followers report the highest token they know: the leader's.
	waitFor(time.Second, func() bool { return c.nodes[0].Status().FencingToken == back.FencingToken })
	if f := c.nodes[0].Status(); f.FencingToken != back.FencingToken || f.Fenced {
		t.Errorf("follower 0 reports token %d (fenced %v), want the leader's %d", f.FencingToken, f.Fenced, back.FencingToken)
	}
}
