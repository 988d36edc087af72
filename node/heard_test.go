package node

import (
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/runtime"
)

// tap records what a transport sends to one address: a capture.
type tap struct {
	runtime.Transport
	to  netip.AddrPort
	mu  sync.Mutex
	got [][]byte
}

func (t *tap) WriteTo(b []byte, addr netip.AddrPort) error {
	if addr == t.to {
		t.mu.Lock()
		t.got = append(t.got, slices.Clone(b))
		t.mu.Unlock()
	}
	return t.Transport.WriteTo(b, addr)
}

// The third finding of issue 20: after a node restarted, signed datagrams
// of a dead leader captured before and replayed at their pace were all
// taken, and it followed the dead leader for as long as the capture
// lasted. Now its replay windows are saved with its state: a node
// recovered from its state refuses the whole capture, and keeps its leader.
func TestReplayAfterRestart(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	c := newCluster(t, 3, func(cfg *Config) { cfg.Key, cfg.StateDir = key, dirs[cfg.ID] })
	c.waitAgree(ids(0, 3), 2, 5*time.Second)

	// Node 2, the leader, is captured for half a second on its way to 0.
	c.stop(2)
	capture := &tap{Transport: c.net.Listen(), to: c.addrs[0]}
	c.start(2, capture)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	time.Sleep(500 * time.Millisecond)
	c.stop(2) // the leader dies
	c.waitAgree(ids(0, 2), 1, 5*time.Second)
	capture.mu.Lock()
	datagrams := slices.Clone(capture.got)
	capture.mu.Unlock()

	// Node 0 stops cleanly and comes back with its state, on its address.
	c.stop(0)
	ep := c.net.Listen()
	c.addrs[0] = ep.LocalAddr()
	c.cfgs[1].Peers = c.addrs // node 1 learns the new address from 0's hellos
	c.start(0, ep)
	c.waitAgree(ids(0, 2), 1, 5*time.Second)

	replayed := c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load()
	attacker := c.net.Listen()
	defer attacker.Close()
	for i, b := range datagrams {
		attacker.WriteTo(b, c.addrs[0])
		if i%10 == 0 {
			time.Sleep(fastHello / 2) // at about the pace they were sent
		}
	}
	time.Sleep(2 * fastLoss * fastHello)
	st := c.nodes[0].Status()
	if st.Leader != 1 || !st.HasLeader() || slices.Contains(st.Neighbors, 2) {
		t.Errorf("after the replay node 0 follows %d (%v), neighbours %v; want 1, and 2 gone", st.Leader, st.State, st.Neighbors)
	}
	refused := c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load() - replayed
	if len(datagrams) < 10 || refused != uint64(len(datagrams)) {
		t.Errorf("%d captured datagrams replayed, %d refused as replays; want them all (and a capture of 10 or more)", len(datagrams), refused)
	}
}
