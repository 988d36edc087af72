package node

import (
	"context"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

func TestAlgorithmsAgree(t *testing.T) {
	for _, name := range []string{"vkt", "park"} {
		t.Run(name, func(t *testing.T) {
			c := newCluster(t, 8, func(cfg *Config) { cfg.Algorithm = name })
			d := c.waitAgree(ids(0, 8), 7, 5*time.Second)
			t.Logf("8 nodes agree on 7 after %v", d)
		})
	}
}

// TestLeaderCrash: the survivors agree on the most valued survivor within
// the detection timeout plus a few round trips.
func TestLeaderCrash(t *testing.T) {
	c := newCluster(t, 10, nil)
	c.waitAgree(ids(0, 10), 9, 5*time.Second)
	c.stop(9)
	d := c.waitAgree(ids(0, 9), 8, 3*time.Second)
	t.Logf("failover after %v (timeout 200ms, neighbour loss %v)", d, fastLoss*fastHello)
}

// TestPartitionMerge: a partition gives each side its own leader, the heal
// merges them with no election.
func TestPartitionMerge(t *testing.T) {
	c := newCluster(t, 8, nil)
	c.waitAgree(ids(0, 8), 7, 5*time.Second)
	var left, right []netip.AddrPort
	for i := range 8 {
		if i < 4 {
			left = append(left, c.addrs[algo.NodeID(i)])
		} else {
			right = append(right, c.addrs[algo.NodeID(i)])
		}
	}
	c.net.Partition(left, right)
	c.waitAgree(ids(0, 4), 3, 3*time.Second)
	c.waitAgree(ids(4, 8), 7, 3*time.Second)
	before := elections(c)
	c.net.Partition()
	c.waitAgree(ids(0, 8), 7, 3*time.Second)
	if after := elections(c); after != before {
		t.Errorf("the merge started %d elections; a merge needs none", after-before)
	}
}

func elections(c *cluster) uint64 {
	var n uint64
	for _, nd := range c.nodes {
		n += nd.metrics.elections.Load()
	}
	return n
}

// TestRecoverAndRestart: a node restarted with its state directory recovers
// (a merge, no election); one restarted without it elects.
func TestRecoverAndRestart(t *testing.T) {
	dirs := make([]string, 6)
	c := newCluster(t, 6, func(cfg *Config) {
		dirs[cfg.ID] = t.TempDir()
		cfg.StateDir = dirs[cfg.ID]
	})
	c.waitAgree(ids(0, 6), 5, 5*time.Second)

	c.restart(2) // keeps its state directory
	c.waitAgree(ids(0, 6), 5, 3*time.Second)
	if e := c.nodes[2].metrics.elections.Load(); e != 0 {
		t.Errorf("node 2 recovered with %d elections, want 0 (a merge)", e)
	}
	if st := c.nodes[2].Status(); st.ElectionIndex == 0 {
		t.Errorf("node 2 recovered with election index 0; it had one before")
	}

	c.cfgs[3].StateDir = t.TempDir() // a fresh one: a restart
	c.restart(3)
	c.waitAgree(ids(0, 6), 5, 3*time.Second)
	if e := c.nodes[3].metrics.elections.Load(); e == 0 {
		t.Errorf("node 3 restarted without state and started no election")
	}
}

// TestCallbacks: the leader's context ends the moment a better node takes
// over, and OnNewLeader follows the leaders in order.
func TestCallbacks(t *testing.T) {
	var mu sync.Mutex
	var newLeaders []algo.NodeID
	led := make(chan context.Context, 4)
	stopped := make(chan struct{}, 4)
	c := newCluster(t, 4, func(cfg *Config) {
		if cfg.ID != 3 {
			return
		}
		cfg.Callbacks = Callbacks{
			OnStartedLeading: func(ctx context.Context) { led <- ctx },
			OnStoppedLeading: func() { stopped <- struct{}{} },
			OnNewLeader: func(id algo.NodeID) {
				mu.Lock()
				newLeaders = append(newLeaders, id)
				mu.Unlock()
			},
		}
	})
	c.waitAgree(ids(0, 4), 3, 5*time.Second)
	var ctx context.Context
	select {
	case ctx = <-led:
	case <-time.After(time.Second):
		t.Fatal("OnStartedLeading not called on the leader")
	}
	c.nodes[1].SetValue(100) // now the most valued
	c.waitAgree(ids(0, 4), 1, 5*time.Second)
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
		t.Fatal("the deposed leader's context is still live")
	}
	select {
	case <-stopped:
	case <-time.After(time.Second):
		t.Fatal("OnStoppedLeading not called")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(newLeaders) < 2 || newLeaders[0] != 3 || newLeaders[len(newLeaders)-1] != 1 {
		t.Errorf("OnNewLeader saw %v, want 3 first and 1 last", newLeaders)
	}
}

// TestSubscribe: a subscriber first gets the current status, then changes,
// and its channel closes with its context.
func TestSubscribe(t *testing.T) {
	c := newCluster(t, 3, nil)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	ch := c.nodes[0].Subscribe(ctx)
	first := <-ch
	if first.Leader != 2 || !first.HasLeader() {
		t.Fatalf("first status: leader %d %v, want the current one (2, Norm)", first.Leader, first.State)
	}
	c.stop(2)
	deadline := time.After(3 * time.Second)
	for st := range ch {
		if st.HasLeader() && st.Leader == 1 {
			break
		}
		select {
		case <-deadline:
			t.Fatal("no status with leader 1 after node 2 stopped")
		default:
		}
	}
	cancel()
	for range ch { // drains, then ends: the channel is closed
	}
}

// TestGarbageRejected: datagrams that are not ours are counted by reason
// and change nothing.
func TestGarbageRejected(t *testing.T) {
	c := newCluster(t, 3, func(cfg *Config) { cfg.Key = []byte("secret") })
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	evil := c.net.Listen()
	target := c.addrs[0]
	unsigned := runtime.Codec{}
	b, _ := unsigned.AppendHello(nil, 9, 1, 1000, 0)
	wrongKey := runtime.Codec{Key: []byte("guess")}
	w, _ := wrongKey.AppendMessage(nil, 5, &algo.Message{From: 9, To: 0, Peer: algo.Peer{ID: 9, Value: 1000}})
	// Signed with the right key: an old number from node 1 (a replay) and
	// a message for node 1 sent to node 0.
	right := runtime.Codec{Key: []byte("secret")}
	replayed, _ := right.AppendHello(nil, 1, 5, 1, 0)
	// (numbered with the present time: older than maxBehind, it would be
	// refused as a replay first)
	misaddressed, _ := right.AppendMessage(nil, uint64(time.Now().UnixNano()), &algo.Message{From: 9, To: 1})
	// A frame of a reliable link, which vkt's nodes do not take.
	frame, _ := right.AppendFrame(nil, 9, 0, 2, &runtime.Frame[algo.Message]{FrameHeader: runtime.FrameHeader{Epoch: 1}})
	for _, d := range [][]byte{{}, []byte("hello"), b, w, make([]byte, 1500), replayed, misaddressed, frame} {
		evil.WriteTo(d, target)
	}
	rej := func() uint64 {
		var n uint64
		for r := range runtime.NumReasons {
			n += c.nodes[0].metrics.rejected[r].Load()
		}
		return n
	}
	deadline := time.Now().Add(2 * time.Second)
	for rej() < 8 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := rej(); got != 8 {
		t.Errorf("%d datagrams rejected, want 8", got)
	}
	for r, want := range map[runtime.Reason]uint64{runtime.ReasonShort: 2, runtime.ReasonOversized: 1, runtime.ReasonReplay: 1, runtime.ReasonMisaddressed: 1, runtime.ReasonKind: 1} {
		if n := c.nodes[0].metrics.rejected[r].Load(); n != want {
			t.Errorf("%v: %d, want %d", r, n, want)
		}
	}
	if n := c.nodes[0].metrics.rejected[runtime.ReasonUnsigned].Load(); n != 1 {
		t.Errorf("unsigned: %d, want 1", n)
	}
	if n := c.nodes[0].metrics.rejected[runtime.ReasonBadMAC].Load(); n != 1 {
		t.Errorf("bad_mac: %d, want 1", n)
	}
	c.waitAgree(ids(0, 3), 2, time.Second)
}

// TestStateDirOnly: a node reads saved state from its state directory and
// nowhere else (a garbage ./state.json changes nothing for a node without
// one), and refuses the state of another node.
func TestStateDirOnly(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("state.json", []byte("not a state"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, 2, nil)
	c.waitAgree(ids(0, 2), 1, 5*time.Second)

	dir := t.TempDir()
	if err := runtime.StateDir(dir).Store(runtime.Saved{Algorithm: "vkt", ID: 5}); err != nil {
		t.Fatal(err)
	}
	n, err := New(Config{ID: 1, Transport: runtime.NewMemNetwork().Listen(), StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	err = n.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "state of node 5 running vkt, not of node 1") {
		t.Errorf("Run with another node's state: %v", err)
	}
}
