package node

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	elrt "github.com/electgo/elect/runtime"
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

// Issue 31 B: one unsigned hello in a listed peer's name, numbered with the
// present time, carrying the fence 0xffffffff<<32|1, made every leader
// compute the next token (0xffffffff+1)<<32, which wrapped to 0: the
// leader's token fell below the one it held, three nodes reported leading,
// and the poisoned fence was saved. A counter at the end of its range is
// now refused with the datagram (ReasonRange), as is a message's election
// number 2^32-1: the leader keeps its token, one node leads.
func TestForgedFenceAtRangeEnd(t *testing.T) {
	c := newCluster(t, 3, nil)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	before := c.nodes[2].Status()
	if !before.Leading() {
		t.Fatalf("leader 2: %+v", before)
	}
	f := &forger{ep: c.net.Listen()}
	defer f.ep.Close()
	now := uint64(time.Now().UnixNano())
	for i, to := range []algo.NodeID{0, 1, 2} {
		b, err := f.codec.AppendHello(nil, (to+1)%3, now+uint64(i), int64((to+1)%3), 0xffffffff<<32|1)
		if err != nil {
			t.Fatal(err)
		}
		f.ep.WriteTo(b, c.addrs[to])
		f.message(t, c.addrs[to], algo.Message{Type: 0, From: (to + 1) % 3, To: to, Index: algo.Index{Num: math.MaxUint32, ID: (to + 1) % 3}}, now+uint64(i)+10)
	}
	time.Sleep(5 * fastHello)
	leading := 0
	for i := range 3 {
		st := c.nodes[i].Status()
		if st.Leading() {
			leading++
		}
		if st.FencingToken>>32 == 0xffffffff || st.FencingToken < before.FencingToken && st.Leading() {
			t.Errorf("node %d: fencing token %#x after the forgery (the leader held %#x)", i, st.FencingToken, before.FencingToken)
		}
		if got := c.nodes[i].metrics.rejected[elrt.ReasonRange].Load(); got != 2 {
			t.Errorf("node %d refused %d datagrams at the end of a range, want 2 (the hello and the message)", i, got)
		}
	}
	after := c.nodes[2].Status()
	if leading != 1 || !after.Leading() || after.FencingToken != before.FencingToken {
		t.Errorf("%d nodes lead; leader 2 leading %v with token %#x, it held %#x", leading, after.Leading(), after.FencingToken, before.FencingToken)
	}
}

// nextToken never wraps: at the end of the counter's range there is no
// token, rather than one below every token issued.
func TestNextTokenRange(t *testing.T) {
	for _, c := range []struct {
		fence, index uint64
		want         uint64
		ok           bool
	}{
		{0, 0, 1<<32 | 3, true},
		{5<<32 | 1, 2, 6<<32 | 3, true},
		{1<<32 | 1, 9, 10<<32 | 3, true},
		{0xfffffffe << 32, 0, 0xffffffff<<32 | 3, true},
		{0xffffffff<<32 | 1, 0, 0, false},
		{0, math.MaxUint32, 0, false},
	} {
		got, ok := nextToken(c.fence, c.index, 3)
		if got != c.want || ok != c.ok {
			t.Errorf("nextToken(%#x, %d) = %#x, %v; want %#x, %v", c.fence, c.index, got, ok, c.want, c.ok)
		}
	}
}

// A fence saved at the end of its range (by a node that took a forged one
// before they were refused) is not taken back: the node leads with a
// token again.
func TestPoisonedSavedFence(t *testing.T) {
	dir := t.TempDir()
	if err := elrt.StateDir(dir).Store(elrt.Saved{Algorithm: "vkt", ID: 0, ElectionIndex: 1, Fence: 0xffffffff<<32 | 1}); err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, 1, func(cfg *Config) { cfg.StateDir = dir })
	c.waitAgree(ids(0, 1), 0, 5*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for !c.nodes[0].Status().Leading() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if st := c.nodes[0].Status(); !st.Leading() || st.FencingToken>>32 == 0xffffffff {
		t.Errorf("leading %v, token %#x: the saved forgery stopped it", st.Leading(), st.FencingToken)
	}
}
