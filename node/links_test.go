package node

import (
	"io"
	"log/slog"
	"maps"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// counted is a test algorithm that does not tolerate loss: each node sends
// every neighbour it has at its start, and every one that comes up later,
// the numbers 1 to countTo, and records what
// it receives from each. It follows itself (the election is not the point).
var counted = struct {
	sync.Mutex
	got map[[2]algo.NodeID][]uint32 // by (receiver, sender)
}{got: map[[2]algo.NodeID][]uint32{}}

const countTo = 60

type counter struct{ id algo.NodeID }

func (c *counter) Restart(algo.Env)                   {}
func (c *counter) Recover(algo.Env, []byte) error     { return nil }
func (c *counter) Save() []byte                       { return nil }
func (c *counter) Timer(algo.Env, algo.Timer)         {}
func (c *counter) NeighborDown(algo.Env, algo.NodeID) {}
func (c *counter) Elect(algo.Env)                     {}
func (c *counter) Status() algo.Status                { return algo.Status{Leader: c.id, State: algo.Norm} }
func (c *counter) Start(env algo.Env) {
	for _, id := range env.Neighbors() {
		c.NeighborUp(env, id)
	}
}
func (c *counter) NeighborUp(env algo.Env, id algo.NodeID) {
	for k := uint32(1); k <= countTo; k++ {
		env.Send(id, algo.Message{Type: 0, Index: algo.Index{Num: k, ID: c.id}})
	}
}
func (c *counter) Receive(env algo.Env, m *algo.Message) {
	counted.Lock()
	defer counted.Unlock()
	k := [2]algo.NodeID{c.id, m.From}
	counted.got[k] = append(counted.got[k], m.Index.Num)
}

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "test-node-counted",
		Summary:  "test: numbered messages to every neighbour, over links that must not lose them",
		Messages: []string{"count"},
		Model:    algo.Model{Spontaneous: true, Crash: true, FIFO: true},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			return func(id algo.NodeID) algo.Machine { return &counter{id: id} }, nil
		},
	})
}

// An algorithm that does not tolerate loss gets every message once and in
// order, over links that lose 20% of datagrams, duplicate 10% and reorder
// them; the links' retransmissions and acknowledgements are counted apart
// from its messages.
func TestReliableLinksUnderLoss(t *testing.T) {
	const n = 3
	c := countedCluster(t, n, runtime.Faults{Loss: 0.2, Duplicate: 0.1, Jitter: 5 * time.Millisecond}, runtime.ReliableConfig{})
	want := make([]uint32, countTo)
	for k := range want {
		want[k] = uint32(k + 1)
	}
	complete := func() bool {
		counted.Lock()
		defer counted.Unlock()
		for a := range n {
			for b := range n {
				if a != b && !slices.Equal(counted.got[[2]algo.NodeID{algo.NodeID(a), algo.NodeID(b)}], want) {
					return false
				}
			}
		}
		return true
	}
	waitFor(20*time.Second, complete)
	for i := range n {
		c.stop(i)
	}
	counted.Lock()
	defer counted.Unlock()
	for a := range n {
		for b := range n {
			if got := counted.got[[2]algo.NodeID{algo.NodeID(a), algo.NodeID(b)}]; a != b && !slices.Equal(got, want) {
				t.Errorf("node %d got from %d: %v, want 1 to %d once each, in order", a, b, got, countTo)
			}
		}
	}
	var retransmits, sent uint64
	for _, nd := range c.nodes {
		retransmits += nd.metrics.retransmits.Load()
		sent += nd.metrics.sent[0].Load()
	}
	if sent != n*(n-1)*countTo || retransmits == 0 {
		t.Errorf("%d messages counted sent (want %d, the algorithm's own), %d retransmissions (want some at 20%% loss)", sent, n*(n-1)*countTo, retransmits)
	}
}

// countedCluster runs n nodes of test-node-counted (newFaultyCluster), with
// reliable links bounded by rc, and forgets what earlier runs counted.
func countedCluster(t *testing.T, n int, faults runtime.Faults, rc runtime.ReliableConfig) *cluster {
	t.Helper()
	counted.Lock()
	counted.got = map[[2]algo.NodeID][]uint32{}
	counted.Unlock()
	return newFaultyCluster(t, n, faults, func(cfg *Config) {
		cfg.Algorithm, cfg.HelloLoss, cfg.Reliable = "test-node-counted", 25, rc
	})
}

// waitFor polls cond until it holds or limit passes.
func waitFor(limit time.Duration, cond func() bool) {
	deadline := time.Now().Add(limit)
	for !cond() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// A link that goes unacknowledged past its bound takes its neighbour down
// (before its hellos' silence would), and is counted; when the two meet
// again the link starts over in a new epoch, and the machine's messages of
// the new meeting arrive whole and in order.
func TestReliableLinkFailure(t *testing.T) {
	rc := runtime.ReliableConfig{Window: 64, RTO: 10 * time.Millisecond, MaxRTO: 20 * time.Millisecond, Tries: 3}
	c := countedCluster(t, 2, runtime.Faults{}, rc)
	nodes := c.nodes
	got := func(a, b algo.NodeID) []uint32 {
		counted.Lock()
		defer counted.Unlock()
		return slices.Clone(counted.got[[2]algo.NodeID{a, b}])
	}
	waitFor(5*time.Second, func() bool { return len(got(0, 1)) == countTo && len(got(1, 0)) == countTo })
	if len(got(0, 1)) != countTo {
		t.Fatalf("before the cut node 0 got %d of %d", len(got(0, 1)), countTo)
	}
	net, a0, a1 := c.net, c.addrs[0], c.addrs[1]
	net.Disconnect(a0, a1)
	// Node 0 sends while cut: its link fails within 10+20+20 ms of
	// retransmissions, well before 25 silent beacons (500 ms).
	nodes[0].do(func() { nodes[0].env().Send(1, algo.Message{Type: 0, Index: algo.Index{Num: 999, ID: 0}}) })
	waitFor(2*time.Second, func() bool { return nodes[0].metrics.linkFailures.Load() > 0 })
	if nodes[0].metrics.linkFailures.Load() == 0 {
		t.Fatal("the link of a cut pair did not fail")
	}
	net.Reconnect(a0, a1)
	want := make([]uint32, 0, 2*countTo)
	for range 2 {
		for k := uint32(1); k <= countTo; k++ {
			want = append(want, k)
		}
	}
	waitFor(5*time.Second, func() bool { return len(got(1, 0)) >= 2*countTo })
	if g := got(1, 0); !slices.Equal(g, want) {
		t.Errorf("node 1 got from 0 across the failure: %v, want 1 to %d twice (999 lost with the link)", g, countTo)
	}
}

// A neighbour taken down by silence keeps its link: what was in flight when
// the pair was cut is delivered once they hear each other again, in order,
// before what the machine sends at the new meeting.
func TestSilenceKeepsTheLink(t *testing.T) {
	counted.Lock()
	counted.got = map[[2]algo.NodeID][]uint32{}
	counted.Unlock()
	c := newCluster(t, 2, func(cfg *Config) { cfg.Algorithm = "test-node-counted" })
	got := func(a, b algo.NodeID) []uint32 {
		counted.Lock()
		defer counted.Unlock()
		return slices.Clone(counted.got[[2]algo.NodeID{a, b}])
	}
	waitFor(5*time.Second, func() bool { return len(got(1, 0)) == countTo })
	c.net.Disconnect(c.addrs[0], c.addrs[1])
	nodes := c.nodes
	nodes[0].do(func() { nodes[0].env().Send(1, algo.Message{Type: 0, Index: algo.Index{Num: 999, ID: 0}}) })
	waitFor(2*time.Second, func() bool { return len(nodes[0].Status().Neighbors) == 0 })
	if len(nodes[0].Status().Neighbors) != 0 {
		t.Fatal("node 0 did not take its silent neighbour down")
	}
	c.net.Reconnect(c.addrs[0], c.addrs[1])
	var want []uint32
	for k := uint32(1); k <= countTo; k++ {
		want = append(want, k)
	}
	want = append(append(want, 999), want...)
	waitFor(5*time.Second, func() bool { return len(got(1, 0)) >= len(want) })
	if g := got(1, 0); !slices.Equal(g, want) {
		t.Errorf("node 1 got from 0: %v, want 1 to %d, 999 (in flight through the silence), then 1 to %d again", g, countTo, countTo)
	}
	if f := nodes[0].metrics.linkFailures.Load(); f != 0 {
		t.Errorf("%d link failures: the silence was shorter than the link's bound", f)
	}
}

// Echo, which tolerates neither loss nor a missing initiator, elects the
// most valued node on real nodes: started by one initiator, over reliable
// links that lose 20% of datagrams; its messages are exactly the
// simulator's count on a complete graph of n nodes, 2E explorers and
// echoes and n-1 infos.
func TestEchoOnRealNodes(t *testing.T) {
	const n = 4
	c := newFaultyCluster(t, n, runtime.Faults{Loss: 0.2, Jitter: 3 * time.Millisecond}, func(cfg *Config) {
		cfg.Algorithm, cfg.Value, cfg.Initiator = "echo", int64(10*cfg.ID), cfg.ID == 0
		cfg.Hello, cfg.HelloLoss = 50*time.Millisecond, 40
	})
	c.waitAgree(ids(0, n), n-1, 15*time.Second)
	var sent uint64
	for _, nd := range c.nodes {
		for ty := range nd.metrics.sent {
			sent += nd.metrics.sent[ty].Load()
		}
	}
	if want := uint64(n*(n-1) + n - 1); sent != want {
		t.Errorf("echo sent %d messages on K%d, want %d (2E + n-1)", sent, n, want)
	}
}

// A node of an algorithm written for a static network boots once every
// listed peer is up: an algorithm with no crashes in its model waits for
// as long as it takes, one that survives crashes HelloLoss beacons at
// most; one written for moving networks boots without waiting.
func TestBootWaitsForPeersOnStaticNetworks(t *testing.T) {
	peers := map[algo.NodeID]netip.AddrPort{0: netip.MustParseAddrPort("127.0.0.1:1"), 1: netip.MustParseAddrPort("127.0.0.1:2")}
	for _, c := range []struct {
		alg             string
		wait, waitLater bool
	}{{"echo", true, true}, {"extinction", true, true}, {"bully", true, false}, {"vkt", false, false}} {
		nd, err := New(Config{ID: 0, Algorithm: c.alg, Peers: peers, Transport: runtime.NewMemNetwork().Listen(), Size: 2,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		nd.start = time.Now()
		if got := nd.peersPending(); got != c.wait {
			t.Errorf("%s, peer 1 not heard: waits %v, want %v", c.alg, got, c.wait)
		}
		nd.nbrs[1].up = true
		if nd.peersPending() {
			t.Errorf("%s, every peer up: still waits", c.alg)
		}
		nd.nbrs[1].up = false
		nd.start = time.Now().Add(-nd.lossLimit())
		if got := nd.peersPending(); got != c.waitLater {
			t.Errorf("%s, HelloLoss beacons passed, peer 1 not heard: waits %v, want %v", c.alg, got, c.waitLater)
		}
	}
}

// A silent neighbour is taken down, unless the algorithm runs on any
// static network with no failure in its model (the waves): there silence
// is loss, and a false NeighborDown would end a wave without the node.
func TestSilenceOnStaticNetworks(t *testing.T) {
	peers := map[algo.NodeID]netip.AddrPort{0: netip.MustParseAddrPort("127.0.0.1:1"), 1: netip.MustParseAddrPort("127.0.0.1:2")}
	for _, c := range []struct {
		alg  string
		kept bool
	}{{"echo", true}, {"extinction", true}, {"ring", false}, {"vkt", false}} {
		cfg := Config{ID: 0, Algorithm: c.alg, Peers: peers, Transport: runtime.NewMemNetwork().Listen(),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if c.alg == "ring" { // a ring of three: node 0's neighbours are 1 and 2
			cfg.Size = 3
			cfg.Peers = maps.Clone(peers)
			cfg.Peers[2] = netip.MustParseAddrPort("127.0.0.1:3")
		}
		nd, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		nd.nbrs[1].up, nd.nbrs[1].heard, nd.up = true, now.Add(-10*nd.lossLimit()), []algo.NodeID{1}
		nd.expire(now)
		if nd.nbrs[1].up != c.kept {
			t.Errorf("%s: a neighbour silent for 10 loss limits is up: %v, want %v", c.alg, nd.nbrs[1].up, c.kept)
		}
	}
}
