package beacon_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/examples/beacon"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// The defaults: a tick every 500ms, 4 ticks of patience.
const (
	period  = 500 * time.Millisecond
	timeout = 4
)

// base is a run of beacon on topology with value = id, the default
// delays (uniform 1-5ms), no loss and no event.
func base(topology string, d time.Duration) *scenario.Scenario {
	s := scenario.Default()
	s.Algorithm, s.Params, s.Topology = "beacon", nil, topology
	s.Values = sim.Values{Mode: sim.ValueID}
	s.Duration = d
	s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 10 * time.Second}
	return s
}

// log is what a test observes of a run: every node's status as it
// changes, snapshots of them at chosen times, when each node last took up
// a status, and the heartbeats and stale messages sent within a window.
type log struct {
	status   map[algo.NodeID]algo.Status
	since    map[algo.NodeID]time.Duration
	at       []time.Duration // when to take snapshots, ascending
	snaps    []map[algo.NodeID]algo.Status
	from, to time.Duration // the counting window [from, to)
	sent     map[algo.MsgType]int
	total    map[algo.MsgType]int
}

func newLog(at ...time.Duration) *log {
	return &log{status: map[algo.NodeID]algo.Status{}, since: map[algo.NodeID]time.Duration{},
		at: at, sent: map[algo.MsgType]int{}, total: map[algo.MsgType]int{}}
}

func (l *log) Observe(e *trace.Event) {
	for len(l.at) > 0 && e.At >= l.at[0] {
		snap := make(map[algo.NodeID]algo.Status, len(l.status))
		for v, s := range l.status {
			snap[v] = s
		}
		l.snaps, l.at = append(l.snaps, snap), l.at[1:]
	}
	switch e.Kind {
	case trace.StatusChanged:
		l.status[e.Node], l.since[e.Node] = e.Status, e.At
	case trace.Crashed:
		delete(l.status, e.Node)
	case trace.Sent:
		l.total[e.Msg.Type]++
		if e.At >= l.from && e.At < l.to {
			l.sent[e.Msg.Type]++
		}
	}
}

// follow fails t unless every node of nodes is in Norm following leader in
// snapshot s.
func follow(t *testing.T, what string, s map[algo.NodeID]algo.Status, leader algo.NodeID, nodes ...algo.NodeID) {
	t.Helper()
	for _, v := range nodes {
		if st := s[v]; st.State != algo.Norm || st.Leader != leader {
			t.Errorf("%s: node %d is %v following %d, want Norm following %d", what, v, st.State, st.Leader, leader)
		}
	}
}

// settled fails t unless every live node of each final component is in
// Norm following the component's most valued node (runtest.FollowBest for
// networks in pieces); it returns how many components there are.
func settled(t *testing.T, sum *metrics.Summary) int {
	t.Helper()
	final := map[algo.NodeID]metrics.NodeFinal{}
	for _, f := range sum.Final {
		final[f.ID] = f
	}
	for _, c := range sum.Components {
		best := algo.NoPeer
		for _, v := range c {
			best = best.Max(algo.Peer{ID: v, Value: final[v].Value})
		}
		for _, v := range c {
			if f := final[v]; f.Leader != best.ID || f.State != algo.Norm.String() {
				t.Errorf("node %d: leader %d state %s, want Norm following %d, the most valued of its component %v", v, f.Leader, f.State, best.ID, c)
			}
		}
	}
	return len(sum.Components)
}

func ids(from, to int) []algo.NodeID {
	var out []algo.NodeID
	for v := from; v <= to; v++ {
		out = append(out, algo.NodeID(v))
	}
	return out
}

// TestSteadyMessages: once a component follows its leader and nothing
// changes, each beat is sent by the leader to its deg(leader) neighbours
// and relayed once by every other node to its neighbours but the sender:
// sum of degrees - (n-1) = 2|E| - n + 1 heartbeats a period, nothing else.
// With constant delays every node takes each beat in order, so the count
// over the 20 periods of [10s, 20s) is exact; with uniform delays a node
// may take a later beat first and skip an earlier one, so it is at most
// that.
func TestSteadyMessages(t *testing.T) {
	for _, c := range []struct {
		topology string
		perBeat  int // 2|E| - n + 1, by hand
	}{
		{"line:6", 5},       // a tree: n-1
		{"tree:12", 11},     // n-1
		{"ring:7", 8},       // n+1
		{"grid:4x4", 33},    // 2·24 - 15
		{"complete:6", 25},  // (n-1)²
		{"star:9", 8},       // n-1
		{"grid:10x10", 261}, // 2·180 - 99
	} {
		for _, constant := range []bool{true, false} {
			name := c.topology + "/uniform"
			if constant {
				name = c.topology + "/constant"
			}
			t.Run(name, func(t *testing.T) {
				s := base(c.topology, 20*time.Second)
				if constant {
					s.Delay = sim.Delay{Kind: sim.Constant, A: 3 * time.Millisecond}
				}
				l := newLog()
				l.from, l.to = 10*time.Second, 20*time.Second
				sum := runtest.Run(t, s, l)
				runtest.FollowBest(t, sum)
				if got := 2*sum.Edges - sum.Nodes + 1; got != c.perBeat {
					t.Fatalf("2|E|-n+1 = %d, the test says %d", got, c.perBeat)
				}
				want := 20 * c.perBeat
				hb, st := l.sent[beacon.Heartbeat], l.sent[beacon.Stale]
				switch {
				case st != 0 || l.total[beacon.Stale] != 0:
					t.Errorf("%d stale messages in a run with no fault", l.total[beacon.Stale])
				case constant && hb != want:
					t.Errorf("%d heartbeats in 20 periods, want exactly 20·(2|E|-n+1) = %d", hb, want)
				case !constant && (hb > want || hb < want*9/10):
					t.Errorf("%d heartbeats in 20 periods, want at most 20·(2|E|-n+1) = %d (and not much less)", hb, want)
				}
				t.Logf("%s: %d heartbeats in 20 periods (%d a period at most)", name, hb, c.perBeat)
			})
		}
	}
}

// TestBoot: every node campaigns at boot; the most valued node's beats
// reach everyone at once and it leads after timeout ticks of campaign:
// one election in each component, over in exactly timeout periods, on
// any network and any values.
func TestBoot(t *testing.T) {
	for _, topology := range []string{"line:2", "line:9", "ring:10", "grid:5x5", "complete:8", "geometric:40:d5", "gnp:30:0.2"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/%d", topology, seed), func(t *testing.T) {
				s := base(topology, 12*time.Second)
				s.Values, s.Seed = sim.Values{Mode: sim.ValueRandom}, seed
				sum := runtest.Run(t, s)
				pieces := settled(t, sum)
				e := sum.Elections
				if e.Completed != pieces || e.MaxTimeMS != float64(timeout*period/time.Millisecond) || e.MeanTimeMS != e.MaxTimeMS {
					t.Errorf("elections %+v, want one of %v in each of the %d components", e, timeout*period, pieces)
				}
			})
		}
	}
}

// TestLeaderCrash: the leader of a 4x4 grid (node 15) crashes at 5.2s,
// after its beat of 5.0s. Every other node ticks at 5.5, 6.0, 6.5 and 7.0
// with no new beat and drops it at the fourth, 7.0s; each campaigns; the
// beats of 14, the most valued survivor, reach everyone within a few
// milliseconds and they follow it, and 14 leads after its own four ticks,
// at 9.0s: a failover of 2·timeout periods from the last beat.
func TestLeaderCrash(t *testing.T) {
	s := base("grid:4x4", 20*time.Second)
	s.Events = []sim.Action{{At: 5200 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{15}}}
	l := newLog(6900*time.Millisecond, 7100*time.Millisecond)
	sum := runtest.Run(t, s, l)
	if best := runtest.FollowBest(t, sum); best != 14 {
		t.Fatalf("the survivors follow %d, want 14", best)
	}
	follow(t, "just before 7.0s, the old leader still", l.snaps[0], 15, ids(0, 14)...)
	follow(t, "just after 7.0s, 14's candidacy", l.snaps[1], 14, ids(0, 13)...)
	if st := l.snaps[1][14]; st.State != algo.Elect || st.Index != (algo.Index{Num: 2, ID: 14}) {
		t.Errorf("node 14 just after 7.0s: %+v, want a candidate with term <2,14>", st)
	}
	if at := l.since[14]; at != 9*time.Second {
		t.Errorf("node 14 took up its last status at %v, want 9s (timeout ticks of campaign after 7.0s)", at)
	}
	if e := sum.Elections; e.Completed != 2 || e.List[1].StartMS != 7000 || e.List[1].EndMS != 9000 || e.List[1].Leader != 14 {
		t.Errorf("elections %+v, want two: the boot's and the failover's, from 7s to 9s", e)
	}
}

// TestPartitionHeal: a 4x4 grid cut down the middle at 5.2s elects in
// each half: the right one (columns 2-3) keeps 15; the left one follows
// 13, its most valued node: its nodes drop 15 at their fourth tick after
// its beat of 5.0s, at 7.0s, and 13 leads at 9.0s. At 15s the cut heals: 13 and its followers hear of 15
// at once (a new link tells the neighbour the latest beat) and follow it
// with no election (no node leaves Norm).
func TestPartitionHeal(t *testing.T) {
	left := []algo.NodeID{0, 1, 4, 5, 8, 9, 12, 13}
	right := []algo.NodeID{2, 3, 6, 7, 10, 11, 14, 15}
	s := base("grid:4x4", 27*time.Second)
	s.Events = []sim.Action{
		{At: 5200 * time.Millisecond, Kind: sim.Partition, Groups: []sim.Group{{Name: "left", Nodes: left}, {Name: "right", Nodes: right}}},
		{At: 15 * time.Second, Kind: sim.Heal},
	}
	l := newLog(14900*time.Millisecond, 15100*time.Millisecond)
	sum := runtest.Run(t, s, l)
	follow(t, "partitioned, the left half", l.snaps[0], 13, left...)
	follow(t, "partitioned, the right half", l.snaps[0], 15, right...)
	follow(t, "100ms after the heal", l.snaps[1], 15, ids(0, 15)...)
	if best := runtest.FollowBest(t, sum); best != 15 {
		t.Errorf("everyone follows %d at the end, want 15", best)
	}
	if e := sum.Elections; e.Completed != 2 || e.List[1].Leader != 13 || e.List[1].StartMS != 7000 || e.List[1].EndMS != 9000 {
		t.Errorf("elections %+v, want two: the boot's and the left half's, from 7s to 9s", e)
	}
}

// TestLoss: with 10% of the messages lost, the network still elects the
// most valued node of each component, keeps it, and breaks no property.
// Loss can still make a node lose its leader for a while: a beat lost on
// one hop is lost for every node behind it, so on a line a node 5 hops
// from the leader misses 41% of the beats (1-0.9^5), drops its live leader
// after timeout of them in a row, campaigns, and once in a while misses
// the timeout beats of its campaign too and leads a piece of the line until
// the next beat gets through. The checker allows it (under loss, a node
// that starts a term of its own may have lost its leader's messages rather
// than its leader: that counts as a change). Sampled every second from 5s
// on, at least 98% of the node-samples follow the most valued node of their
// component.
func TestLoss(t *testing.T) {
	for _, topology := range []string{"grid:5x5", "geometric:30:d5", "line:8"} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/%d", topology, seed), func(t *testing.T) {
				s := base(topology, 60*time.Second)
				s.Values, s.Seed, s.Loss = sim.Values{Mode: sim.ValueRandom}, seed, 0.1
				var at []time.Duration
				for x := 5 * time.Second; x < s.Duration; x += time.Second {
					at = append(at, x)
				}
				l := newLog(at...)
				sum, err := runner.Run(s, runner.Options{Observers: []trace.Observer{l}})
				if err != nil {
					t.Fatal(err)
				}
				if sum.ViolationCount > 0 {
					t.Fatalf("%d violations, first %+v", sum.ViolationCount, sum.Violations[0])
				}
				best := map[algo.NodeID]algo.NodeID{} // the most valued of each node's component
				final := map[algo.NodeID]metrics.NodeFinal{}
				for _, f := range sum.Final {
					final[f.ID] = f
				}
				for _, c := range sum.Components {
					b := algo.NoPeer
					for _, v := range c {
						b = b.Max(algo.Peer{ID: v, Value: final[v].Value})
					}
					for _, v := range c {
						best[v] = b.ID
					}
				}
				right, wrong, samples := 0, 0, 0
				for _, snap := range l.snaps {
					for v, st := range snap {
						samples++
						switch {
						case st.State == algo.Norm && st.Leader == best[v]:
							right++
						case st.State == algo.Norm:
							wrong++
						}
					}
				}
				if right < samples*98/100 {
					t.Errorf("%d of %d node-samples follow the most valued node, want 98%%", right, samples)
				}
				if sum.Messages.Dropped == 0 {
					t.Errorf("no message lost: %+v", sum.Messages)
				}
				t.Logf("%s seed %d: %d of %d messages lost, %d elections started; of %d node-samples %d right, %d following another node", topology, seed,
					sum.Messages.Dropped, sum.Messages.Total, sum.ElectionsStarted, samples, right, wrong)
			})
		}
	}
}

// TestComeBack: the leader of a line crashes at 5.2s and comes back 100ms
// later, before its followers give it up. With its saved state it goes on
// leading, with a new term, and nobody leaves Norm: no election. With none
// it is a new node and campaigns; it starts again from term 1, the term its
// followers keep, and beat 1, far behind the beat they keep: they refuse
// its beats as old and say so, or it hears of its own earlier life, and it
// takes a term above; they follow it at once, and it leads after its
// campaign. Either way the run breaks no property.
func TestComeBack(t *testing.T) {
	for _, kind := range []sim.ActionKind{sim.Restart, sim.Recover} {
		t.Run(kind.String(), func(t *testing.T) {
			s := base("line:5", 20*time.Second)
			s.Events = []sim.Action{
				{At: 5200 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{4}},
				{At: 5300 * time.Millisecond, Kind: kind, Nodes: []algo.NodeID{4}},
			}
			l := newLog(6 * time.Second)
			sum := runtest.Run(t, s, l)
			if best := runtest.FollowBest(t, sum); best != 4 {
				t.Fatalf("everyone follows %d, want 4", best)
			}
			follow(t, "at 6s", l.snaps[0], 4, ids(0, 3)...)
			for v, st := range l.snaps[0] {
				if st.Index.Num < 2 || st.Index.ID != 4 {
					t.Errorf("node %d at 6s: index %v, want a term of 4 after its first", v, st.Index)
				}
			}
			st4, e := l.snaps[0][4], sum.Elections
			if kind == sim.Recover {
				if st4.State != algo.Norm || st4.Leader != 4 || e.Completed != 1 {
					t.Errorf("recovered: node 4 at 6s %+v, elections %+v; want it leading, and only the boot's election", st4, e)
				}
				return
			}
			if st4.State != algo.Elect || e.Completed != 2 || e.List[1].StartMS != 5300 || e.List[1].EndMS != 7300 {
				t.Errorf("restarted: node 4 at 6s %+v, elections %+v; want it campaigning, and an election from 5.3s to 7.3s", st4, e)
			}
		})
	}
}

// TestStaleRestart: node 0 of a line, the best, is cut off from the rest
// for a while (its followers go on to 3), then restarts with no state and
// comes back. Node 1 keeps 0's last report of its first life, beat 20 or
// so of term 1; the new 0 starts at term 1 beat 1: node 1 refuses it and
// answers stale, and 0 takes term 3 above what it hears of. Without the
// stale message node 0 would wait until its beat numbers caught up.
func TestStaleRestart(t *testing.T) {
	s := base("line:4", 30*time.Second)
	s.Values = sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{0: 10}}
	s.Events = []sim.Action{
		{At: 10200 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{0}},
		{At: 15200 * time.Millisecond, Kind: sim.Restart, Nodes: []algo.NodeID{0}},
	}
	l := newLog(14500*time.Millisecond, 16*time.Second)
	sum := runtest.Run(t, s, l)
	follow(t, "while 0 is down", l.snaps[0], 3, ids(1, 3)...)
	follow(t, "800ms after 0 came back", l.snaps[1], 0, ids(1, 3)...)
	if l.total[beacon.Stale] == 0 {
		t.Errorf("no stale message sent")
	}
	if best := runtest.FollowBest(t, sum); best != 0 {
		t.Errorf("everyone follows %d, want 0", best)
	}
	t.Logf("messages %+v", sum.Messages.ByType)
}

// TestBootWorstCase: on a line whose values rise along it (value = id),
// every node campaigns at boot and node i follows, in turn, each node
// above it, as the beats of farther and better nodes arrive one hop
// later each (constant delays): n-1-i adoptions, n(n-1)/2 in all, of which
// all but the first of each node are leader changes: (n-1)(n-2)/2. Each
// adoption is relayed to the one neighbour below, but by node 0. So the
// first half period, before any tick, carries the boot beats, 2(n-1), and
// (n-1)(n-2)/2 relays; after it, n-1 heartbeats a period (a tree).
func TestBootWorstCase(t *testing.T) {
	for _, n := range []int{2, 3, 10, 60} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := base(fmt.Sprintf("line:%d", n), 9900*time.Millisecond)
			s.Delay = sim.Delay{Kind: sim.Constant, A: time.Millisecond}
			s.Check.Liveness = 8 * time.Second
			l := newLog()
			l.from, l.to = 0, period
			sum := runtest.Run(t, s, l)
			runtest.FollowBest(t, sum)
			changes := uint64((n - 1) * (n - 2) / 2)
			if sum.LeaderChanges != changes {
				t.Errorf("%d leader changes, want (n-1)(n-2)/2 = %d", sum.LeaderChanges, changes)
			}
			if got, want := l.sent[beacon.Heartbeat], 2*(n-1)+(n-1)*(n-2)/2; got != want {
				t.Errorf("%d heartbeats before the first tick, want 2(n-1) + (n-1)(n-2)/2 = %d", got, want)
			}
			// Then the ticks of 0.5s to 9.5s: 19 beats of n-1, relayed down the line.
			if got, want := l.total[beacon.Heartbeat]-l.sent[beacon.Heartbeat], 19*(n-1); got != want {
				t.Errorf("%d heartbeats after the first tick, want 19 periods of n-1 = %d", got, want)
			}
		})
	}
}
