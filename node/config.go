package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Config is what New needs. ID and Transport are required; the rest has
// defaults.
type Config struct {
	// ID is this node's id; Value its desirability (the leader of a
	// component is its node of highest (Value, ID)). SetValue changes the
	// value at run time.
	ID    algo.NodeID
	Value int64
	// Algorithm names a registered algorithm meant for dynamic networks
	// (default "vkt"); Params are its parameters (defaults for those left
	// out), as elect sim takes them.
	Algorithm string
	Params    map[string]string
	// Cluster separates independent clusters that share a network: nodes
	// ignore datagrams of another cluster.
	Cluster uint32
	// Transport carries the datagrams: runtime.ListenUDP for real, a
	// runtime.MemNetwork endpoint in tests. Run closes it when it returns.
	Transport runtime.Transport
	// Peers are the nodes this node knows the address of: it sends them
	// hello beacons. Others are learned from the beacons they send (a
	// broadcast reaches nodes not listed).
	Peers map[algo.NodeID]netip.AddrPort
	// Broadcast, when valid, is an address hello beacons are also sent to
	// (a subnet's broadcast address, on networks that have one).
	Broadcast netip.AddrPort
	// Hello is the interval between hello beacons (default 250ms); a
	// neighbour is lost after HelloLoss beacon intervals without a
	// datagram from it (default 4).
	Hello     time.Duration
	HelloLoss int
	// Key, when set, signs every datagram with HMAC-SHA256 and refuses
	// datagrams not signed with it.
	Key []byte
	// StateDir, when set, keeps what recovery needs, so that a node
	// restarted with it recovers (a merge) rather than elects.
	StateDir string
	// Logger receives the node's structured logs (default: slog.Default()).
	Logger *slog.Logger
	// Callbacks are called as leadership changes, as client-go's
	// leaderelection calls its own.
	Callbacks Callbacks
	// Seed seeds the node's random source (jittered timers); 0 draws one
	// from the clock.
	Seed uint64
	// Initiator asks the machine to elect right after its first boot (not
	// after a recovery), as the simulator's driver asks a run's initiators:
	// how an algorithm that is not spontaneous (echo, Chang–Roberts) starts.
	// A spontaneous algorithm's machine starts its boot election itself, in
	// Start, and is asked for no second one: an initiator of vkt or park is
	// put in the nodes that do, their parameter initiators (every node by
	// default; algo.Param.Boot), and one of bully elects as every node does.
	Initiator bool
	// Size, when above 0, fixes the network (network.go): its nodes are
	// 0..Size-1 and this node's neighbours are exactly its Peers, the
	// network an algorithm with a Model.Topology (a ring, a complete graph)
	// assumes; datagrams from other senders are refused. The algorithm is
	// built for n = Size. Zero: neighbours are the nodes heard.
	Size int
	// CrashOn and Corrupt inject the faults of 003_995b7edf0113a8b5.txt on
	// a real node, as the simulator's crash_on and corrupt events do.
	// CrashOn names a message type of the algorithm: the first such message
	// that reaches the node kills it before the machine sees it (Run
	// returns a *CrashedOnError at once, saving nothing). Corrupt makes the
	// node a joker: every message it sends leaves altered
	// (algo.Message.Corrupt).
	CrashOn string
	Corrupt bool
	// Gray are gray failures the node suffers from its start (gray.go):
	// peers cut one way, a skewed or jumped clock, a slow loop. SetGray
	// changes them while it runs.
	Gray Gray
	// Reliable bounds the reliable links of an algorithm that does not
	// tolerate loss (see links.go); zero: runtime.DefaultReliable.
	Reliable runtime.ReliableConfig
}

// Callbacks follow client-go's leaderelection.LeaderCallbacks. Each is
// optional.
type Callbacks struct {
	// OnStartedLeading runs, in a goroutine of its own, when this node
	// becomes the leader. Its context is cancelled the moment the node stops
	// being the leader (before OnStoppedLeading), or when Run returns.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading is called after this node stopped being the leader.
	OnStoppedLeading func()
	// OnNewLeader is called when the node follows a different leader
	// (itself included).
	OnNewLeader func(id algo.NodeID)
}

// Defaults of Config.
const (
	DefaultAlgorithm = "vkt"
	DefaultHello     = 250 * time.Millisecond
	DefaultHelloLoss = 4
)

// withDefaults checks c and fills in its defaults.
func (c Config) withDefaults() (Config, error) {
	if c.ID < 0 {
		return c, fmt.Errorf("node id %d: ids are non-negative", c.ID)
	}
	if c.Transport == nil {
		return c, errors.New("no transport: give Config.Transport (runtime.ListenUDP, or a MemNetwork endpoint)")
	}
	if c.Algorithm == "" {
		c.Algorithm = DefaultAlgorithm
	}
	if c.Hello == 0 {
		c.Hello = DefaultHello
	}
	if c.Hello < 0 {
		return c, fmt.Errorf("hello interval %v: must be positive", c.Hello)
	}
	if c.HelloLoss == 0 {
		c.HelloLoss = DefaultHelloLoss
	}
	if c.HelloLoss < 1 {
		return c, fmt.Errorf("hello loss %d: a neighbour is lost after at least one missed beacon", c.HelloLoss)
	}
	if c.Reliable == (runtime.ReliableConfig{}) {
		c.Reliable = runtime.DefaultReliable
	}
	if r := c.Reliable; r.Window < 1 || r.RTO <= 0 || r.MaxRTO < r.RTO || r.Tries < 1 {
		return c, fmt.Errorf("reliable links %+v: want a window and tries of 1 or more, and 0 < RTO <= MaxRTO", r)
	}
	if c.Size < 0 {
		return c, fmt.Errorf("network size %d: want 0 (not fixed) or the number of nodes", c.Size)
	}
	if c.Size > 0 && int(c.ID) >= c.Size {
		return c, fmt.Errorf("node id %d: a fixed network of %d nodes has ids 0..%d", c.ID, c.Size, c.Size-1)
	}
	for id, addr := range c.Peers {
		if id < 0 {
			return c, fmt.Errorf("peer id %d: ids are non-negative", id)
		}
		if c.Size > 0 && int(id) >= c.Size {
			return c, fmt.Errorf("peer id %d: a fixed network of %d nodes has ids 0..%d", id, c.Size, c.Size-1)
		}
		if !addr.IsValid() {
			return c, fmt.Errorf("peer %d: no address", id)
		}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}
