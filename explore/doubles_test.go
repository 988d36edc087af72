package explore_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/explore"
	_ "github.com/electgo/elect/internal/broken" // the doubles
	"github.com/electgo/elect/runner"
)

// doubleSetup is the exploration of algorithm a on topology, values id,
// explored as how says.
func doubleSetup(t *testing.T, a, topology string, how runner.Exploring) *explore.Setup {
	t.Helper()
	return setupOf(t, fmt.Sprintf("algorithm: %s\ntopology: %s\nvalues: id\n", a, topology), how)
}

// doubleLimit bounds every exploration of these tests: each of them ends
// in a few thousand states, so one that reaches the limit has gone wrong.
const doubleLimit = 500_000

// TestExploreFindsDoubles: exploration finds every hidden double of
// internal/broken whose bug breaks the specification, on 3 or 4 nodes, with
// the property its bug breaks, and the checker agrees on the schedule it
// returns (Judge replays it). The doubles left out break nothing that the
// checker of a run judges: test-broken-random sends in a random order (a
// trace hash tells, not the specification), test-broken-param and
// test-broken-build fail in Build, test-broken-hypercube asks for a
// network that no run makes.
func TestExploreFindsDoubles(t *testing.T) {
	for _, c := range []struct {
		algo, topology string
		property       string // of the first violation
		reason         string // in its reason
	}{
		{"test-broken-least", "line:3", "liveness", "settled on node 0, but node 2 is the most valued"},
		{"test-broken-noindex", "line:3", "index", "no election index"},
		{"test-broken-stuck", "line:3", "liveness", "never left the election (it is in Wait)"},
		{"test-broken-two-leaders", "star:4", "safety", "two leaders in one component"},
		{"test-broken-panic", "line:3", "panic", "assignment to entry in nil map"},
		{"test-broken-elect-leader", "line:3", "liveness", "never left the election (it is in Elect)"},
		{"test-broken-undeclared", "line:3", "panic", "sent message type 1, which its Messages (1 types) does not name"},
		{"test-broken-chatty", "ring:3", "messages", "more than one election may send: at most 9"},
		{"test-broken-chatty-boot", "ring:4", "messages", "more than one election may send: at most 14"},
		// Wrong in one order of arrival only: the initiator's identity
		// round the square faster than straight (see internal/broken).
		{"test-broken-order", "grid:2x2", "safety", "node 0 follows 2"},
	} {
		t.Run(c.algo, func(t *testing.T) {
			// Every double says it is asynchronous (it sets no timer):
			// explored untimed, FIFO links, no fault.
			setup := doubleSetup(t, c.algo, c.topology, runner.Exploring{})
			start := time.Now()
			res, err := explore.Explore(setup, explore.Options{MaxStates: doubleLimit})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s on %s: %d distinct states, %d steps, in %v", c.algo, c.topology, res.Distinct, res.States, time.Since(start).Round(time.Millisecond))
			cx := res.Counterexample
			if cx == nil {
				t.Fatalf("no counterexample (complete %v, limit %q, %d distinct states)", res.Complete, res.Limit, res.Distinct)
			}
			if res.Complete || res.Limit != "" {
				t.Errorf("a counterexample, yet complete %v and limit %q", res.Complete, res.Limit)
			}
			if len(cx.Report.Violations) == 0 || cx.Report.ViolationCount == 0 {
				t.Fatalf("a counterexample with no violation: %+v", cx.Report)
			}
			first := cx.Report.Violations[0]
			if first.Property != c.property || !strings.Contains(first.Reason, c.reason) {
				t.Errorf("first violation %s, want %s with %q", first, c.property, c.reason)
			}
			rep, replayed, err := explore.Judge(setup, cx.Steps)
			if err != nil {
				t.Fatalf("Judge of the counterexample's %d steps: %v", len(cx.Steps), err)
			}
			if replayed.Steps != len(cx.Steps) && replayed.Panic == nil {
				t.Errorf("Judge ran %d of the %d steps", replayed.Steps, len(cx.Steps))
			}
			if len(rep.Violations) == 0 {
				t.Fatalf("Judge finds no violation in the counterexample:\n%s", listSteps(cx.Steps))
			}
			// The same words, a panic's frames included: those of the
			// algorithm's code, which end at the explorer's call.
			if again := rep.Violations[0]; again.Property != first.Property || again.Reason != first.Reason {
				t.Errorf("Judge's first violation is\n  %s\nthe exploration's\n  %s", again, first)
			}
		})
	}
}

func listSteps(st []explore.Step) string {
	var b strings.Builder
	for i, s := range st {
		fmt.Fprintf(&b, "  %3d. %s\n", i+1, s)
	}
	return b.String()
}

// correctCases are built-in algorithms and correct doubles that
// exploration must pass on small networks, in their default mode.
var correctCases = []struct {
	algo, topology string
	how            runner.Exploring
}{
	{"chang-roberts", "ring:4", runner.Exploring{}},
	{"echo", "complete:4", runner.Exploring{}},
	{"extinction", "ring:4", runner.Exploring{}},
	{"capture-async", "complete:3", runner.Exploring{}},
	// The double of test-broken-order with its count right: the same
	// square, every order.
	{"test-order", "grid:2x2", runner.Exploring{}},
	{"test-flood", "star:4", runner.Exploring{}},
}

// TestExploreCorrectComplete: correct algorithms explored whole, with no
// counterexample.
func TestExploreCorrectComplete(t *testing.T) {
	for _, c := range correctCases {
		t.Run(c.algo, func(t *testing.T) {
			res, err := explore.Explore(doubleSetup(t, c.algo, c.topology, c.how), explore.Options{MaxStates: doubleLimit})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s on %s: %d distinct states, %d steps, %d pruned, %d ends", c.algo, c.topology, res.Distinct, res.States, res.Pruned, res.Ends)
			if cx := res.Counterexample; cx != nil {
				t.Fatalf("counterexample: %v\n%s", cx.Report.Violations, listSteps(cx.Steps))
			}
			if !res.Complete || res.Limit != "" {
				t.Errorf("complete %v, limit %q after %d distinct states: want every state explored", res.Complete, res.Limit, res.Distinct)
			}
			if res.Ends == 0 {
				t.Errorf("no state where a run ends: nothing was judged whole")
			}
		})
	}
}

// TestExploreSleepSets: sleep sets prune steps, not states: with them and
// without, the verdict is the same, and a complete search meets the same
// distinct states, taking fewer steps with them.
func TestExploreSleepSets(t *testing.T) {
	for _, c := range correctCases {
		t.Run(c.algo, func(t *testing.T) {
			setup := doubleSetup(t, c.algo, c.topology, c.how)
			with, err := explore.Explore(setup, explore.Options{MaxStates: doubleLimit})
			if err != nil {
				t.Fatal(err)
			}
			without, err := explore.Explore(setup, explore.Options{MaxStates: doubleLimit, NoSleepSets: true})
			if err != nil {
				t.Fatal(err)
			}
			if with.Complete != without.Complete || (with.Counterexample == nil) != (without.Counterexample == nil) {
				t.Errorf("with sleep sets complete %v, counterexample %v; without, %v and %v",
					with.Complete, with.Counterexample != nil, without.Complete, without.Counterexample != nil)
			}
			if with.Distinct != without.Distinct {
				t.Errorf("%d distinct states with sleep sets, %d without", with.Distinct, without.Distinct)
			}
			if without.Pruned != 0 {
				t.Errorf("%d steps pruned without sleep sets", without.Pruned)
			}
			if with.States > without.States {
				t.Errorf("%d steps taken with sleep sets, more than the %d without", with.States, without.States)
			}
		})
	}
	// And a bug is found both ways, breaking the same property.
	for _, c := range []struct{ algo, topology string }{{"test-broken-order", "grid:2x2"}, {"test-broken-two-leaders", "star:4"}} {
		t.Run(c.algo, func(t *testing.T) {
			setup := doubleSetup(t, c.algo, c.topology, runner.Exploring{})
			var first [2]string
			for i, no := range []bool{false, true} {
				res, err := explore.Explore(setup, explore.Options{MaxStates: doubleLimit, NoSleepSets: no})
				if err != nil {
					t.Fatal(err)
				}
				if res.Counterexample == nil {
					t.Fatalf("no sleep sets %v: no counterexample (%d distinct states)", no, res.Distinct)
				}
				first[i] = res.Counterexample.Report.Violations[0].Property
			}
			if first[0] != first[1] {
				t.Errorf("first violation %s with sleep sets, %s without", first[0], first[1])
			}
		})
	}
}

// TestExploreMaxStates: a search stopped by MaxStates says so, and does not
// claim the network correct.
func TestExploreMaxStates(t *testing.T) {
	setup := doubleSetup(t, "echo", "complete:4", runner.Exploring{})
	res, err := explore.Explore(setup, explore.Options{MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Limit != "max-states" || res.Counterexample != nil {
		t.Errorf("complete %v, limit %q, counterexample %v: want complete false, limit max-states, none", res.Complete, res.Limit, res.Counterexample != nil)
	}
	if res.Distinct < 100 || res.Distinct > 101 {
		t.Errorf("%d distinct states, want the limit, 100", res.Distinct)
	}
	// A depth limit the same way.
	res, err = explore.Explore(setup, explore.Options{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Limit != "max-depth" || res.Counterexample != nil {
		t.Errorf("MaxDepth 3: complete %v, limit %q, counterexample %v: want complete false, limit max-depth, none", res.Complete, res.Limit, res.Counterexample != nil)
	}
}
