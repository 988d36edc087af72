package node_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/vkt"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
)

// Three nodes on an in-memory network elect their most valued node. A real
// deployment passes runtime.ListenUDP("0.0.0.0:7946") as the transport and
// lists the peers' UDP addresses.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	network := runtime.NewMemNetwork()
	endpoints := map[algo.NodeID]*runtime.MemEndpoint{}
	peers := map[algo.NodeID]netip.AddrPort{}
	for id := range algo.NodeID(3) {
		endpoints[id] = network.Listen()
		peers[id] = endpoints[id].LocalAddr()
	}
	var nodes []*node.Node
	for id := range algo.NodeID(3) {
		n, err := node.New(node.Config{
			ID: id, Value: int64(id) * 10, Transport: endpoints[id], Peers: peers,
			Params: map[string]string{"heartbeat": "50ms", "timeout": "250ms"},
			Hello:  20 * time.Millisecond, Logger: quiet,
		})
		if err != nil {
			panic(err)
		}
		nodes = append(nodes, n)
		go n.Run(ctx)
	}
	for st := range nodes[0].Subscribe(ctx) {
		if st.HasLeader() && st.Leader == 2 {
			fmt.Println("node 0 follows", st.Leader)
			break
		}
	}
	// Output: node 0 follows 2
}

// OnStartedLeading's context is the leader's licence: work done under it
// stops the moment the node is deposed.
func ExampleCallbacks() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	network := runtime.NewMemNetwork()
	leading := make(chan context.Context, 1)
	n, err := node.New(node.Config{
		ID: 1, Transport: network.Listen(), Hello: 20 * time.Millisecond, Logger: quiet,
		Callbacks: node.Callbacks{
			OnStartedLeading: func(ctx context.Context) { leading <- ctx },
			OnNewLeader:      func(id algo.NodeID) { fmt.Println("new leader:", id) },
		},
	})
	if err != nil {
		panic(err)
	}
	go n.Run(ctx)
	lead := <-leading
	fmt.Println("leading; election index", n.Status().ElectionIndex)
	cancel() // the node stops: its leadership ends with it
	<-lead.Done()
	fmt.Println("stopped leading")
	// Output:
	// new leader: 1
	// leading; election index 1
	// stopped leading
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
