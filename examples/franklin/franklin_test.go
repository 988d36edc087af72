package franklin_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/examples/franklin"
	"github.com/electgo/elect/examples/internal/ringtest"
	"github.com/electgo/elect/sim"
)

// bound is Franklin's bound on the number messages of an election on a
// ring of n nodes: 2n(⌈log₂ n⌉+1).
func bound(n int) uint64 { return uint64(2 * n * (ringtest.Log2Ceil(n) + 1)) }

// TestBound: on rings of assorted sizes and value arrangements, every node
// initiating, the most valued node is elected with no checker violation;
// every round costs exactly 2n number messages (each link carries one each
// way), so the numbers are a multiple of 2n within 2n(⌈log₂ n⌉+1); the
// announcement costs exactly n, and nothing else is sent: total <=
// 2n(⌈log₂ n⌉+1) + n.
func TestBound(t *testing.T) {
	for _, n := range ringtest.Sizes {
		for _, a := range ringtest.Arrangements() {
			t.Run(fmt.Sprintf("ring%d/%s", n, a.Name), func(t *testing.T) {
				r := ringtest.Run(t, ringtest.Scenario("franklin", n, a))
				ringtest.Elected(t, r)
				by := r.Messages.ByType
				if by["number"] > bound(n) || by["number"]%uint64(2*n) != 0 {
					t.Errorf("%d number messages, want a multiple of 2n = %d up to 2n(⌈log₂ n⌉+1) = %d", by["number"], 2*n, bound(n))
				}
				if by["leader"] != uint64(n) {
					t.Errorf("%d leader messages, want n = %d", by["leader"], n)
				}
				if total := r.Messages.Total; total != by["number"]+by["leader"] || total > bound(n)+uint64(n) {
					t.Errorf("%d messages in all (%v), want number+leader <= %d", total, by, bound(n)+uint64(n))
				}
				t.Logf("n=%d %s: %d numbers (%d rounds), %d leader; %d of the bound %d", n, a.Name,
					by["number"], by["number"]/uint64(2*n), by["leader"], r.Messages.Total, bound(n)+uint64(n))
			})
		}
	}
}

// TestExactCounts: small rings worked out by hand. Each round costs 2n
// number messages, so counting rounds is enough; a node stays active in a
// round when it beats the nearest active node on both sides.
//
//   - ring:3 ascending (values 0 1 2): round 0 leaves node 2 alone (it
//     beats 1 and 0; 0 and 1 each see 2); round 1 brings its own number
//     back: 2 rounds, 12 numbers, 3 leader.
//   - ring:4 ascending: round 0 leaves node 3 (node 2 sees 3): 2 rounds, 16.
//   - ring:5 with values 1 5 2 4 3: round 0 leaves nodes 1 (5 beats 1 and
//     2) and 3 (4 beats 2 and 3); round 1, nodes 1 and 3 are each other's
//     nearest active node on both sides: 1 stays; round 2 it is alone: 3
//     rounds, 30 numbers, 5 leader.
//   - ring:8 with the bit-reversed values 0 4 2 6 1 5 3 7: round 0 leaves 4,
//     6, 5, 7 (nodes 1, 3, 5, 7); round 1 leaves 6 and 7; round 2 leaves 7
//     (node 7); round 3 it is alone: 4 rounds, 64 numbers: exactly the
//     bound 2n(⌈log₂ n⌉+1).
//
// Descending values are the mirror image of ascending ones: the same
// counts, node 0 leading.
func TestExactCounts(t *testing.T) {
	for _, c := range []struct {
		n              int
		arrangement    ringtest.Arrangement
		number, leader uint64
		wantLeader     int
	}{
		{3, ringtest.Ascending(), 12, 3, 2},
		{3, ringtest.Descending(), 12, 3, 0},
		{4, ringtest.Ascending(), 16, 4, 3},
		{4, ringtest.Descending(), 16, 4, 0},
		{5, ringtest.Explicit(1, 5, 2, 4, 3), 30, 5, 1},
		{8, ringtest.BitReversal(), 64, 8, 7},
	} {
		for _, delay := range []string{"constant:1ms", "uniform:1ms:9ms"} {
			t.Run(fmt.Sprintf("ring%d/%s/%s", c.n, c.arrangement.Name, delay), func(t *testing.T) {
				s := ringtest.Scenario("franklin", c.n, c.arrangement)
				var err error
				if s.Delay, err = sim.ParseDelay(delay); err != nil {
					t.Fatal(err)
				}
				r := ringtest.Run(t, s)
				if got := ringtest.Elected(t, r); int(got) != c.wantLeader {
					t.Errorf("leader %d, want %d", got, c.wantLeader)
				}
				by := r.Messages.ByType
				if by["number"] != c.number || by["leader"] != c.leader {
					t.Errorf("messages %v, want %d number, %d leader", by, c.number, c.leader)
				}
			})
		}
	}
}

// TestInitiators: with only some nodes initiating, the others are woken
// by the first number that reaches them and take part in round 0 as if
// they had initiated: the same rounds, so exactly the same number messages
// as with every node initiating, and the same leader.
func TestInitiators(t *testing.T) {
	const n = 16
	for seed := uint64(1); seed <= 3; seed++ {
		all := ringtest.Run(t, ringtest.Scenario("franklin", n, ringtest.Random(seed)))
		for _, set := range []string{"0", "5", "1,7,12"} {
			t.Run(fmt.Sprintf("%s/seed%d", set, seed), func(t *testing.T) {
				s := ringtest.Scenario("franklin", n, ringtest.Random(seed))
				s.Initiators = set
				r := ringtest.Run(t, s)
				ringtest.Elected(t, r)
				if got, want := r.Messages.ByType, all.Messages.ByType; got["number"] != want["number"] || got["leader"] != n {
					t.Errorf("messages %v, want %d number (as with every node initiating) and %d leader", got, want["number"], n)
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
	s := ringtest.Scenario("franklin", n, ringtest.Random(4))
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
