//go:build linux

package emulate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// The nodes of vkt find their neighbours by hello and were given none as
// peers: the spy captures the leader's traffic, the leader is killed, and
// 7 s later (past the 10 loss limits, 6 s, after which nodes used to drop
// an unlisted neighbour's replay window: issue 31 A) the spy replays 2 s
// of it. Every replayed datagram is refused as a replay, by the one node
// it reaches or by each that hears it, and nobody follows the dead leader
// again.
func TestEmulateReplayOfUnlistedLeader(t *testing.T) {
	bin := electBinary(t)
	s := attackScenario(t, `
events:
  - {at: 3s, crash: 4}
`)
	var rec events
	res, err := Run(context.Background(), Config{Scenario: s, Binary: bin, Hello: 100 * time.Millisecond, HelloLoss: 6,
		Attacks:   []Attack{{At: 10 * time.Second, Kind: Replay, Node: algo.None, From: time.Second, For: 2 * time.Second}},
		Observers: []trace.Observer{&rec}, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	em := res.Emulated.Emulation
	t.Logf("replayed %d, forged %d, refused %v", em.Replayed, em.Forged, em.Rejected)
	if em.Replayed < 20 {
		t.Fatalf("the spy replayed %d datagrams of node 4's 2 s, want 20 or more", em.Replayed)
	}
	if got := em.Rejected["replay"]; got < uint64(em.Replayed) {
		t.Errorf("%d datagrams replayed, %d refused as replays: some were taken", em.Replayed, got)
	}
	for _, e := range rec.list {
		if e.Kind == trace.StatusChanged && e.At > 10*time.Second && e.Status.Leader == 4 {
			t.Errorf("at %v node %d follows the dead leader 4 again", e.At, e.Node)
		}
	}
	if !acted(&rec, "the spy replays node 4's") {
		t.Errorf("the run's acts do not tell the replay")
	}
	if sum := res.Emulated; sum.ViolationCount != 0 {
		t.Errorf("%d violations: %+v", sum.ViolationCount, sum.Violations)
	}
	assertGone(t, res.Tag)
}

// Without a key, the spy forges a hello in a node's name whose fence is at
// the end of its counter's range, and a message whose election number is:
// both are refused as out of range (issue 31 B: the leader's next token
// wrapped to 0, and three nodes led at once), and the run meets the
// specification.
func TestEmulateForgedCounters(t *testing.T) {
	bin := electBinary(t)
	s := attackScenario(t, "")
	var rec events
	res, err := Run(context.Background(), Config{Scenario: s, Binary: bin, Hello: 100 * time.Millisecond, HelloLoss: 6, Insecure: true,
		Attacks: []Attack{
			{At: 4 * time.Second, Kind: ForgeFence, Node: 1},
			{At: 5 * time.Second, Kind: ForgeFence, Node: algo.None},
			{At: 6 * time.Second, Kind: ForgeIndex, Node: 2},
		},
		Observers: []trace.Observer{&rec}, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	em := res.Emulated.Emulation
	if em.Forged != 3 {
		t.Fatalf("the spy forged %d datagrams, want 3", em.Forged)
	}
	// Each forged hello reaches the 4 other nodes; the message, its one.
	if got := em.Rejected["range"]; got != 4+4+1 {
		t.Errorf("%d datagrams refused as out of range, want 9", got)
	}
	if !acted(&rec, "the spy forges a hello with fence 0xffffffff00000001 in node 1's name") {
		t.Errorf("the run's acts do not tell the forgery")
	}
	if sum := res.Emulated; sum.ViolationCount != 0 {
		t.Errorf("%d violations: %+v", sum.ViolationCount, sum.Violations)
	}
	assertGone(t, res.Tag)
}

// attackScenario is vkt on 5 nodes of a complete network, node 4 the most
// valued, with the soak's quick timings, and events.
func attackScenario(t *testing.T, events string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse("attack.yaml", []byte(`
algorithm: vkt
topology: complete:5
values: id
duration: 14s
params: {heartbeat: 200ms, timeout: 1s, probe: 200ms, election_timeout: 2s}
check: {stabilization: 3s, liveness: 5s}
`+events), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// acted says whether an act of the run's journal begins with prefix.
func acted(rec *events, prefix string) bool {
	for _, e := range rec.list {
		if e.Kind == trace.Acted && strings.HasPrefix(e.Text, prefix) {
			return true
		}
	}
	return false
}
