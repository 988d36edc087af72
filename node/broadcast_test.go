package node

import (
	"maps"
	"testing"
	"time"

	"github.com/electgo/elect/runtime"
)

// vkt and park with the broadcast medium elect on real nodes: Election,
// Leader and Heartbeat go out as one datagram each to the broadcast
// address, addressed to everyone, and every node takes them.
func TestBroadcastMedium(t *testing.T) {
	for _, alg := range []string{"vkt", "park"} {
		t.Run(alg, func(t *testing.T) {
			net := newCluster(t, 4, func(cfg *Config) {
				cfg.Algorithm = alg
				cfg.Params = maps.Clone(fast[alg])
				cfg.Params["medium"] = "broadcast"
				cfg.Broadcast = runtime.NewMemNetwork().Broadcast() // the same address on every MemNetwork
			})
			net.waitAgree(ids(0, 4), 3, 5*time.Second)
			var sent, broadcasts, heartbeats uint64
			count := func() bool {
				sent, broadcasts, heartbeats = 0, 0, 0
				for _, nd := range net.nodes {
					c := nd.StatusJSON().Counters
					for _, v := range c.Sent {
						sent += v
					}
					broadcasts += c.Broadcasts
					heartbeats += c.Received["heartbeat"]
				}
				return heartbeats >= 6 // two beats heard by all three followers
			}
			waitFor(2*time.Second, count)
			if broadcasts == 0 || heartbeats == 0 {
				t.Fatalf("%d broadcasts of %d messages sent, %d heartbeats received: the medium was not used", broadcasts, sent, heartbeats)
			}
			for _, nd := range net.nodes {
				if r := nd.StatusJSON().Counters.Rejected; r["misaddressed"] != 0 {
					t.Errorf("node %d refused %d broadcasts as misaddressed", nd.cfg.ID, r["misaddressed"])
				}
			}
		})
	}
}
