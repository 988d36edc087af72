package node

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runtime"
)

// fast are timings that make a test cluster elect in tens of milliseconds.
var fast = map[string]map[string]string{
	"vkt":  {"heartbeat": "40ms", "timeout": "200ms", "probe": "50ms", "election_timeout": "1s"},
	"park": {"heartbeat": "40ms", "timeout": "200ms", "resend": "50ms", "election_timeout": "1s"},
}

const (
	fastHello = 20 * time.Millisecond
	fastLoss  = 4
)

// cluster is n nodes on one MemNetwork, every node listing every other as a
// peer, value = id unless changed.
type cluster struct {
	t     *testing.T
	net   *runtime.MemNetwork
	cfgs  []Config
	nodes []*Node
	stops []context.CancelFunc
	ended []chan error
	addrs map[algo.NodeID]netip.AddrPort
}

func newCluster(t *testing.T, n int, tweak func(*Config)) *cluster {
	t.Helper()
	return newFaultyCluster(t, n, runtime.Faults{}, tweak)
}

// newFaultyCluster is newCluster with every node sending through faults
// (runtime.Faulty), seeded by node; zero faults wrap nothing.
func newFaultyCluster(t *testing.T, n int, faults runtime.Faults, tweak func(*Config)) *cluster {
	t.Helper()
	c := &cluster{t: t, net: runtime.NewMemNetwork(), addrs: map[algo.NodeID]netip.AddrPort{}}
	eps := make([]*runtime.MemEndpoint, n)
	for i := range n {
		eps[i] = c.net.Listen()
		c.addrs[algo.NodeID(i)] = eps[i].LocalAddr()
	}
	for i := range n {
		cfg := Config{
			ID: algo.NodeID(i), Value: int64(i), Algorithm: "vkt", Hello: fastHello, HelloLoss: fastLoss,
			Peers: c.addrs, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Seed: uint64(i + 1),
		}
		if tweak != nil {
			tweak(&cfg)
		}
		if cfg.Params == nil {
			cfg.Params = fast[cfg.Algorithm]
		}
		c.cfgs = append(c.cfgs, cfg)
		c.nodes = append(c.nodes, nil)
		c.stops = append(c.stops, nil)
		c.ended = append(c.ended, nil)
		var tr runtime.Transport = eps[i]
		if faults != (runtime.Faults{}) {
			f := faults
			f.Seed = uint64(i + 1)
			var err error
			if tr, err = runtime.NewFaulty(eps[i], f); err != nil {
				t.Fatal(err)
			}
		}
		c.start(i, tr)
	}
	t.Cleanup(func() {
		for i := range c.nodes {
			c.stop(i)
		}
	})
	return c
}

// start runs node i on endpoint ep with its config.
func (c *cluster) start(i int, ep runtime.Transport) {
	c.t.Helper()
	cfg := c.cfgs[i]
	cfg.Transport = ep
	nd, err := New(cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- nd.Run(ctx) }()
	c.nodes[i], c.stops[i], c.ended[i] = nd, cancel, done
}

// stop stops node i (a crash, as far as the others can tell: it just goes
// silent) and waits for Run to return.
func (c *cluster) stop(i int) {
	if c.stops[i] == nil {
		return
	}
	c.stops[i]()
	if err := <-c.ended[i]; err != nil {
		c.t.Errorf("node %d: Run: %v", i, err)
	}
	c.stops[i] = nil
}

// restart brings node i back on a fresh endpoint at its old address's
// place: the others learn the new address from its datagrams.
func (c *cluster) restart(i int) {
	c.stop(i)
	ep := c.net.Listen()
	c.cfgs[i].Peers = c.addrs
	c.start(i, ep)
}

// waitAgree waits until every node of group follows leader in Norm.
func (c *cluster) waitAgree(group []int, leader algo.NodeID, within time.Duration) time.Duration {
	c.t.Helper()
	start := time.Now()
	for {
		bad := ""
		for _, i := range group {
			st := c.nodes[i].Status()
			if !st.HasLeader() || st.Leader != leader {
				bad = fmt.Sprintf("node %d: leader %d, %v", i, st.Leader, st.State)
				break
			}
		}
		if bad == "" {
			return time.Since(start)
		}
		if time.Since(start) > within {
			c.t.Fatalf("no agreement on leader %d within %v: %s", leader, within, bad)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func ids(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}
