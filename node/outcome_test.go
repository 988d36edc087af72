package node

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// ElectAndWait is the control process as a library call: node 0, the
// commander of a ring with a joker, is asked to elect; the outcome names
// the leader and carries the report that names the joker.
func TestElectAndWait(t *testing.T) {
	c := newCluster(t, 4, func(cfg *Config) {
		cfg.Algorithm, cfg.Size = "ring", 4
		cfg.Params = map[string]string{"timeout": "300ms", "wait_timeout": "2s"}
		cfg.Peers = linked(cfg.Peers, []algo.NodeID{(cfg.ID + 1) % 4, (cfg.ID + 3) % 4})
		cfg.Corrupt = cfg.ID == 2
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := c.nodes[0].ElectAndWait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, r := range out.Reports {
		said = append(said, r.What)
	}
	if out.Leader != 3 || out.ElectionIndex == 0 || !strings.Contains(strings.Join(said, "\n"), "altered by node 2") {
		t.Errorf("outcome: leader %d, index %d, reports %q; want leader 3, an index, the joker 2 named", out.Leader, out.ElectionIndex, said)
	}

	// An election that cannot end in time is an error naming the status:
	// with node 3 gone, node 1's round waits out its 300ms timeout.
	c.waitAgree(ids(0, 4), 3, 5*time.Second)
	c.stop(3)
	short, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	if _, err := c.nodes[1].ElectAndWait(short); err == nil || !strings.Contains(err.Error(), "no outcome of the election within") {
		t.Errorf("a 100ms deadline: %v, want no outcome in time", err)
	}
}
