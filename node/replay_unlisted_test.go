package node

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Issue 31's finding A: with a key, nodes take neighbours they were not
// given as peers, and forgot such a neighbour's replay window after 10 loss
// limits of silence. Killed, then replayed to the survivors past that, a
// leader they never listed had its captured traffic taken (83 of 83), and
// was named as their leader again. A window is now kept as long as a
// datagram could be taken at all (maxAhead + maxBehind), and one older
// than maxBehind is refused whoever receives it.
func TestReplayOfUnlistedPeer(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	c := newCluster(t, 4, func(cfg *Config) {
		cfg.Key = key
		if cfg.ID != 3 {
			// Nodes 0-2 list one another, not 3: they take it as a
			// neighbour because it signs with the key.
			cfg.Peers = maps.Clone(cfg.Peers)
			delete(cfg.Peers, 3)
		}
	})
	c.waitAgree(ids(0, 4), 3, 5*time.Second)

	// Node 3 runs again on a tapped endpoint, leads again, and its
	// traffic is captured for a while.
	c.stop(3)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	tp := &tap{Transport: c.net.Listen(), to: c.addrs[0]}
	c.start(3, tp)
	c.waitAgree(ids(0, 4), 3, 5*time.Second)
	time.Sleep(500 * time.Millisecond)
	c.stop(3)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)

	// Past the old limit (10 loss limits), the capture of what went to
	// node 0 is replayed to it from another address.
	time.Sleep(2 * forgetAfter * fastLoss * fastHello)
	before := c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load()
	f := c.net.Listen()
	defer f.Close()
	tp.mu.Lock()
	sent := slices.Clone(tp.got)
	tp.mu.Unlock()
	followed := 0
	for k, d := range sent {
		f.WriteTo(d, c.addrs[0])
		if k%10 == 9 {
			time.Sleep(fastHello)
			if st := c.nodes[0].Status(); st.Leader == 3 {
				followed++
			}
		}
	}
	time.Sleep(5 * fastHello)
	refused := c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load() - before
	if st := c.nodes[0].Status(); st.Leader == 3 {
		followed++
	}
	if followed > 0 || refused < uint64(len(sent)) {
		t.Errorf("%d of %d replayed datagrams refused as replays, the dead node 3 named leader in %d samples", refused, len(sent), followed)
	}

	// A datagram older than maxBehind is refused even where no window
	// holds its sender.
	old := runtime.Codec{Key: key}
	b, err := old.AppendHello(nil, 7, uint64(time.Now().Add(-maxBehind-time.Second).UnixNano()), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	was := c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load()
	f.WriteTo(b, c.addrs[0])
	time.Sleep(5 * fastHello)
	if c.nodes[0].metrics.rejected[runtime.ReasonReplay].Load() != was+1 || slices.Contains(c.nodes[0].Status().Neighbors, algo.NodeID(7)) {
		t.Errorf("a datagram %v old was taken", maxBehind+time.Second)
	}
}
