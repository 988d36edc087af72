package hs_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/examples/hs"
	"github.com/electgo/elect/examples/internal/ringtest"
	"github.com/electgo/elect/sim"
)

// bound is Hirschberg and Sinclair's bound on the probes and replies of an
// election on a ring of n nodes: 8n(1+⌈log₂ n⌉).
func bound(n int) uint64 { return uint64(8 * n * (1 + ringtest.Log2Ceil(n))) }

// TestBound: on rings of assorted sizes and value arrangements, every node
// initiating, the most valued node is elected with no checker violation,
// probes and replies stay within 8n(1+⌈log₂ n⌉), the announcement costs
// exactly n, and nothing else is sent: total <= 8n(1+⌈log₂ n⌉) + n.
func TestBound(t *testing.T) {
	for _, n := range ringtest.Sizes {
		for _, a := range ringtest.Arrangements() {
			t.Run(fmt.Sprintf("ring%d/%s", n, a.Name), func(t *testing.T) {
				r := ringtest.Run(t, ringtest.Scenario("hs", n, a))
				ringtest.Elected(t, r)
				by := r.Messages.ByType
				election := by["probe"] + by["reply"]
				if election > bound(n) {
					t.Errorf("%d probes and replies, more than 8n(1+⌈log₂ n⌉) = %d", election, bound(n))
				}
				if by["leader"] != uint64(n) {
					t.Errorf("%d leader messages, want n = %d", by["leader"], n)
				}
				if total := r.Messages.Total; total != election+by["leader"] || total > bound(n)+uint64(n) {
					t.Errorf("%d messages in all (%v), want probes+replies+leader <= %d", total, by, bound(n)+uint64(n))
				}
				t.Logf("n=%d %s: %d probes, %d replies, %d leader; %d of the bound %d", n, a.Name,
					by["probe"], by["reply"], by["leader"], r.Messages.Total, bound(n)+uint64(n))
			})
		}
	}
}

// TestExactCounts: small rings worked out by hand. With every node
// initiating, the counts do not depend on the delays: a probe goes on or
// dies by comparisons alone.
//
// Ascending values on ring:3 (node v has value v; node 2's neighbours are
// 1 and 0). Phase 0: six probes of one hop; on each of the three links the
// better end's probe is answered: 3 replies, and only node 2 gets two.
// Phase 1: node 2's probes go 2 hops each way (2→0→1 and 2→1→0): 4
// probes, and each is answered from 2 hops away: 4 replies. Phase 2 (2^2 =
// 4 ≥ 3): both probes go all the way round, 3 hops each: 6 probes; node 2
// wins on the first. Then 3 leader messages. In all 16 probes, 7 replies,
// 3 leader.
//
// Ascending on ring:4: phase 0 has 8 probes and 4 replies (node 3, whose
// neighbours are 2 and 0, gets both of its own); phase 1, 2 hops: 4 probes
// and 4 replies; phase 2, 4 hops = the ring: 8 probes. 20 probes, 8
// replies, 4 leader.
//
// Descending values are the mirror image of ascending ones (node 0 plays
// node n-1): the same counts.
//
// Ring:5 with values 1 5 2 4 3. Phase 0: 10 probes; the links 0-1, 1-2,
// 2-3, 3-4, 4-0 answer the probes of 1, 1, 3, 3 and 4: 5 replies; nodes 1
// and 3 get two each. Phase 1 (2 hops): node 1's probes go 1→0→4 (4 is
// worse: reply) and 1→2→3 (3 is worse: reply): 4 probes, 4 replies; node
// 3's go 3→2→1, dying at node 1 (2 probes), and 3→4→0 (reply): 4 probes,
// 2 replies. Node 1 alone goes on. Phase 2 (4 hops): 1→0→4→3→2 and
// 1→2→3→4→0, answered from 4 hops away: 8 probes, 8 replies. Phase 3 (8 ≥
// 5): 5 probes each way. Probes 10+4+4+8+10 = 36, replies 5+4+2+8 = 19,
// leader 5; node 1 leads.
func TestExactCounts(t *testing.T) {
	for _, c := range []struct {
		n                    int
		arrangement          ringtest.Arrangement
		probe, reply, leader uint64
		wantLeaderOfArranged int
	}{
		{3, ringtest.Ascending(), 16, 7, 3, 2},
		{3, ringtest.Descending(), 16, 7, 3, 0},
		{4, ringtest.Ascending(), 20, 8, 4, 3},
		{4, ringtest.Descending(), 20, 8, 4, 0},
		{5, ringtest.Explicit(1, 5, 2, 4, 3), 36, 19, 5, 1},
	} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:9ms"} {
			t.Run(fmt.Sprintf("ring%d/%s/%s", c.n, c.arrangement.Name, delay), func(t *testing.T) {
				s := ringtest.Scenario("hs", c.n, c.arrangement)
				var err error
				if s.Delay, err = sim.ParseDelay(delay); err != nil {
					t.Fatal(err)
				}
				r := ringtest.Run(t, s)
				if got := ringtest.Elected(t, r); int(got) != c.wantLeaderOfArranged {
					t.Errorf("leader %d, want %d", got, c.wantLeaderOfArranged)
				}
				by := r.Messages.ByType
				if by["probe"] != c.probe || by["reply"] != c.reply || by["leader"] != c.leader {
					t.Errorf("messages %v, want %d probe, %d reply, %d leader", by, c.probe, c.reply, c.leader)
				}
			})
		}
	}
}

// TestInitiators: with only some nodes initiating, the others join when
// the first probe reaches them, and the most valued node still wins within
// the bound.
func TestInitiators(t *testing.T) {
	for _, set := range []string{"0", "5", "1,7,12", "0-15"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", set, seed), func(t *testing.T) {
				const n = 16
				s := ringtest.Scenario("hs", n, ringtest.Random(seed))
				s.Initiators = set
				r := ringtest.Run(t, s)
				ringtest.Elected(t, r)
				if total := r.Messages.Total; total > bound(n)+n {
					t.Errorf("%d messages (%v), more than %d", total, r.Messages.ByType, bound(n)+n)
				}
			})
		}
	}
}

// TestElectAgain: an elect event after the first election starts election
// number 2, which every node joins and which elects the same node again,
// costing no more than the first.
func TestElectAgain(t *testing.T) {
	const n = 17
	s := ringtest.Scenario("hs", n, ringtest.Random(4))
	s.Events = []sim.Action{{At: 10 * time.Second, Kind: sim.ElectAt, Nodes: []algo.NodeID{3}, Where: "TestElectAgain"}}
	r := ringtest.Run(t, s)
	ringtest.Elected(t, r)
	for v, st := range r.Status {
		if st.Index.Num != 2 {
			t.Errorf("node %d ended in election %v, want number 2", v, st.Index)
		}
	}
	if r.Elections.Completed != 2 {
		t.Errorf("%d elections completed, want 2", r.Elections.Completed)
	}
	if total := r.Messages.Total; total > 2*(bound(n)+n) {
		t.Errorf("%d messages for two elections, more than twice %d", total, bound(n)+n)
	}
}
