// Package runner wires one scenario into one simulated run: it builds the
// network, the engine, the checker and the counters, runs, and returns the
// summary. The CLI's sim and bench commands both go through it.
package runner

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
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
}

// topoStream and the engine's own stream are separate, so that changing the
// topology family never shifts the random draws of the run itself.
const topoStream = 0x746f706f // "topo"

// Network builds the scenario's graph.
func Network(s *scenario.Scenario) (*topo.Graph, topo.Spec, error) {
	spec, err := topo.Parse(s.Topology, s.Nodes)
	if err != nil {
		return nil, spec, err
	}
	base := ""
	if s.File != "" {
		base = filepath.Dir(s.File)
	}
	g, err := spec.Build(rand.New(rand.NewPCG(s.Seed, topoStream)), base)
	return g, spec, err
}

// CheckConfig returns the checker's configuration for a scenario.
func CheckConfig(s *scenario.Scenario, a *algo.Algorithm) check.Config {
	cfg := check.Config{
		Stabilization: s.Check.Stabilization,
		Liveness:      s.Check.Liveness,
		Spontaneous:   a.Model.Spontaneous,
	}
	if cfg.Stabilization == 0 {
		cfg.Stabilization = check.DefaultStabilization
	}
	if cfg.Liveness == 0 {
		cfg.Liveness = check.DefaultLiveness
	}
	return cfg
}

// Run runs a scenario once.
func Run(s *scenario.Scenario, opt Options) (*metrics.Summary, error) {
	a, err := algo.Lookup(s.Algorithm)
	if err != nil {
		return nil, err
	}
	params, err := a.Resolve(s.Params)
	if err != nil {
		return nil, err
	}
	g, spec, err := Network(s)
	if err != nil {
		return nil, err
	}
	ccfg := CheckConfig(s, a)
	live := ccfg
	live.Network = g
	mon := check.New(live)
	counter := metrics.NewCounter(len(a.Messages))
	observers := append([]trace.Observer{mon, counter}, opt.Observers...)
	var tw *trace.Writer
	if opt.Trace != nil {
		tw, err = trace.NewWriter(opt.Trace, trace.Header{
			Algorithm: a.Name, Params: params, Seed: s.Seed, Topology: spec.String(), Nodes: g.N(),
			Messages: a.Messages, Spontaneous: a.Model.Spontaneous,
			Stabilization: ccfg.Stabilization, Liveness: ccfg.Liveness,
		})
		if err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		observers = append(observers, tw)
	}
	eng, err := sim.New(sim.Config{
		Algorithm: a, Params: params, Graph: g, Values: s.Values, Seed: s.Seed,
		Delay: s.Delay, Loss: s.Loss, Duration: s.Duration, Timeline: s.Events,
		Observers: observers,
	})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res := eng.Run()
	wall := time.Since(start)
	if tw != nil {
		if err := tw.Close(); err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
	}
	sum := &metrics.Summary{
		Algorithm: a.Name, Params: params, Seed: s.Seed, Topology: spec.String(),
		Nodes: g.N(), Edges: g.M(),
		WallMS:    metrics.MS(wall),
		TraceHash: fmt.Sprintf("%016x", res.Hash),
	}
	sum.FromCheck(mon, mon.Report())
	counter.Fill(sum, a.Messages)
	return sum, nil
}
