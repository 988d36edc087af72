package node

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
)

// realCase is one algorithm run on real nodes and in the simulator on the
// same network, values and initiators.
type realCase struct {
	alg      string
	topology string  // a topo spec; the nodes get Size and exactly its links
	values   []int64 // one per node
	params   map[string]string
	// exact: the algorithm's own messages are as many on real nodes as in
	// the simulator, whatever the timing (a deterministic algorithm whose
	// every node acts before it hears anything).
	exact bool
	want  uint64 // with exact, the count the theory gives (0: none checked)
}

// Every algorithm for static networks elects the most valued node on real
// nodes over reliable links, at 0 and 20% loss, with its own message count
// equal to the simulator's where the algorithm is deterministic: the
// runtime's layers (reliable links, initiators, a fixed network) change
// what the network gives, not what the algorithm does.
func TestStaticAlgorithmsOnRealNodes(t *testing.T) {
	const n = 4
	cases := []realCase{
		// Values decrease along the ring's direction: Chang–Roberts' worst
		// case, n(n+1)/2 elections and n elected messages.
		{alg: "chang-roberts", topology: "ring:4", values: []int64{3, 2, 1, 0}, exact: true, want: n*(n+1)/2 + n},
		{alg: "ring", topology: "ring:4", values: []int64{5, 9, 2, 7}, params: map[string]string{"timeout": "20s", "wait_timeout": "60s"}, exact: true, want: 2 * n},
		{alg: "echo", topology: "complete:4", values: []int64{5, 9, 2, 7}, exact: true, want: n*(n-1) + n - 1},
		{alg: "extinction", topology: "ring:4", values: []int64{5, 9, 2, 7}},
		{alg: "capture-async", topology: "complete:4", values: []int64{5, 9, 2, 7}},
		// Its timeouts assume every message in time: at 20% loss a
		// message may be sent again for seconds.
		{alg: "bully", topology: "complete:4", values: []int64{5, 9, 2, 7}, params: map[string]string{"answer_timeout": "1s", "coordinator_timeout": "3s"}},
		// Synchronous: over the synchronizer, in the simulator's pulses.
		{alg: "all-to-all", topology: "complete:4", values: []int64{5, 9, 2, 7}, exact: true, want: n * (n - 1)},
		{alg: "capture-sync", topology: "complete:4", values: []int64{5, 9, 2, 7}, exact: true},
	}
	for _, c := range cases {
		sum := simRun(t, c)
		simCount := sum.Messages.Total
		if c.want != 0 && simCount != c.want {
			t.Errorf("%s: the simulator sent %d messages, the theory says %d", c.alg, simCount, c.want)
		}
		for _, loss := range []float64{0, 0.2} {
			t.Run(fmt.Sprintf("%s/loss=%v", c.alg, loss), func(t *testing.T) {
				if testing.Short() && loss > 0 && !c.exact {
					t.Skip("the lossy runs of the timing-dependent algorithms take seconds")
				}
				got, cl := runReal(t, c, loss)
				if c.exact && got != simCount {
					t.Errorf("%d messages on real nodes, %d in the simulator", got, simCount)
				}
				if a, _ := algo.Lookup(c.alg); a.Model.Synchronous {
					// The last decision falls in the pulse the simulator
					// ends the election in.
					var last int64
					for _, nd := range cl.nodes {
						last = max(last, nd.Status().Pulse)
					}
					el := sum.Elections.List
					if want := int64(el[len(el)-1].EndMS / float64(algo.PulseLength/time.Millisecond)); last != want {
						t.Errorf("the last decision in pulse %d on real nodes, %d in the simulator", last, want)
					}
				}
			})
		}
	}
}

// simRun runs c in the simulator and returns its summary.
func simRun(t *testing.T, c realCase) *metrics.Summary {
	t.Helper()
	var y strings.Builder
	fmt.Fprintf(&y, "algorithm: %s\ntopology: %s\nduration: 0\nvalues: {", c.alg, c.topology)
	for i, v := range c.values {
		fmt.Fprintf(&y, "%d: %d, ", i, v)
	}
	y.WriteString("}\nparams: {")
	for k, v := range c.params {
		fmt.Fprintf(&y, "%s: %s, ", k, v)
	}
	y.WriteString("}\n")
	s, err := scenario.Parse(c.alg+".yaml", []byte(y.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatalf("%s in the simulator: %v", c.alg, err)
	}
	return sum
}

// runReal runs c on real nodes whose sends are lost with probability loss,
// waits for every node to follow the most valued one and returns the
// algorithm's messages sent (retransmissions, acks and the synchronizer's
// safe messages are the runtime's), and the nodes.
func runReal(t *testing.T, c realCase, loss float64) (uint64, *cluster) {
	t.Helper()
	sp, err := topo.Parse(c.topology, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := sp.Build(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := algo.Lookup(c.alg)
	if err != nil {
		t.Fatal(err)
	}
	inits, _, err := a.Initiators("", nil, g.N())
	if err != nil {
		t.Fatal(err)
	}
	best := algo.NodeID(0)
	for i, v := range c.values {
		if v > c.values[best] || v == c.values[best] && i > int(best) {
			best = algo.NodeID(i)
		}
	}
	cl := newFaultyCluster(t, g.N(), runtime.Faults{Loss: loss, Jitter: time.Millisecond}, func(cfg *Config) {
		cfg.Algorithm, cfg.Value, cfg.Params = c.alg, c.values[cfg.ID], c.params
		cfg.Initiator = slices.Contains(inits, cfg.ID)
		cfg.Size = g.N()
		cfg.Peers = linked(cfg.Peers, g.Neighbors(cfg.ID))
		// Four beacons lost in a row take a neighbour down now and then
		// at 20% loss: its link carries what was in flight through it.
		cfg.Hello, cfg.HelloLoss = 50*time.Millisecond, DefaultHelloLoss
	})
	cl.waitAgree(ids(0, g.N()), best, 30*time.Second)
	var sent uint64
	for _, nd := range cl.nodes {
		for ty := range nd.metrics.sent {
			sent += nd.metrics.sent[ty].Load()
		}
		if f := nd.metrics.linkFailures.Load(); f > 0 {
			t.Errorf("node %d: %d link failures", nd.cfg.ID, f)
		}
	}
	return sent, cl
}

// linked keeps the peers that are neighbours in the graph.
func linked(peers map[algo.NodeID]netip.AddrPort, nbrs []algo.NodeID) map[algo.NodeID]netip.AddrPort {
	out := map[algo.NodeID]netip.AddrPort{}
	for _, v := range nbrs {
		out[v] = peers[v]
	}
	return out
}
