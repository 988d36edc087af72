package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// nodes lists lo..hi.
func nodes(lo, hi int) []algo.NodeID {
	var out []algo.NodeID
	for v := lo; v <= hi; v++ {
		out = append(out, algo.NodeID(v))
	}
	return out
}

func splitOf(t *testing.T, spec string) (*topo.Graph, []sim.Group) {
	t.Helper()
	sp, err := topo.Parse(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := sp.Build(rand.New(rand.NewPCG(1, 2)), "")
	if err != nil {
		t.Fatal(err)
	}
	return g, ThreeParts(g, sp)
}

// connected says the nodes of a part are linked within it.
func connected(g *topo.Graph, part []algo.NodeID) bool {
	in := map[algo.NodeID]bool{}
	for _, v := range part {
		in[v] = true
	}
	seen := map[algo.NodeID]bool{part[0]: true}
	queue := []algo.NodeID{part[0]}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range g.Neighbors(v) {
			if in[u] && !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	return len(seen) == len(part)
}

// A layered network splits into the document's three computers, a tree
// each; another network's largest component into three connected regions
// around nodes far apart, named in the order of their lowest nodes.
func TestThreeParts(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want [][]algo.NodeID // nil: only the properties are checked
	}{
		{"layered:1", [][]algo.NodeID{{0}, {1}, {2}}},
		{"layered:3", [][]algo.NodeID{nodes(0, 6), nodes(7, 13), nodes(14, 20)}},
		{"layered:4", [][]algo.NodeID{nodes(0, 14), nodes(15, 29), nodes(30, 44)}},
		// ends 11 and 0, and 5 halfway; 8 lies as near 5 as 11, and the
		// search from 11 reaches it first
		{"line:12", [][]algo.NodeID{nodes(0, 2), nodes(3, 7), nodes(8, 11)}},
		{"line:2", [][]algo.NodeID{{0}, {1}}},
		{"line:1", [][]algo.NodeID{{0}}},
		{"grid:5x5", nil},
		{"ring:30", nil},
		{"tree:40", nil},
		{"geometric:60:d8", nil},
		{"geometric:200:d6", nil},
		{"gnp:50:0.08", nil},
		{"ba:60:2", nil},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g, parts := splitOf(t, tc.spec)
			if tc.want != nil {
				var got [][]algo.NodeID
				for _, p := range parts {
					got = append(got, p.Nodes)
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("parts %v, want %v", got, tc.want)
				}
			}
			if strings.HasPrefix(tc.spec, "layered") {
				if parts[0].Name != "computer-0" || parts[2].Name != "computer-2" {
					t.Errorf("named %s..%s, want the computers", parts[0].Name, parts[2].Name)
				}
				return
			}
			comp, count := g.Components()
			sizes := make([]int, count)
			for _, c := range comp {
				sizes[c]++
			}
			big := slices.Max(sizes)
			if len(parts) != min(3, big) {
				t.Fatalf("%d parts of a component of %d nodes", len(parts), big)
			}
			seen := map[algo.NodeID]string{}
			total := 0
			for i, p := range parts {
				if p.Name != fmt.Sprintf("part-%d", i+1) || len(p.Nodes) == 0 {
					t.Fatalf("part %d: %+v", i, p)
				}
				if i > 0 && p.Nodes[0] < parts[i-1].Nodes[0] {
					t.Errorf("parts not in the order of their lowest nodes: %v then %v", parts[i-1].Nodes, p.Nodes)
				}
				if !connected(g, p.Nodes) {
					t.Errorf("%s is not connected: %v", p.Name, p.Nodes)
				}
				for _, v := range p.Nodes {
					if other, dup := seen[v]; dup {
						t.Fatalf("node %d in %s and %s", v, other, p.Name)
					}
					seen[v] = p.Name
					if comp[v] != comp[parts[0].Nodes[0]] {
						t.Errorf("node %d of another component than %d in %s", v, parts[0].Nodes[0], p.Name)
					}
				}
				total += len(p.Nodes)
			}
			if total != big {
				t.Errorf("the parts hold %d nodes of a component of %d", total, big)
			}
			again := ThreeParts(g, topo.Spec{})
			if fmt.Sprint(again) != fmt.Sprint(parts) {
				t.Errorf("a second split differs:\n%v\n%v", parts, again)
			}
		})
	}
	// The rule for other networks finds the computers of a layered one too,
	// as the help says.
	for l := 1; l <= 7; l++ {
		g, parts := splitOf(t, fmt.Sprintf("layered:%d", l))
		for i, p := range ThreeParts(g, topo.Spec{}) {
			if fmt.Sprint(p.Nodes) != fmt.Sprint(parts[i].Nodes) {
				t.Errorf("layered:%d without its spec: part %d is %v, not computer %v", l, i, p.Nodes, parts[i].Nodes)
			}
		}
	}
	// Two components: the larger splits, the smaller keeps out of it.
	g := topo.New(9, []topo.Edge{{A: 0, B: 1}, {A: 2, B: 3}, {A: 3, B: 4}, {A: 4, B: 5}, {A: 5, B: 6}, {A: 6, B: 7}, {A: 7, B: 8}})
	parts := ThreeParts(g, topo.Spec{})
	if got := fmt.Sprint(parts); got != "[{part-1 [2 3] <nil>} {part-2 [4 5 6] <nil>} {part-3 [7 8] <nil>}]" {
		t.Errorf("a line of 7 beside a pair: %s", got)
	}
}

// The bounds of a split network cover its parts: on a wheel (a ring round
// a hub) any two nodes lie two hops apart, but a part that holds an arc of
// the rim and not the hub must be crossed along the rim.
func TestSplitBounds(t *testing.T) {
	var edges []topo.Edge
	for v := 1; v <= 24; v++ {
		edges = append(edges, topo.Edge{A: 0, B: algo.NodeID(v)}, topo.Edge{A: algo.NodeID(v), B: algo.NodeID(v%24 + 1)})
	}
	g := topo.New(25, edges)
	parts := []sim.Group{{Name: "hub", Nodes: []algo.NodeID{0}}, {Name: "east", Nodes: nodes(1, 12)}, {Name: "west", Nodes: nodes(13, 24)}}
	whole, split := hopBound(g), hopBound(cut(g, parts))
	if whole != 2 || split != 11 {
		t.Errorf("wheel: %d hops whole, %d split: want 2 and 11", whole, split)
	}
	sw := &Sweep{Experiments: []string{"partition"}, Algorithms: []string{"vkt"}, Delay: sim.DefaultDelay}
	x, _ := experiment("partition")
	vkt, _ := algo.Lookup("vkt")
	for _, tc := range []struct {
		parts []sim.Group
		hops  int
	}{{nil, 2}, {parts, 11}} {
		b, err := sw.bounds(x, vkt, nil, g, tc.parts)
		if err != nil {
			t.Fatal(err)
		}
		if b.Hops != tc.hops || b.Settle != b.Timers+time.Duration(Crossings*tc.hops)*b.Delay || b.Slowest != b.Settle {
			t.Errorf("bounds on the wheel split into %v: %+v, want %d hops", tc.parts, b, tc.hops)
		}
	}
}

// partition splits the network when crash would crash the leader, and runs
// as long; merge heals it when a partition run ends, and runs as long
// again past the heal.
func TestPartitionMergeSetup(t *testing.T) {
	part, _ := experiment("partition")
	merge, _ := experiment("merge")
	for _, tc := range []struct {
		b                    Bounds
		at, heal, pend, mend time.Duration
		check                scenario.Check
	}{
		{Bounds{Settle: time.Second, Slowest: 2 * time.Second}, 5 * time.Second, 16 * time.Second, 16 * time.Second, 26 * time.Second,
			scenario.Check{Stabilization: 3 * time.Second, Liveness: 8 * time.Second}},
		{Bounds{Settle: 20 * time.Second, Slowest: 30 * time.Second}, 30 * time.Second, 62 * time.Second, 62 * time.Second, 94 * time.Second,
			scenario.Check{Stabilization: 20 * time.Second, Liveness: 20 * time.Second}},
	} {
		sc := &scenario.Scenario{}
		if at := part.Setup(sc, tc.b); at != tc.at || sc.Duration != tc.pend || sc.Check != tc.check ||
			len(sc.Events) != 1 || sc.Events[0].Kind != sim.Partition || sc.Events[0].At != at || sc.Events[0].Groups != nil {
			t.Errorf("partition under %+v: at %v, %+v", tc.b, at, sc)
		}
		sc = &scenario.Scenario{}
		if heal := merge.Setup(sc, tc.b); heal != tc.heal || sc.Duration != tc.mend || sc.Check != tc.check || len(sc.Events) != 2 ||
			sc.Events[0].Kind != sim.Partition || sc.Events[0].At != tc.at || sc.Events[1].Kind != sim.Heal || sc.Events[1].At != heal {
			t.Errorf("merge under %+v: heal at %v, %+v", tc.b, heal, sc)
		}
	}
	if part.From != 5*time.Second || merge.From != 16*time.Second {
		t.Errorf("measured from %v and %v at the earliest", part.From, merge.From)
	}
}

// The experiments need an algorithm that survives partitions and heals
// (Model.Partition): a sweep leaves the others out and says why.
func TestPartitionOutsideModel(t *testing.T) {
	sw := tinySweep(t)
	sw.Experiments, sw.Algorithms = []string{"partition", "merge"}, []string{"vkt", "echo", "park"}
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Algorithm == "echo" {
			t.Fatalf("echo, whose model has no partitions, runs %s", r.Experiment)
		}
	}
	if len(runs) != 2*2*4*2 || len(sw.Skipped) != 2 || !strings.Contains(sw.Skipped[0], "Model.Partition") {
		t.Errorf("%d runs, skipped %q", len(runs), sw.Skipped)
	}
}

// startLeader is the leader of the start-up election of the largest
// component: that of the largest election that began before from.
func startLeader(sum *metrics.Summary, from time.Duration) algo.NodeID {
	best, leader := 0, algo.None
	for _, e := range sum.Elections.List {
		if e.StartMS < metrics.MS(from) && e.Nodes > best {
			best, leader = e.Nodes, e.Leader
		}
	}
	return leader
}

// Tests 3 and 4 of the document, run as the sweep runs them, keep the
// specification, and measure what the document describes. Partition: the
// split comes at From, each part without the leader elects once (a leader
// of its own), the leader's part not at all and keeps its leader. Merge:
// vkt and park, as the document, begin no election from the heal and send
// nothing but heartbeats; every node ends following the start-up leader.
func TestPartitionMergeRuns(t *testing.T) {
	for _, tc := range []struct {
		algo, topology string
		seed           uint64
	}{
		{"vkt", "layered:3", 1},
		{"vkt", "layered:3", 2},
		{"park", "layered:3", 1},
		{"park", "layered:3", 2},
		{"vkt", "geometric:30:d8", 1},
		{"vkt", "geometric:30:d8", 2},
		{"park", "geometric:30:d8", 1},
		{"park", "geometric:30:d8", 2},
	} {
		for _, exp := range []string{"partition", "merge"} {
			t.Run(fmt.Sprintf("%s/%s/%s/%d", exp, tc.algo, tc.topology, tc.seed), func(t *testing.T) {
				sw := &Sweep{Experiments: []string{exp}, Algorithms: []string{tc.algo},
					Delay: sim.DefaultDelay, Values: sim.Values{Mode: sim.ValueRandom}}
				r := Run{Experiment: exp, Algorithm: tc.algo, Template: tc.topology, Topology: tc.topology, Seed: tc.seed}
				res, err := sw.Execute(r)
				if err != nil {
					t.Fatal(err)
				}
				if res.Violations != 0 || res.Unchecked != 0 {
					t.Fatalf("%d violations, %d components unchecked", res.Violations, res.Unchecked)
				}
				sc, _, _, from, err := sw.prepare(r)
				if err != nil {
					t.Fatal(err)
				}
				sum, err := runner.Run(sc, runner.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if sum.TraceHash != res.TraceHash || from != res.From {
					t.Fatalf("the run measured differs from the run prepared: %s from %v, %s from %v", res.TraceHash, res.From, sum.TraceHash, from)
				}
				var split, heal time.Duration = -1, -1
				var parts []sim.Group
				for _, e := range sc.Events {
					switch e.Kind {
					case sim.Partition:
						split, parts = e.At, e.Groups
					case sim.Heal:
						heal = e.At
					}
				}
				if len(parts) != 3 {
					t.Fatalf("split into %v", parts)
				}
				if strings.HasPrefix(tc.topology, "layered") && parts[0].Name != "computer-0" {
					t.Errorf("a layered network split into %v, not its computers", parts)
				}
				leader := startLeader(sum, split)
				home := slices.IndexFunc(parts, func(p sim.Group) bool { return slices.Contains(p.Nodes, leader) })
				if home < 0 {
					t.Fatalf("the start-up leader %d is in no part of %v", leader, parts)
				}
				follows := map[algo.NodeID]algo.NodeID{}
				for _, f := range sum.Final {
					follows[f.ID] = f.Leader
				}
				after := func(at time.Duration) []metrics.Election {
					var out []metrics.Election
					for _, e := range sum.Elections.List {
						if e.StartMS >= metrics.MS(at) {
							out = append(out, e)
						}
					}
					return out
				}
				if exp == "partition" {
					if split != res.From || split < 5*time.Second || heal >= 0 {
						t.Fatalf("split at %v, heal at %v, measured from %v: want the split at From, no heal", split, heal, res.From)
					}
					if !slices.ContainsFunc(sum.Faults, func(m metrics.Moment) bool {
						return m.AtMS == metrics.MS(res.From) && strings.HasPrefix(m.What, "the network splits into")
					}) {
						t.Errorf("no split at From (%v) in the story: %+v", res.From, sum.Faults)
					}
					els := after(res.From)
					if res.Elections != 2 || len(els) != 2 {
						t.Errorf("%d elections from the split (%+v), want one in each of the two parts without the leader", res.Elections, els)
					}
					elected := map[int]bool{}
					for _, e := range els {
						p := slices.IndexFunc(parts, func(p sim.Group) bool { return slices.Contains(p.Nodes, e.Leader) })
						if p == home || p < 0 || e.Nodes != len(parts[p].Nodes) {
							t.Errorf("an election from the split elects %d over %d nodes: want a part without leader %d (%v)", e.Leader, e.Nodes, leader, parts[home].Name)
						}
						elected[p] = true
					}
					if len(elected) != len(els) {
						t.Errorf("a part elected twice: %+v", els)
					}
					for _, v := range parts[home].Nodes {
						if follows[v] != leader {
							t.Errorf("node %d, in the leader's part, ends following %d, not %d", v, follows[v], leader)
						}
					}
					if res.Messages == 0 || res.PerElection() == 0 || res.ElectionMS <= 0 {
						t.Errorf("nothing measured: %d messages, %.1f per election, %.1f ms", res.Messages, res.PerElection(), res.ElectionMS)
					}
					return
				}
				if heal != res.From || split < 5*time.Second || heal <= split {
					t.Fatalf("split at %v, heal at %v, measured from %v: want the heal at From, after the split", split, heal, res.From)
				}
				if len(after(split)) != 2 {
					t.Errorf("%d elections from the split, want the two parts without the leader to elect before the heal", len(after(split)))
				}
				// As the document found (IV-C4): no election begins at
				// the merge, heartbeats alone carry the best leader.
				if res.Elections != 0 || res.Messages != 0 || res.Heartbeats == 0 {
					t.Errorf("from the heal: %d elections, %d messages besides %d heartbeats (%v); the document saw none", res.Elections, res.Messages, res.Heartbeats, res.ByType)
				}
				for _, p := range parts {
					for _, v := range p.Nodes {
						if follows[v] != leader {
							t.Errorf("node %d (%s) ends following %d, not the start-up leader %d", v, p.Name, follows[v], leader)
						}
					}
				}
			})
		}
	}
}
