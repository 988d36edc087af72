package scenario

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/sim"
)

const ms = time.Millisecond

// lineOf returns the 1-based number of the first line of data containing sub.
func lineOf(t *testing.T, data []byte, sub string) int {
	t.Helper()
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("no line contains %q", sub)
	return 0
}

func ids(v ...algo.NodeID) []algo.NodeID { return v }

func link(at time.Duration, kind sim.ActionKind, a, b algo.NodeID, where string) sim.Action {
	act := sim.Action{At: at, Kind: kind, Where: where}
	act.Link.A, act.Link.B = a, b
	return act
}

func TestExample(t *testing.T) {
	data, err := os.ReadFile("example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load("example.yaml", Default())
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) string { return "example.yaml:" + strconv.Itoa(lineOf(t, data, "- at: "+s)) }
	// The entry whose action is on the line holding s: its "- at:" line.
	above := func(s string) string { return "example.yaml:" + strconv.Itoa(lineOf(t, data, s)-1) }
	want := &Scenario{
		File:       "example.yaml",
		Algorithm:  "extinction",
		Params:     map[string]string{"nothing": "here"},
		Seed:       42,
		Topology:   "ring",
		Nodes:      100,
		Values:     sim.Values{Mode: sim.ValueID},
		Delay:      sim.Delay{Kind: sim.Uniform, A: 1 * ms, B: 5 * ms},
		Loss:       0.01,
		Duration:   60 * time.Second,
		Initiators: "0,5-7",
		Unelected:  "3",
		Check:      Check{Stabilization: 5 * time.Second, Liveness: 30 * time.Second, Expect: check.ExpectEveryComponent},
		Events: []sim.Action{
			{At: 0, Kind: sim.CrashOn, Nodes: ids(9), Message: "explorer", Where: above("crash_on:")},
			{At: 0, Kind: sim.Corrupt, Nodes: ids(5), Where: above("corrupt: 5")},
			{At: 10 * time.Second, Kind: sim.Crash, Nodes: ids(7), Where: at("10s")},
			{At: 20 * time.Second, Kind: sim.Restart, Nodes: ids(7), Where: at("20s")},
			{At: 30 * time.Second, Kind: sim.Recover, Nodes: ids(7), Where: at("30s")},
			{At: 40 * time.Second, Kind: sim.Partition, Where: at("40s"), Groups: []sim.Group{
				{Name: "left", Nodes: ids(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
				{Name: "right", Nodes: ids(11, 12)},
			}},
			{At: 50 * time.Second, Kind: sim.Heal, Where: at("50s")},
			link(55*time.Second, sim.LinkDown, 3, 4, at("55s")),
			link(56*time.Second, sim.LinkUp, 3, 4, at("56s")),
			{At: 60 * time.Second, Kind: sim.ElectAt, Nodes: ids(0), Where: at("60s")},
		},
	}
	if !sameScenario(got, want) {
		t.Errorf("example.yaml:\n got %+v\nwant %+v", got, want)
		if len(got.Events) == len(want.Events) {
			for i := range got.Events {
				if !reflect.DeepEqual(got.Events[i], want.Events[i]) {
					t.Errorf("events[%d]:\n got %+v\nwant %+v", i, got.Events[i], want.Events[i])
				}
			}
		}
	}
}

func TestDefault(t *testing.T) {
	d := Default()
	want := &Scenario{
		Algorithm: "vkt",
		Seed:      1,
		Topology:  "geometric:50:250",
		Values:    sim.Values{Mode: sim.ValueRandom},
		Delay:     sim.Delay{Kind: sim.Uniform, A: 1 * ms, B: 5 * ms},
		Duration:  60 * time.Second,
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("Default() = %+v, want %+v", d, want)
	}
	demo := Demo()
	demo.Events[0].At = 0
	demo.Events[1].Groups[0].Area.X1 = 1
	if again := Demo(); again.Events[0].At == 0 || again.Events[1].Groups[0].Area.X1 == 1 {
		t.Fatal("Demo shares its events between calls")
	}
}

// validCases are documents that parse; mod turns Default() (with File set)
// into the expected result.
var validCases = []struct {
	name string
	doc  string
	mod  func(s *Scenario)
}{
	{"empty", "", nil},
	{"blank", "\n\n   \n", nil},
	{"comments only", "# nothing here\n# at all\n", nil},
	{"bare document marker", "---\n", nil},
	{"null document", "~\n", nil},
	{"empty mapping", "{}\n", nil},
	// Another algorithm without params drops the default's: they belong to
	// extinction.
	{"algorithm", "algorithm: echo\n", func(s *Scenario) { s.Algorithm, s.Params = "echo", nil }},
	{"algorithm trimmed", "algorithm: ' echo '\n", func(s *Scenario) { s.Algorithm, s.Params = "echo", nil }},
	{"same algorithm keeps params", "algorithm: vkt\n", func(s *Scenario) {}},
	{"another algorithm with params", "algorithm: echo\nparams: {initiator: 3}\n", func(s *Scenario) {
		s.Algorithm, s.Params = "echo", map[string]string{"initiator": "3"}
	}},
	{"params replace", "params:\n  timeout: 2s\n  k: 3\n  flag: true\n  f: 1.50\n", func(s *Scenario) {
		s.Params = map[string]string{"timeout": "2s", "k": "3", "flag": "true", "f": "1.50"}
	}},
	{"params empty string", "params: {x: ''}\n", func(s *Scenario) { s.Params = map[string]string{"x": ""} }},
	{"params null", "params:\n", func(s *Scenario) { s.Params = map[string]string{} }},
	{"params empty", "params: {}\n", func(s *Scenario) { s.Params = map[string]string{} }},
	{"seed zero", "seed: 0\n", func(s *Scenario) { s.Seed = 0 }},
	{"seed max", "seed: 18446744073709551615\n", func(s *Scenario) { s.Seed = 1<<64 - 1 }},
	{"seed quoted", "seed: '7'\n", func(s *Scenario) { s.Seed = 7 }},
	{"topology", "topology: ring\nnodes: 10\n", func(s *Scenario) { s.Topology = "ring"; s.Nodes = 10 }},
	{"values random", "values: random\n", func(s *Scenario) { s.Values = sim.Values{Mode: sim.ValueRandom} }},
	{"values id", "values: id\n", func(s *Scenario) { s.Values = sim.Values{Mode: sim.ValueID} }},
	{"values map", "values: {3: 10, 4: -7, 0: 9223372036854775807}\n", func(s *Scenario) {
		s.Values = sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{3: 10, 4: -7, 0: 1<<63 - 1}}
	}},
	{"values block map", "values:\n  3: 10\n  4: 7\n", func(s *Scenario) {
		s.Values = sim.Values{Mode: sim.ValueID, Explicit: map[algo.NodeID]int64{3: 10, 4: 7}}
	}},
	{"values empty map", "values: {}\n", func(s *Scenario) { s.Values = sim.Values{Mode: sim.ValueID} }},
	{"delay constant", "delay: constant:2ms\n", func(s *Scenario) { s.Delay = sim.Delay{Kind: sim.Constant, A: 2 * ms} }},
	{"delay bare", "delay: 3ms\n", func(s *Scenario) { s.Delay = sim.Delay{Kind: sim.Constant, A: 3 * ms} }},
	{"delay exponential", "delay: exponential:4ms\n", func(s *Scenario) { s.Delay = sim.Delay{Kind: sim.Exponential, A: 4 * ms} }},
	{"delay uniform", "delay: uniform:0s:1s\n", func(s *Scenario) { s.Delay = sim.Delay{Kind: sim.Uniform, B: time.Second} }},
	{"loss zero", "loss: 0\n", nil},
	{"loss half", "loss: 0.5\n", func(s *Scenario) { s.Loss = 0.5 }},
	{"loss exponent", "loss: 1e-3\n", func(s *Scenario) { s.Loss = 0.001 }},
	{"loss just below one", "loss: 0.999\n", func(s *Scenario) { s.Loss = 0.999 }},
	{"duration zero", "duration: 0\n", func(s *Scenario) { s.Duration = 0 }},
	{"duration", "duration: 1m30s\n", func(s *Scenario) { s.Duration = 90 * time.Second }},
	{"mobility", "mobility: waypoint:1:20:2s\nrange: 250\n", func(s *Scenario) { s.Mobility, s.Range = "waypoint:1:20:2s", 250 }},
	{"initiators set", "initiators: 0,3-5\nunelected: 7\n", func(s *Scenario) { s.Initiators, s.Unelected = "0,3-5", "7" }},
	{"initiators list", "initiators: [2, 0]\n", func(s *Scenario) { s.Initiators = "2,0" }},
	{"initiators all", "initiators: all\nunelected: none\n", func(s *Scenario) { s.Initiators, s.Unelected = "all", "none" }},
	{"range fractional", "range: 1.8\n", func(s *Scenario) { s.Range = 1.8 }},
	{"check both", "check: {stabilization: 2s, liveness: 250ms}\n", func(s *Scenario) {
		s.Check = Check{Stabilization: 2 * time.Second, Liveness: 250 * ms}
	}},
	{"check one", "check:\n  liveness: 3s\n", func(s *Scenario) { s.Check.Liveness = 3 * time.Second }},
	{"check null", "check:\n", nil},
	{"events null", "events:\n", nil},
	{"events empty", "events: []\n", nil},
	{"crash id", "events:\n- at: 1s\n  crash: 7\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Crash, Nodes: ids(7), Where: "t.yaml:2"}}
	}},
	{"crash list", "events:\n- {at: 1s, crash: [3, 1, 3]}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Crash, Nodes: ids(1, 3), Where: "t.yaml:2"}}
	}},
	{"crash set", "events:\n- {at: 0, crash: '1-3,7'}\n", func(s *Scenario) {
		s.Events = []sim.Action{{Kind: sim.Crash, Nodes: ids(1, 2, 3, 7), Where: "t.yaml:2"}}
	}},
	{"crash set unquoted", "events:\n- {at: 0, crash: 4-5}\n", func(s *Scenario) {
		s.Events = []sim.Action{{Kind: sim.Crash, Nodes: ids(4, 5), Where: "t.yaml:2"}}
	}},
	{"restart quoted id", "events:\n- {at: 2s, restart: \"5\"}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: 2 * time.Second, Kind: sim.Restart, Nodes: ids(5), Where: "t.yaml:2"}}
	}},
	{"recover", "events:\n- {at: 2s, recover: [0]}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: 2 * time.Second, Kind: sim.Recover, Nodes: ids(0), Where: "t.yaml:2"}}
	}},
	{"elect", "events:\n- {at: 2s, elect: '0,1'}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: 2 * time.Second, Kind: sim.ElectAt, Nodes: ids(0, 1), Where: "t.yaml:2"}}
	}},
	{"value", "events:\n- {at: 20s, value: {node: 7, to: 120}}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: 20 * time.Second, Kind: sim.SetValue, Nodes: ids(7), Value: 120, Where: "t.yaml:2"}}
	}},
	{"value of the leader, negative", "events:\n- {at: 1s, value: {node: leader, to: -5}}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.SetValue, Leader: true, Value: -5, Where: "t.yaml:2"}}
	}},
	{"partition order kept", "events:\n- at: 1s\n  partition:\n    zeta: 5\n    alpha: [1, 2]\n    mid: 3-4\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Partition, Where: "t.yaml:2", Groups: []sim.Group{
			{Name: "zeta", Nodes: ids(5)}, {Name: "alpha", Nodes: ids(1, 2)}, {Name: "mid", Nodes: ids(3, 4)},
		}}}
	}},
	{"partition one group", "events:\n- {at: 1s, partition: {island: 0}}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Partition, Where: "t.yaml:2", Groups: []sim.Group{
			{Name: "island", Nodes: ids(0)},
		}}}
	}},
	{"heal", "events:\n- {at: 1s, heal: true}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Heal, Where: "t.yaml:2"}}
	}},
	{"heal True", "events:\n- {at: 1s, heal: True}\n", func(s *Scenario) {
		s.Events = []sim.Action{{At: time.Second, Kind: sim.Heal, Where: "t.yaml:2"}}
	}},
	{"link_down ordered", "events:\n- {at: 1s, link_down: [4, 3]}\n", func(s *Scenario) {
		s.Events = []sim.Action{link(time.Second, sim.LinkDown, 3, 4, "t.yaml:2")}
	}},
	{"link_up", "events:\n- {at: 1s, link_up: [0, 9]}\n", func(s *Scenario) {
		s.Events = []sim.Action{link(time.Second, sim.LinkUp, 0, 9, "t.yaml:2")}
	}},
	{"anchors and aliases", "events:\n- {at: &t 3s, crash: &n [1, 2]}\n- {at: *t, restart: *n}\n", func(s *Scenario) {
		s.Events = []sim.Action{
			{At: 3 * time.Second, Kind: sim.Crash, Nodes: ids(1, 2), Where: "t.yaml:2"},
			{At: 3 * time.Second, Kind: sim.Restart, Nodes: ids(1, 2), Where: "t.yaml:3"},
		}
	}},
	{"aliased event", "events:\n- &e {at: 3s, crash: 1}\n- *e\n", func(s *Scenario) {
		s.Events = []sim.Action{
			{At: 3 * time.Second, Kind: sim.Crash, Nodes: ids(1), Where: "t.yaml:2"},
			{At: 3 * time.Second, Kind: sim.Crash, Nodes: ids(1), Where: "t.yaml:3"},
		}
	}},
	{"explicit document", "---\nseed: 5\n...\n", func(s *Scenario) { s.Seed = 5 }},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			want := Default()
			want.File = "t.yaml"
			if tc.mod != nil {
				tc.mod(want)
			}
			got, err := Parse("t.yaml", []byte(tc.doc), Default())
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.doc, err)
			}
			if !sameScenario(got, want) {
				t.Errorf("Parse(%q):\n got %+v\nwant %+v", tc.doc, got, want)
			}
		})
	}
}

// errorCases are documents that must fail. want is the start of the message:
// file, line, column and field path; msg is a part of the rest.
var errorCases = []struct {
	name, doc, want, msg string
}{
	// the document
	{"unknown field", "algorithim: echo\n", `t.yaml:1:1: unknown field "algorithim"`,
		"(known: algorithm, params, seed, topology, nodes, values, delay, loss, duration, check, events, mobility, range, ranges, initiators, unelected, schedule, values_over_time)"},
	{"unknown field later", "seed: 1\n\n  \nfoo: 2\n", `t.yaml:4:1: unknown field "foo"`, "known: algorithm"},
	{"duplicate field", "seed: 1\nalgorithm: x\nseed: 2\n", `t.yaml:3:1: duplicate field "seed"`, "(first on line 1)"},
	{"document is a list", "- seed: 1\n", "t.yaml:1:1: ", "a scenario must be a mapping"},
	{"document is a scalar", "hello\n", "t.yaml:1:1: ", `got "hello"`},
	{"document after comments", "# c\n\n[1, 2]\n", "t.yaml:3:1: ", "got a list"},
	{"syntax error", "a: 1\nb: 2\nc 2\nd: 3\n", "t.yaml:3: ", "invalid YAML: could not find expected ':'"},
	{"syntax error flow", "seed: [1,\n", "t.yaml:", "invalid YAML"},
	{"syntax error tab", "check:\n\tliveness: 1s\n", "t.yaml:2: ", "invalid YAML: found character that cannot start any token (YAML indents with spaces, not tabs)"},
	{"syntax unknown anchor", "seed: *nope\n", "t.yaml: ", "unknown anchor 'nope' referenced"},
	{"second document", "seed: 1\n---\nseed: 2\n", "t.yaml:2:1: ", "one YAML document"},
	{"broken second document", "seed: 1\n---\nseed: [\n", "t.yaml:", "invalid YAML"},
	{"merge key", "base: &b {seed: 1}\n<<: *b\n", "t.yaml:2:1: ", `merge keys ("<<") are not supported`},
	{"merge key in event", "events:\n- {<<: {at: 1s}, crash: 1}\n", "t.yaml:2:4: events[0]: ", `merge keys ("<<") are not supported`},
	{"complex key", "? [a]\n: 1\n", "t.yaml:1:3: ", "a field name must be a scalar, got a list"},

	// algorithm, topology
	{"algorithm list", "algorithm: [a]\n", "t.yaml:1:12: algorithm: ", "want an algorithm name, got a list"},
	{"algorithm null", "algorithm:\n", "algorithm: ", "missing value"},
	{"algorithm empty", "algorithm: ''\n", "t.yaml:1:12: algorithm: ", "empty value"},
	{"topology map", "topology: {a: 1}\n", "t.yaml:1:11: topology: ", "got a mapping"},
	{"topology empty", "topology: \"  \"\n", "t.yaml:1:11: topology: ", "empty value"},

	// params
	{"params list", "params: [a]\n", "t.yaml:1:9: params: ", "want a mapping, got a list"},
	{"params scalar", "params: x\n", "t.yaml:1:9: params: ", `want a mapping, got "x"`},
	{"params nested", "params:\n  a: [1]\n", "t.yaml:2:6: params.a: ", "want a scalar value, got a list"},
	{"params null value", "params:\n  a:\n", "params.a: ", "missing value"},
	{"params duplicate", "params:\n  a: 1\n  a: 2\n", "t.yaml:3:3: params: ", `duplicate parameter "a" (first on line 2)`},
	{"params empty name", "params: {'': 1}\n", "t.yaml:1:10: params: ", "empty parameter name"},

	// seed
	{"seed negative", "seed: -1\n", "t.yaml:1:7: seed: ", `negative seed "-1"`},
	{"seed word", "seed: abc\n", "t.yaml:1:7: seed: ", `invalid seed "abc"`},
	{"seed float", "seed: 1.5\n", "t.yaml:1:7: seed: ", `invalid seed "1.5"`},
	{"seed hex", "seed: 0x10\n", "t.yaml:1:7: seed: ", `invalid seed "0x10"`},
	{"seed too large", "seed: 18446744073709551616\n", "t.yaml:1:7: seed: ", "too large"},
	{"seed list", "seed: [1]\n", "t.yaml:1:7: seed: ", "want an unsigned integer, got a list"},
	{"seed null", "seed: ~\n", "t.yaml:1:7: seed: ", "missing value"},

	// nodes
	{"nodes zero", "nodes: 0\n", "t.yaml:1:8: nodes: ", `invalid node count "0"`},
	{"nodes negative", "nodes: -4\n", "t.yaml:1:8: nodes: ", `invalid node count "-4"`},
	{"nodes word", "nodes: many\n", "t.yaml:1:8: nodes: ", `invalid node count "many"`},
	{"nodes too many", "nodes: 3000000000\n", "t.yaml:1:8: nodes: ", "invalid node count"},

	// values
	{"values word", "values: best\n", "t.yaml:1:9: values: ", `invalid values "best"`},
	{"values list", "values: [1, 2]\n", "t.yaml:1:9: values: ", "got a list"},
	{"values null", "values:\n", "values: ", "missing value"},
	{"values bad node", "values: {x: 1}\n", "t.yaml:1:10: values: ", `invalid node id "x" (want an integer >= 0)`},
	{"values negative node", "values: {-1: 1}\n", "t.yaml:1:10: values: ", `invalid node id "-1"`},
	{"values bad value", "values:\n  3: high\n", "t.yaml:2:6: values.3: ", `invalid value "high" (want an integer)`},
	{"values float value", "values: {3: 1.5}\n", "t.yaml:1:13: values.3: ", `invalid value "1.5"`},
	{"values huge value", "values: {3: 9223372036854775808}\n", "values.3: ", "invalid value"},
	{"values null value", "values: {3: }\n", "values.3: ", "missing value"},
	{"values duplicate node", "values:\n  3: 1\n  03: 2\n", "t.yaml:3:3: values: ", "node 3 is given a value twice (first on line 2)"},
	{"values duplicate key", "values:\n  3: 1\n  3: 2\n", "t.yaml:3:3: values: ", `duplicate node "3"`},

	// delay
	{"delay word", "delay: fast\n", "t.yaml:1:8: delay: ", `invalid delay "fast": unknown kind "fast"`},
	{"delay backwards", "delay: uniform:5ms:1ms\n", "t.yaml:1:8: delay: ", "MAX is below MIN"},
	{"delay negative", "delay: constant:-1ms\n", "t.yaml:1:8: delay: ", "negative duration"},
	{"delay arity", "delay: uniform:1ms\n", "t.yaml:1:8: delay: ", "takes 2 duration(s), got 1"},
	{"delay unitless", "delay: uniform:1:5\n", "t.yaml:1:8: delay: ", "a duration needs a unit: did you mean uniform:1ms:5ms?"},
	{"delay map", "delay: {a: 1}\n", "t.yaml:1:8: delay: ", "got a mapping"},

	// loss
	{"loss one", "loss: 1\n", "t.yaml:1:7: loss: ", "loss 1 is outside [0, 1)"},
	{"range zero", "range: 0\n", "t.yaml:1:8: range: ", `invalid range "0" (want a number of metres > 0`},
	{"range word", "range: far\n", "t.yaml:1:8: range: ", `invalid range "far"`},
	{"range inf", "range: .inf\n", "t.yaml:1:8: range: ", `invalid range`},
	{"mobility empty", "mobility: ''\n", "t.yaml:1:11: mobility: ", "empty value (want a mobility spec)"},
	{"initiators bad", "initiators: 3-1\n", "t.yaml:1:13: initiators: ", "range 3-1 runs backwards"},
	{"initiators empty", "initiators: ''\n", "t.yaml:1:13: initiators: ", "empty node set"},
	{"unelected bad id", "unelected: [0, x]\n", "t.yaml:1:16: unelected[1]: ", "invalid node id"},
	{"loss negative", "loss: -0.1\n", "t.yaml:1:7: loss: ", "outside [0, 1)"},
	{"loss word", "loss: some\n", "t.yaml:1:7: loss: ", `invalid loss "some"`},
	{"loss yaml nan", "loss: .nan\n", "t.yaml:1:7: loss: ", `invalid loss ".nan"`},
	{"loss NaN", "loss: NaN\n", "t.yaml:1:7: loss: ", "outside [0, 1)"},
	{"loss inf", "loss: Inf\n", "t.yaml:1:7: loss: ", "outside [0, 1)"},
	{"loss percent", "loss: 5%\n", "t.yaml:1:7: loss: ", "invalid loss"},

	// duration
	{"duration negative", "duration: -5s\n", "t.yaml:1:11: duration: ", `negative duration "-5s"`},
	{"duration no unit", "duration: 60\n", "t.yaml:1:11: duration: ", `invalid duration "60"`},
	{"duration word", "duration: forever\n", "t.yaml:1:11: duration: ", `invalid duration "forever"`},
	{"duration overflow", "duration: 99999999999h\n", "t.yaml:1:11: duration: ", "invalid duration"},
	{"duration list", "duration: [1s]\n", "t.yaml:1:11: duration: ", "got a list"},

	// check
	{"check scalar", "check: 5s\n", "t.yaml:1:8: check: ", `want a mapping, got "5s"`},
	{"check unknown", "check:\n  safety: 1s\n", `t.yaml:2:3: check: unknown field "safety"`, "(known: stabilization, liveness, expect)"},
	{"check negative", "check:\n  stabilization: -1s\n", "t.yaml:2:18: check.stabilization: ", "negative duration"},
	{"check malformed", "check:\n  liveness: 3\n", "t.yaml:2:13: check.liveness: ", `invalid duration "3"`},
	{"check duplicate", "check:\n  liveness: 1s\n  liveness: 2s\n", "t.yaml:3:3: check: ", `duplicate field "liveness"`},

	// events
	{"events map", "events: {at: 1s}\n", "t.yaml:1:9: events: ", "want a list of events, got a mapping"},
	{"events scalar", "events: crash\n", "t.yaml:1:9: events: ", "want a list"},
	{"event scalar", "events:\n- 5\n", "t.yaml:2:3: events[0]: ", "want an event"},
	{"event null", "events:\n-\n", "events[0]: ", "want an event"},
	{"event missing at", "events:\n- {at: 1s, crash: 1}\n- crash: 1\n", "t.yaml:3:3: events[1]: ", `missing "at"`},
	{"event two actions", "events:\n- at: 1s\n  crash: 1\n  restart: 2\n", "t.yaml:2:3: events[0]: ",
		`an event needs exactly one action besides "at" (got crash, restart)`},
	{"event no action", "events:\n- at: 1s\n", "t.yaml:2:3: events[0]: ", `exactly one action besides "at" (got none)`},
	{"event unknown field", "events:\n- at: 1s\n  explode: 3\n", `t.yaml:3:3: events[0]: unknown field "explode"`,
		"(known: at, crash, restart, recover, partition, heal, link_down, link_up, elect, crash_on, corrupt, cut, uncut, loss, clock, slow, value)"},
	{"event duplicate at", "events:\n- at: 1s\n  at: 2s\n  crash: 1\n", "t.yaml:3:3: events[0]: ", `duplicate field "at" (first on line 2)`},
	{"event duplicate action", "events:\n- at: 1s\n  crash: 1\n  crash: 2\n", "t.yaml:4:3: events[0]: ", `duplicate field "crash"`},
	{"event negative at", "events:\n- {at: -1s, crash: 1}\n", "t.yaml:2:8: events[0].at: ", "negative duration"},
	{"event malformed at", "events:\n- {at: soon, crash: 1}\n", "t.yaml:2:8: events[0].at: ", `invalid duration "soon"`},
	{"event null at", "events:\n- {at: , crash: 1}\n", "events[0].at: ", "missing value"},

	// node targets
	{"crash bad id", "events:\n- at: 1s\n  crash: 1\n- at: 2s\n  crash: x\n", "t.yaml:5:10: events[1].crash: ",
		`invalid node id "x" (want an integer >= 0)`},
	{"crash negative", "events:\n- {at: 1s, crash: -1}\n", "t.yaml:2:19: events[0].crash: ", `invalid node id "-1"`},
	{"crash all", "events:\n- {at: 1s, crash: all}\n", "t.yaml:2:19: events[0].crash: ", `"all" is not allowed in events`},
	{"crash none", "events:\n- {at: 1s, crash: none}\n", "t.yaml:2:19: events[0].crash: ", "no nodes given"},
	{"crash empty string", "events:\n- {at: 1s, crash: ''}\n", "t.yaml:2:19: events[0].crash: ", "no nodes given"},
	{"crash empty list", "events:\n- {at: 1s, crash: []}\n", "t.yaml:2:19: events[0].crash: ", "no nodes given"},
	{"crash null", "events:\n- {at: 1s, crash: }\n", "events[0].crash: ", "missing value"},
	{"crash backwards", "events:\n- {at: 1s, crash: 3-1}\n", "t.yaml:2:19: events[0].crash: ", "runs backwards"},
	{"crash bad set", "events:\n- {at: 1s, crash: '1,x'}\n", "t.yaml:2:19: events[0].crash: ", `in node set "1,x": invalid node id "x"`},
	{"crash bad list item", "events:\n- {at: 1s, crash: [1, x]}\n", "t.yaml:2:23: events[0].crash[1]: ", `invalid node id "x"`},
	{"crash nested list", "events:\n- {at: 1s, crash: [[1]]}\n", "t.yaml:2:20: events[0].crash[0]: ", "want a node id, got a list"},
	{"crash map", "events:\n- {at: 1s, crash: {a: 1}}\n", "t.yaml:2:19: events[0].crash: ", "got a mapping"},
	{"crash float", "events:\n- {at: 1s, crash: 1.5}\n", "events[0].crash: ", `invalid node id "1.5"`},
	{"crash huge", "events:\n- {at: 1s, crash: 99999999999}\n", "events[0].crash: ", `invalid node id "99999999999"`},
	{"crash huge set", "events:\n- {at: 1s, crash: '0-16777215,0-16777215,0-16777215,0-16777215,0-16777215'}\n", "t.yaml:2:19: events[0].crash: ",
		`node set "0-16777215,0-16777215,0-16777215,0-16777215,0-16777215" names 83886080 nodes, more than the 4194304`},
	// Found by FuzzParse (testdata/fuzz/FuzzParse/9e0b185d7a001222): a short
	// set that used to expand to 33M ids before failing on its last part.
	{"crash huge set before a bad part", "events:\n- {at: 1s,crash: '0,0,0-16777215,0-16777215,0-16777777215167772J5'}",
		"t.yaml:2:18: events[0].crash: ", "names 33554435 nodes, more than the 4194304"},
	{"restart bad", "events:\n- {at: 1s, restart: y}\n", "events[0].restart: ", `invalid node id "y"`},
	{"recover bad", "events:\n- {at: 1s, recover: all}\n", "events[0].recover: ", `"all" is not allowed`},
	{"elect bad", "events:\n- {at: 1s, elect: [z]}\n", "events[0].elect[0]: ", `invalid node id "z"`},

	// partition
	{"partition list", "events:\n- {at: 1s, partition: [1, 2]}\n", "t.yaml:2:23: events[0].partition: ", "want a mapping, got a list"},
	{"partition empty", "events:\n- {at: 1s, partition: {}}\n", "t.yaml:2:23: events[0].partition: ", "needs at least one group"},
	{"partition null", "events:\n- {at: 1s, partition: }\n", "events[0].partition: ", "needs at least one group"},
	{"partition duplicate group", "events:\n- at: 1s\n  partition:\n    a: 1\n    a: 2\n", "t.yaml:5:5: events[0].partition: ",
		`duplicate group "a" (first on line 4)`},
	{"partition node twice", "events:\n- at: 1s\n  partition:\n    left: 0-3\n    right: [5, 3]\n", "t.yaml:5:12: events[0].partition: ",
		`node 3 is in both group "left" and group "right"`},
	{"partition bad node", "events:\n- at: 1s\n  partition:\n    left: x\n", "t.yaml:4:11: events[0].partition.left: ", `invalid node id "x"`},
	{"partition all", "events:\n- at: 1s\n  partition:\n    left: all\n", "events[0].partition.left: ", `"all" is not allowed`},
	{"partition empty group", "events:\n- at: 1s\n  partition:\n    left: none\n", "events[0].partition.left: ", "no nodes given"},
	{"partition empty name", "events:\n- at: 1s\n  partition:\n    '': 1\n", "t.yaml:4:5: events[0].partition: ", "empty group name"},
	{"partition list name", "events:\n- at: 1s\n  partition:\n    ? [a]\n    : 1\n", "events[0].partition: ", "a group name must be a scalar"},

	// heal
	{"heal false", "events:\n- {at: 1s, heal: false}\n", "t.yaml:2:18: events[0].heal: ", `heal takes true, got "false"`},
	{"heal yes", "events:\n- {at: 1s, heal: yes}\n", "events[0].heal: ", `heal takes true, got "yes"`},
	{"heal quoted", "events:\n- {at: 1s, heal: 'true'}\n", "events[0].heal: ", `heal takes true, unquoted; got the string "true"`},
	{"heal one", "events:\n- {at: 1s, heal: 1}\n", "events[0].heal: ", "heal takes true"},
	{"heal null", "events:\n- {at: 1s, heal: }\n", "events[0].heal: ", "heal takes true, got nothing"},
	{"heal list", "events:\n- {at: 1s, heal: [true]}\n", "events[0].heal: ", "heal takes true, got a list"},

	// gray failures
	{"ranges a list", "ranges: [1, 2]\n", "t.yaml:1:9: ranges: ", "want a mapping of node ids to ranges in metres"},
	{"ranges of nothing", "ranges: {3: 0}\n", "ranges.3: ", "invalid range"},
	{"ranges of a name", "ranges: {three: 100}\n", "ranges: ", "three"},
	{"cut to itself", "events:\n- {at: 1s, cut: {from: 2, to: 2}}\n", "t.yaml:2:17: events[0].cut: ", "from and to are both node 2"},
	{"cut without to", "events:\n- {at: 1s, cut: {from: 2}}\n", "events[0].cut: ", "want {from: ..., to: ...}"},
	{"cut as a list", "events:\n- {at: 1s, uncut: [2, 3]}\n", "events[0].uncut: ", "want a mapping"},
	{"cut unknown field", "events:\n- {at: 1s, cut: {from: 1, to: 2, both: true}}\n", "events[0].cut: ", `unknown field "both" (known: from, to)`},
	{"loss without rate", "events:\n- {at: 1s, loss: {from: 1, to: 2}}\n", "events[0].loss: ", "want {from: ..., to: ..., rate: ...}"},
	{"loss certain", "events:\n- {at: 1s, loss: {from: 1, to: 2, rate: 1}}\n", "events[0].loss.rate: ", "loss 1 is outside [0, 1)"},
	{"value without to", "events:\n- {at: 1s, value: {node: 1}}\n", "events[0].value: ", "want {node: N, to: V}"},
	{"value not an integer", "events:\n- {at: 1s, value: {node: 1, to: 1.5}}\n", "events[0].value.to: ", `value "1.5": want an integer`},
	{"value unknown field", "events:\n- {at: 1s, value: {node: 1, by: 5}}\n", "events[0].value", `by`},
	{"value node and nodes", "events:\n- {at: 1s, value: {node: 2, nodes: 3, to: 1}}\n", "t.yaml:2:29: events[0].value: ", `unknown field "nodes" (known: node, to)`},
	{"value leader and nodes", "events:\n- {at: 1s, value: {node: leader, nodes: 3, to: 1}}\n", "t.yaml:2:34: events[0].value: ", `unknown field "nodes" (known: node, to)`},
	{"value nodes", "events:\n- {at: 1s, value: {nodes: 3, to: 1}}\n", "t.yaml:2:20: events[0].value: ", `unknown field "nodes" (known: node, to)`},
	{"value without node", "events:\n- {at: 1s, value: {to: 1}}\n", "t.yaml:2:19: events[0].value: ", "want {node: N, to: V} (N a node id, a list of them or leader; V an integer): node is missing"},
	{"value a number", "events:\n- {at: 1s, value: 3}\n", "t.yaml:2:19: events[0].value: ", "want {node: N, to: V} (N a node id, a list of them or leader; V an integer), got \"3\""},
	{"value too large", "events:\n- {at: 1s, value: {node: 1, to: 99999999999999999999}}\n", "t.yaml:2:33: events[0].value.to: ",
		`value "99999999999999999999": want an integer from -9223372036854775808 to 9223372036854775807`},
	{"clock stopped", "events:\n- {at: 1s, clock: {node: 1, rate: 0}}\n", "events[0].clock.rate: ", "clock rate \"0\": want a number above 0"},
	{"clock neither", "events:\n- {at: 1s, clock: {node: 1}}\n", "events[0].clock: ", "want {node: N, rate: R} or {node: N, jump: D}"},
	{"clock jump zero", "events:\n- {at: 1s, clock: {node: 1, jump: 0s}}\n", "events[0].clock.jump: ", `jump "0s": want a duration other than 0`},
	{"clock jump words", "events:\n- {at: 1s, clock: {node: 1, jump: back}}\n", "events[0].clock.jump: ", `jump "back"`},
	{"slow without by", "events:\n- {at: 1s, slow: {node: 1, for: 2s}}\n", "events[0].slow: ", "want {node: N, by: D}"},
	{"slow negative", "events:\n- {at: 1s, slow: {node: 1, by: -2s}}\n", "events[0].slow.by: ", "negative duration"},

	// links
	{"link_down same", "events:\n- {at: 1s, link_down: [3, 3]}\n", "t.yaml:2:23: events[0].link_down: ", "two different nodes, got 3 twice"},
	{"link_down same spelled apart", "events:\n- {at: 1s, link_down: [3, 03]}\n", "events[0].link_down: ", "got 3 twice"},
	{"link_down one", "events:\n- {at: 1s, link_down: [3]}\n", "t.yaml:2:23: events[0].link_down: ", "want exactly two node ids, like [3, 4], got 1"},
	{"link_down three", "events:\n- {at: 1s, link_down: [1, 2, 3]}\n", "events[0].link_down: ", "got 3"},
	{"link_down scalar", "events:\n- {at: 1s, link_down: 3}\n", "events[0].link_down: ", `want the two ends of a link, like [3, 4], got "3"`},
	{"link_down string pair", "events:\n- {at: 1s, link_down: '3-4'}\n", "events[0].link_down: ", "want the two ends"},
	{"link_up bad end", "events:\n- {at: 1s, link_up: [3, x]}\n", "t.yaml:2:25: events[0].link_up[1]: ", `invalid node id "x"`},
	{"link_up list end", "events:\n- {at: 1s, link_up: [[3], 4]}\n", "events[0].link_up[0]: ", "want a node id, got a list"},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			base := Default()
			s, err := Parse("t.yaml", []byte(tc.doc), base)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tc.doc, s)
			}
			if s != nil {
				t.Errorf("Parse(%q) returned a scenario with its error", tc.doc)
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.HasPrefix(msg, "t.yaml") || !strings.Contains(msg, tc.want) || !strings.Contains(msg, tc.msg) {
				t.Errorf("Parse(%q):\n got error %s\nwant one containing %q and %q", tc.doc, msg, tc.want, tc.msg)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not a *scenario.Error", err)
			} else if e.File != "t.yaml" {
				t.Errorf("Error.File = %q", e.File)
			}
			if !reflect.DeepEqual(base, Default()) {
				t.Errorf("Parse modified base")
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "run.yaml", Line: 12, Column: 5, Path: "events[3].crash", Msg: "bad"}, "run.yaml:12:5: events[3].crash: bad"},
		{Error{File: "run.yaml", Line: 2, Column: 1, Msg: "bad"}, "run.yaml:2:1: bad"},
		{Error{File: "run.yaml", Line: 2, Msg: "bad"}, "run.yaml:2: bad"},
		{Error{File: "run.yaml", Msg: "bad"}, "run.yaml: bad"},
		{Error{Line: 3, Column: 4, Path: "seed", Msg: "bad"}, "<scenario>:3:4: seed: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// TestBriefExample checks the message shape the package documents.
func TestBriefExample(t *testing.T) {
	doc := "seed: 1\nevents:\n" +
		"  - {at: 1s, crash: 1}\n" +
		"  - {at: 2s, crash: 2}\n" +
		"  - {at: 3s, crash: 3}\n" +
		"  - at: 4s\n" +
		"    crash: x\n"
	_, err := Parse("run.yaml", []byte(doc), Default())
	want := `run.yaml:7:12: events[3].crash: invalid node id "x" (want an integer >= 0)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestLayering(t *testing.T) {
	base := &Scenario{
		File:      "base.yaml",
		Algorithm: "echo",
		Params:    map[string]string{"a": "1", "b": "2"},
		Seed:      77,
		Topology:  "ring",
		Nodes:     12,
		Values:    sim.Values{Mode: sim.ValueRandom, Explicit: map[algo.NodeID]int64{1: 5}},
		Delay:     sim.Delay{Kind: sim.Exponential, A: 7 * ms},
		Loss:      0.25,
		Duration:  time.Minute,
		Check:     Check{Stabilization: time.Second, Liveness: 2 * time.Second},
		Events: []sim.Action{
			{At: time.Second, Kind: sim.Crash, Nodes: ids(1), Where: "base.yaml:9"},
			{At: 2 * time.Second, Kind: sim.Partition, Groups: []sim.Group{{Name: "g", Nodes: ids(2, 3)}}, Where: "base.yaml:11"},
		},
	}
	keep := base.Clone()
	if !reflect.DeepEqual(base, keep) {
		t.Fatal("Clone is not equal to the original")
	}

	for _, tc := range []struct {
		doc string
		mod func(s *Scenario)
	}{
		{"", nil},
		{"# only a comment\n", nil},
		{"seed: 9\n", func(s *Scenario) { s.Seed = 9 }},
		{"params: {c: 3}\n", func(s *Scenario) { s.Params = map[string]string{"c": "3"} }},
		{"params:\n", func(s *Scenario) { s.Params = map[string]string{} }},
		{"check: {liveness: 5s}\n", func(s *Scenario) { s.Check.Liveness = 5 * time.Second }},
		{"values: id\n", func(s *Scenario) { s.Values = sim.Values{Mode: sim.ValueID} }},
		{"events: []\n", func(s *Scenario) { s.Events = nil }},
		{"events:\n- {at: 0s, heal: true}\n", func(s *Scenario) {
			s.Events = []sim.Action{{Kind: sim.Heal, Where: "t.yaml:2"}}
		}},
	} {
		want := keep.Clone()
		want.File = "t.yaml"
		if tc.mod != nil {
			tc.mod(want)
		}
		got, err := Parse("t.yaml", []byte(tc.doc), base)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.doc, err)
		}
		if !sameScenario(got, want) {
			t.Errorf("Parse(%q) on base:\n got %+v\nwant %+v", tc.doc, got, want)
		}
		// The result must not share memory with base.
		got.Params["zz"] = "x"
		if got.Values.Explicit != nil {
			got.Values.Explicit[99] = 1
		}
		for i := range got.Events {
			if len(got.Events[i].Nodes) > 0 {
				got.Events[i].Nodes[0] = 1000
			}
			for j := range got.Events[i].Groups {
				got.Events[i].Groups[j].Nodes[0] = 1000
				got.Events[i].Groups[j].Name = "changed"
			}
		}
		if !reflect.DeepEqual(base, keep) {
			t.Fatalf("Parse(%q) or a change to its result modified base", tc.doc)
		}
	}
}

func TestNilBaseIsDefault(t *testing.T) {
	got, err := Parse("t.yaml", []byte("seed: 3\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.File, want.Seed = "t.yaml", 3
	if !sameScenario(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestEventOrder(t *testing.T) {
	doc := "events:\n" +
		"- {at: 5s, crash: 1}\n" + // line 2
		"- {at: 1s, crash: 2}\n" + // line 3
		"- {at: 5s, restart: 1}\n" + // line 4
		"- {at: 1s, elect: 3}\n" + // line 5
		"- {at: 0, link_down: [1, 2]}\n" + // line 6
		"- {at: 5s, heal: true}\n" + // line 7
		"- {at: 1000ms, recover: 2}\n" // line 8
	s, err := Parse("t.yaml", []byte(doc), Default())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range s.Events {
		got = append(got, a.Kind.String()+"@"+a.At.String()+"@"+a.Where)
	}
	want := []string{
		"link_down@0s@t.yaml:6",
		"crash@1s@t.yaml:3",
		"elect@1s@t.yaml:5",
		"recover@1s@t.yaml:8",
		"crash@5s@t.yaml:2",
		"restart@5s@t.yaml:4",
		"heal@5s@t.yaml:7",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order:\n got %v\nwant %v", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load("testdata/does-not-exist.yaml", Default()); err == nil ||
		!strings.Contains(err.Error(), "testdata/does-not-exist.yaml") {
		t.Fatalf("Load of a missing file: %v", err)
	}
	dir := t.TempDir()
	path := dir + "/run.yaml"
	if err := os.WriteFile(path, []byte("seed: 1\ndelay: fast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, Default())
	if err == nil || !strings.HasPrefix(err.Error(), path+":2:8: delay: invalid delay \"fast\"") {
		t.Fatalf("Load: %v", err)
	}
	if err := os.WriteFile(path, []byte("seed: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, Default())
	if err != nil || s.File != path || s.Seed != 5 {
		t.Fatalf("Load = %+v, %v", s, err)
	}
}

// TestWorkBound checks that aliases cannot make a short file expand to
// unbounded work.
func TestWorkBound(t *testing.T) {
	defer func(old int64) { maxNodeWork = old }(maxNodeWork)
	maxNodeWork = 1000
	var b strings.Builder
	b.WriteString("events:\n- {at: 0s, crash: &s '0-99'}\n")
	for range 20 {
		b.WriteString("- {at: 0s, crash: *s}\n")
	}
	_, err := Parse("t.yaml", []byte(b.String()), Default())
	if err == nil || !strings.Contains(err.Error(), "t.yaml:11:19: events[9].crash: the events name more than 1000 nodes in all") {
		t.Fatalf("got %v", err)
	}
	// Lists count too, checked after each event.
	b.Reset()
	b.WriteString("events:\n- {at: 0s, crash: &s [1, 2, 3, 4, 5, 6, 7, 8, 9]}\n")
	for range 200 {
		b.WriteString("- {at: 0s, crash: *s}\n")
	}
	_, err = Parse("t.yaml", []byte(b.String()), Default())
	if err == nil || !strings.Contains(err.Error(), "t.yaml:102:3: events[100]: the events name more than 1000 nodes in all") {
		t.Fatalf("got %v", err)
	}
	// The same set within the bound is fine.
	maxNodeWork = 1 << 20
	s, err := Parse("t.yaml", []byte(b.String()), Default())
	if err != nil || len(s.Events) != 201 || len(s.Events[200].Nodes) != 9 {
		t.Fatalf("got %v", err)
	}
}

// sameScenario compares two scenarios by what they say, not by where a file
// said it (the positions Blame uses are tested on their own).
func sameScenario(a, b *Scenario) bool {
	a, b = a.Clone(), b.Clone()
	a.set, b.set = nil, nil
	return reflect.DeepEqual(a, b)
}

func TestBlame(t *testing.T) {
	s, err := Parse("run.yaml", []byte("seed: 4\nalgorithm:   echo\nparams:\n  initiator: 9\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Sets("algorithm") || !s.Sets("params") || !s.Sets("params.initiator") || s.Sets("topology") {
		t.Errorf("Sets: %v", s.set)
	}
	cause := errors.New("no such thing")
	for _, c := range []struct {
		fields []string
		want   string
	}{
		{[]string{"algorithm"}, "run.yaml:2:14: algorithm: no such thing"},
		{[]string{"params.initiator", "params"}, "run.yaml:4:14: params.initiator: no such thing"},
		{[]string{"params.root", "params"}, "run.yaml:4:3: params: no such thing"},
		{[]string{"topology", "nodes"}, "no such thing"}, // the default's: nothing to blame
	} {
		if got := s.Blame(cause, c.fields...).Error(); got != c.want {
			t.Errorf("Blame(%v) = %q, want %q", c.fields, got, c.want)
		}
	}
}

func TestPartitionArea(t *testing.T) {
	s, err := Parse("a.yaml", []byte("events:\n  - at: 1s\n    partition:\n      west: {area: [0, 0, 500, 1000]}\n      east: 3-4\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Events[0].Groups
	if len(g) != 2 || g[0].Area == nil || *g[0].Area != (sim.Rect{X0: 0, Y0: 0, X1: 500, Y1: 1000}) || g[1].Area != nil || len(g[1].Nodes) != 2 {
		t.Errorf("groups %+v", g)
	}
	for doc, want := range map[string]string{
		"{area: [0, 0, 5]}":          "want [X0, Y0, X1, Y1], four numbers",
		"{area: [0, 0, x, 5]}":       `"x" is not a number`,
		"{area: [5, 0, 1, 5]}":       "empty area",
		"{area: [0, 0, 1, 1], z: 1}": `unknown field "z"`,
		"{}":                         "a group is nodes",
		"{area: [0, 0, .inf, 5]}":    "is not a number",
	} {
		_, err := Parse("a.yaml", []byte("events:\n  - at: 1s\n    partition:\n      west: "+doc+"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "a.yaml:4:") {
			t.Errorf("%s: %v, want a.yaml:4: ... %q", doc, err, want)
		}
	}
}

func TestFaultInjectionEvents(t *testing.T) {
	s, err := Parse("f.yaml", []byte("events:\n  - {at: 0s, crash_on: {node: 3, message: gather}}\n  - {at: 1s, corrupt: 5}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Events[0], s.Events[1]
	if a.Kind != sim.CrashOn || a.Message != "gather" || len(a.Nodes) != 1 || a.Nodes[0] != 3 || b.Kind != sim.Corrupt || b.Nodes[0] != 5 {
		t.Errorf("events %+v", s.Events)
	}
	for doc, want := range map[string]string{
		"{at: 0s, crash_on: {node: 3}}":                   "want {node: N, message: TYPE}",
		"{at: 0s, crash_on: {node: 3, message: x, y: 1}}": `unknown field "y"`,
		"{at: 0s, crash_on: 3}":                           "want a mapping",
		"{at: 0s, corrupt: x}":                            "invalid node id",
	} {
		if _, err := Parse("f.yaml", []byte("events:\n  - "+doc+"\n"), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}
