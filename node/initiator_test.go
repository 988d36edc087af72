package node

import (
	"maps"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// TestSpontaneousInitiatorElectsOnce: a vkt or park node started as an
// initiator (elect node --initiator) starts one election at boot, the one
// its machine starts in Start, and is not asked for a second; one that its
// boot parameter leaves out is put back in it, and elects at boot rather
// than after its timeout. Before, the node elected twice (election index
// 2), and the one left out waited for its timeout whatever --initiator said.
func TestSpontaneousInitiatorElectsOnce(t *testing.T) {
	for _, name := range []string{"vkt", "park"} {
		for _, boot := range []string{"", "none"} {
			t.Run(name+"/"+boot, func(t *testing.T) {
				params := maps.Clone(fast[name])
				params["timeout"] = "1h" // no election but the boot's
				if boot != "" {
					params["initiators"] = boot
				}
				c := newCluster(t, 1, func(cfg *Config) {
					cfg.Algorithm, cfg.Params, cfg.Initiator = name, params, true
				})
				c.waitAgree(ids(0, 1), 0, 5*time.Second)
				time.Sleep(50 * time.Millisecond)
				if st := c.nodes[0].Status(); st.ElectionIndex != 1 {
					t.Errorf("election index %d after boot, want 1: one election", st.ElectionIndex)
				}
			})
		}
	}
}

// TestInitiatorParams: where an initiator of a spontaneous algorithm is put.
func TestInitiatorParams(t *testing.T) {
	vkt, err := algo.Lookup("vkt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw   map[string]string
		want  string // the initiators it runs with; "-": not given
		added bool
	}{
		{nil, "-", false},
		{map[string]string{"initiators": "all"}, "all", false},
		{map[string]string{"initiators": "3"}, "3", false},
		{map[string]string{"initiators": "1-4"}, "1-4", false},
		{map[string]string{"initiators": "none"}, "3", true},
		{map[string]string{"initiators": "0,5"}, "0,5,3", true},
		{map[string]string{"initiators": "x"}, "x", false}, // Instantiate refuses it
	} {
		raw := maps.Clone(c.raw)
		got, added, boot := initiatorParams(vkt, 3, raw)
		v, given := got["initiators"]
		if !given {
			v = "-"
		}
		if v != c.want || added != c.added || boot != "initiators" {
			t.Errorf("%v: initiators %q, added %v, boot %q; want %q, %v", c.raw, v, added, boot, c.want, c.added)
		}
		if !maps.Equal(raw, c.raw) {
			t.Errorf("%v: changed to %v", c.raw, raw)
		}
	}
	bully, err := algo.Lookup("bully")
	if err != nil {
		t.Fatal(err)
	}
	if got, added, boot := initiatorParams(bully, 3, nil); got != nil || added || boot != "" {
		t.Errorf("bully: %v, %v, %q; every node elects at boot", got, added, boot)
	}
}
