// Package conform is the conformance kit for election algorithms: what every
// algorithm of elect, built-in or a user's, must pass before its runs mean
// anything. An author calls Run from a test of their own package:
//
//	func TestConform(t *testing.T) { conform.Run(t, "hs") }
//
// Run looks the algorithm up in the registry (the package's init must have
// called algo.Register) and checks, each as a subtest:
//
//   - registry: a name, a summary, a Build, message types that are named
//     and distinct, parameters that are named, distinct and whose defaults
//     resolve and build;
//   - params: a malformed value of every parameter is an error (from its
//     Check or from Build), never a panic and never accepted silently;
//   - machine: Start, Elect, Restart, Save and Recover on a lone machine
//     (algotest.Env) do not panic; Recover takes back what Save gave; a
//     status names no node outside the network and a known state, and a
//     node in Elect names no leader (it runs an election);
//   - runs: on the topologies its Model admits (a ring, a complete network,
//     or lines, grids, trees and random graphs), with the driver's default
//     initiators, the checker finds no violation, every message sent is of
//     a type Messages names, and the same seed gives the same trace hash;
//   - fuzz: a short random fault search inside the Model (loss only if it
//     tolerates loss, crashes and restarts only if it survives them,
//     partitions, heals and movement only where it claims to), with
//     shrinking; a failure prints the smallest scenario found and the
//     command that replays it.
//
// Options shorten or widen the work (Runs, MaxNodes), or hold a variant of
// the algorithm to the contract (Param); the defaults take a few seconds for
// the built-in algorithms.
package conform

import (
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/torture"
	"github.com/electgo/elect/trace"
)

// Option changes what Run does.
type Option func(*config)

type config struct {
	runs     int
	maxNodes int
	seed     uint64
	params   map[string]string
}

// Runs sets how many random scenarios the fault search runs (default 40;
// 10 under go test -short).
func Runs(n int) Option { return func(c *config) { c.runs = n } }

// MaxNodes bounds the networks of the fault search (default 16).
func MaxNodes(n int) Option { return func(c *config) { c.maxNodes = n } }

// Seed sets the fault search's campaign seed (default 1), as elect fuzz
// --seed does.
func Seed(s uint64) Option { return func(c *config) { c.seed = s } }

// Param runs the machine, runs and fuzz checks with the parameter name set
// to value (repeatable): a variant of the algorithm, such as vkt's
// medium=broadcast, held to the same contract.
func Param(name, value string) Option {
	return func(c *config) {
		if c.params == nil {
			c.params = map[string]string{}
		}
		c.params[name] = value
	}
}

// Run runs the conformance kit on the registered algorithm name; see the
// package comment for what it checks.
func Run(t *testing.T, name string, opts ...Option) {
	t.Helper()
	cfg := config{runs: 40, maxNodes: 16, seed: 1}
	if testing.Short() {
		cfg.runs = 10
	}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := algo.Lookup(name)
	if err != nil {
		t.Fatalf("conform: %v (does the algorithm's package call algo.Register in init, and does the test import it?)", err)
	}
	t.Run("registry", func(t *testing.T) { checkRegistry(t, a) })
	t.Run("params", func(t *testing.T) { checkParams(t, a) })
	t.Run("machine", func(t *testing.T) { checkMachine(t, a, cfg.params) })
	t.Run("runs", func(t *testing.T) { checkRuns(t, a, cfg.params) })
	t.Run("fuzz", func(t *testing.T) { checkFuzz(t, a, cfg) })
}

func checkRegistry(t *testing.T, a *algo.Algorithm) {
	if strings.TrimSpace(a.Summary) == "" {
		t.Errorf("%s has no Summary: elect algos shows it", a.Name)
	}
	if a.Build == nil {
		t.Fatalf("%s has no Build", a.Name)
	}
	if len(a.Messages) == 0 {
		t.Errorf("%s names no message types (Messages): the driver counts and traces messages by these names", a.Name)
	}
	seen := map[string]bool{}
	for i, m := range a.Messages {
		switch {
		case strings.TrimSpace(m) == "":
			t.Errorf("message type %d has no name", i)
		case seen[m]:
			t.Errorf("message type %q is named twice", m)
		}
		seen[m] = true
	}
	params := map[string]bool{}
	for _, p := range a.Params {
		switch {
		case strings.TrimSpace(p.Name) == "" || strings.ContainsAny(p.Name, "= \t"):
			t.Errorf("parameter %q: a name must be non-empty, without spaces or '='", p.Name)
		case params[p.Name]:
			t.Errorf("parameter %q is declared twice", p.Name)
		}
		params[p.Name] = true
		if strings.TrimSpace(p.Doc) == "" {
			t.Errorf("parameter %q has no Doc: elect algos shows it", p.Name)
		}
	}
	n := smallest(t, a)
	if err := safely(func() error { _, _, err := a.Instantiate(nil, n); return err }); err != nil {
		t.Errorf("the defaults do not build on %d nodes: %v", n, err)
	}
	if a.Model.Initiators != "" {
		if _, _, err := algo.ParseNodeSet(a.Model.Initiators); err != nil {
			t.Errorf("Model.Initiators: %v", err)
		}
	}
}

// malformed is a value that no parameter should take.
const malformed = "\x00not-a-value"

func checkParams(t *testing.T, a *algo.Algorithm) {
	n := smallest(t, a)
	for _, p := range a.Params {
		err := safely(func() error {
			_, _, err := a.Instantiate(map[string]string{p.Name: malformed}, n)
			return err
		})
		switch {
		case err == nil:
			t.Errorf("parameter %s accepts the malformed value %q: give it a Check, or refuse it in Build", p.Name, malformed)
		case strings.HasPrefix(err.Error(), "panic"):
			t.Errorf("parameter %s: a malformed value makes Build panic instead of returning an error: %v", p.Name, err)
		}
	}
	err := safely(func() error { _, err := a.Resolve(map[string]string{"no-such-parameter": "1"}); return err })
	if err == nil {
		t.Errorf("an undeclared parameter is accepted")
	}
}

func checkMachine(t *testing.T, a *algo.Algorithm, params map[string]string) {
	n := smallest(t, a)
	_, newNode, err := a.Instantiate(params, n)
	if err != nil {
		t.Fatalf("build on %d nodes: %v", n, err)
	}
	nbrs := []algo.NodeID{1, algo.NodeID(n - 1)}
	if a.Model.Topology == "complete" || a.Model.Topology == "" {
		nbrs = nbrs[:0]
		for v := 1; v < n; v++ {
			nbrs = append(nbrs, algo.NodeID(v))
		}
	}
	env := algotest.New(0, a.Messages, nbrs...)
	m := newNode(0)
	step := func(what string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s panics: %v\n%s", what, r, debug.Stack())
			}
		}()
		f()
		checkStatus(t, what, m.Status(), n)
	}
	step("Start", func() { m.Start(env) })
	step("Elect", func() { m.Elect(env) })
	var saved []byte
	step("Save", func() { saved = slices.Clone(m.Save()) })
	back := newNode(0)
	m = back
	step("Recover(Save())", func() {
		if err := m.Recover(env, slices.Clone(saved)); err != nil {
			t.Errorf("Recover refuses what Save returned (%d bytes): %v", len(saved), err)
		}
	})
	m = newNode(0)
	step("Recover(garbage)", func() { _ = m.Recover(env, []byte{0xff, 0x00, 0x13}) })
	m = newNode(0)
	step("Restart", func() { m.Restart(env) })
	step("NeighborDown", func() { m.NeighborDown(env, nbrs[0]) })
	step("NeighborUp", func() { m.NeighborUp(env, nbrs[0]) })
}

// checkStatus holds a status to the contract of algo.Status.
func checkStatus(t *testing.T, what string, s algo.Status, n int) {
	t.Helper()
	if s.State > algo.Wait {
		t.Errorf("after %s: unknown state %v", what, s.State)
	}
	if s.Leader != algo.None && (s.Leader < 0 || int(s.Leader) >= n) {
		t.Errorf("after %s: leader %d is not a node (0..%d) nor algo.None", what, s.Leader, n-1)
	}
	if s.State == algo.Elect && s.Leader != algo.None {
		t.Errorf("after %s: a node in Elect names leader %d (it runs an election: it has none)", what, s.Leader)
	}
	if !s.Index.IsZero() && (s.Index.ID < 0 || int(s.Index.ID) >= n) {
		t.Errorf("after %s: index %v names no node", what, s.Index)
	}
}

func checkRuns(t *testing.T, a *algo.Algorithm, params map[string]string) {
	for _, topology := range topologies(a) {
		for _, v := range []struct {
			values string
			mode   sim.ValueMode
		}{{"id", sim.ValueID}, {"random", sim.ValueRandom}} {
			values, mode := v.values, v.mode
			name := fmt.Sprintf("%s/%s", topology, values)
			t.Run(name, func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Seed, s.Params = a.Name, topology, 7, maps.Clone(params)
				s.Values = sim.Values{Mode: mode}
				s.Events, s.Loss = nil, 0
				first, statuses := run(t, s)
				if t.Failed() {
					return
				}
				if len(first.Violations) > 0 {
					t.Errorf("%d violation(s), first: %s %s at %.3f ms (replay: elect sim --algo %s --topology %s --seed %d --values %s%s)",
						first.ViolationCount, first.Violations[0].Property, first.Violations[0].Reason, first.Violations[0].AtMS,
						a.Name, topology, s.Seed, values, paramFlags(params))
				}
				for _, st := range statuses {
					checkStatus(t, "a run's input", st, first.Nodes)
				}
				again, _ := run(t, s)
				if again != nil && again.TraceHash != first.TraceHash {
					t.Errorf("the same seed gave two runs: trace hashes %s and %s (use only env.Rand for randomness, never a Go map's order or the clock)", first.TraceHash, again.TraceHash)
				}
			})
		}
	}
}

// run runs s and returns its summary and every status the machines took.
func run(t *testing.T, s *scenario.Scenario) (*metrics.Summary, []algo.Status) {
	t.Helper()
	rec := &statuses{}
	var sum *metrics.Summary
	err := safely(func() error {
		var err error
		sum, err = runner.Run(s, runner.Options{Observers: []trace.Observer{rec}})
		return err
	})
	if err != nil {
		t.Errorf("run on %s: %v", s.Topology, err)
		return nil, nil
	}
	return sum, rec.seen
}

// statuses keeps every status change of a run.
type statuses struct{ seen []algo.Status }

func (r *statuses) Observe(e *trace.Event) {
	if e.Kind == trace.StatusChanged {
		r.seen = append(r.seen, e.Status)
	}
}

func checkFuzz(t *testing.T, a *algo.Algorithm, cfg config) {
	var rep *torture.Report
	err := safely(func() error {
		var err error
		rep, err = torture.Run(torture.Config{Algorithm: a.Name, Runs: cfg.runs, Seed: cfg.seed,
			Limits: torture.Limits{MaxNodes: cfg.maxNodes}, ShrinkBudget: 100, Params: cfg.params})
		return err
	})
	if err != nil {
		t.Fatalf("fault search: %v", err)
	}
	for _, f := range rep.Failures {
		_, sum := f.Smallest()
		file, _ := f.File()
		why := "a panic"
		if sum != nil && len(sum.Violations) > 0 {
			why = fmt.Sprintf("%s at %.3f ms: %s", sum.Violations[0].Property, sum.Violations[0].AtMS, sum.Violations[0].Reason)
		}
		t.Errorf("run %d of the fault search (faults: %s) fails: %s\nreplay: elect fuzz --algo %s%s --seed %d --first %d --runs 1\nsmallest scenario (save it and run elect sim FILE):\n%s",
			f.Run, torture.Tolerated(a.Model), why, a.Name, paramFlags(cfg.params), cfg.seed, f.Run, indent(string(file)))
	}
}

// paramFlags writes params as elect's -p flags, in name order.
func paramFlags(params map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(&b, " -p %s=%s", k, params[k])
	}
	return b.String()
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// topologies are the networks the algorithm's model admits, small enough
// for a test; an algorithm that needs a network the kit does not know gets
// two of its kind (a spec the topo package reads, like "star").
func topologies(a *algo.Algorithm) []string {
	switch t := a.Model.Topology; t {
	case "":
		return []string{"line:5", "ring:7", "grid:4x4", "tree:12", "gnp:15:0.2", "geometric:20:d4"}
	case "ring", "complete":
		return []string{t + ":3", t + ":8", t + ":13"}
	default:
		return []string{t + ":5", t + ":12"}
	}
}

// smallest is the size of the first of topologies(a), the one the
// machine-level checks build for.
func smallest(t *testing.T, a *algo.Algorithm) int {
	t.Helper()
	spec, err := topo.Parse(topologies(a)[0], 0)
	if err != nil {
		t.Fatalf("the kit cannot make the %q network the model needs (Model.Topology): %v", a.Model.Topology, err)
	}
	return spec.N
}

// safely runs f, turning a panic into an error that starts with "panic".
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}
