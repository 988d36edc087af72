package runner_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
)

// Nodes move (random waypoint, as an ns-2 trace) for 40s (their last legs
// end by 125s) and then stand
// still: once the network has been still long enough, the checker confirms
// that every component follows its most valued node, for every algorithm
// built for mobile networks, and the movement has changed links on the way.
func TestMovingThenStill(t *testing.T) {
	dir := t.TempDir()
	for seed := uint64(1); seed <= 3; seed++ {
		w := mobility.Waypoint{MinSpeed: 10, MaxSpeed: 20, Pause: time.Second, Width: 600, Height: 600}
		plan, err := w.Plan(30, nil, 40*time.Second, rand.New(rand.NewPCG(seed, 9)))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "moves.tcl")
		var buf bytes.Buffer
		if err := mobility.WriteNS2(&buf, plan); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, alg := range []string{"vkt", "park"} {
			s := scenario.Default()
			s.Algorithm, s.Params, s.Seed = alg, nil, seed
			s.Mobility, s.Duration = "ns2:"+path, 240*time.Second
			sum := runtest.Run(t, s)
			if sum.LinkChanges == 0 || sum.Nodes != 30 || sum.RangeM != runner.DefaultRange {
				t.Fatalf("%s seed %d: %d link changes, %d nodes, range %v", alg, seed, sum.LinkChanges, sum.Nodes, sum.RangeM)
			}
		}
	}
}

// Under waypoint mobility the nodes start where the geometric topology put
// them, with its range unless told otherwise; the same seed gives the same
// run, another seed another movement.
func TestWaypointRuns(t *testing.T) {
	s := scenario.Default()
	s.Mobility, s.Duration = "waypoint:1:20:2s", 120*time.Second
	a, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := runner.Run(s, runner.Options{})
	if a.TraceHash != b.TraceHash || a.LinkChanges == 0 || a.ViolationCount > 0 {
		t.Fatalf("hashes %s %s, %d link changes, %d violations", a.TraceHash, b.TraceHash, a.LinkChanges, a.ViolationCount)
	}
	if a.RangeM != 250 || a.Mobility != "waypoint:1:20:2s" || a.Topology != "geometric:50:250" {
		t.Errorf("summary names range %v, mobility %q, topology %q", a.RangeM, a.Mobility, a.Topology)
	}
	s.Seed = 2
	c, _ := runner.Run(s, runner.Options{})
	if c.TraceHash == a.TraceHash {
		t.Errorf("seeds 1 and 2 gave the same run")
	}
	// A smaller range, fewer links.
	s.Seed, s.Range = 1, 150
	d, _ := runner.Run(s, runner.Options{})
	if d.Edges >= a.Edges || d.RangeM != 150 {
		t.Errorf("range 150: %d links at the start, range 250: %d", d.Edges, a.Edges)
	}
	// Static mobility is the topology itself.
	s.Mobility, s.Range = "static", 0
	e, _ := runner.Run(s, runner.Options{})
	if e.LinkChanges != 0 || e.Edges != a.Edges {
		t.Errorf("static: %d link changes, %d links (want 0 and %d)", e.LinkChanges, e.Edges, a.Edges)
	}
}

// The movement exported as an ns-2 trace and read back drives the same run.
func TestNS2ExportRoundTrip(t *testing.T) {
	s := scenario.Default()
	s.Mobility, s.Duration = "walk:2:10:5s", 60*time.Second
	var moves bytes.Buffer
	first, err := runner.Run(s, runner.Options{NS2: &moves})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "walk.tcl")
	if err := os.WriteFile(path, moves.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Mobility = "ns2:" + path
	again, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Times in the file are decimal seconds: crossings may move by a
	// nanosecond, never in number.
	if again.LinkChanges != first.LinkChanges || again.Edges != first.Edges {
		t.Errorf("read back: %d link changes and %d links, first %d and %d", again.LinkChanges, again.Edges, first.LinkChanges, first.Edges)
	}
	if _, err := runner.Run(&scenario.Scenario{Algorithm: "vkt", Topology: "ring:5", Duration: time.Second}, runner.Options{NS2: &moves}); err == nil ||
		!strings.Contains(err.Error(), "no node positions") {
		t.Errorf("ns-2 export of a ring: %v", err)
	}
}

// Bad mobility is an error that names it.
func TestMobilityErrors(t *testing.T) {
	for _, c := range []struct{ topology, mobility, want string }{
		{"ring:6", "waypoint:1:2:1s", "needs nodes with positions"},
		{"geometric:20:200", "ns2:/does/not/exist.tcl", "exist.tcl"},
		{"geometric:20:200", "waypoint:3:1:1s", "waypoint"},
	} {
		s := scenario.Default()
		s.Topology, s.Mobility = c.topology, c.mobility
		if _, err := runner.Run(s, runner.Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want an error naming %q", c.topology, c.mobility, err, c.want)
		}
	}
	s := scenario.Default()
	s.Range = 100
	if _, err := runner.Run(s, runner.Options{}); err == nil || !strings.Contains(err.Error(), "a radio range applies to nodes with a mobility") {
		t.Errorf("a range without mobility: %v", err)
	}
	s = scenario.Default()
	s.Mobility, s.Duration = "waypoint:1:2:1s", 0
	if _, err := runner.Run(s, runner.Options{}); err == nil || !strings.Contains(err.Error(), "needs a duration") {
		t.Errorf("no duration: %v", err)
	}
}
