package runner_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// starters records the nodes that start an election at boot: those that
// send an Election of their own computation at time 0.
type starters struct {
	election algo.MsgType
	nodes    []algo.NodeID
}

func (s *starters) Observe(e *trace.Event) {
	if e.Kind == trace.Sent && e.At == 0 && e.Msg.Type == s.election && e.Msg.Index.ID == e.Node && !slices.Contains(s.nodes, e.Node) {
		s.nodes = append(s.nodes, e.Node)
	}
}

// TestInitiatorsStartAtBoot: --initiators (the scenario's initiators field)
// names exactly the vkt and park nodes that start an election at boot, the
// deprecated parameter initiators is the same knob (the same run, with a
// note), and a run that names none keeps the documents' start-up, every
// node electing, with the trace it always had. Before, the driver asked the
// named nodes to elect a second time while every node elected on its own.
func TestInitiatorsStartAtBoot(t *testing.T) {
	every := make([]algo.NodeID, 16)
	for i := range every {
		every[i] = algo.NodeID(i)
	}
	for _, name := range []string{"vkt", "park"} {
		a, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		hashes := map[string]string{}
		for _, c := range []struct {
			name, initiators, param string
			want                    []algo.NodeID
		}{
			{"default", "", "", every},
			{"all", "all", "", every},
			{"none", "none", "", nil},
			{"node 0", "0", "", []algo.NodeID{0}},
			{"nodes 0 and 3", "0,3", "", []algo.NodeID{0, 3}},
			{"the deprecated parameter", "", "0", []algo.NodeID{0}},
			{"both, agreeing", "0", "0", []algo.NodeID{0}},
		} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				s := scenario.Default()
				s.Algorithm, s.Topology, s.Seed, s.Initiators = name, "grid:4x4", 1, c.initiators
				s.Values = sim.Values{Mode: sim.ValueID}
				s.Delay = sim.Delay{Kind: sim.Constant, A: time.Millisecond}
				s.Duration = 10 * time.Second
				s.Check = scenario.Check{Stabilization: 5 * time.Second, Liveness: 8 * time.Second}
				s.Events = nil
				if c.param != "" {
					s.Params = map[string]string{"initiators": c.param}
				}
				st := &starters{election: algo.MsgType(slices.Index(a.Messages, "election"))}
				sum := runtest.Run(t, s, st)
				slices.Sort(st.nodes)
				if !slices.Equal(st.nodes, c.want) {
					t.Errorf("nodes electing at boot %v, want %v", st.nodes, c.want)
				}
				if sum.Initiators != 0 {
					t.Errorf("the driver asked %d nodes to elect: they start their own", sum.Initiators)
				}
				deprecated := slices.ContainsFunc(sum.Notes, func(n string) bool { return strings.Contains(n, "parameter initiators is deprecated") })
				if deprecated != (c.param != "") {
					t.Errorf("notes %q", sum.Notes)
				}
				runtest.FollowBest(t, sum)
				hashes[c.name] = sum.TraceHash
			})
		}
		// One knob: the same nodes named either way make the same run.
		for _, same := range [][2]string{{"default", "all"}, {"node 0", "the deprecated parameter"}, {"node 0", "both, agreeing"}} {
			if hashes[same[0]] != hashes[same[1]] {
				t.Errorf("%s: %s ran %s, %s ran %s", name, same[0], hashes[same[0]], same[1], hashes[same[1]])
			}
		}
	}
}

// TestInitiatorsRefused: what the knob cannot mean is refused, not run
// another way: a deprecated parameter that names other nodes than the
// initiators, and a set that leaves out nodes of an algorithm whose every
// node elects at boot.
func TestInitiatorsRefused(t *testing.T) {
	for _, c := range []struct {
		algorithm, topology, initiators, param, want string
	}{
		{"vkt", "grid:4x4", "3", "0", `initiators "3" and vkt parameter initiators="0" disagree`},
		{"park", "grid:4x4", "none", "all", `initiators "none" and park parameter initiators="all" disagree`},
		{"bully", "complete:5", "0", "", "bully: every node elects at boot"},
		{"bully", "complete:5", "none", "", "bully: every node elects at boot"},
	} {
		s := scenario.Default()
		s.Algorithm, s.Topology, s.Initiators, s.Events = c.algorithm, c.topology, c.initiators, nil
		if c.param != "" {
			s.Params = map[string]string{"initiators": c.param}
		}
		_, err := runner.Run(s, runner.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s --initiators %s, initiators=%q: %v, want %q", c.algorithm, c.initiators, c.param, err, c.want)
		}
	}
}

// TestReadmeDefaultInitiators: README.md's table of who starts at boot
// names every algorithm of elect, with its default as the registry
// resolves it.
func TestReadmeDefaultInitiators(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n#### Who starts at boot\n")
	if !ok {
		t.Fatal(`README.md has no section "Who starts at boot"`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	row := regexp.MustCompile("(?m)^\\| (`[^|]+`) \\| ([^|]+) \\|")
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		for _, name := range strings.Split(m[1], ", ") {
			name = strings.Trim(name, "`")
			a, err := algo.Lookup(name)
			if err != nil {
				t.Errorf("README.md's table names %s: %v", name, err)
				continue
			}
			seen[name] = true
			if want := defaultInitiators(a); !strings.HasPrefix(m[2], want) {
				t.Errorf("README.md: %s starts with %q by default, want %q", name, m[2], want)
			}
		}
	}
	for _, name := range algo.Names() {
		// elect's own, each after a seed document, and not the test
		// doubles that this package's tests register.
		a, _ := algo.Lookup(name)
		if !seen[name] && strings.HasSuffix(a.Source, ".txt") {
			t.Errorf("README.md's table of who starts at boot leaves out %s", name)
		}
	}
}

// defaultInitiators says, in the README's words, who starts an election at
// boot in a run of a that names no initiators: for a spontaneous algorithm
// its machines, from the default of their boot parameter (every node
// without one); for the others the driver, from Model.Initiators.
func defaultInitiators(a *algo.Algorithm) string {
	set := a.Model.Initiators
	if set == "" {
		set = "0"
	}
	if a.Model.Spontaneous {
		set = "all"
		for _, p := range a.Params {
			if p.Boot {
				set = p.Default
			}
		}
	}
	if set == "all" {
		return "every node"
	}
	return "node " + set
}
