package node

import (
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// The synchronizer runs pulses only while someone is busy: with no
// initiator every node stays quiet in pulse 0; an Elect wakes them, the
// candidate's identities go out at the next pulse's middle and everyone
// decides one pulse later, as in the simulator; then they are quiet again.
func TestPulsesQuietThenWoken(t *testing.T) {
	const n = 4
	c := newCluster(t, n, func(cfg *Config) {
		cfg.Algorithm, cfg.Size, cfg.Params = "all-to-all", n, map[string]string{}
		cfg.Hello, cfg.HelloLoss = 50*time.Millisecond, 40
	})
	settle := func() (pulses [n]int64, safes [n]uint64) {
		for {
			before := pulses
			time.Sleep(100 * time.Millisecond)
			for i, nd := range c.nodes {
				pulses[i], safes[i] = nd.metrics.pulses.Load(), nd.metrics.syncSent.Load()
			}
			if pulses == before && safes[0] > 0 {
				return pulses, safes
			}
		}
	}
	pulses, safes := settle()
	for i := range n {
		if pulses[i] != 0 || safes[i] != n-1 {
			t.Errorf("node %d idle: in pulse %d after %d safe messages, want pulse 0 after %d (one pulse's)", i, pulses[i], safes[i], n-1)
		}
	}
	c.nodes[2].Elect()
	c.waitAgree(ids(0, n), 2, 5*time.Second)
	pulses, safes = settle()
	for i, nd := range c.nodes {
		st := nd.Status()
		// Elect takes effect at pulse 1's start; the identities go out in
		// its middle and are heard, and decided on, in pulse 2.
		if st.Pulse != 2 || pulses[i] != 2 {
			t.Errorf("node %d decided in pulse %d and rests in pulse %d, want 2 and 2", i, st.Pulse, pulses[i])
		}
		if want := uint64(3 * (n - 1)); safes[i] != want {
			t.Errorf("node %d sent %d safe messages, want %d (pulses 0 to 2)", i, safes[i], want)
		}
	}
	var sent uint64
	for _, nd := range c.nodes {
		sent += nd.metrics.sent[0].Load()
	}
	if sent != n-1 {
		t.Errorf("%d identities sent, want %d: the one candidate's", sent, n-1)
	}
	if l, _ := c.nodes[0].Leader(); l != algo.NodeID(2) {
		t.Errorf("leader %d, want 2, the only candidate", l)
	}
}
