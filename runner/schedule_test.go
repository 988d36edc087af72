package runner_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// crOnRing is Chang and Roberts' ring of three, which elects wrongly when
// messages overtake one another (its document assumes FIFO links).
const crOnRing = "algorithm: chang-roberts\ntopology: ring:3\nvalues: id\n"

// counterexample explores s with messages that may overtake one another
// and returns the counterexample explore finds.
func counterexample(t *testing.T, s *scenario.Scenario) *explore.Counterexample {
	t.Helper()
	setup, err := runner.ExploreSetup(s, runner.Exploring{Reorder: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Explore(setup, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counterexample == nil || len(res.Counterexample.Report.Violations) == 0 {
		t.Fatalf("no counterexample for %s with reordering: %+v", s.Algorithm, res)
	}
	return res.Counterexample
}

// sameVerdict fails t unless sum reports the violations of rep: the same
// number, the first of the same property for the same reason.
func sameVerdict(t *testing.T, what string, sum *metrics.Summary, cx *explore.Counterexample) {
	t.Helper()
	rep := cx.Report
	if sum.ViolationCount != rep.ViolationCount || len(sum.Violations) == 0 {
		t.Fatalf("%s: %d violations %+v, want %d: %v", what, sum.ViolationCount, sum.Violations, rep.ViolationCount, rep.Violations)
	}
	got, want := sum.Violations[0], rep.Violations[0]
	if got.Property != want.Property || got.Reason != want.Reason {
		t.Errorf("%s: first violation %s: %s, want %s: %s", what, got.Property, got.Reason, want.Property, want.Reason)
	}
}

// TestRunSchedule: a scenario with explore's counterexample as its
// schedule runs it exactly: the checker says what it said of the
// counterexample, twice alike, and the same after Format and Parse.
func TestRunSchedule(t *testing.T) {
	s, err := scenario.Parse("cr.yaml", []byte(crOnRing), nil)
	if err != nil {
		t.Fatal(err)
	}
	cx := counterexample(t, s)
	s.Schedule = &scenario.Schedule{Reorder: true, Steps: cx.Steps}
	var tr bytes.Buffer
	var events int
	sum, err := runner.Run(s, runner.Options{Trace: &tr, Observers: []trace.Observer{observerFunc(func(*trace.Event) { events++ })}})
	if err != nil {
		t.Fatal(err)
	}
	sameVerdict(t, "run", sum, cx)
	if sum.Nodes != 3 || sum.Topology != "ring:3" || sum.Messages.Total == 0 || events == 0 {
		t.Errorf("summary %+v after %d events", sum, events)
	}
	again, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.TraceHash != sum.TraceHash || sum.TraceHash == "" {
		t.Errorf("trace hash %s, then %s", sum.TraceHash, again.TraceHash)
	}

	// The trace opens with the header a run of s writes and ends with the
	// run's end.
	h, err := runner.Header(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(bytes.NewReader(tr.Bytes()), "cr.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Algorithm != h.Algorithm || r.Header.Nodes != h.Nodes || r.Header.Topology != h.Topology {
		t.Errorf("trace header %+v, want %+v", r.Header, h)
	}
	var e, last trace.Event
	for r.Next(&e) == nil {
		last = e
	}
	if last.Kind != trace.End {
		t.Errorf("trace ends with %+v", last)
	}

	// What explore writes as counterexample.yaml, read back, runs alike.
	b, err := scenario.Format(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse("counterexample.yaml", b, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	sum2, err := runner.Run(back, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameVerdict(t, "formatted", sum2, cx)
	if sum2.TraceHash != sum.TraceHash {
		t.Errorf("formatted: trace hash %s, want %s", sum2.TraceHash, sum.TraceHash)
	}
}

type observerFunc func(*trace.Event)

func (f observerFunc) Observe(e *trace.Event) { f(e) }

// TestRunScheduleMisfit: a step that the run cannot take is an error that
// names its file and line, and a schedule refuses what it leaves no room
// for.
func TestRunScheduleMisfit(t *testing.T) {
	doc := crOnRing + "schedule:\n  reorder: true\n  steps:\n    - {at: 1ms, deliver: {from: 0, to: 1, seq: 99}}\n"
	s, err := scenario.Parse("cr.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runner.Run(s, runner.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "cr.yaml:7: schedule step 1: ") || !strings.Contains(err.Error(), "node 1 receives message 99 from node 0") {
		t.Errorf("Run of a step that does not fit = %v", err)
	}

	s, err = scenario.Parse("cr.yaml", []byte(crOnRing+"schedule:\n  steps:\n    - {at: 1ms, crash: 5}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = runner.Run(s, runner.Options{}); err == nil || !strings.HasPrefix(err.Error(), "cr.yaml:6: schedule step 1: ") {
		t.Errorf("Run of a crash of no node = %v", err)
	}

	s, err = scenario.Parse("cr.yaml", []byte(crOnRing+"schedule:\n  steps: []\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Loss = 0.1 // --loss
	if _, err = runner.Run(s, runner.Options{}); err == nil || !strings.HasPrefix(err.Error(), "cr.yaml:5:3: schedule: loss is set elsewhere") {
		t.Errorf("Run of a schedule with loss = %v", err)
	}
}
