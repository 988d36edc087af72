package bench

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// Experiment is one of the tests of 000_c3bedb07ea4749d7.txt as a scenario,
// with the moment from which its figures are measured.
type Experiment struct {
	Name  string
	Title string // short, for plots
	Doc   string
	// From is when measuring starts: elections that begin earlier, and
	// messages sent earlier, are not counted.
	From time.Duration
	// Mobile experiments are about movement: they need speeds, and their
	// figures are plotted against speed.
	Mobile bool
	// Setup turns the base scenario into the experiment.
	Setup func(s *scenario.Scenario)
	// Outside, when set, names what the experiment does that an
	// algorithm's model does not admit ("" when it admits it all): a sweep
	// leaves such pairs out unless told otherwise (Sweep.OutsideModel).
	Outside func(m algo.Model) string
}

func simCrashLeader(at time.Duration) sim.Action {
	return sim.Action{At: at, Kind: sim.Crash, Leader: true, Where: "experiment crash"}
}

// Experiments are the documents' tests that make sense on any topology.
var Experiments = []Experiment{
	{
		Name: "start", Title: "test 1, all start", Doc: "test 1: every node starts at the same instant",
		Setup: func(s *scenario.Scenario) {
			s.Duration = 8 * time.Second
			s.Check = scenario.Check{Stabilization: 3 * time.Second, Liveness: 6 * time.Second}
		},
	},
	{
		Name: "crash", Title: "test 2, leader crash", Doc: "test 2: the leader crashes at 5s, once the network has settled",
		From: 5 * time.Second,
		Setup: func(s *scenario.Scenario) {
			s.Duration = 16 * time.Second
			s.Check = scenario.Check{Stabilization: 3 * time.Second, Liveness: 8 * time.Second}
			s.Events = append(s.Events, simCrashLeader(5*time.Second))
		},
		Outside: func(m algo.Model) string {
			if !m.Crash {
				return "it crashes the leader, and the model does not survive crashes (Model.Crash)"
			}
			return ""
		},
	},
	{
		Name: "mobile", Title: "moving nodes", Mobile: true, From: 30 * time.Second,
		Doc: "the nodes move for 10 minutes (random waypoint at each speed unless told otherwise): time with a leader, and from 30s on (the start-up election apart) election rate, leader changes, messages",
		Setup: func(s *scenario.Scenario) {
			s.Duration = 10 * time.Minute
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
	x, err := experiment(r.Experiment)
	if err != nil {
		return nil, err
	}
	a, own, err := Variant(r.Algorithm)
	if err != nil {
		return nil, err
	}
	sc := scenario.Default()
	sc.File = ""
	sc.Algorithm, sc.Topology, sc.Seed = a.Name, r.Topology, r.Seed
	sc.Mobility = r.Mobility()
	sc.Delay, sc.Values = s.Delay, s.Values
	sc.Params = map[string]string{}
	for _, p := range a.Params {
		if v, ok := s.Params[p.Name]; ok {
			sc.Params[p.Name] = v
		}
	}
	maps.Copy(sc.Params, own)
	x.Setup(sc)
	if s.Duration > 0 {
		sc.Duration = s.Duration
	}
	count := metrics.NewCounter(len(a.Messages))
	count.From = x.From
	sum, err := runner.Run(sc, runner.Options{Observers: []trace.Observer{count}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Label(), err)
	}
	res := &Result{
		Run: r, Nodes: sum.Nodes, Edges: sum.Edges, ByType: map[string]uint64{},
		Leaderless: sum.LeaderlessFraction, Violations: sum.ViolationCount, Unchecked: sum.Unchecked,
		WallMS: sum.WallMS, TraceHash: sum.TraceHash,
		LinkChanges: count.LinkChanges, Reachable: sum.ReachableLeaderFraction,
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
	res.Elections, res.ElectionMS = elections(sum, x.From)
	return res, nil
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
