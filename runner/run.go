// Package runner wires one scenario into one simulated run: it builds the
// network, the engine, the checker and the counters, runs, and returns the
// summary. The CLI's sim and bench commands both go through it.
//
// A driver: it must not import the real-node packages, bench or cli
// (docs/architecture.md).
package runner

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/internal/behind"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// Options are the parts of a run that are not part of the scenario.
type Options struct {
	// Trace, when set, receives the run's events as JSON lines.
	Trace io.Writer
	// Observers also receive every event.
	Observers []trace.Observer
	// NS2, when set, receives the nodes' movement as an ns-2 trace (for
	// networks with positions), to take the run to ns-2, ns-3 or CORE.
	NS2 io.Writer
}

// topoStream, moveStream and the engine's own stream are separate, so that
// changing the topology family or the mobility never shifts the random draws
// of the run itself.
const (
	topoStream = 0x746f706f // "topo"
	moveStream = 0x6d6f7665 // "move"
)

// Net is a scenario's network: its graph at time 0 and, for a mobile run,
// the radio whose range turns the nodes' movement into link changes.
type Net struct {
	Graph *topo.Graph
	// Name says what the network is: the topology spec, or for an ns-2
	// trace, the trace.
	Name  string
	Radio mobility.Links // nil: the links never move

	Mobility mobility.Spec
	Range    float64
}

// bigRun is the network size from which a run collects its garbage between
// phases: after building the network and after the engine's run. The next
// phase (the engine, the report) then reuses that memory rather than raise
// the process's peak; the collector, left to itself, would run only once
// the next phase sat in fresh memory. The collection after the run took a
// million-node run's peak from 638 to 565 MiB, for a few tens of
// milliseconds; on small runs it would be all cost.
const bigRun = 100_000

// collectBig collects the garbage of a phase of a run of n nodes, if the
// run is big (bigRun).
func collectBig(n int) {
	if n >= bigRun {
		runtime.GC()
	}
}

// behindMin is the network size from which the checker (and Reach, which
// reads it) runs on a second core, behind the engine (internal/behind): on a
// network this large its records miss the caches, and the engine need not
// wait for it. On smaller ones it stays in line, where a run costs no
// goroutine and no batches. (A variable for the tests, which compare the
// two ways on small runs.)
var behindMin = 10_000

// bearsOnSpec says which events the checker reads: all but message traffic
// and timer expiries, which it passes over (check.Monitor.Observe).
func bearsOnSpec(k trace.Kind) bool {
	switch k {
	case trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired:
		return false
	}
	return true
}

// ReachPeriod is how often a mobile run of n nodes samples whether each
// node's leader is within its reach (metrics.Reach): every 100ms up to 1,000
// nodes, 100ms more for every 1,000 more, so that sampling (a search of the
// whole network each time) stays a small part of a large run.
func ReachPeriod(n int) time.Duration {
	return 100 * time.Millisecond * time.Duration((n+999)/1000)
}

// ErrRangeAlone refuses a radio range given without a mobility, which would
// otherwise be silently ignored.
var ErrRangeAlone = fmt.Errorf("a radio range applies to nodes with a mobility (static for still ones)")

// DefaultRange is the radio range of mobile runs on networks that do not
// give one: ns-2's (and setdest's) 250 m.
const DefaultRange = 250.0

// Network builds the scenario's graph: its topology, or for a mobile run the
// links at time 0 (see Build).
func Network(s *scenario.Scenario) (*topo.Graph, topo.Spec, error) {
	net, spec, err := build(s)
	if err != nil {
		return nil, spec, err
	}
	return net.Graph, spec, nil
}

// Build builds the scenario's network. Without mobility it is the topology.
// With it, the nodes start where the topology put them (it must have
// positions: geometric) and move in its area, or, for an ns-2 trace, the
// trace gives the nodes, where they start and how they move; two nodes are
// linked while within the radio range (the scenario's range, or the
// geometric topology's, or DefaultRange).
func Build(s *scenario.Scenario) (*Net, error) {
	net, _, err := build(s)
	return net, err
}

func build(s *scenario.Scenario) (*Net, topo.Spec, error) {
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if err != nil {
		return nil, spec, err
	}
	base := ""
	if s.File != "" {
		base = filepath.Dir(s.File)
	}
	if s.Mobility == "" {
		if s.Range != 0 {
			return nil, spec, ErrRangeAlone
		}
		if len(s.Ranges) > 0 {
			return nil, spec, s.Blame(fmt.Errorf("%w: ranges too", ErrRangeAlone), "ranges")
		}
		g, err := spec.Build(rand.New(rand.NewPCG(s.Seed, topoStream)), base)
		return &Net{Graph: g, Name: spec.String()}, spec, err
	}
	ms, err := mobility.Parse(s.Mobility)
	if err != nil {
		return nil, spec, err
	}
	net, err := moving(s, spec, ms, base)
	return net, spec, err
}

// moving builds the network of a mobile run: the plan of its movement, the
// radio that turns it into links, and the links at time 0.
func moving(s *scenario.Scenario, spec topo.Spec, ms mobility.Spec, base string) (*Net, error) {
	net := &Net{Name: spec.String(), Mobility: ms, Range: s.Range}
	var start []topo.Point
	var n int
	var w, h float64
	if ms.Kind == mobility.KindNS2 {
		net.Name = ms.String() // the trace brings its own nodes
	} else {
		if s.Duration <= 0 && ms.Kind != mobility.KindStatic {
			return nil, fmt.Errorf("mobility %s: a run with moving nodes needs a duration (nodes move until it ends)", s.Mobility)
		}
		g, err := spec.Build(rand.New(rand.NewPCG(s.Seed, topoStream)), base)
		if err != nil {
			return nil, err
		}
		if g.Pos == nil {
			return nil, fmt.Errorf("mobility %s needs nodes with positions: use a geometric topology (geometric:N:RANGE[:WxH]), or an ns-2 trace (ns2:PATH)", s.Mobility)
		}
		start, n, w, h = g.Pos, g.N(), g.Width, g.Height
		if net.Range == 0 && spec.Kind == topo.KindGeometric {
			net.Range = spec.Range
		}
	}
	if net.Range == 0 {
		net.Range = DefaultRange
	}
	plan, err := ms.Plan(n, start, w, h, s.Duration, rand.New(rand.NewPCG(s.Seed, moveStream)), base)
	if err != nil {
		return nil, fmt.Errorf("mobility %s: %w", s.Mobility, err)
	}
	if len(s.Ranges) > 0 {
		// Ranges of their own: links may carry one way.
		ranges := make([]float64, len(plan.Tracks))
		for v := range ranges {
			ranges[v] = net.Range
		}
		for v, r := range s.Ranges {
			if int(v) >= len(ranges) || v < 0 {
				return nil, s.Blame(fmt.Errorf("node %d has a range of its own, but the network has nodes 0..%d", v, len(ranges)-1), "ranges")
			}
			ranges[v] = r
		}
		if net.Radio, err = mobility.NewRadios(plan, ranges); err != nil {
			return nil, fmt.Errorf("mobility %s: %w", s.Mobility, err)
		}
	} else if net.Radio, err = mobility.NewRadio(plan, net.Range); err != nil {
		return nil, fmt.Errorf("mobility %s: %w", s.Mobility, err)
	}
	net.Graph = net.Radio.Graph()
	return net, nil
}

// Initiators resolves the nodes that the driver asks to elect at time 0 in
// a run of s on n nodes (algo.Algorithm.Initiators), with a note when the
// scenario names them through a deprecated parameter. A spontaneous
// algorithm's nodes start their elections at boot themselves, in Start:
// the driver asks none of them, and the run's initiators reach them in
// their parameters instead (Params, algo.Algorithm.CheckBoot).
func Initiators(s *scenario.Scenario, a *algo.Algorithm, n int) ([]algo.NodeID, string, error) {
	ids, note, err := a.Initiators(s.Initiators, s.Params, n)
	if err == nil && a.Model.Spontaneous {
		ids = nil
		note, err = a.CheckBoot(s.Initiators, s.Params)
	}
	if err != nil {
		fields := []string{"initiators"}
		for _, p := range a.Params {
			if p.Initiators || p.Boot {
				fields = append(fields, "params."+p.Name)
			}
		}
		return nil, note, s.Blame(err, append(fields, "params")...)
	}
	return ids, note, nil
}

// Params resolves the parameters that the machines of a run of s are built
// with: the scenario's, and the run's initiators for an algorithm whose
// machines read them there (algo.Algorithm.WithBoot).
func Params(s *scenario.Scenario, a *algo.Algorithm) (algo.Params, error) {
	return a.Resolve(a.WithBoot(s.Params, s.Initiators))
}

// ParseUnelected reads the value of a scenario's unelected field (or
// --unelected): a node set, or the word uninitiated, which names no node
// but declares every component without an initiator.
func ParseUnelected(v string) ([]algo.NodeID, error) {
	if v == scenario.Uninitiated {
		return nil, nil
	}
	ids, all, err := algo.ParseNodeSet(v)
	if err == nil && all {
		err = fmt.Errorf(`"all" would exempt every component: name the nodes`)
	}
	return ids, err
}

// CheckUnelected checks the value of a scenario's unelected field (or
// --unelected, see ParseUnelected) against a network of n nodes: a node
// outside it is refused, as an initiator outside it is.
func CheckUnelected(v string, n int) error {
	ids, err := ParseUnelected(v)
	if err == nil && len(ids) > 0 && int(ids[len(ids)-1]) >= n {
		err = fmt.Errorf("node %d does not exist (the network has nodes 0..%d)", ids[len(ids)-1], n-1)
	}
	return err
}

// Endless refuses a run of a that has no time limit (duration 0) when a's
// nodes never fall quiet (algo.Model.Heartbeats): it would run forever.
func Endless(s *scenario.Scenario, a *algo.Algorithm) error {
	if s.Duration > 0 || !a.Model.Heartbeats {
		return nil
	}
	return fmt.Errorf("%s's heartbeats never end, so a run of it with duration 0 (until no event is left) would never stop: give it a duration, like 60s", a.Name)
}

// fits refuses what a run of s on n nodes would get silently wrong: nodes
// outside the network in the unelected field (read by checkConfig) or in
// the values, blamed on the file's entry.
func fits(s *scenario.Scenario, n int) error {
	if err := CheckUnelected(s.Unelected, n); err != nil {
		if !s.Sets("unelected") {
			err = fmt.Errorf("unelected: %w", err)
		}
		return s.Blame(err, "unelected")
	}
	for _, id := range slices.Sorted(maps.Keys(s.Values.Explicit)) {
		if int(id) >= n {
			err := fmt.Errorf("value given for node %d, but the network has nodes 0..%d", id, n-1)
			return s.Blame(err, fmt.Sprintf("values.%d", id), "values")
		}
	}
	return nil
}

// CheckConfig returns the checker's configuration for a scenario that Run
// accepts (an unelected field it cannot read is left out here).
func CheckConfig(s *scenario.Scenario, a *algo.Algorithm) check.Config {
	cfg, _ := checkConfig(s, a)
	return cfg
}

// checkConfig is CheckConfig, with the error of an unelected field it
// cannot read.
func checkConfig(s *scenario.Scenario, a *algo.Algorithm) (check.Config, error) {
	cfg := check.Config{
		Stabilization:   s.Check.Stabilization,
		Liveness:        s.Check.Liveness,
		Spontaneous:     a.Model.Spontaneous,
		Expect:          s.Check.Expect,
		AmongInitiators: a.Model.ElectsInitiator,
		Lossy:           s.Loss > 0,
		Moving:          s.Mobility != "",
		ValueAtElection: !a.Model.FollowsValue, Algorithm: a.Name,
		ValuesMove: s.ValuesOver != "",
	}
	var err error
	if cfg.Unelected, err = ParseUnelected(s.Unelected); err != nil {
		err = s.Blame(fmt.Errorf("unelected: %w", err), "unelected")
	}
	cfg.UnelectedUninitiated = s.Unelected == scenario.Uninitiated
	if cfg.Stabilization == 0 {
		cfg.Stabilization = check.DefaultStabilization
	}
	if cfg.Liveness == 0 {
		cfg.Liveness = check.DefaultLiveness
	}
	return cfg, err
}

// writeNS2 writes the nodes' movement as an ns-2 trace: the radio's plan,
// or where the nodes of a still network stand.
func (net *Net) writeNS2(w io.Writer) error {
	var plan *mobility.Plan
	switch g := net.Graph; {
	case net.Radio != nil:
		plan = net.Radio.Plan()
	case g.Pos != nil:
		plan = &mobility.Plan{Tracks: make([]mobility.Track, g.N()), Width: g.Width, Height: g.Height}
		for v, p := range g.Pos {
			plan.Tracks[v].Start = p
		}
	default:
		return fmt.Errorf("ns-2 export: the network %s has no node positions (use a geometric topology or a mobility)", net.Name)
	}
	if err := mobility.WriteNS2(w, plan); err != nil {
		return fmt.Errorf("ns-2 export: %w", err)
	}
	return nil
}

// header is the trace header of a run of s, checked as cc.
func header(s *scenario.Scenario, a *algo.Algorithm, params algo.Params, net *Net, initiators []algo.NodeID, cc check.Config) trace.Header {
	h := trace.Header{
		Algorithm: a.Name, Params: params, Seed: s.Seed, Topology: net.Name, Nodes: net.Graph.N(),
		Messages: a.Messages, Spontaneous: a.Model.Spontaneous, Lossy: cc.Lossy,
		Initiators: initiators, Unelected: cc.Unelected, UnelectedUninitiated: cc.UnelectedUninitiated,
		AmongInitiators: cc.AmongInitiators, ValueAtElection: cc.ValueAtElection,
		Stabilization: cc.Stabilization, Liveness: cc.Liveness,
	}
	if s.ValuesOver != "" {
		if m, err := sim.ParseValueModel(s.ValuesOver); err == nil {
			h.ValuesOverTime, h.Duration = m.String(), s.Duration
		}
	}
	if cc.Expect != check.ExpectInitiated {
		h.Expect = cc.Expect.String()
	}
	if cc.MessageBound != nil {
		h.MessageBound, h.MaxDelay = cc.MessageBound.Formula, s.Delay.Max()
	}
	if net.Radio != nil {
		h.Mobility, h.RangeM, h.Duration = net.Mobility.String(), net.Range, s.Duration
	}
	return h
}

// Header is the trace header that a run of s writes, for those who show
// or record a run by other means (a live page, an emulated run's trace).
func Header(s *scenario.Scenario) (trace.Header, error) {
	a, err := algo.Lookup(s.Algorithm)
	if err != nil {
		return trace.Header{}, err
	}
	params, err := Params(s, a)
	if err != nil {
		return trace.Header{}, err
	}
	net, err := Build(s)
	if err != nil {
		return trace.Header{}, err
	}
	initiators, _, err := Initiators(s, a, net.Graph.N())
	if err != nil {
		return trace.Header{}, err
	}
	cc, err := checkConfig(s, a)
	if err != nil {
		return trace.Header{}, err
	}
	cc.MessageBound = boundFor(s, a, params)
	return header(s, a, params, net, initiators, cc), nil
}

// recorders are what a run feeds its events to besides its checker: the
// counter, the story, the caller's observers and the trace writer.
type recorders struct {
	counter *metrics.Counter
	story   *metrics.Story
	tw      *trace.Writer
}

func newRecorders(a *algo.Algorithm) *recorders {
	return &recorders{counter: metrics.NewCounter(len(a.Messages)), story: metrics.NewStory()}
}

// attach lists a run's observers: judges (the checker, and what goes
// with it), the counter, the story, the caller's observers, and the trace
// writer under header h when the caller wants a trace.
func (r *recorders) attach(judges []trace.Observer, opt Options, h trace.Header) ([]trace.Observer, error) {
	observers := append(append(judges, r.counter, r.story), opt.Observers...)
	if opt.Trace != nil {
		tw, err := trace.NewWriter(opt.Trace, h)
		if err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		r.tw = tw
		observers = append(observers, tw)
	}
	return observers, nil
}

// close ends the trace, if there is one.
func (r *recorders) close() error {
	if r.tw == nil {
		return nil
	}
	if err := r.tw.Close(); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

// summary is the summary of a run of s on net, which took wall and whose
// events hash to hash, up to the verdict and the counts (fill).
func summary(s *scenario.Scenario, a *algo.Algorithm, params algo.Params, net *Net, initiators int, note string, wall time.Duration, hash uint64) *metrics.Summary {
	sum := &metrics.Summary{
		Algorithm: a.Name, Params: params, Seed: s.Seed, Topology: net.Name,
		Nodes: net.Graph.N(), Edges: net.Graph.M(), Initiators: initiators,
		WallMS:    metrics.MS(wall),
		TraceHash: fmt.Sprintf("%016x", hash),
	}
	if note != "" {
		sum.Notes = append(sum.Notes, note)
	}
	return sum
}

// fill completes sum with the checker's verdict (told the messages sent)
// and the recorders' counts.
func (r *recorders) fill(sum *metrics.Summary, mon *check.Monitor, a *algo.Algorithm) {
	mon.Messages(r.counter.Transmissions())
	sum.FromCheck(mon, mon.Report())
	r.counter.Fill(sum, a.Messages)
	r.story.Fill(sum)
}

// Run runs a scenario once: in the simulator, or, for a scenario with a
// schedule, the schedule exactly (explore.Replay).
func Run(s *scenario.Scenario, opt Options) (*metrics.Summary, error) {
	a, err := algo.Lookup(s.Algorithm)
	if err != nil {
		return nil, err
	}
	if s.Schedule != nil {
		return runSchedule(s, a, opt)
	}
	if err := s.CheckEnd(""); err != nil {
		return nil, err
	}
	params, err := Params(s, a)
	if err != nil {
		return nil, err
	}
	net, err := Build(s)
	if err != nil {
		return nil, err
	}
	g := net.Graph
	// Building a large network leaves tens of megabytes of garbage (a
	// file's read buffers and edge chunks, a generator's scratch).
	collectBig(g.N())
	initiators, note, err := Initiators(s, a, g.N())
	if err != nil {
		return nil, err
	}
	ccfg, err := checkConfig(s, a)
	if err != nil {
		return nil, err
	}
	ccfg.MessageBound = messageBound(s, a, params)
	if err := fits(s, g.N()); err != nil {
		return nil, err
	}
	// After Build, whose refusal of moving nodes without a duration says
	// more than this one.
	if err := Endless(s, a); err != nil {
		return nil, s.Blame(err, "duration")
	}
	if opt.NS2 != nil {
		if err := net.writeNS2(opt.NS2); err != nil {
			return nil, err
		}
	}
	live := ccfg
	live.Network = g
	mon := check.New(live)
	rec := newRecorders(a)
	judges := []trace.Observer{mon}
	var reach *metrics.Reach
	if net.Radio != nil {
		// Reach samples the checker's view of the network: it goes first.
		reach = metrics.NewReach(ReachPeriod(g.N()), mon)
		judges = []trace.Observer{reach, mon}
	}
	var pipe *behind.Pipe
	if g.N() >= behindMin {
		// The counter's records of the nodes go behind with the checker;
		// it counts the messages in line.
		judges = append(judges, rec.counter.Nodes())
		pipe = behind.New(bearsOnSpec, judges...)
		pipe.SkipInitialLinks() // the checker has the network (live.Network)
		defer pipe.Close()
		judges = []trace.Observer{pipe}
	}
	observers, err := rec.attach(judges, opt, header(s, a, params, net, initiators, ccfg))
	if err != nil {
		return nil, err
	}
	cfg := sim.Config{
		Algorithm: a, Params: params, Graph: g, Values: s.Values, Seed: s.Seed,
		Delay: s.Delay, Loss: s.Loss, Duration: s.Duration, Timeline: s.Events,
		Initiators: initiators, Observers: observers,
	}
	if net.Radio != nil {
		cfg.Motion = net.Radio
	}
	if s.ValuesOver != "" {
		if cfg.ValuesOver, err = sim.ParseValueModel(s.ValuesOver); err != nil {
			return nil, s.Blame(err, "values_over_time")
		}
	}
	eng, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res := eng.Run()
	if pipe != nil {
		pipe.Wait() // the checker's last events
	}
	wall := time.Since(start)
	collectBig(g.N()) // the engine's memory is garbage now (eng is not used again)
	if err := rec.close(); err != nil {
		return nil, err
	}
	sum := summary(s, a, params, net, len(initiators), note, wall, res.Hash)
	if net.Radio != nil {
		sum.Mobility, sum.RangeM = net.Mobility.String(), net.Range
		sum.ReachableLeaderFraction = reach.Fraction()
	}
	rec.fill(sum, mon, a)
	if res.Values != nil {
		sum.Values = valueSummary(cfg.ValuesOver, res.Values, res.End)
	}
	return sum, nil
}

// valueSummary is what a run's value model measured, for its summary.
func valueSummary(m *sim.ValueModel, v *sim.ValueStats, end time.Duration) *metrics.ValueSummary {
	out := &metrics.ValueSummary{Model: m.String(), HandOvers: v.HandOvers, FirstEmptyMS: -1, Empty: v.Empty}
	if end > 0 {
		out.HandOversPerMinute = float64(v.HandOvers) / end.Minutes()
	}
	if v.FirstEmpty >= 0 {
		out.FirstEmptyMS = metrics.MS(v.FirstEmpty)
	}
	if v.LeaderTime > 0 {
		out.LeaderPerSecond = v.Spent[0] / v.LeaderTime.Seconds()
	}
	if v.OtherTime > 0 {
		out.OtherPerSecond = v.Spent[1] / v.OtherTime.Seconds()
	}
	return out
}
