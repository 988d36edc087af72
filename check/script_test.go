package check

// Script tests: each file under testdata/*.txt is a small story told as a
// list of events, followed by what the Monitor must conclude from it.
//
// Format (one item per line, '#' starts a comment):
//
//	config stabilization=10s liveness=30s spontaneous=true max=100 unelected=4,7 moving=false expect=every-component
//	config value_at_election=true values_move=true   # Config.ValueAtElection, ValuesMove
//	TIME node ID value=V          # NodeAdded
//	TIME link A B                 # LinkUp (also link_up)
//	TIME link_down A B
//	TIME cut A B | uncut A B      # Cut, Uncut: the direction A -> B
//	TIME clock N PPM | slow N NS  # ClockRate, Slowed
//	TIME crash N | restart N | recover N
//	TIME status N leader=L|none Norm|Elect|Wait [index=NUM,ID]
//	TIME value N V                # ValueChanged
//	TIME elect N                  # ElectCalled
//	TIME send A B | deliver A B | drop A B | timer N   # ignored traffic
//	TIME end [quiescent]
//	---
//	violations: none | violations: COUNT
//	violation PROPERTY at TIME nodes A B ... [~ text in the reason]
//	elections: COUNT [mean DURATION]
//	election START..END nodes SIZE
//	open: COUNT
//	components: [0 1] [2]
//	leaderless: FRACTION
//	unchecked: COUNT
//	unreached: COUNT
//	note: TEXT                    # a note of the Report that says TEXT
//
// TIME is a Go duration ("0", "1ms", "2.5s"). Events at one time apply in the
// order written. The default config is stabilization=10s liveness=30s
// spontaneous=true. Every script must state its violations; "violation" lines
// and "election" lines, when present, must match the Report's list exactly
// and in order, and "note" lines its notes (none when there is none). Each script runs twice, building the network from the
// initial link events and sharing it through Config.Network, and both runs
// must give the same Report.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

type script struct {
	cfg    Config
	events []trace.Event
	expect []expectation
}

type expectation struct {
	line int
	text string
}

func parseScript(text string) (*script, error) {
	s := &script{cfg: Config{Stabilization: DefaultStabilization, Liveness: DefaultLiveness, Spontaneous: true}}
	inExpect := false
	for i, raw := range strings.Split(text, "\n") {
		ln := i + 1
		line := raw
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if line == "---" {
			if inExpect {
				return nil, fmt.Errorf("line %d: second ---", ln)
			}
			inExpect = true
			continue
		}
		if inExpect {
			s.expect = append(s.expect, expectation{ln, line})
			continue
		}
		f := strings.Fields(line)
		if f[0] == "config" {
			if err := parseConfig(&s.cfg, f[1:]); err != nil {
				return nil, fmt.Errorf("line %d: %v", ln, err)
			}
			continue
		}
		e, err := parseEvent(f)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %v", ln, line, err)
		}
		if n := len(s.events); n > 0 && e.At < s.events[n-1].At {
			return nil, fmt.Errorf("line %d: time goes backwards", ln)
		}
		s.events = append(s.events, e)
	}
	if !inExpect {
		return nil, fmt.Errorf("no --- line")
	}
	return s, nil
}

func parseConfig(cfg *Config, fields []string) error {
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return fmt.Errorf("config %q: want key=value", f)
		}
		var err error
		switch k {
		case "stabilization":
			cfg.Stabilization, err = time.ParseDuration(v)
		case "liveness":
			cfg.Liveness, err = time.ParseDuration(v)
		case "spontaneous":
			cfg.Spontaneous, err = strconv.ParseBool(v)
		case "max":
			cfg.MaxViolations, err = strconv.Atoi(v)
		case "moving":
			cfg.Moving, err = strconv.ParseBool(v)
		case "expect":
			cfg.Expect, err = ParseExpect(v)
		case "among":
			cfg.AmongInitiators, err = strconv.ParseBool(v)
		case "value_at_election":
			cfg.ValueAtElection, err = strconv.ParseBool(v)
		case "values_move":
			cfg.ValuesMove, err = strconv.ParseBool(v)
		case "unelected":
			if v == "uninitiated" {
				cfg.UnelectedUninitiated = true
				break
			}
			cfg.Unelected, _, err = algo.ParseNodeSet(v)
		default:
			err = fmt.Errorf("unknown config key %q", k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func parseID(s string) (algo.NodeID, error) {
	if s == "none" {
		return algo.None, nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad node id %q", s)
	}
	return algo.NodeID(n), nil
}

// keyed parses "key=value" and returns value.
func keyed(f, key string) (string, error) {
	v, ok := strings.CutPrefix(f, key+"=")
	if !ok {
		return "", fmt.Errorf("want %s=..., got %q", key, f)
	}
	return v, nil
}

func parseEvent(f []string) (trace.Event, error) {
	var e trace.Event
	if len(f) < 2 {
		return e, fmt.Errorf("want TIME KIND ...")
	}
	at, err := time.ParseDuration(f[0])
	if err != nil {
		return e, err
	}
	e.At = at
	e.Peer = algo.None
	args := f[2:]
	want := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s takes %d arguments", f[1], n)
		}
		return nil
	}
	ids := func(n int) error {
		if err := want(n); err != nil {
			return err
		}
		var err error
		if e.Node, err = parseID(args[0]); err != nil {
			return err
		}
		if n == 2 {
			if e.Peer, err = parseID(args[1]); err != nil {
				return err
			}
		}
		return nil
	}
	switch f[1] {
	case "node":
		e.Kind = trace.NodeAdded
		if err := want(2); err != nil {
			return e, err
		}
		if e.Node, err = parseID(args[0]); err != nil {
			return e, err
		}
		v, err := keyed(args[1], "value")
		if err != nil {
			return e, err
		}
		if e.Value, err = strconv.ParseInt(v, 10, 64); err != nil {
			return e, err
		}
	case "link", "link_up", "link_down":
		e.Kind = trace.LinkUp
		if f[1] == "link_down" {
			e.Kind = trace.LinkDown
		}
		if err := ids(2); err != nil {
			return e, err
		}
		if e.Node == e.Peer {
			return e, fmt.Errorf("self link")
		}
		if e.Node > e.Peer {
			e.Node, e.Peer = e.Peer, e.Node
		}
	case "cut", "uncut":
		e.Kind = map[string]trace.Kind{"cut": trace.Cut, "uncut": trace.Uncut}[f[1]]
		if err := ids(2); err != nil {
			return e, err
		}
	case "clock", "slow":
		e.Kind = map[string]trace.Kind{"clock": trace.ClockRate, "slow": trace.Slowed}[f[1]]
		if err := want(2); err != nil {
			return e, err
		}
		if e.Node, err = parseID(args[0]); err != nil {
			return e, err
		}
		if e.Value, err = strconv.ParseInt(args[1], 10, 64); err != nil {
			return e, err
		}
	case "crash", "restart", "recover", "elect", "timer":
		e.Kind = map[string]trace.Kind{"crash": trace.Crashed, "restart": trace.Restarted,
			"recover": trace.Recovered, "elect": trace.ElectCalled, "timer": trace.TimerFired}[f[1]]
		if err := ids(1); err != nil {
			return e, err
		}
	case "send", "deliver", "drop":
		e.Kind = map[string]trace.Kind{"send": trace.Sent, "deliver": trace.Delivered, "drop": trace.Dropped}[f[1]]
		if err := ids(2); err != nil {
			return e, err
		}
	case "value":
		e.Kind = trace.ValueChanged
		if err := want(2); err != nil {
			return e, err
		}
		if e.Node, err = parseID(args[0]); err != nil {
			return e, err
		}
		if e.Value, err = strconv.ParseInt(args[1], 10, 64); err != nil {
			return e, err
		}
	case "status":
		e.Kind = trace.StatusChanged
		if len(args) != 3 && len(args) != 4 {
			return e, fmt.Errorf("status N leader=L STATE [index=NUM,ID]")
		}
		if e.Node, err = parseID(args[0]); err != nil {
			return e, err
		}
		l, err := keyed(args[1], "leader")
		if err != nil {
			return e, err
		}
		if e.Status.Leader, err = parseID(l); err != nil {
			return e, err
		}
		if e.Status.State, err = algo.ParseState(args[2]); err != nil {
			return e, err
		}
		if len(args) == 4 {
			ix, err := keyed(args[3], "index")
			if err != nil {
				return e, err
			}
			num, id, ok := strings.Cut(ix, ",")
			if !ok {
				return e, fmt.Errorf("index=NUM,ID")
			}
			n, err := strconv.ParseUint(num, 10, 32)
			if err != nil {
				return e, err
			}
			e.Status.Index.Num = uint32(n)
			if e.Status.Index.ID, err = parseID(id); err != nil {
				return e, err
			}
		}
	case "end":
		e.Kind = trace.End
		switch {
		case len(args) == 0:
		case len(args) == 1 && args[0] == "quiescent":
			e.Quiescent = true
		default:
			return e, fmt.Errorf("end [quiescent]")
		}
	default:
		return e, fmt.Errorf("unknown event %q", f[1])
	}
	return e, nil
}

// initialNetwork is the network a driver would announce: the nodes and the
// link_up events at time 0 before any other kind of event.
func initialNetwork(events []trace.Event) *topo.Graph {
	n := 0
	var edges []topo.Edge
	for _, e := range events {
		if e.At != 0 {
			break
		}
		switch e.Kind {
		case trace.NodeAdded:
			n = max(n, int(e.Node)+1)
			continue
		case trace.LinkUp:
			edges = append(edges, topo.Edge{A: e.Node, B: e.Peer})
			continue
		case trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired:
			continue
		}
		break
	}
	return topo.New(n, edges)
}

// feed runs events through a fresh Monitor, the way a driver does: through
// one Event value that it overwrites.
func feed(cfg Config, events []trace.Event) *Monitor {
	m := New(cfg)
	var ev trace.Event
	for _, e := range events {
		ev = e
		m.Observe(&ev)
		ev = trace.Event{At: -1, Kind: trace.Kind(200), Node: -7, Peer: -7} // scribble over it
	}
	return m
}

// runBothWays runs events with the network built from the initial events and
// with it shared through Config.Network, checks the reports are identical and
// the shared graph untouched, and returns the report.
func runBothWays(t *testing.T, cfg Config, events []trace.Event) Report {
	t.Helper()
	built := feed(cfg, events).Report()
	g := initialNetwork(events)
	edges := g.Edges()
	shared := cfg
	shared.Network = g
	r := feed(shared, events).Report()
	if !reflect.DeepEqual(built, r) {
		t.Errorf("Config.Network changes the report:\nbuilt from events:\n%s\nshared network:\n%s", describe(built), describe(r))
	}
	if after := g.Edges(); !slices.Equal(edges, after) {
		t.Errorf("the run modified the shared graph: edges %v became %v", edges, after)
	}
	// And the brute-force reference (reference_test.go) agrees, unless the
	// detail list is capped.
	if built.ViolationCount == len(built.Violations) {
		ref := refCheck(cfg, events)
		if got, want := sortedViolations(built.Violations), sortedViolations(ref.violations); !reflect.DeepEqual(got, want) {
			t.Errorf("violations differ from the reference:\n got %v\nwant %v", got, want)
		}
		if got, want := sortedElections(built.Elections), sortedElections(ref.elections); !slices.Equal(got, want) {
			t.Errorf("elections differ from the reference:\n got %v\nwant %v", got, want)
		}
		if built.OpenElections != ref.open || built.Unchecked != ref.unchecked || built.Unreached != ref.unreached {
			t.Errorf("open/unchecked/unreached %d/%d/%d, reference %d/%d/%d",
				built.OpenElections, built.Unchecked, built.Unreached, ref.open, ref.unchecked, ref.unreached)
		}
		if len(built.Notes) != ref.notes {
			t.Errorf("notes %q, the reference wants %d", built.Notes, ref.notes)
		}
	}
	return built
}

func describe(r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  end %v quiescent=%v\n", r.End, r.Quiescent)
	fmt.Fprintf(&b, "  violations (%d):\n", r.ViolationCount)
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "    %v\n", v)
	}
	fmt.Fprintf(&b, "  elections (%d, mean %v, open %d):\n", len(r.Elections), r.MeanElection(), r.OpenElections)
	for _, e := range r.Elections {
		fmt.Fprintf(&b, "    %v..%v nodes %d\n", e.Start, e.End, e.Nodes)
	}
	fmt.Fprintf(&b, "  components: %v\n", r.Components)
	fmt.Fprintf(&b, "  leaderless: %v unchecked: %d unreached: %d\n", r.LeaderlessFraction, r.Unchecked, r.Unreached)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

func parseCount(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad count %q", s)
	}
	return n, nil
}

func parseIDs(fields []string) ([]algo.NodeID, error) {
	out := []algo.NodeID{}
	for _, f := range fields {
		v, err := parseID(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func parseComponents(s string) ([][]algo.NodeID, error) {
	var out [][]algo.NodeID
	s = strings.TrimSpace(s)
	for s != "" {
		if s[0] != '[' {
			return nil, fmt.Errorf("components: want [ids] [ids] ...")
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return nil, fmt.Errorf("components: missing ]")
		}
		c, err := parseIDs(strings.Fields(s[1:end]))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		s = strings.TrimSpace(s[end+1:])
	}
	return out, nil
}

// checkExpectations compares r with the script's expectations and returns
// the mismatches.
func checkExpectations(s *script, r Report) []string {
	var bad []string
	fail := func(x expectation, format string, args ...any) {
		bad = append(bad, fmt.Sprintf("line %d %q: %s", x.line, x.text, fmt.Sprintf(format, args...)))
	}
	statedViolations := false
	var wantV []expectation
	var wantE []expectation
	var wantN []expectation
	for _, x := range s.expect {
		key, rest, _ := strings.Cut(x.text, " ")
		switch key {
		case "violations:":
			statedViolations = true
			want := 0
			if strings.TrimSpace(rest) != "none" {
				n, err := parseCount(rest)
				if err != nil {
					fail(x, "%v", err)
					continue
				}
				want = n
			}
			if r.ViolationCount != want {
				fail(x, "got %d violations", r.ViolationCount)
			}
		case "violation":
			statedViolations = true
			wantV = append(wantV, x)
		case "elections:":
			f := strings.Fields(rest)
			if len(f) != 1 && (len(f) != 3 || f[1] != "mean") {
				fail(x, "want elections: COUNT [mean DURATION]")
				continue
			}
			n, err := parseCount(f[0])
			if err != nil {
				fail(x, "%v", err)
				continue
			}
			if len(r.Elections) != n {
				fail(x, "got %d elections", len(r.Elections))
			}
			if len(f) == 3 {
				d, err := time.ParseDuration(f[2])
				if err != nil {
					fail(x, "%v", err)
				} else if got := r.MeanElection(); got != d {
					fail(x, "got mean %v", got)
				}
			}
		case "election":
			wantE = append(wantE, x)
		case "note:":
			wantN = append(wantN, x)
		case "open:", "unchecked:", "unreached:":
			n, err := parseCount(rest)
			if err != nil {
				fail(x, "%v", err)
				continue
			}
			got := map[string]int{"open:": r.OpenElections, "unchecked:": r.Unchecked, "unreached:": r.Unreached}[key]
			if got != n {
				fail(x, "got %d", got)
			}
		case "components:":
			want, err := parseComponents(rest)
			if err != nil {
				fail(x, "%v", err)
				continue
			}
			if !reflect.DeepEqual(want, r.Components) && !(len(want) == 0 && len(r.Components) == 0) {
				fail(x, "got %v", r.Components)
			}
		case "leaderless:":
			want, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				fail(x, "%v", err)
				continue
			}
			if math.Abs(r.LeaderlessFraction-want) > 1e-9 {
				fail(x, "got %v", r.LeaderlessFraction)
			}
		default:
			fail(x, "unknown expectation")
		}
	}
	if !statedViolations {
		bad = append(bad, "the script must state its violations (violations: none, or violation lines)")
	}
	if len(wantV) > 0 && len(wantV) != len(r.Violations) {
		bad = append(bad, fmt.Sprintf("want %d violations in detail, got %d", len(wantV), len(r.Violations)))
	}
	for i, x := range wantV {
		if i >= len(r.Violations) {
			break
		}
		if msg := matchViolation(x.text, r.Violations[i]); msg != "" {
			fail(x, "got %v: %s", r.Violations[i], msg)
		}
	}
	if len(wantN) != len(r.Notes) {
		bad = append(bad, fmt.Sprintf("want %d notes, got %d: %q", len(wantN), len(r.Notes), r.Notes))
	}
	for i, x := range wantN {
		_, text, _ := strings.Cut(x.text, " ")
		if i < len(r.Notes) && !strings.Contains(r.Notes[i], strings.TrimSpace(text)) {
			fail(x, "got %q", r.Notes[i])
		}
	}
	if len(wantE) > 0 && len(wantE) != len(r.Elections) {
		bad = append(bad, fmt.Sprintf("want %d elections in detail, got %d", len(wantE), len(r.Elections)))
	}
	for i, x := range wantE {
		if i >= len(r.Elections) {
			break
		}
		// election START..END nodes SIZE
		f := strings.Fields(x.text)
		if len(f) != 4 || f[2] != "nodes" {
			fail(x, "want election START..END nodes SIZE")
			continue
		}
		a, b, ok := strings.Cut(f[1], "..")
		start, err1 := time.ParseDuration(a)
		end, err2 := time.ParseDuration(b)
		size, err3 := parseCount(f[3])
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			fail(x, "want election START..END nodes SIZE")
			continue
		}
		if got := r.Elections[i]; got.Start != start || got.End != end || got.Nodes != size {
			fail(x, "got %v..%v nodes %d", got.Start, got.End, got.Nodes)
		}
	}
	return bad
}

// matchViolation checks "violation PROPERTY at TIME nodes A B ... [~ text]".
func matchViolation(text string, v Violation) string {
	spec, sub, hasSub := strings.Cut(text, "~")
	f := strings.Fields(spec)
	if len(f) < 5 || f[2] != "at" || f[4] != "nodes" {
		return "want violation PROPERTY at TIME nodes IDS [~ text]"
	}
	at, err := time.ParseDuration(f[3])
	if err != nil {
		return err.Error()
	}
	nodes, err := parseIDs(f[5:])
	if err != nil {
		return err.Error()
	}
	switch {
	case v.Property != f[1]:
		return "wrong property"
	case v.At != at:
		return "wrong time"
	case !slices.Equal(v.Nodes, nodes):
		return "wrong nodes"
	case hasSub && !strings.Contains(v.Reason, strings.TrimSpace(sub)):
		return "reason does not say " + strconv.Quote(strings.TrimSpace(sub))
	}
	return ""
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scripts under testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := parseScript(string(text))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(s.events) == 0 || s.events[len(s.events)-1].Kind != trace.End {
				t.Fatalf("%s: a script must end with an end event", file)
			}
			r := runBothWays(t, s.cfg, s.events)
			if bad := checkExpectations(s, r); len(bad) > 0 {
				t.Errorf("%s:\n  %s\nreport:\n%s", file, strings.Join(bad, "\n  "), describe(r))
				return
			}
			// Every expectation must be able to fail: each mutation of one
			// line (and each removal of a detailed line) must be caught.
			for i, x := range s.expect {
				variants := mutations(x.text)
				// Dropping a line of a detailed list must be caught too,
				// unless it is the only one (no line means no detail).
				kind := strings.Fields(x.text)[0]
				if kind == "note:" {
					variants = append(variants, "") // the notes are counted
				}
				if kind == "violation" || kind == "election" {
					same := 0
					for _, y := range s.expect {
						if strings.Fields(y.text)[0] == kind {
							same++
						}
					}
					if same > 1 || kind == "violation" {
						variants = append(variants, "")
					}
				}
				for _, v := range variants {
					m := slices.Clone(s.expect)
					if v == "" {
						m = slices.Delete(m, i, i+1)
					} else {
						m[i].text = v
					}
					if len(checkExpectations(&script{expect: m}, r)) == 0 {
						t.Errorf("%s line %d: the mutation %q of %q goes unnoticed", file, x.line, v, x.text)
					}
				}
			}
		})
	}
}

// TestScriptExpectationsCanFail makes sure the harness does compare: a
// script with deliberately wrong expectations must produce one mismatch per
// wrong line.
func TestScriptExpectationsCanFail(t *testing.T) {
	s, err := parseScript(`
0 node 0 value=0
0 node 1 value=1
0 link 0 1
1ms status 0 leader=0 Norm index=1,0
1ms status 1 leader=1 Norm index=1,1
40s end
---
violation safety at 10s nodes 0 1 ~ follows
violation liveness at 30s nodes 0
elections: 0
components: [0 1]
leaderless: 0.000025
`)
	if err != nil {
		t.Fatal(err)
	}
	r := runBothWays(t, s.cfg, s.events)
	if bad := checkExpectations(s, r); len(bad) != 0 {
		t.Fatalf("the right expectations fail:\n%s\n%s", strings.Join(bad, "\n"), describe(r))
	}
	for _, m := range []struct {
		line int // index of the expectation replaced; -1 appends
		text string
	}{
		{0, "violation safety at 10.001s nodes 0 1"},
		{0, "violation safety at 10s nodes 0"},
		{0, "violation liveness at 10s nodes 0 1"},
		{1, "violation liveness at 30s nodes 0 ~ safety"},
		{1, "violations: 2"}, // a count alone does not excuse the detailed list
		{-1, "violation liveness at 30s nodes 0"},
		{-1, "violations: none"},
		{-1, "violations: 1"},
		{2, "elections: 1"},
		{2, "elections: 0 mean 1ms"},
		{-1, "election 0..1ms nodes 2"},
		{3, "components: [0] [1]"},
		{3, "components: [0 1 2]"},
		{4, "leaderless: 0.25"},
		{-1, "open: 1"},
		{-1, "unchecked: 1"},
		{-1, "unreached: 1"},
		{-1, "frobnicate: 3"},
	} {
		bad := slices.Clone(s.expect)
		if m.line < 0 {
			bad = append(bad, expectation{99, m.text})
		} else {
			bad[m.line].text = m.text
		}
		if got := checkExpectations(&script{expect: bad}, r); len(got) == 0 {
			t.Errorf("%q passes", m.text)
		}
	}
	if got := checkExpectations(&script{expect: []expectation{{1, "elections: 0"}}}, r); len(got) != 1 {
		t.Errorf("a script that does not state its violations passes: %v", got)
	}
}

// mutations returns wrong variants of an expectation line: a time off by a
// nanosecond, a count off by one, a node more or less, and so on.
func mutations(text string) []string {
	f := strings.Fields(text)
	var out []string
	with := func(i int, v string) {
		g := slices.Clone(f)
		g[i] = v
		out = append(out, strings.Join(g, " "))
	}
	plusOne := func(i int) {
		if n, err := strconv.Atoi(f[i]); err == nil {
			with(i, strconv.Itoa(n+1))
		}
	}
	plusNs := func(i int) {
		if d, err := time.ParseDuration(f[i]); err == nil {
			with(i, (d + 1).String())
		}
	}
	switch f[0] {
	case "violations:":
		if f[1] == "none" {
			with(1, "1")
		} else {
			plusOne(1)
		}
	case "violation":
		other := map[string]string{"safety": "liveness", "liveness": "safety"}[f[1]]
		with(1, other)
		plusNs(3)
		end := len(f)
		if k := slices.Index(f, "~"); k >= 0 {
			end = k
			with(k+1, "NOT"+f[k+1])
		}
		g := slices.Clone(f)
		out = append(out, strings.Join(slices.Insert(g, end, "99"), " "))
		if end > 6 {
			g := slices.Clone(f)
			out = append(out, strings.Join(slices.Delete(g, end-1, end), " "))
		}
	case "elections:":
		plusOne(1)
		if len(f) == 4 {
			plusNs(3)
		}
	case "election":
		a, b, _ := strings.Cut(f[1], "..")
		if d, err := time.ParseDuration(b); err == nil {
			with(1, a+".."+(d+1).String())
		}
		if d, err := time.ParseDuration(a); err == nil {
			with(1, (d+1).String()+".."+b)
		}
		plusOne(3)
	case "open:", "unchecked:", "unreached:":
		plusOne(1)
	case "note:":
		if len(f) > 1 {
			with(1, "NOT"+f[1])
		}
	case "components:":
		out = append(out, text+" [99]")
		if len(f) > 2 {
			out = append(out, strings.Join(f[:len(f)-1], " "))
		}
	case "leaderless:":
		if x, err := strconv.ParseFloat(f[1], 64); err == nil {
			with(1, strconv.FormatFloat(x+1e-6, 'g', -1, 64))
		}
	}
	return out
}
