package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/electgo/elect/cluster"
)

// The four scenarios of the ring document, each on four real elect node
// processes through elect cluster, end as the document's control process
// reports them: the elected node; a failure in gathering or in confirmation
// naming the node that died; a checksum failure naming the joker. The ring
// election then runs again round what is left, and node 3 (value 463, the
// document's highest PID) leads.
func TestRingControlScenarios(t *testing.T) {
	for _, c := range []struct {
		script string
		failed []cluster.Failure // phase and node of each failure named
		lines  []string
	}{
		{"ring-success", nil, []string{"Election confirmed. Elected: node 3"}},
		{"ring-dead-at-gathering", []cluster.Failure{{Phase: "gathering", Node: 2}},
			[]string{"Election failed in gathering: node 2 died", "Election confirmed. Elected: node 3"}},
		{"ring-dead-at-confirmation", []cluster.Failure{{Phase: "confirmation", Node: 1}},
			[]string{"Election failed in confirmation: node 1 died", "Election confirmed. Elected: node 3"}},
		{"ring-joker", []cluster.Failure{{Phase: "checksum", Node: 1}},
			[]string{"Payload checksum failed: altered by node 1", "Election confirmed. Elected: node 3"}},
	} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), "run.jsonl")
			code, s, errOut := clusterJSON(t, "--script", "../scenarios/cluster-scripts/"+c.script+".yaml", "--trace", file)
			if code != ExitOK || !s.OK {
				t.Fatalf("exit %d, ok %v, error %q; steps:%s\nstderr:\n%s", code, s.OK, s.Error, clusterSteps(s), clusterTail(errOut, 40))
			}
			// The checker finds no violation on the nodes' statuses, and
			// elect check the same in the trace. A node that dies or a
			// joker takes the ring outside its model: a violation would
			// then be reported and fail nothing.
			v := s.Check
			if v == nil || !v.OK || (len(v.OutsideModel) > 0) != (c.failed != nil) {
				t.Errorf("the checker's verdict %+v: want no violation, outside the model when a failure is expected", v)
			} else if code, out, errOut := cli(t, "check", "--json", file); code != ExitOK || !strings.Contains(out, `"trace_hash":"`+v.TraceHash+`"`) {
				t.Errorf("elect check %s: exit %d, want 0 and hash %s:\n%s%s", file, code, v.TraceHash, out, errOut)
			}
			ctl := s.Control
			if ctl.Elected != 3 {
				t.Errorf("elected %d, want 3", ctl.Elected)
			}
			var got []cluster.Failure
			for _, f := range ctl.Failures {
				got = append(got, cluster.Failure{Phase: f.Phase, Node: f.Node})
			}
			if !slices.Equal(got, c.failed) {
				t.Errorf("failures %+v, want %+v", ctl.Failures, c.failed)
			}
			if !slices.Equal(ctl.Lines, c.lines) {
				t.Errorf("the control process says %q, want %q", ctl.Lines, c.lines)
			}
			if !strings.Contains(errOut, "elect 0: election message sent") {
				t.Errorf("stderr does not show the control process starting the election:\n%s", clusterTail(errOut, 20))
			}
		})
	}
}

// --elect is the control process alone: it starts the election, waits for
// the outcome and ends; exit 1 and no elected node when the outcome is not
// in time.
func TestClusterElect(t *testing.T) {
	t.Parallel()
	args := []string{"--algo", "chang-roberts", "--topology", "ring", "--nodes", "4", "--hello", "50ms", "--values", "3,2,1,0"}
	code, s, errOut := clusterJSON(t, append(args, "--elect", "1")...)
	if code != ExitOK || s.Control.Elected != 0 {
		t.Fatalf("exit %d, elected %d, error %q; steps:%s\nstderr:\n%s", code, s.Control.Elected, s.Error, clusterSteps(s), clusterTail(errOut, 30))
	}
	// Only node 1 initiated; the others join as its message wakes them.
	// The simulator counts 7 election and 4 elected messages for this
	// input (elect sim with initiators: 1).
	var sent uint64
	for _, r := range s.Final {
		sent += r.Sent
	}
	if sent != 7+4 {
		t.Errorf("%d messages sent, want the simulator's 11", sent)
	}
	code, s, _ = clusterJSON(t, append(args, "--elect", "1", "--within", "1ms")...)
	if code != ExitError || s.Control.Elected != -1 || !strings.Contains(s.Error, "not met within 1ms") {
		t.Errorf("--within 1ms: exit %d, elected %d, error %q; want exit %d, no node elected, not met in time", code, s.Control.Elected, s.Error, ExitError)
	}
}

// Every built-in algorithm elects the most valued node on four real elect
// node processes with 20% of every node's datagrams lost, each on the
// network its model assumes, with the default failure detector (a neighbour
// unheard for 4 beacons is down now and then, and the reliable links must
// carry what was in flight through it; the waves keep their silent
// neighbours, for their model has none that go). The deterministic ones
// send exactly the simulator's messages (the runtime's retransmissions and
// acks are counted apart), and the synchronous ones run over the
// synchronizer.
func TestEveryAlgorithmOnProcesses(t *testing.T) {
	for _, c := range []struct {
		alg, topology, values string
		params                []string
		sent                  uint64 // 0: timing-dependent
		sync                  bool
	}{
		{"chang-roberts", "ring", "3,2,1,0", nil, 14, false},
		{"ring", "ring", "5,9,2,7", []string{"timeout=20s", "wait_timeout=60s"}, 8, false},
		{"echo", "complete", "5,9,2,7", nil, 15, false},
		{"extinction", "complete", "5,9,2,7", nil, 0, false},
		{"capture-async", "complete", "5,9,2,7", nil, 0, false},
		{"bully", "complete", "5,9,2,7", []string{"answer_timeout=1s", "coordinator_timeout=3s"}, 0, false},
		{"all-to-all", "complete", "5,9,2,7", nil, 12, true},
		{"capture-sync", "complete", "5,9,2,7", nil, 15, true},
	} {
		t.Run(c.alg, func(t *testing.T) {
			t.Parallel()
			args := []string{"--algo", c.alg, "--topology", c.topology, "--nodes", "4", "--values", c.values,
				"--hello", "50ms", "--faults", "loss=0.2", "--elect", "none", "--within", "20s"}
			for _, p := range c.params {
				args = append(args, "--param", p)
			}
			code, s, errOut := clusterJSON(t, args...)
			best := 1 // the node of value 9
			if c.alg == "chang-roberts" {
				best = 0 // of value 3, on the decreasing ring
			}
			if code != ExitOK || s.Control.Elected != best {
				t.Fatalf("exit %d, elected %d, want %d; error %q\nstderr:\n%s", code, s.Control.Elected, best, s.Error, clusterTail(errOut, 30))
			}
			var sent, syncs uint64
			for _, r := range s.Final {
				sent += r.Sent
				syncs += r.SyncMessages
			}
			if c.sent != 0 && sent != c.sent {
				t.Errorf("%d messages, want the simulator's %d", sent, c.sent)
			}
			if (syncs > 0) != c.sync {
				t.Errorf("%d safe messages of the synchronizer", syncs)
			}
		})
	}
}

// The gray failures' incidents of the simulator, on five real elect node
// processes (scenarios/cluster-scripts/gray-*.yaml, their twins): every
// expect step is met, and the checker judges the run as elect sim judges
// the incident, no violation, as elect check does the trace.
func TestClusterGrayScripts(t *testing.T) {
	for _, c := range []struct{ script, incident, step string }{
		{"gray-oneway-leader", "oneway-leader-unheard", "cut 4 0"},
		{"gray-leader-clock-slow", "leader-clock-slow", "clock 4 0.8"},
	} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			if sim, _ := simJSON(t, "../scenarios/incidents/"+c.incident+".yaml"); sim.ViolationCount != 0 {
				t.Fatalf("elect sim on the incident: %d violations, want none", sim.ViolationCount)
			}
			file := filepath.Join(t.TempDir(), "run.jsonl")
			code, s, errOut := clusterJSON(t, "--script", "../scenarios/cluster-scripts/"+c.script+".yaml", "--trace", file)
			if code != ExitOK || !s.OK {
				t.Fatalf("exit %d, ok %v, error %q; steps:%s\nstderr:\n%s", code, s.OK, s.Error, clusterSteps(s), clusterTail(errOut, 40))
			}
			v := s.Check
			if v == nil || !v.OK || len(v.OutsideModel) > 0 {
				t.Fatalf("the checker's verdict %+v: want no violation, inside the model", v)
			}
			if code, out, errOut := cli(t, "check", "--json", file); code != ExitOK || !strings.Contains(out, `"trace_hash":"`+v.TraceHash+`"`) {
				t.Errorf("elect check %s: exit %d, want 0 and hash %s:\n%s%s", file, code, v.TraceHash, out, errOut)
			}
			i := slices.IndexFunc(s.Steps, func(st cluster.StepResult) bool { return st.Step == c.step })
			if i < 0 {
				t.Fatalf("no step %q:%s", c.step, clusterSteps(s))
			}
			gray := s.Steps[i].StartMS
			switch c.script {
			case "gray-oneway-leader":
				// 0-3 elected 3 while cut off from 4, then all came back to 4.
				if !strings.Contains(errOut, "agreed: {0-3} leader 3, {4} leader 4") {
					t.Errorf("no agreement of 0-3 on 3 while 4 was unheard:\n%s", clusterTail(errOut, 40))
				}
				for _, r := range s.Final {
					if r.Gray != nil || r.Leader != 4 {
						t.Errorf("node %d at the end: leader %d, gray %+v; want 4, none", r.ID, r.Leader, r.Gray)
					}
				}
			case "gray-leader-clock-slow":
				// No election began once 4's clock ran slow.
				for _, e := range v.Elections.List {
					if e.StartMS >= gray {
						t.Errorf("an election at %.0f ms, after the clock step at %.0f ms: %+v", e.StartMS, gray, v.Elections.List)
					}
				}
				if g := s.Final[4].Gray; g == nil || g.ClockRate != 0.8 {
					t.Errorf("node 4's gray failures at the end: %+v, want clock_rate 0.8", g)
				}
			}
		})
	}
}
