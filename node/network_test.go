package node

import (
	"errors"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// New refuses a fixed network that is not the one the algorithm assumes,
// saying what it needs; it takes the one it assumes.
func TestFixedNetworkChecked(t *testing.T) {
	addr := netip.MustParseAddrPort("127.0.0.1:9")
	peers := func(ids ...algo.NodeID) map[algo.NodeID]netip.AddrPort {
		m := map[algo.NodeID]netip.AddrPort{}
		for _, id := range ids {
			m[id] = addr
		}
		return m
	}
	for _, c := range []struct {
		alg   string
		size  int
		peers map[algo.NodeID]netip.AddrPort
		want  string // "" for accepted
	}{
		{"chang-roberts", 0, peers(1, 3), "give the network's size"},
		{"chang-roberts", 4, peers(1, 3), ""},
		{"chang-roberts", 4, peers(1, 2, 3), "has 3 peers, want its two neighbours"},
		{"chang-roberts", 2, peers(1), "a ring of 3 or more nodes"},
		{"bully", 4, peers(1, 2, 3), ""},
		{"bully", 4, peers(1, 2), "has 2 peers, want all 3 other nodes"},
		{"bully", 4, peers(0, 1, 2, 3), ""}, // itself listed: not a peer
		{"echo", 0, peers(1), ""},
		{"echo", 3, peers(1, 5), "peer id 5: a fixed network of 3 nodes has ids 0..2"},
		{"vkt", -1, nil, "network size -1"},
	} {
		_, err := New(Config{ID: 0, Algorithm: c.alg, Size: c.size, Peers: c.peers, Transport: runtime.NewMemNetwork().Listen(),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s, size %d, peers %v: %v", c.alg, c.size, c.peers, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s, size %d, peers %v: %v, want an error holding %q", c.alg, c.size, c.peers, err, c.want)
		}
	}
}

// A node of a fixed network refuses a datagram from a node outside it, and
// keeps nothing for it.
func TestStrangerRefused(t *testing.T) {
	c := newCluster(t, 3, func(cfg *Config) {
		cfg.Size = 2
		if cfg.ID == 2 {
			cfg.Size = 0 // the stranger: beacons to both
		} else {
			delete(cfg.Peers, 2)
		}
	})
	c.waitAgree([]int{0, 1}, 1, 5*time.Second)
	time.Sleep(5 * fastHello)
	for i := range 2 {
		nd := c.nodes[i]
		if got := nd.metrics.rejected[runtime.ReasonStranger].Load(); got == 0 {
			t.Errorf("node %d refused no stranger's datagram", i)
		}
		var seen bool
		nd.do(func() { seen = nd.nbrs[2] != nil })
		if seen || len(nd.Status().Neighbors) != 1 {
			t.Errorf("node %d keeps the stranger: neighbours %v", i, nd.Status().Neighbors)
		}
	}
}

// The faults of the ring document on real nodes: a node that dies when the
// gathering reaches it, a node that dies in the confirmation, and a joker.
// The commander reports what the document's control process is told, and
// the most valued live node leads in the end.
func TestRingFaultsOnRealNodes(t *testing.T) {
	for _, c := range []struct {
		name    string
		crashOn string
		faulty  int
		report  string
		leader  algo.NodeID
	}{
		{"dead at gathering", "gather", 2, "failure during gather", 3},
		{"dead at confirmation", "confirm", 3, "failure during confirm", 2},
		{"joker", "", 2, "altered by node 2", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newCluster(t, 4, func(cfg *Config) {
				cfg.Algorithm, cfg.Size, cfg.Initiator = "ring", 4, cfg.ID == 0
				cfg.Params = map[string]string{"timeout": "300ms", "wait_timeout": "1s"}
				cfg.Peers = linked(cfg.Peers, []algo.NodeID{(cfg.ID + 1) % 4, (cfg.ID + 3) % 4})
				if cfg.ID == algo.NodeID(c.faulty) {
					cfg.CrashOn, cfg.Corrupt = c.crashOn, c.crashOn == ""
				}
			})
			live := []int{0, 1, 2, 3}
			if c.crashOn != "" {
				var crashed *CrashedOnError
				select {
				case err := <-cl.ended[c.faulty]:
					if !errors.As(err, &crashed) || crashed.Message != c.crashOn || crashed.ID != algo.NodeID(c.faulty) {
						t.Fatalf("node %d ended with %v, want a crash on %s", c.faulty, err, c.crashOn)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("node %d did not crash on %s", c.faulty, c.crashOn)
				}
				cl.stops[c.faulty] = nil // ended
				live = append(live[:c.faulty], live[c.faulty+1:]...)
			}
			cl.waitAgree(live, c.leader, 10*time.Second)
			var said []string
			for _, r := range cl.nodes[0].Reports() {
				said = append(said, r.What)
			}
			if !strings.Contains(strings.Join(said, "\n"), c.report) {
				t.Errorf("the commander reported %q, want a report holding %q", said, c.report)
			}
		})
	}
}
