// Package conform is the conformance kit, the checks an algorithm's tests run.
// It uses packages above algo, so nothing under algo/ but a test imports it.
//
// Every algorithm of elect, built-in or a user's, must pass the kit before
// its runs mean anything. An author calls Run from a test of their own
// package:
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
//     command that replays it;
//   - explore: every order of events on the smallest networks the model
//     admits (elect explore; see checkExplore), with no fault; a failure
//     prints the shortest schedule that breaks the specification and the
//     command that finds it again.
//
// Options shorten or widen the work (Runs, MaxNodes, ExploreStates,
// ExploreTime, NoExplore), or hold a variant of the algorithm to the
// contract (Param); the defaults take a few seconds for the built-in
// algorithms.
package conform

import (
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/explore"
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
	// The exploration's limits, for each network; explore false skips it.
	explore       bool
	exploreStates int64
	exploreTime   time.Duration
}

// Runs sets how many random scenarios the fault search runs (default 40;
// 10 under go test -short).
func Runs(n int) Option { return func(c *config) { c.runs = n } }

// MaxNodes bounds the networks of the fault search (default 16).
func MaxNodes(n int) Option { return func(c *config) { c.maxNodes = n } }

// Seed sets the fault search's campaign seed (default 1), as elect fuzz
// --seed does.
func Seed(s uint64) Option { return func(c *config) { c.seed = s } }

// ExploreStates bounds each network's exploration to n distinct states
// (default 100,000); a search the bound stops fails nothing, it only says
// how far it went.
func ExploreStates(n int64) Option { return func(c *config) { c.exploreStates = n } }

// ExploreTime bounds each network's exploration in wall time (default 3s;
// 2s under go test -short), the same way.
func ExploreTime(d time.Duration) Option { return func(c *config) { c.exploreTime = d } }

// NoExplore leaves the exploration out: for an algorithm whose machines
// are too costly to copy at every branch, say, explored on its own with
// elect explore.
func NoExplore() Option { return func(c *config) { c.explore = false } }

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
	cfg := config{runs: 40, maxNodes: 16, seed: 1, explore: true, exploreStates: 100_000, exploreTime: 3 * time.Second}
	if testing.Short() {
		cfg.runs, cfg.exploreTime = 10, 2*time.Second
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
	if cfg.explore {
		t.Run("explore", func(t *testing.T) { checkExplore(t, a, cfg) })
	}
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

// checkExplore explores every order of events of the smallest networks
// the algorithm's model admits (exploreTopologies), as elect explore does:
// values id, the algorithm's default initiators, no fault (a fault-free
// network is where every algorithm must be right; its faults are the
// fuzz's, and elect explore's budgets'), in the algorithm's own mode. One
// that declares itself asynchronous is explored untimed: any event enabled
// may come next, whatever the delays. Any other is explored timed, as real
// delays (the simulator's default, 1 to 5 ms) and its timers allow, up to
// a horizon past the checker's bounds (exploreTiming), so that a timeout
// that assumes a bound is never taken for a bug. Each network's search
// stops at the kit's limits (ExploreStates, ExploreTime) without failing:
// it then says how far it went. A counterexample fails the kit with its
// schedule and the command that finds it again.
func checkExplore(t *testing.T, a *algo.Algorithm, cfg config) {
	for _, topology := range exploreTopologies(a) {
		t.Run(topology, func(t *testing.T) {
			s := scenario.Default()
			s.Algorithm, s.Topology, s.Seed, s.Params = a.Name, topology, 1, maps.Clone(cfg.params)
			s.Values = sim.Values{Mode: sim.ValueID}
			s.Events, s.Loss, s.Mobility = nil, 0, ""
			flags := fmt.Sprintf("--algo %s --topology %s --values id%s", a.Name, topology, paramFlags(cfg.params))
			if !a.Model.Asynchronous {
				s.Duration, s.Check = exploreTiming(a, cfg.params)
				flags += fmt.Sprintf(" --duration %v --stabilization %v --liveness %v", s.Duration, s.Check.Stabilization, s.Check.Liveness)
			}
			var res *explore.Result
			err := safely(func() error {
				setup, err := runner.ExploreSetup(s, runner.Exploring{})
				if err != nil {
					return err
				}
				res, err = explore.Explore(setup, explore.Options{MaxStates: cfg.exploreStates, Time: cfg.exploreTime})
				return err
			})
			if err != nil {
				t.Fatalf("explore %s: %v", topology, err)
			}
			mode := "untimed"
			if res.Timed {
				mode = "timed"
			}
			switch cx := res.Counterexample; {
			case cx != nil:
				var b strings.Builder
				for _, v := range cx.Report.Violations {
					fmt.Fprintf(&b, "  VIOLATION %s\n", v)
				}
				for i, st := range cx.Steps {
					fmt.Fprintf(&b, "  %3d. %s\n", i+1, st)
				}
				t.Errorf("exploring %s (%s, values id, no fault) finds a schedule of %d steps that breaks the specification:\n%s"+
					"find it again: elect explore %s --out DIR (then elect sim DIR/counterexample.yaml replays it)",
					topology, mode, len(cx.Steps), b.String(), flags)
			case res.Complete:
				t.Logf("%s, %s: every state explored, %d distinct, no violation (%v)", topology, mode, res.Distinct, res.Elapsed.Round(time.Millisecond))
			default:
				t.Logf("%s, %s: no violation up to depth %d, %d distinct states (stopped by %s after %v; elect explore %s goes further)",
					topology, mode, res.Depth, res.Distinct, res.Limit, res.Elapsed.Round(time.Millisecond), flags)
			}
		})
	}
}

// exploreTopologies are the smallest networks of each kind the model
// admits: rings of 3 and 4 (the smallest ring, and the smallest where two
// nodes are not neighbours), the triangle, or, on any network, the line,
// the star (a node in the middle, and a node with three neighbours) and
// the square, grid:2x2 (the smallest cycle, where an identity can come
// round to where it started: node 0 opposite node 3; lines and stars are
// trees). An algorithm whose nodes never fall quiet (Model.Heartbeats)
// gets the line alone: on the others its heartbeats multiply the orders
// past what a few seconds explore (vkt on star:4: 145,474 states in 1.7 s;
// park's pass 200,000), which elect explore goes through on its own.
// A network of another kind is explored at the size the runs start from.
func exploreTopologies(a *algo.Algorithm) []string {
	switch t := a.Model.Topology; {
	case t == "" && a.Model.Heartbeats:
		return []string{"line:3"}
	case t == "":
		return []string{"line:3", "star:4", "grid:2x2"}
	case t == "ring":
		return []string{"ring:3", "ring:4"}
	case t == "complete":
		return []string{"complete:3"}
	default:
		return topologies(a)[:1]
	}
}

// exploreTiming is the horizon and the checker's bounds of a timed
// exploration: the bounds of the kit's runs (the checker's defaults), or
// more for an algorithm whose timers are long, twice its longest duration
// parameter for agreement (stabilization) and three times for settling
// (liveness); its runs go on past the liveness bound by that longest
// duration or a second, so that the bounds are judged where a run does
// not end on its own (heartbeats). Bounds drawn from the timers alone
// would be too tight for an algorithm that counts its timers' ticks
// (examples/beacon leads after 4 periods of 500 ms).
func exploreTiming(a *algo.Algorithm, params map[string]string) (time.Duration, scenario.Check) {
	longest := time.Duration(0)
	if p, err := a.Resolve(params); err == nil {
		for _, v := range p {
			if d, err := time.ParseDuration(v); err == nil {
				longest = max(longest, d)
			}
		}
	}
	c := scenario.Check{Stabilization: max(check.DefaultStabilization, 2*longest), Liveness: max(check.DefaultLiveness, 3*longest)}
	return c.Liveness + max(longest, time.Second), c
}
