package bench

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Experiment is one of the tests of 000_c3bedb07ea4749d7.txt as a scenario,
// with the moment from which its figures are measured.
type Experiment struct {
	Name  string
	Title string // what happens, in words that fit any algorithm, for plots
	Doc   string
	// From is the earliest moment measuring starts: elections that begin
	// earlier, and messages sent earlier, are not counted. An experiment
	// that changes the network once it has settled measures from its
	// change, later on a network that takes longer to settle (Setup).
	From time.Duration
	// Mobile experiments are about movement: they need speeds, and their
	// figures are plotted against speed.
	Mobile bool
	// Battery experiments drain the nodes' batteries, their values: they
	// need drains (Sweep.Drains), and their figures are plotted against
	// size and drain (battery.go).
	Battery bool
	// Setup turns the base scenario into the experiment on a network where
	// an algorithm settles within the bounds b, and returns when measuring
	// starts. The document's lengths are the least a run gets: a network
	// that needs more gets more.
	Setup func(s *scenario.Scenario, b Bounds) time.Duration
	// Split, when set, divides network g, built from spec, into the parts
	// of the experiment's partition (ThreeParts): Setup writes its
	// sim.Partition actions with no groups, as it does not see the
	// network, and the run fills the parts in. The bounds then cover the
	// parts as well as the whole network: a part can take more hops to
	// cross than the whole, whose paths could go through the other parts.
	Split func(g *topo.Graph, spec topo.Spec) []sim.Group
	// Outside, when set, names what the experiment does that an
	// algorithm's model does not admit ("" when it admits it all): a sweep
	// leaves such pairs out unless told otherwise (Sweep.OutsideModel).
	Outside func(m algo.Model) string
}

func simCrashLeader(at time.Duration) sim.Action {
	return sim.Action{At: at, Kind: sim.Crash, Leader: true, Where: "experiment crash"}
}

// simSplit is the split of an experiment with Split, whose parts the run
// fills in.
func simSplit(at time.Duration, experiment string) sim.Action {
	return sim.Action{At: at, Kind: sim.Partition, Where: "experiment " + experiment}
}

func outsidePartition(m algo.Model) string {
	if !m.Partition {
		return "it splits the network and heals it, and the model does not survive partitions and heals (Model.Partition)"
	}
	return ""
}

// Experiments are the documents' tests that make sense on any topology.
// Their bounds are those of the document's networks (stabilization 3s,
// liveness 6s or 8s) or the network's own (Bounds.Settle), whichever is
// longer; a run lasts tail past them.
var Experiments = []Experiment{
	{
		Name: "start", Title: "all nodes start at once", Doc: "test 1: every node starts at the same instant",
		Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
			s.Check = scenario.Check{Stabilization: max(3*time.Second, b.Settle), Liveness: max(6*time.Second, b.Settle)}
			s.Duration = max(8*time.Second, max(6*time.Second, b.Slowest)+tail)
			return 0
		},
	},
	{
		Name: "crash", Title: "the leader crashes", Doc: "test 2: the leader crashes once the network has settled (at 5s, later on a network that takes longer)",
		From: 5 * time.Second,
		Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
			at := max(5*time.Second, b.Slowest) // the start-up election is over
			s.Check = scenario.Check{Stabilization: max(3*time.Second, b.Settle), Liveness: max(8*time.Second, b.Settle)}
			s.Duration = max(16*time.Second, at+max(8*time.Second, b.Slowest)+tail)
			s.Events = append(s.Events, simCrashLeader(at))
			return at
		},
		Outside: func(m algo.Model) string {
			if !m.Crash {
				return "it crashes the leader, and the model does not survive crashes (Model.Crash)"
			}
			return ""
		},
	},
	{
		Name: "partition", Title: "the network splits in three",
		Doc:  "test 3: the network splits into three parts once it has settled (at 5s, later on a network that takes longer; ThreeParts): the parts without the leader elect, the one with it keeps it",
		From: 5 * time.Second, Split: ThreeParts, Outside: outsidePartition,
		Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
			at := max(5*time.Second, b.Slowest) // the start-up election is over
			s.Check = scenario.Check{Stabilization: max(3*time.Second, b.Settle), Liveness: max(8*time.Second, b.Settle)}
			s.Duration = max(16*time.Second, at+max(8*time.Second, b.Slowest)+tail)
			s.Events = append(s.Events, simSplit(at, "partition"))
			return at
		},
	},
	{
		Name: "merge", Title: "the split network heals",
		Doc: "test 4: the split of partition heals once its parts have settled (when a partition run ends, 16s at least): elections begun and messages sent from the heal " +
			"(the document saw none begin: heartbeats alone spread the highest leader)",
		From: 16 * time.Second, Split: ThreeParts, Outside: outsidePartition,
		Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
			at := max(5*time.Second, b.Slowest)
			s.Check = scenario.Check{Stabilization: max(3*time.Second, b.Settle), Liveness: max(8*time.Second, b.Settle)}
			// The parts have settled, and the checker has judged them,
			// when a partition run ends: the heal comes then.
			heal := max(16*time.Second, at+max(8*time.Second, b.Slowest)+tail)
			s.Duration = heal + max(8*time.Second, b.Slowest) + tail
			s.Events = append(s.Events, simSplit(at, "merge"),
				sim.Action{At: heal, Kind: sim.Heal, Where: "experiment merge"})
			return heal
		},
	},
	{
		Name: "mobile", Title: "the nodes move", Mobile: true, From: 30 * time.Second,
		Doc: "the nodes move for 10 minutes (random waypoint at each speed unless told otherwise): time with a leader, and from 30s on (the start-up election apart) election rate, leader changes, messages",
		Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
			// The bounds of sim, or the network's at its start; the
			// checker never fails a run of moving nodes for ending
			// unsettled, so the length stays the document's.
			s.Check = scenario.Check{Stabilization: max(check.DefaultStabilization, b.Settle), Liveness: max(check.DefaultLiveness, b.Settle)}
			s.Duration = 10 * time.Minute
			return 30 * time.Second
		},
		Outside: func(m algo.Model) string {
			if !m.Mobility {
				return "it moves the nodes, and the model does not keep the specification under movement (Model.Mobility)"
			}
			return ""
		},
	},
}

func experiment(name string) (*Experiment, error) {
	var names []string
	for i := range Experiments {
		if Experiments[i].Name == name {
			return &Experiments[i], nil
		}
		names = append(names, Experiments[i].Name)
	}
	return nil, fmt.Errorf("unknown experiment %q (known: %s)", name, strings.Join(names, ", "))
}

// Result is what one run measured: one row of the CSV file.
type Result struct {
	Run
	Nodes, Edges int
	// Elections counts the elections that began from the experiment's From;
	// ElectionMS is their mean duration.
	Elections  int
	ElectionMS float64
	// Messages counts the messages sent from From on, heartbeats apart
	// (they are the algorithm's upkeep, not its elections), and Heartbeats
	// those.
	Messages   uint64
	Heartbeats uint64
	// Receptions are the receptions of the messages counted in Messages
	// (a broadcast is one message heard by every neighbour), and Bytes
	// their bytes on the air (metrics.Counter.Bytes).
	Receptions, Bytes uint64
	// ByType counts every message type sent from From, heartbeats included.
	ByType     map[string]uint64
	Leaderless float64
	// The figures of moving networks, from From on: link changes by
	// movement, and per node, elections started and leader changes a
	// minute, messages (heartbeats included) a second.
	LinkChanges           uint64
	Reachable             float64 // share of node-time following a reachable leader
	LinkChangeRate        float64 // per node a minute, counted at both ends
	ElectionRate          float64
	LeaderChangeRate      float64
	MessagesPerNodeSecond float64
	Violations            int
	// Unchecked counts components whose liveness the run was too short to
	// judge.
	Unchecked int
	WallMS    float64
	TraceHash string
	// The run's bounds and where they came from (Bounds): the hops and the
	// longest delay of one hop, the algorithm's timers, when measuring
	// started (the crash, say), the checker's bounds and the run's length.
	Hops                              int
	HopDelay, Timers, From            time.Duration
	Stabilization, Liveness, Duration time.Duration
	// The figures of batteries (the battery experiment; Run.Drain is the
	// drain), over the whole run: the battery's capacity, the leaders'
	// hand-overs and their rate a minute, when the first battery ran out
	// (-1 if none did) and how many had by the end, and the energy a
	// second a node spent while leading and while not
	// (metrics.ValueSummary).
	Capacity                  float64
	HandOvers                 int
	HandOverRate              float64
	FirstEmptyMS              float64
	Empty                     int
	LeaderEnergy, OtherEnergy float64
}

// PerElection is the message overhead of one election, the documents'
// first metric.
func (r *Result) PerElection() float64 {
	if r.Elections == 0 {
		return 0
	}
	return float64(r.Messages) / float64(r.Elections)
}

// ReceptionsPerElection is the messages received per election: with a
// broadcast, each transmission heard by every neighbour.
func (r *Result) ReceptionsPerElection() float64 {
	if r.Elections == 0 {
		return 0
	}
	return float64(r.Receptions) / float64(r.Elections)
}

// BytesPerElection is the bytes sent per election.
func (r *Result) BytesPerElection() float64 {
	if r.Elections == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Elections)
}

// PerNode is the message overhead per node.
func (r *Result) PerNode() float64 { return float64(r.Messages) / float64(max(r.Nodes, 1)) }

// Execute runs one run of a sweep.
func (s *Sweep) Execute(r Run) (*Result, error) {
	sc, a, b, from, err := s.prepare(r)
	if err != nil {
		return nil, err
	}
	count := metrics.NewCounter(len(a.Messages))
	count.From = from
	sum, err := runner.Run(sc, runner.Options{Observers: []trace.Observer{count}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Label(), err)
	}
	res := &Result{
		Run: r, Nodes: sum.Nodes, Edges: sum.Edges, ByType: map[string]uint64{}, FirstEmptyMS: -1,
		Leaderless: sum.LeaderlessFraction, Violations: sum.ViolationCount, Unchecked: sum.Unchecked,
		WallMS: sum.WallMS, TraceHash: sum.TraceHash,
		LinkChanges: count.LinkChanges, Reachable: sum.ReachableLeaderFraction,
		Hops: b.Hops, HopDelay: b.Delay, Timers: b.Timers, From: from,
		Stabilization: sc.Check.Stabilization, Liveness: sc.Check.Liveness, Duration: sc.Duration,
	}
	var sent uint64
	for t, c := range count.Sent {
		sent += c
		res.ByType[a.Messages[t]] = c
		if a.Messages[t] == "heartbeat" {
			res.Heartbeats += c
		} else {
			res.Messages += c
			res.Receptions += count.Delivered[t]
			res.Bytes += count.Bytes[t]
		}
	}
	rates := count.Rates(sum.End(), sent)
	res.LinkChangeRate, res.ElectionRate = rates.LinkChangesPerNodeMinute, rates.ElectionsPerNodeMinute
	res.LeaderChangeRate, res.MessagesPerNodeSecond = rates.LeaderChangesPerNodeMinute, rates.MessagesPerNodeSecond
	res.Elections, res.ElectionMS = elections(sum, from)
	if sum.Values != nil {
		res.Capacity = s.capacity()
		res.noteValues(sum.Values)
	}
	return res, nil
}

// prepare is run r's scenario, its algorithm, its bounds and the moment
// from which it is measured.
func (s *Sweep) prepare(r Run) (*scenario.Scenario, *algo.Algorithm, Bounds, time.Duration, error) {
	x, err := experiment(r.Experiment)
	if err != nil {
		return nil, nil, Bounds{}, 0, err
	}
	a, own, err := Variant(r.Algorithm)
	if err != nil {
		return nil, nil, Bounds{}, 0, err
	}
	sc := scenario.Default()
	sc.File = ""
	sc.Algorithm, sc.Topology, sc.Seed = a.Name, r.Topology, r.Seed
	sc.Mobility = r.Mobility()
	sc.Delay, sc.Values = s.Delay, s.Values
	sc.ValuesOver = s.batteryRun(r)
	sc.Params = s.paramsOf(a, own)
	g, spec, err := runner.Network(sc)
	if err != nil {
		return nil, nil, Bounds{}, 0, fmt.Errorf("%s: %w", r.Label(), err)
	}
	var parts []sim.Group
	if x.Split != nil {
		parts = x.Split(g, spec)
	}
	b, err := s.bounds(x, a, sc.Params, g, parts)
	if err != nil {
		return nil, nil, Bounds{}, 0, fmt.Errorf("%s: %w", r.Label(), err)
	}
	from := x.Setup(sc, b)
	for i := range sc.Events {
		if e := &sc.Events[i]; e.Kind == sim.Partition && e.Groups == nil {
			e.Groups = parts
		}
	}
	if s.Duration > 0 {
		if s.Duration <= from {
			return nil, nil, Bounds{}, 0, fmt.Errorf("%s: it measures from %v on: a run of %v ends before", r.Label(), from, s.Duration)
		}
		sc.Duration = s.Duration
	}
	return sc, a, b, from, nil
}

// paramsOf are the parameters of algorithm a in the sweep: the sweep's that
// it declares, and a variant's own over them.
func (s *Sweep) paramsOf(a *algo.Algorithm, own map[string]string) map[string]string {
	p := map[string]string{}
	for _, d := range a.Params {
		if v, ok := s.Params[d.Name]; ok {
			p[d.Name] = v
		}
	}
	maps.Copy(p, own)
	return p
}

// bounds are the bounds of a run of experiment x by algorithm a with
// parameters params on network g, split into parts when x splits it, and
// the slowest of the sweep's algorithms that run x (Bounds.Slowest).
func (s *Sweep) bounds(x *Experiment, a *algo.Algorithm, params map[string]string, g *topo.Graph, parts []sim.Group) (Bounds, error) {
	hops := hopBound(g)
	if parts != nil {
		hops = max(hops, hopBound(cut(g, parts)))
	}
	p, err := a.Resolve(params)
	if err != nil {
		return Bounds{}, err
	}
	b := bounds(a, p, g, hops, s.Delay)
	for _, name := range s.Algorithms {
		other, own, err := Variant(name)
		if err != nil {
			return Bounds{}, err
		}
		if x.Outside != nil && !s.OutsideModel && x.Outside(other.Model) != "" {
			continue // not run: Runs left it out
		}
		p, err := other.Resolve(s.paramsOf(other, own))
		if err != nil {
			return Bounds{}, err
		}
		b.Slowest = max(b.Slowest, bounds(other, p, g, hops, s.Delay).Settle)
	}
	return b, nil
}

// elections counts the elections that began from a moment on and their mean
// duration.
func elections(sum *metrics.Summary, at time.Duration) (int, float64) {
	n, total := 0, 0.0
	for _, e := range sum.Elections.List {
		if e.StartMS >= metrics.MS(at) {
			n++
			total += e.EndMS - e.StartMS
		}
	}
	if n == 0 {
		return 0, 0
	}
	return n, total / float64(n)
}
