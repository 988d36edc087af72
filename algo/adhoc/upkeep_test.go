package adhoc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
)

// A leader elected again (another node's election chose it, or a Leader of
// a higher computation came back to it) goes on with its heartbeats'
// sequence: a follower that was not part of that election still holds the
// last number it saw, and would take beats numbered from 1 again for copies
// already forwarded, until its timeout started an election (seen in the
// chaos soak: three needless elections after a leader's re-election).
func TestBeatsNeverGoBack(t *testing.T) {
	cfg := &Config{Heartbeat: 200 * time.Millisecond, Timeout: time.Second}
	self := algo.Peer{ID: 4, Value: 4}
	lenv := algotest.New(4, []string{"heartbeat"}, 1)
	leader := Leadership{Cfg: cfg, Leader: algo.NoPeer}
	fenv := algotest.New(1, []string{"heartbeat"}, 4)
	follower := Leadership{Cfg: cfg, Leader: algo.NoPeer}
	follower.Follow(fenv, algo.Peer{ID: 1, Value: 1}, self)

	beat := func() *algo.Message { // what the leader sends, as the follower gets it
		leader.Beat(lenv)
		var seq uint32
		if sent := lenv.Take(); !strings.HasPrefix(sent, "heartbeat>1 <") {
			t.Fatalf("the leader sent %q", sent)
		} else if _, err := fmt.Sscanf(sent, "heartbeat>1 <%d,", &seq); err != nil {
			t.Fatalf("reading %q: %v", sent, err)
		}
		return &algo.Message{Type: 0, From: 4, Peer: leader.Leader, Index: algo.Index{Num: seq, ID: 4}}
	}
	leader.Follow(lenv, self, self)
	for range 3 {
		follower.Heartbeat(fenv, algo.Peer{ID: 1, Value: 1}, beat())
	}
	if follower.seq != 3 {
		t.Fatalf("follower saw beat %d, want 3", follower.seq)
	}
	leader.Follow(lenv, self, self) // elected again; the follower did not take part
	delete(fenv.Timers, TimerTimeout)
	m := beat()
	if m.Index.Num != 4 {
		t.Errorf("the leader's next beat is %d, want 4", m.Index.Num)
	}
	follower.Heartbeat(fenv, algo.Peer{ID: 1, Value: 1}, m)
	if _, ok := fenv.Timers[TimerTimeout]; !ok {
		t.Error("the follower took the re-elected leader's beat for a copy: its timeout was not moved")
	}
	// Its own beat, come back by another path, is still a copy.
	if elect := leader.Heartbeat(lenv, self, m); elect || lenv.Take() != "" {
		t.Error("the leader forwarded its own beat")
	}
}
