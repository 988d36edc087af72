package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
)

// wrongLeader is a deliberately broken algorithm: every node declares itself
// leader at boot and stays so. On any network of two nodes or more the
// checker must object, and the CLI must exit 2.
type wrongLeader struct{ id algo.NodeID }

func (w *wrongLeader) Start(env algo.Env)                   { w.id = env.ID() }
func (w *wrongLeader) Restart(env algo.Env)                 { w.id = env.ID() }
func (w *wrongLeader) Recover(env algo.Env, _ []byte) error { w.id = env.ID(); return nil }
func (w *wrongLeader) Save() []byte                         { return nil }
func (w *wrongLeader) Receive(algo.Env, *algo.Message)      {}
func (w *wrongLeader) Timer(algo.Env, algo.Timer)           {}
func (w *wrongLeader) NeighborUp(algo.Env, algo.NodeID)     {}
func (w *wrongLeader) NeighborDown(algo.Env, algo.NodeID)   {}
func (w *wrongLeader) Elect(algo.Env)                       {}
func (w *wrongLeader) Status() algo.Status                  { return algo.Status{Leader: w.id, State: algo.Norm} }
func buildWrongLeader(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
	return func(id algo.NodeID) algo.Machine { return &wrongLeader{id: id} }, nil
}

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "test-wrong-leader",
		Summary:  "test only: every node is its own leader",
		Source:   "none",
		Messages: []string{"never"},
		Model:    algo.Model{Spontaneous: true},
		Build:    buildWrongLeader,
	})
}

// cli runs the command line and returns its exit status, stdout and stderr.
func cli(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// mustRun runs a command that must succeed.
func mustRun(t testing.TB, args ...string) string {
	t.Helper()
	code, out, errOut := cli(t, args...)
	if code != ExitOK || errOut != "" {
		t.Fatalf("elect %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
	}
	return out
}

// simJSON runs sim --json with args and decodes the one object it prints.
func simJSON(t testing.TB, args ...string) (*metrics.Summary, map[string]any) {
	t.Helper()
	out := mustRun(t, append([]string{"sim", "--json"}, args...)...)
	return decodeSummary(t, out)
}

// runJSON runs a command with --json whose run may break the specification
// (exit 2): the waves do not claim to survive message loss. It returns the
// exit status with the summary.
func runJSON(t testing.TB, args ...string) (int, *metrics.Summary, map[string]any) {
	t.Helper()
	code, out, errOut := cli(t, append(args, "--json")...)
	switch {
	case code == ExitOK && errOut == "":
	case code == ExitViolation && strings.HasPrefix(errOut, "elect: the checker found "):
	default:
		t.Fatalf("elect %s --json: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
	}
	s, m := decodeSummary(t, out)
	if (code == ExitViolation) != (s.ViolationCount > 0) {
		t.Fatalf("exit %d with %d violations", code, s.ViolationCount)
	}
	return code, s, m
}

// decodeSummary decodes the output of --json, which must be exactly one
// object and a newline.
func decodeSummary(t testing.TB, out string) (*metrics.Summary, map[string]any) {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("--json output is not one line holding one object:\n%s", out)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", out)
	}
	var s metrics.Summary
	strict := json.NewDecoder(strings.NewReader(out))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&s); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	return &s, m
}

// With no arguments, sim runs the demo: vkt on 50 nodes through a leader
// crash, a partition and a merge; three elections (start-up, after the
// crash, in the half that lost its leader) and none at the merge.
func TestSimDefault(t *testing.T) {
	code, out, errOut := cli(t, "sim")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"vkt on geometric:50:250: 50 nodes", "seed 1", "trace hash ", "messages: ", "heartbeat", "elections: 3 completed", "the run:", "0 s  50 nodes elect node 34 in", "10 s  the leader, node 34, crashes", "30 s  the network splits (west, and the rest)", "60 s  the partition heals", "check: OK"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// The fields DESIGN.md and README.md promise to scripts, with their JSON
// types.
func TestSimJSONFields(t *testing.T) {
	s, m := simJSON(t, "--algo", "echo", "--topology", "grid:4x4", "--values", "id")
	type kind int
	const (
		str kind = iota
		num
		boolean
		object
		list
	)
	check := func(path string, v any, k kind) {
		t.Helper()
		ok := false
		switch k {
		case str:
			_, ok = v.(string)
		case num:
			_, ok = v.(float64)
		case boolean:
			_, ok = v.(bool)
		case object:
			_, ok = v.(map[string]any)
		case list:
			_, ok = v.([]any)
		}
		if !ok {
			t.Errorf("%s = %#v (%T): wrong JSON type or missing", path, v, v)
		}
	}
	get := func(path string) any {
		var v any = m
		for _, k := range strings.Split(path, ".") {
			o, _ := v.(map[string]any)
			v = o[k]
		}
		return v
	}
	for path, k := range map[string]kind{
		"algorithm": str, "params": object, "seed": num, "topology": str, "nodes": num, "edges": num,
		"messages": object, "messages.total": num, "messages.by_type": object, "messages.delivered": num, "messages.dropped": num, "messages.drop_reasons": object,
		"elections": object, "elections.completed": num, "elections.mean_time_ms": num, "elections.max_time_ms": num, "elections.open": num,
		"leaderless_fraction": num, "end_ms": num, "quiescent": boolean, "wall_ms": num, "events": num, "trace_hash": str,
		"violations": list, "violation_count": num, "unchecked_components": num, "unreached_components": num,
		"final": list, "components": list,
	} {
		check(path, get(path), k)
	}
	for k, v := range get("messages.by_type").(map[string]any) {
		check("messages.by_type."+k, v, num)
	}
	if v, ok := get("violations").([]any); !ok || len(v) != 0 {
		t.Errorf("violations = %#v, want [] (a list, empty)", get("violations"))
	}
	final, _ := get("final").([]any)
	if len(final) != 16 {
		t.Fatalf("final has %d entries, want 16", len(final))
	}
	for i, f := range final {
		o, _ := f.(map[string]any)
		for k, want := range map[string]kind{"id": num, "value": num, "alive": boolean, "leader": num, "state": str} {
			check(fmt.Sprintf("final[%d].%s", i, k), o[k], want)
		}
	}
	for i, c := range get("components").([]any) {
		ids, ok := c.([]any)
		if !ok {
			t.Fatalf("components[%d] = %#v, want a list of ids", i, c)
		}
		for j, id := range ids {
			check(fmt.Sprintf("components[%d][%d]", i, j), id, num)
		}
	}

	// And the values of this run: an echo wave on a 4x4 grid elects 15.
	if s.Algorithm != "echo" || s.Topology != "grid:4x4" || s.Nodes != 16 || s.Edges != 24 || s.Seed != 1 {
		t.Errorf("header fields: %+v", s)
	}
	if s.Initiators != 1 || s.Params["tree"] != "graph" || s.Params["initiator"] != "" {
		t.Errorf("params %v and %d initiators, want the defaults: node 0 initiates", s.Params, s.Initiators)
	}
	// Echo on a connected graph: 2E explorer+echo and n-1 info.
	if got := s.Messages.ByType["explorer"] + s.Messages.ByType["echo"]; got != 2*24 || s.Messages.ByType["info"] != 15 {
		t.Errorf("messages %+v, want 48 explorer+echo and 15 info", s.Messages)
	}
	if s.Messages.Total != 63 || s.Messages.Delivered != 63 || s.Messages.Dropped != 0 {
		t.Errorf("messages %+v", s.Messages)
	}
	if s.Elections.Completed != 1 || s.Elections.MeanTimeMS <= 0 || s.Elections.MaxTimeMS != s.Elections.MeanTimeMS {
		t.Errorf("elections %+v", s.Elections)
	}
	if !s.Quiescent || s.ViolationCount != 0 || s.EndMS <= 0 || s.LeaderlessFraction <= 0 || s.LeaderlessFraction >= 1 {
		t.Errorf("summary %+v", s)
	}
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(s.TraceHash) {
		t.Errorf("trace_hash %q", s.TraceHash)
	}
	if len(s.Components) != 1 || len(s.Components[0]) != 16 {
		t.Errorf("components %v", s.Components)
	}
	for i, f := range s.Final {
		if f.ID != algo.NodeID(i) || f.Value != int64(i) || !f.Alive || f.Leader != 15 || f.State != "Norm" {
			t.Errorf("final[%d] = %+v, want node %d, value %d, alive, leader 15, Norm", i, f, i, i)
		}
	}
}

// flagBase is the scenario the flag tests vary: the waves run to their end,
// so that every run's figures can be compared with the base's.
var flagBase = []string{"--algo", "extinction", "--topology", "geometric:200:120", "--values", "id", "--duration", "0"}

func TestSimFlags(t *testing.T) {
	base, _ := simJSON(t, flagBase...)
	if base.Algorithm != "extinction" || base.Topology != "geometric:200:120" || base.Seed != 1 || base.Nodes != 200 || !base.Quiescent {
		t.Fatalf("the base scenario changed: %+v", base)
	}
	for _, c := range []struct {
		args []string
		ok   func(s *metrics.Summary) bool
	}{
		{[]string{"--algo", "echo"}, func(s *metrics.Summary) bool {
			return s.Algorithm == "echo" && s.Initiators == 1 && s.Params["initiators"] == ""
		}},
		{[]string{"--topology", "ring:7"}, func(s *metrics.Summary) bool {
			return s.Topology == "ring:7" && s.Nodes == 7 && s.Edges == 7
		}},
		{[]string{"--topology", "ring", "--nodes", "9"}, func(s *metrics.Summary) bool {
			return s.Topology == "ring:9" && s.Nodes == 9 && s.Edges == 9
		}},
		{[]string{"--nodes", "50"}, func(s *metrics.Summary) bool {
			return s.Topology == "geometric:50:120" && s.Nodes == 50
		}},
		{[]string{"--seed", "5"}, func(s *metrics.Summary) bool {
			return s.Seed == 5 && s.TraceHash != base.TraceHash && s.Edges != base.Edges
		}},
		{[]string{"--duration", "3ms"}, func(s *metrics.Summary) bool {
			return !s.Quiescent && s.EndMS == 3 && s.Messages.Total < base.Messages.Total
		}},
		{[]string{"--duration", "0"}, func(s *metrics.Summary) bool {
			return s.Quiescent && s.TraceHash == base.TraceHash
		}},
		{[]string{"--values", "random"}, func(s *metrics.Summary) bool {
			for _, f := range s.Final {
				if f.Value != int64(f.ID) {
					return true
				}
			}
			return false
		}},
		{[]string{"--values", "id"}, func(s *metrics.Summary) bool { return s.TraceHash == base.TraceHash }},
		// Echo on a line of three with every link taking 1ms: explorer out
		// (2ms), echo back (2ms), info down (2ms).
		{[]string{"--algo", "echo", "--topology", "line:3", "--delay", "constant:1ms"}, func(s *metrics.Summary) bool {
			return s.EndMS == 6 && s.Elections.MeanTimeMS == 6
		}},
		{[]string{"--loss", "0.5"}, func(s *metrics.Summary) bool {
			return s.Messages.Dropped > 0 && s.Messages.DropReasons["loss"] == s.Messages.Dropped &&
				s.Messages.Delivered+s.Messages.Dropped == s.Messages.Total
		}},
		{[]string{"--loss", "0"}, func(s *metrics.Summary) bool { return s.TraceHash == base.TraceHash }},
		{[]string{"--initiators", "3,5"}, func(s *metrics.Summary) bool {
			return s.Initiators == 2 && s.Messages.Total < base.Messages.Total
		}},
		{[]string{"--initiators", "none", "--unelected", "uninitiated"}, func(s *metrics.Summary) bool {
			return s.Messages.Total == 0 && s.Elections.Completed == 0 && s.Unreached == 1 && s.ViolationCount == 0
		}},
		{[]string{"--algo", "echo", "--topology", "ring:5", "--initiators", "2", "--param", "tree=virtual"}, func(s *metrics.Summary) bool {
			return s.Initiators == 1 && s.Params["tree"] == "virtual" && s.Messages.ByType["connect"] > 0
		}},
		{[]string{"--algo", "echo", "--topology", "ring:5", "--initiators", "3"}, func(s *metrics.Summary) bool {
			return s.Initiators == 1 && s.Final[0].Leader == 4
		}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			args := append(append([]string{"sim"}, flagBase...), c.args...)
			_, s, _ := runJSON(t, args...)
			if !c.ok(s) {
				b, _ := json.Marshal(s)
				t.Errorf("unexpected summary: %s", b)
			}
		})
	}
}

// readHeader reads the header line of a trace file.
func readHeader(t testing.TB, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(line), &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// The checker's bounds are not in the summary; they are in the trace header.
func TestSimCheckerBounds(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "t.jsonl")
	mustRun(t, "sim", "--topology", "ring:5", "--trace", f)
	h := readHeader(t, f)
	if h["stabilization_ns"] != float64(10*time.Second) || h["liveness_ns"] != float64(30*time.Second) {
		t.Errorf("default bounds: %v", h)
	}
	mustRun(t, "sim", "--topology", "ring:5", "--trace", f, "--stabilization", "2s", "--liveness", "1m")
	h = readHeader(t, f)
	if h["stabilization_ns"] != float64(2*time.Second) || h["liveness_ns"] != float64(time.Minute) {
		t.Errorf("--stabilization 2s --liveness 1m: %v", h)
	}
}

// A short liveness bound catches a run that is still electing: the bounds
// reach the checker.
func TestSimLivenessBoundTakesEffect(t *testing.T) {
	code, out, _ := cli(t, "sim", "--json", "--topology", "ring:50", "--liveness", "1ms", "--stabilization", "1ms")
	s, _ := decodeSummary(t, out)
	if code != ExitViolation || s.ViolationCount == 0 {
		t.Fatalf("exit %d, %d violations, want liveness violations with a 1ms bound", code, s.ViolationCount)
	}
}

func writeFile(t testing.TB, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScenarioFile(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "run.yaml", `algorithm: echo
initiators: 3
seed: 5
topology: ring:6
values: random
delay: constant:2ms
check: {stabilization: 3s, liveness: 7s}
`)
	// The file alone, as an argument and with -f.
	s, _ := simJSON(t, file)
	if s.Algorithm != "echo" || s.Initiators != 1 || s.Seed != 5 || s.Topology != "ring:6" || s.Nodes != 6 {
		t.Errorf("file not applied: %+v", s)
	}
	s2, _ := simJSON(t, "-f", file)
	s3, _ := simJSON(t, "--scenario", file)
	if s2.TraceHash != s.TraceHash || s3.TraceHash != s.TraceHash {
		t.Errorf("the file as an argument and with -f/--scenario ran differently")
	}
	// Flags override it, field by field; the rest of the file stays.
	trace := filepath.Join(dir, "t.jsonl")
	s, _ = simJSON(t, file, "--seed", "9", "--topology", "line:4", "--delay", "constant:1ms", "--values", "id", "--trace", trace, "--liveness", "8s")
	if s.Algorithm != "echo" || s.Initiators != 1 || s.Seed != 9 || s.Topology != "line:4" || s.Nodes != 4 || s.Edges != 3 {
		t.Errorf("flags did not override the file: %+v", s)
	}
	// Echo from node 3 at the end of a line of 4, 1ms a hop: 3 hops out,
	// 3 back, 3 down.
	if s.EndMS != 9 {
		t.Errorf("end_ms %v, want 9 (the --delay flag over the file's 2ms)", s.EndMS)
	}
	for _, f := range s.Final {
		if f.Value != int64(f.ID) {
			t.Errorf("--values id did not override the file's random: %+v", f)
		}
	}
	h := readHeader(t, trace)
	if h["stabilization_ns"] != float64(3*time.Second) || h["liveness_ns"] != float64(8*time.Second) {
		t.Errorf("bounds %v, want the file's stabilization and the flag's liveness", h)
	}
	// Another algorithm drops the file's parameters, which were echo's (the
	// initiators are the driver's: they stay).
	s, _ = simJSON(t, file, "--algo", "extinction")
	if s.Algorithm != "extinction" || s.Initiators != 1 || s.Params["tree"] != "" {
		t.Errorf("--algo extinction over an echo file: params %v, %d initiators", s.Params, s.Initiators)
	}
	// The same algorithm keeps them, and --param adds to them.
	s, _ = simJSON(t, file, "--algo", "echo", "--param", "tree=virtual")
	if s.Initiators != 1 || s.Params["tree"] != "virtual" {
		t.Errorf("params %v, want the file's initiator and the flag's tree", s.Params)
	}
	// The deprecated parameter still names the initiator, with a note.
	code, out, errOut := cli(t, "sim", "--json", "--algo", "echo", "--topology", "ring:5", "--param", "initiator=2")
	if code != ExitOK || !strings.Contains(errOut, "note: echo parameter initiator is deprecated") || !strings.Contains(out, `"initiators":1`) {
		t.Errorf("--param initiator=2: exit %d, stderr %q", code, errOut)
	}
	// --nodes keeps the file's topology family.
	file2 := writeFile(t, dir, "ring.yaml", "algorithm: echo\ntopology: ring\nnodes: 10\n")
	s, _ = simJSON(t, file2)
	if s.Nodes != 10 {
		t.Errorf("nodes %d, want the file's 10", s.Nodes)
	}
	s, _ = simJSON(t, file2, "--nodes", "12")
	if s.Nodes != 12 || s.Topology != "ring:12" {
		t.Errorf("--nodes 12 over the file: %d nodes, %s", s.Nodes, s.Topology)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	malformed := writeFile(t, dir, "malformed.yaml", "seed: 3\nloss: lots\n")
	syntax := writeFile(t, dir, "syntax.yaml", "seed: 3\n  topology: [\n")
	badAlgo := writeFile(t, dir, "algo.yaml", "seed: 3\nalgorithm: nope\n")
	badTopo := writeFile(t, dir, "topo.yaml", "topology: grid:3xq\n")
	badParam := writeFile(t, dir, "param.yaml", "algorithm: echo\nparams:\n  colour: red\n")
	badInit := writeFile(t, dir, "init.yaml", "algorithm: echo\ntopology: ring:5\nparams:\n  tree: graph\ninitiators: 7\n")
	good := writeFile(t, dir, "good.yaml", "algorithm: echo\ntopology: ring:5\n")
	late := writeFile(t, dir, "late.yaml", "algorithm: echo\ntopology: ring:5\nduration: 5s\nevents:\n  - {at: 1s, elect: 0}\n  - {at: 10s, crash: 1}\n")
	lateDefault := writeFile(t, dir, "late-default.yaml", "algorithm: echo\ntopology: ring:5\nevents:\n  - {at: 70s, crash: 1}\n")
	badValues := writeFile(t, dir, "values.yaml", "algorithm: echo\ntopology: ring:5\nvalues:\n  1: 5\n  60: 7\n")
	badUnelected := writeFile(t, dir, "unelected.yaml", "algorithm: echo\ntopology: ring:5\nunelected: 3,9\n")
	endless := writeFile(t, dir, "endless.yaml", "topology: ring:5\nduration: 0\n")
	trace := filepath.Join(dir, "run.jsonl")
	if code, _, errOut := cli(t, "sim", "--algo", "echo", "--topology", "ring:4", "--trace", trace); code != ExitOK {
		t.Fatalf("sim --trace: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"sim", "--algo", "nope"}, `--algo: unknown algorithm "nope"`},
		{[]string{"sim", "--topology", "ring:x"}, `--topology: topology "ring:x"`},
		{[]string{"sim", "--topology", "hypercube:3"}, `--topology: topology "hypercube:3": unknown kind`},
		{[]string{"sim", "--topology", "grid:4x4", "--nodes", "5"}, `--topology, --nodes: `},
		{[]string{"sim", "--nodes", "-3"}, `--nodes: `},
		{[]string{"sim", "--delay", "fast"}, `--delay: invalid delay "fast"`},
		{[]string{"sim", "--delay", "uniform:5ms:1ms"}, `--delay: `},
		{[]string{"sim", "--loss", "1.5"}, `--loss: 1.5 is outside [0, 1)`},
		{[]string{"sim", "--loss", "-0.1"}, `--loss: -0.1 is outside [0, 1)`},
		{[]string{"sim", "--loss", "much"}, `"--loss"`},
		{[]string{"sim", "--param", "initiators"}, `--param "initiators": want NAME=VALUE`},
		{[]string{"sim", "--param", "=3"}, `--param "=3": want NAME=VALUE`},
		{[]string{"sim", "--algo", "extinction", "--param", "colour=red"}, `--param colour=red: extinction has no parameter "colour"`},
		{[]string{"sim", "--algo", "extinction", "--param", "initiators=x"}, `--param initiators=x: extinction parameter initiators`},
		{[]string{"sim", "--algo", "extinction", "--param", "initiators=0,300"}, `--param initiators=0,300: initiator 300 does not exist`},
		{[]string{"sim", "--algo", "echo", "--topology", "ring:5", "--initiators", "5"}, `--initiators: initiator 5 does not exist (the network has nodes 0..4)`},
		{[]string{"sim", "--algo", "echo", "--initiators", "-1"}, `--initiators: in node set "-1": invalid node id "-1"`},
		{[]string{"sim", "--algo", "echo", "--initiators", "1", "-p", "initiator=2"}, `--initiators: initiators "1" and echo parameter initiator="2" disagree`},
		{[]string{"sim", "--unelected", "all"}, `--unelected: "all" would exempt every component`},
		{[]string{"sim", "--unelected", "99"}, `--unelected: node 99 does not exist (the network has nodes 0..49)`},
		{[]string{"sim", badUnelected}, badUnelected + `:3:12: unelected: node 9 does not exist (the network has nodes 0..4)`},
		{[]string{"sim", good, "--unelected", "2,5"}, `--unelected: node 5 does not exist (the network has nodes 0..4)`},
		{[]string{"sim", "--topology", "ring:10", "--duration", "0"}, `--duration: vkt's heartbeats never end, so a run of it with duration 0 (until no event is left) would never stop: give it a duration, like 60s`},
		{[]string{"sim", "--algo", "park", "--duration", "0"}, `--duration: park's heartbeats never end`},
		{[]string{"sim", endless}, endless + `:2:11: duration: vkt's heartbeats never end`},
		{[]string{"sim", late}, late + `:6: events: the crash at 10s comes after the run's end at 5s (duration, line 3): the run stops before it; give a longer duration or drop the event`},
		{[]string{"sim", lateDefault}, lateDefault + `:4: events: the crash at 1m10s comes after the run's end at 1m0s (the default duration)`},
		{[]string{"sim", lateDefault, "--duration", "1m"}, lateDefault + `:4: events: the crash at 1m10s comes after the run's end at 1m0s (--duration)`},
		{[]string{"sim", badValues}, badValues + `:5:3: values.60: value given for node 60, but the network has nodes 0..4`},
		{[]string{"sim", trace}, trace + `: this is the trace of a run, not a scenario: check it with elect check ` + trace},
		{[]string{"sim", "--delay", "5"}, `--delay: invalid delay "5": a duration needs a unit: did you mean 5ms?`},
		{[]string{"sim", "--topology", "ring", "--nodes", "0"}, `--topology, --nodes: topology "ring" (nodes=0): ring needs at least 3 nodes, got 0`},
		{[]string{"sim", "--nodes", "0"}, `--nodes: topology "geometric:50:250" (nodes=0): geometric needs at least 1 node, got 0`},
		{[]string{"sim", "--topology", "grid:3x3", "--nodes", "0"}, `nodes=0 given, but grid takes its node count from WxH`},
		{[]string{"sim", "--algo", "echo", "--topology", "ring:5", "--param", "root=5"}, `--param root=5: root 5 does not exist`},
		{[]string{"sim", "--duration", "5x"}, `--duration: invalid duration "5x"`},
		{[]string{"sim", "--duration", "-1s"}, `--duration: negative duration "-1s"`},
		{[]string{"sim", "--stabilization", "soon"}, `--stabilization: invalid duration "soon"`},
		{[]string{"sim", "--liveness", "-1s"}, `--liveness: negative duration "-1s"`},
		{[]string{"sim", "--values", "best"}, `--values: invalid values "best"`},
		{[]string{"sim", "--seed", "-1"}, `"--seed"`},
		{[]string{"sim", "--bogus"}, `unknown flag: --bogus`},
		{[]string{"sim", "--mobility", "fly"}, `--mobility: fly: unknown mobility model "fly"`},
		{[]string{"sim", "--mobility", "waypoint:1:x:2s"}, `--mobility: waypoint:1:x:2s: max speed "x" is not a number`},
		{[]string{"sim", "--mobility", "waypoint:1:5:1s", "--topology", "ring:6"}, `needs nodes with positions: use a geometric topology`},
		{[]string{"sim", "--range", "0"}, `--range: 0 is not a number of metres > 0`},
		{[]string{"sim", "--range", "100"}, `--range: a radio range applies to nodes with a mobility`},
		{[]string{"sim", "--ns2", filepath.Join(dir, "no", "such", "dir", "m.tcl")}, `--ns2: open `},
		{[]string{"sim", "--trace", filepath.Join(dir, "no", "such", "dir", "t.jsonl")}, `--trace: open `},
		{[]string{"sim", filepath.Join(dir, "missing.yaml")}, filepath.Join(dir, "missing.yaml") + ": no such file"},
		{[]string{"sim", malformed}, malformed + ":2:7: loss: "},
		{[]string{"sim", syntax}, syntax + ":2: invalid YAML"},
		{[]string{"sim", badAlgo}, badAlgo + `:2:12: algorithm: unknown algorithm "nope"`},
		{[]string{"sim", badTopo}, badTopo + `:1:11: topology: topology "grid:3xq"`},
		{[]string{"sim", badParam}, badParam + `:3:11: params.colour: echo has no parameter "colour"`},
		{[]string{"sim", badInit}, badInit + `:5:13: initiators: initiator 7 does not exist`},
		{[]string{"sim", "-f", good, good}, `either as an argument or with --scenario, not both`},
		{[]string{"sim", good, good}, `accepts at most 1 arg(s), received 2`},
		{[]string{"check"}, `accepts 1 arg(s), received 0`},
		{[]string{"check", filepath.Join(dir, "missing.jsonl")}, filepath.Join(dir, "missing.jsonl") + ": no such file"},
		{[]string{"algos", "extra"}, `unknown command "extra"`},
		{[]string{"nope"}, `unknown command "nope"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, c.args...)
			if code != ExitError {
				t.Errorf("exit %d, want %d", code, ExitError)
			}
			if out != "" {
				t.Errorf("stdout not empty:\n%s", out)
			}
			if !strings.HasPrefix(errOut, "elect: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q, want one line holding %q", errOut, c.want)
			}
		})
	}
	// A file and a flag that together make no sense: the flag is named.
	code, _, errOut := cli(t, "sim", good, "--initiators", "9")
	if code != ExitError || !strings.Contains(errOut, "--initiators: initiator 9 does not exist") {
		t.Errorf("file + bad --initiators: exit %d, %q", code, errOut)
	}
	// A file whose initiator a --topology flag cuts off: the file's entry
	// is named.
	okInit := writeFile(t, dir, "init7.yaml", "algorithm: echo\ntopology: ring:10\ninitiators: 7\n")
	code, _, errOut = cli(t, "sim", okInit, "--topology", "ring:5")
	if code != ExitError || !strings.Contains(errOut, okInit+":3:13: initiators: initiator 7 does not exist") {
		t.Errorf("file initiator beyond a --topology: exit %d, %q", code, errOut)
	}
}

// What the flags leave open, sim fills in and says so in a note on stderr,
// exit 0: the network an algorithm's model needs (Model.Topology), and
// the demo's events that a --duration ends the run before.
func TestSimNotes(t *testing.T) {
	dir := t.TempDir()
	ringFile := writeFile(t, dir, "ring.yaml", "algorithm: ring\nnodes: 7\n")
	for _, c := range []struct {
		args             []string
		out, lacks, note string // note: "" for an empty stderr
	}{
		{[]string{"--algo", "chang-roberts"}, `"topology":"ring:50"`, "",
			"elect: note: chang-roberts needs a ring network (Model.Topology): it runs on ring:50 (--topology chooses another)\n"},
		{[]string{"--algo", "bully", "--nodes", "8"}, `"topology":"complete:8"`, "", "it runs on complete:8"},
		{[]string{ringFile}, `"topology":"ring:7"`, "", "ring needs a ring network (Model.Topology): it runs on ring:7"},
		{[]string{"--algo", "echo"}, `"topology":"geometric:50:250"`, "", ""},
		{[]string{"--algo", "chang-roberts", "--topology", "ring:5"}, `"topology":"ring:5"`, "", ""},
		{[]string{"--duration", "5s"}, `"end_ms":5000,`, `"faults"`,
			"elect: note: the run ends at 5s (--duration), before the demo's events at 10s, 30s, 1m0s: they are left out\n"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, append([]string{"sim", "--json"}, c.args...)...)
			if code != ExitOK || !strings.Contains(out, c.out) || c.lacks != "" && strings.Contains(out, c.lacks) {
				t.Errorf("exit %d, stdout lacks %q or holds %q:\n%s\nstderr: %s", code, c.out, c.lacks, out, errOut)
			}
			if c.note == "" && errOut != "" || !strings.Contains(errOut, c.note) || strings.Count(errOut, "\n") > 1 {
				t.Errorf("stderr %q, want one note holding %q", errOut, c.note)
			}
		})
	}
}

// sameRun compares two --json summaries, leaving out what depends on the
// machine (wall_ms) and on the counting (events: the engine counts the events
// it ran, check the lines of the trace).
func sameRun(t testing.TB, a, b map[string]any) {
	t.Helper()
	for _, m := range []map[string]any{a, b} {
		delete(m, "wall_ms")
		delete(m, "events")
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("the summaries differ:\n%s\n%s", ja, jb)
	}
}

func TestSimTraceCheck(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--algo", "echo", "--topology", "grid:5x5"},
		{"--topology", "gnp:40:0.1", "--values", "random", "--loss", "0.05", "--seed", "3"},
		{"--topology", "geometric:60:250", "--duration", "4ms"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			f := filepath.Join(dir, "t.jsonl")
			simCode, sim, simMap := runJSON(t, append([]string{"sim", "--trace", f}, args...)...)
			chkCode, chk, chkMap := runJSON(t, "check", f)
			if sim.TraceHash != chk.TraceHash || simCode != chkCode {
				t.Errorf("trace hash: sim %s, check %s; exit sim %d, check %d", sim.TraceHash, chk.TraceHash, simCode, chkCode)
			}
			sameRun(t, simMap, chkMap)
			_, text, _ := cli(t, "check", f)
			if !strings.Contains(text, "trace hash "+sim.TraceHash) || !strings.Contains(text, "check: ") {
				t.Errorf("check's summary:\n%s", text)
			}
		})
	}
}

// check's flags override the bounds the trace carries.
func TestCheckBounds(t *testing.T) {
	f := filepath.Join(t.TempDir(), "t.jsonl")
	mustRun(t, "sim", "--topology", "ring:50", "--trace", f)
	code, out, _ := cli(t, "check", "--json", "--liveness", "1ms", "--stabilization", "1ms", f)
	s, _ := decodeSummary(t, out)
	if code != ExitViolation || s.ViolationCount == 0 {
		t.Errorf("check --liveness 1ms: exit %d, %d violations", code, s.ViolationCount)
	}
	for _, c := range []struct{ flag, want string }{
		{"--liveness=x", "--liveness: invalid duration"},
		{"--stabilization=-1s", "--stabilization: negative duration"},
	} {
		code, out, errOut := cli(t, "check", c.flag, f)
		if code != ExitError || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("check %s: exit %d, stdout %q, stderr %q", c.flag, code, out, errOut)
		}
	}
}

// A trace cut short or edited: check exits 1 and names the file and line.
func TestCheckBrokenTrace(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "t.jsonl")
	mustRun(t, "sim", "--algo", "echo", "--topology", "ring:5", "--trace", f)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	n := len(lines)
	if !strings.Contains(lines[n-1], `"ev":"end"`) {
		t.Fatalf("the last line is not the end event: %s", lines[n-1])
	}
	edit := func(i int, line string) string {
		l := slices.Clone(lines)
		l[i] = line
		return strings.Join(l, "")
	}
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "B: empty trace"},
		{"header only", lines[0], "B:1: the trace stops without an end event"},
		{"cut at a line", strings.Join(lines[:n-1], ""), fmt.Sprintf("B:%d: the trace stops without an end event", n-1)},
		{"cut in a line", strings.Join(lines[:n-1], "") + lines[n-1][:10], fmt.Sprintf("B:%d: unexpected EOF", n)},
		{"garbage line", edit(7, "\x00\x01garbage\n"), "B:8: invalid character"},
		{"bad header", edit(0, "{\"ev\":\"header\",\"version\":1,\n"), "B:1: bad header"},
		{"wrong version", edit(0, strings.Replace(lines[0], `"version":1`, `"version":9`, 1)), "B:1: trace format version 9"},
		{"unknown message type", edit(12, strings.Replace(lines[12], `"explorer"`, `"exploder"`, 1)), `B:13: message type "exploder" is not in the header's message_types`},
		{"node beyond the header", edit(2, strings.Replace(lines[2], `"node":1`, `"node":5`, 1)), "B:3: node 5 is not a node id (the trace has nodes 0..4)"},
		{"node declared out of order", edit(1, strings.Replace(lines[1], `"node":0`, `"node":3`, 1)), "B:2: node event for node 3 before the one for node 0 (nodes are declared in id order)"},
		{"event before its node", strings.Join(slices.Concat(lines[:1], lines[6:7], lines[1:6], lines[7:]), ""), "B:2: link_up event for node 0, which no node event declared"},
		{"link to an undeclared node", strings.Join(slices.Concat(lines[:5], lines[7:8], lines[5:7], lines[8:]), ""), "B:6: link_up event with peer 4, which no node event declared"},
		{"time goes back", edit(n-1, `{"t":1,"ev":"end","quiescent":true}`+"\n"), fmt.Sprintf("B:%d: end event at t=1, before the previous event's t=", n)},
		{"after the end", strings.Join(lines, "") + lines[n-1], fmt.Sprintf("B:%d: end event after the end event", n+1)},
		{"link backwards", edit(6, `{"t":0,"ev":"link_up","node":1,"peer":0}`+"\n"), "B:7: link_up event from node 1 to peer 0: links name their lower id first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := filepath.Join(dir, "B")
			if err := os.WriteFile(b, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := cli(t, "check", b)
			want := "elect: " + strings.Replace(c.want, "B", b, 1)
			if code != ExitError || out != "" || !strings.HasPrefix(errOut, want) {
				t.Errorf("exit %d, stdout %q, stderr\n  %q\nwant exit 1 and a message starting\n  %q", code, out, errOut, want)
			}
		})
	}
}

func TestViolationExit(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "t.jsonl")
	code, out, errOut := cli(t, "sim", "--algo", "test-wrong-leader", "--topology", "line:3", "--trace", f)
	if code != ExitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitViolation, out, errOut)
	}
	if !strings.Contains(out, "VIOLATION") || !strings.Contains(errOut, "violation") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
	code, out, _ = cli(t, "sim", "--json", "--algo", "test-wrong-leader", "--topology", "line:3")
	if code != ExitViolation {
		t.Fatalf("--json: exit %d", code)
	}
	s, m := decodeSummary(t, out)
	if s.ViolationCount == 0 || len(s.Violations) == 0 {
		t.Fatalf("no violations in %s", out)
	}
	props := map[string]bool{}
	for _, v := range s.Violations {
		props[v.Property] = true
		if v.Reason == "" || len(v.Nodes) == 0 {
			t.Errorf("violation without reason or nodes: %+v", v)
		}
	}
	if !props["safety"] || !props["liveness"] {
		t.Errorf("violations %+v, want safety (three leaders) and liveness (not node 2)", s.Violations)
	}
	for _, v := range m["violations"].([]any) {
		o := v.(map[string]any)
		for _, k := range []string{"at_ms", "property", "nodes", "reason"} {
			if _, ok := o[k]; !ok {
				t.Errorf("violation lacks %q: %v", k, o)
			}
		}
	}
	// check finds them again in the trace, and exits 2 too.
	code, out, _ = cli(t, "check", "--json", f)
	c, _ := decodeSummary(t, out)
	if code != ExitViolation || c.ViolationCount != s.ViolationCount {
		t.Errorf("check: exit %d, %d violations, want 2 and %d", code, c.ViolationCount, s.ViolationCount)
	}
	// One node alone is its own rightful leader.
	if code, _, errOut := cli(t, "sim", "--algo", "test-wrong-leader", "--topology", "line:1"); code != ExitOK {
		t.Errorf("one node: exit %d, %s", code, errOut)
	}
}

func TestDeterminism(t *testing.T) {
	args := []string{"--topology", "gnp:60:0.08", "--values", "random", "--delay", "exponential:2ms", "--loss", "0.02"}
	args = append([]string{"sim"}, args...)
	_, _, a := runJSON(t, append(args, "--seed", "11")...)
	_, _, b := runJSON(t, append(args, "--seed", "11")...)
	sameRun(t, a, b)
	_, s1, _ := runJSON(t, append(args, "--seed", "11")...)
	_, s2, _ := runJSON(t, append(args, "--seed", "12")...)
	if s1.TraceHash == s2.TraceHash {
		t.Errorf("seeds 11 and 12 gave the same trace hash %s", s1.TraceHash)
	}
	// Even on a fixed topology the seed moves the delays.
	r1, _ := simJSON(t, "--topology", "ring:20", "--seed", "1")
	r2, _ := simJSON(t, "--topology", "ring:20", "--seed", "2")
	if r1.TraceHash == r2.TraceHash {
		t.Errorf("seeds 1 and 2 on ring:20 gave the same trace hash")
	}
	// The text summary is the same too, but for the wall time.
	wall := regexp.MustCompile(`events in [0-9.]+ (µs|ms|s)`)
	t1 := wall.ReplaceAllString(mustRun(t, "sim", "--seed", "4"), "")
	t2 := wall.ReplaceAllString(mustRun(t, "sim", "--seed", "4"), "")
	if t1 != t2 {
		t.Errorf("the same run printed\n%s\nthen\n%s", t1, t2)
	}
}

func TestAlgos(t *testing.T) {
	out := mustRun(t, "algos")
	for _, want := range []string{
		"echo: ", "extinction: ", "test-wrong-leader: ",
		"messages: explorer, echo, info, connect",
		"messages: explorer, echo, info\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("algos lacks %q:\n%s", want, out)
		}
	}
	// Each parameter on a line of its own, with its default.
	params := regexp.MustCompile(`(?m)^  (initiators?|tree|root|wave_at|max_level) +(\S*) `)
	got := map[string]string{}
	for _, m := range params.FindAllStringSubmatch(out, -1) {
		got[m[1]] = m[2]
	}
	want := map[string]string{"initiator": "0", "tree": "graph", "root": "the", "wave_at": "1s", "max_level": "1024", "initiators": "all"}
	for k, v := range want {
		if k == "root" {
			// root's default is empty: the next column is its meaning.
			if _, ok := got[k]; !ok {
				t.Errorf("algos does not list parameter %s", k)
			}
			continue
		}
		if got[k] != v {
			t.Errorf("parameter %s: default %q, want %q\n%s", k, got[k], v, out)
		}
	}
	if i, j := strings.Index(out, "echo: "), strings.Index(out, "extinction: "); i < 0 || j < i {
		t.Errorf("algorithms not in alphabetical order")
	}
}

func TestHelp(t *testing.T) {
	out := mustRun(t, "--help")
	for _, want := range []string{"sim", "check", "algos", "Exit status: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	out = mustRun(t, "sim", "--help")
	for _, flag := range []string{"--algo", "--topology", "--nodes", "--seed", "--duration", "--values", "--delay", "--loss", "--param", "--initiator", "--stabilization", "--liveness", "--json", "--trace", "--scenario"} {
		if !strings.Contains(out, flag) {
			t.Errorf("sim --help lacks %s", flag)
		}
	}
}

// A trace named .gz is written compressed, at least five times smaller
// than its JSON lines, and check reads it back as it is, to the same
// verdict.
func TestTraceGzip(t *testing.T) {
	dir := t.TempDir()
	plain, packed := filepath.Join(dir, "t.jsonl"), filepath.Join(dir, "t.jsonl.gz")
	for _, p := range []string{plain, packed} {
		if code, _, errOut := cli(t, "sim", "--algo", "vkt", "--topology", "geometric:60:250", "--duration", "10s", "--trace", p); code != ExitOK {
			t.Fatalf("sim --trace %s: exit %d: %s", p, code, errOut)
		}
	}
	a, _ := os.Stat(plain)
	b, _ := os.Stat(packed)
	if a == nil || b == nil || b.Size()*5 > a.Size() {
		t.Fatalf("sizes %v and %v: want the gzip one at least 5 times smaller", a, b)
	}
	verdict := func(path string) (int, string) {
		code, out, errOut := cli(t, "check", "--json", path)
		var s struct {
			TraceHash  string `json:"trace_hash"`
			Violations int    `json:"violation_count"`
			Events     uint64 `json:"events"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("check --json %s: %v (%s)", path, err, errOut)
		}
		return code, fmt.Sprintf("%s %d %d", s.TraceHash, s.Violations, s.Events)
	}
	codeA, want := verdict(plain)
	codeB, got := verdict(packed)
	if codeA != ExitOK || codeB != ExitOK || got != want {
		t.Errorf("check of the gzip trace: exit %d, %q; the plain one: exit %d, %q", codeB, got, codeA, want)
	}
	t.Logf("%d bytes as JSON lines, %d with gzip (%.1fx)", a.Size(), b.Size(), float64(a.Size())/float64(b.Size()))
}

// Flags given with no file apply on top of the demo and keep its faults,
// unless they change its network or name an algorithm its faults are
// outside of.
func TestSimDemoWithFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		faults int
	}{
		{[]string{"--seed", "3"}, 3},
		{[]string{"--algo", "park", "--loss", "0.02"}, 3},
		{[]string{"--algo", "echo"}, 0},
		{[]string{"--topology", "ring:8"}, 0},
	} {
		s, _ := simJSON(t, c.args...)
		if len(s.Faults) != c.faults {
			t.Errorf("sim %v: %d faults (%+v), want %d", c.args, len(s.Faults), s.Faults, c.faults)
		}
	}
}
