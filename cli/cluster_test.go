package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
)

// The nodes of elect cluster and elect emulate are processes of its own
// binary, which under go test is the test binary: started with "node ..."
// (or cluster, sim, emulate: the tests that run a whole command in a
// process of its own; go test starts it with -test. flags first, never
// so), it runs as elect. No separate build is needed.
func init() {
	if len(os.Args) > 1 && (os.Args[1] == "node" || os.Args[1] == "cluster" || os.Args[1] == "sim" || os.Args[1] == "emulate") {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// clusterJSON runs elect cluster --json in this process and decodes its
// summary; it returns the exit status and stderr too.
func clusterJSON(t *testing.T, args ...string) (int, *cluster.Summary, string) {
	t.Helper()
	start := time.Now()
	code, out, errOut := cli(t, append([]string{"cluster", "--json"}, args...)...)
	t.Logf("elect cluster %s: exit %d in %v", strings.Join(args, " "), code, time.Since(start).Round(time.Millisecond))
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("--json printed not one line:\n%s\nstderr:\n%s", out, errOut)
	}
	var s cluster.Summary
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	return code, &s, errOut
}

// clusterSteps lists the steps of a summary, for failure messages.
func clusterSteps(s *cluster.Summary) string {
	var b strings.Builder
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "\n  line %d %s at %.0f ms: ok=%v %s%s", st.Line, st.Step, st.StartMS, st.OK, st.Result, st.Error)
	}
	return b.String()
}

// TestClusterScript runs the example scenario: 8 real nodes on loopback
// agree on 7; 7 is killed and the survivors agree on 6 within 2 s; 7
// recovers with its saved state and everybody follows it again, with no
// election at 7; 3 restarts with no state and elects; all agree at the end.
func TestClusterScript(t *testing.T) {
	code, s, errOut := clusterJSON(t, "--script", "../scenarios/cluster-scripts/failover.yaml")
	if code != ExitOK || !s.OK {
		t.Fatalf("exit %d, ok %v, error %q; steps:%s\nstderr:\n%s", code, s.OK, s.Error, clusterSteps(s), clusterTail(errOut, 40))
	}
	if len(s.Steps) != 8 {
		t.Fatalf("%d steps run, want 8:%s", len(s.Steps), clusterSteps(s))
	}
	for _, st := range s.Steps {
		if !st.OK {
			t.Errorf("step on line %d failed: %s", st.Line, st.Error)
		}
	}
	// The recovery step (line 17) asserts node 7 took part in no election
	// once it came back; check the script says so.
	if st := s.Steps[4]; st.Line != 17 || !strings.Contains(st.Step, "node 7 elections = 0") {
		t.Errorf("step 5 is %+v, want the expect of line 17 with node 7's elections", st)
	}

	// One failover: 7 killed, 6 agreed on within 2 s.
	if len(s.Failovers) != 1 {
		t.Fatalf("failovers %+v, want exactly one (the kill of 7)", s.Failovers)
	}
	f := s.Failovers[0]
	if f.Node != 7 || f.How != "kill" || !f.Done || len(f.Leaders) != 1 || f.Leaders[0] != 6 {
		t.Errorf("failover %+v, want kill of 7 then leader 6", f)
	}
	if f.MS <= 0 || f.MS >= 2000 {
		t.Errorf("failover took %.0f ms, want under 2 s (timeout 500ms + a few round trips)", f.MS)
	}

	// The end: every node alive, in Norm, following 7.
	if !s.Agreed || len(s.Components) != 1 || len(s.Leaders) != 1 || s.Leaders[0] != 7 {
		t.Errorf("agreed %v, components %v, leaders %v; want one component following 7", s.Agreed, s.Components, s.Leaders)
	}
	if s.Nodes != 8 || len(s.Final) != 8 || s.Algorithm != "vkt" || s.Topology != "complete:8" {
		t.Fatalf("summary of %d nodes (%d rows), %s on %s", s.Nodes, len(s.Final), s.Algorithm, s.Topology)
	}
	for _, r := range s.Final {
		if !r.Alive || !r.Answered || r.State != "Norm" || r.Leader != 7 || r.Neighbors != 7 || r.Value != int64(r.ID) {
			t.Errorf("node %d at the end: %+v", r.ID, r)
		}
	}
	n7, n3 := s.Final[7], s.Final[3]
	if n7.Started != "recover" || n7.Lives != 2 || !n7.Leading || n7.ElectionIndex == 0 {
		t.Errorf("node 7: %+v, want its second life, recovered, leading, with its election index kept", n7)
	}
	if n3.Started != "fresh" || n3.Lives != 2 || n3.Elections == 0 {
		t.Errorf("node 3: %+v, want its second life, fresh, having elected", n3)
	}
	if s.Kept {
		t.Errorf("the temporary directory %s was kept after a run that went well", s.Dir)
	} else if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is still there: %v", s.Dir, err)
	}
}

// TestClusterTwenty: 20 nodes agree, the leader (killed as "leader") is
// replaced by the next best, a clean stop of another does not disturb them.
func TestClusterTwenty(t *testing.T) {
	script := "../scenarios/cluster-scripts/twenty.yaml"
	code, s, errOut := clusterJSON(t, "--script", script)
	if code != ExitOK || !s.OK {
		t.Fatalf("exit %d, error %q; steps:%s\nstderr:\n%s", code, s.Error, clusterSteps(s), clusterTail(errOut, 40))
	}
	if len(s.Failovers) != 1 || s.Failovers[0].Node != 19 || !s.Failovers[0].Done || s.Failovers[0].MS >= 3000 {
		t.Errorf("failovers %+v, want the kill of 19, over within 3 s", s.Failovers)
	}
	alive := 0
	for _, r := range s.Final {
		if r.Alive {
			alive++
			if r.State != "Norm" || r.Leader != 18 {
				t.Errorf("node %d at the end: %+v", r.ID, r)
			}
		}
	}
	if alive != 18 || s.Final[19].Process != "killed" || s.Final[5].Process != "stopped" {
		t.Errorf("%d alive, node 19 %s, node 5 %s; want 18, killed, stopped", alive, s.Final[19].Process, s.Final[5].Process)
	}
}

// TestClusterLineSplit: on a line, the death of a middle node splits the
// network; each side follows its own most valued node, and they merge when
// it recovers.
func TestClusterLineSplit(t *testing.T) {
	code, s, errOut := clusterJSON(t, "--script", "../scenarios/cluster-scripts/line-split.yaml")
	if code != ExitOK || !s.OK {
		t.Fatalf("exit %d, error %q; steps:%s\nstderr:\n%s", code, s.Error, clusterSteps(s), clusterTail(errOut, 40))
	}
	if st := s.Steps[2]; !st.OK || !strings.Contains(st.Step, "expect agreement") {
		t.Errorf("step 3: %+v", st)
	}
	if !strings.Contains(errOut, "agreed: {0-2} leader 2, {4-7} leader 7") {
		t.Errorf("the halves did not elect apart:\n%s", errOut)
	}
	if !s.Agreed || s.Topology != "line:8" || len(s.Leaders) != 1 || s.Leaders[0] != 7 {
		t.Errorf("at the end: agreed %v on %s, leaders %v", s.Agreed, s.Topology, s.Leaders)
	}
	for _, r := range s.Final {
		if want := min(r.ID+1, 7) - max(r.ID-1, 0); r.Neighbors != want {
			t.Errorf("node %d has %d neighbours on the line, want %d", r.ID, r.Neighbors, want)
		}
	}
}

// TestClusterExpectFails: an expect that cannot hold ends the run with
// exit status 1, naming the script's line, and keeps the logs.
func TestClusterExpectFails(t *testing.T) {
	script := clusterWrite(t, "wrong.yaml", `
nodes: 3
hello: 50ms
params: {heartbeat: 100ms, timeout: 500ms}
steps:
  - expect: {leader: 2, within: 5s}
  - expect: {leader: 0, within: 300ms}
  - {kill: 1}
`)
	dir := t.TempDir()
	code, s, errOut := clusterJSON(t, "--script", script, "--dir", dir)
	if code != ExitError || s.OK {
		t.Fatalf("exit %d, ok %v; want 1, false", code, s.OK)
	}
	want := regexp.MustCompile(`wrong\.yaml:7: steps\[1\]: expect leader 0 within 300ms: not met within 300ms: node 0 follows 2; node 1 follows 2; node 2 follows 2`)
	if !want.MatchString(errOut) || !strings.Contains(s.Error, "node 0 follows 2") {
		t.Errorf("stderr does not match %v:\n%s", want, clusterTail(errOut, 10))
	}
	if len(s.Steps) != 2 || !s.Steps[0].OK || s.Steps[1].OK {
		t.Errorf("steps:%s\nwant the first passed, the second failed, no third", clusterSteps(s))
	}
	if !s.Kept || s.Dir != dir {
		t.Errorf("dir %s kept %v; want %s kept", s.Dir, s.Kept, dir)
	}
	for i := range 3 {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("node-%d.log", i)))
		if err != nil || !bytes.Contains(b, []byte("node started")) {
			t.Errorf("node-%d.log: %v\n%s", i, err, b)
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("node-%d", i), "state")); err != nil {
			t.Errorf("node %d saved no state: %v", i, err)
		}
	}
}

// clusterElect starts the test binary as elect with args, its stdin a pipe; the
// lines it prints arrive on the returned channel.
func clusterElect(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, <-chan string) {
	t.Helper()
	cmd := electCommand(t, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return cmd, in, lines
}

// clusterAwait reads lines until one matches re, and returns its submatches.
func clusterAwait(t *testing.T, lines <-chan string, re string, within time.Duration) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(within)
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("output ended before a line matching %q:\n%s", re, strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			if m := rx.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-deadline:
			t.Fatalf("no line matching %q within %v:\n%s", re, within, strings.Join(seen, "\n"))
		}
	}
}

// TestClusterKeyboard drives a cluster a command line at a time, as a user
// at the keyboard would, its output being a line per change.
func TestClusterKeyboard(t *testing.T) {
	cmd, in, lines := clusterElect(t, "cluster", "--nodes", "4", "--dir", t.TempDir(), "--hello", "50ms", "-p", "heartbeat=100ms", "-p", "timeout=500ms")
	say := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	clusterAwait(t, lines, `agreed: leader 3 \(4 live nodes\)`, 10*time.Second)
	say("p")
	pid := map[int]int{}
	for range 4 {
		m := clusterAwait(t, lines, `^ +(\d) +\d+ +(\d+) running +start +Norm +3 `, 2*time.Second)
		id, _ := strconv.Atoi(m[1])
		pid[id], _ = strconv.Atoi(m[2])
	}
	say("kill 3")
	clusterAwait(t, lines, `kill 3: SIGKILL to pid `+strconv.Itoa(pid[3])+` \(it led: timing the failover\)`, 2*time.Second)
	clusterAwait(t, lines, `agreed: leader 2 \(3 live nodes\)`, 3*time.Second)
	say("frobnicate 2")
	clusterAwait(t, lines, `error: unknown command "frobnicate"`, 2*time.Second)
	say("k 9")
	clusterAwait(t, lines, `error: node 9 is out of range: the cluster has nodes 0..3`, 2*time.Second)
	say("k 3")
	clusterAwait(t, lines, `error: node 3 is not running \(killed\)`, 2*time.Second)
	say("c 3")
	clusterAwait(t, lines, `recover 3: pid \d+, with its saved state: it merges`, 5*time.Second)
	clusterAwait(t, lines, `agreed: leader 3 \(4 live nodes\)`, 3*time.Second)
	say("cut 2 0") // gray failures: 0 no longer hears 2
	clusterAwait(t, lines, `cut 2->0: node 0 no longer hears 2$`, 2*time.Second)
	say("jump 2 -1h")
	clusterAwait(t, lines, `clock 2: jumps by -1h0m0s$`, 2*time.Second)
	say("uncut 2 0")
	clusterAwait(t, lines, `uncut 2->0: node 0 hears 2 again$`, 2*time.Second)
	say("s 1")
	clusterAwait(t, lines, `stop 1: SIGTERM to pid `+strconv.Itoa(pid[1]), 6*time.Second)
	say("q")
	clusterAwait(t, lines, `^elect cluster: 4 nodes, vkt on complete:4, ran`, 5*time.Second)
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("elect cluster: %v", err)
	}
	out := strings.Join(rest, "\n")
	for _, want := range []string{
		"     1       1 " + fmt.Sprintf("%8d", pid[1]) + " stopped  start",
		" recover Norm       3 ",
		"agreed: leader 3 (3 live nodes)",
		"kill 3 -> leader 2 after ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	// Every node ended with the command.
	for id, p := range pid {
		if id != 3 && clusterAlive(p) {
			t.Errorf("node %d (pid %d) outlived elect cluster", id, p)
		}
	}
}

// clusterAlive reports whether pid still runs (a zombie does not count),
// waiting a little for it to go.
func clusterAlive(pid int) bool {
	for range 100 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || goruntime.GOOS != "linux" {
			return err == nil
		}
		// pid (comm) STATE ...: Z is a zombie, X dead.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// TestClusterParentDies: on Linux the nodes die with elect cluster, even
// when it is killed with no chance to stop them.
func TestClusterParentDies(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux only")
	}
	// Killed, it cannot remove a temporary directory: give it one.
	cmd, in, lines := clusterElect(t, "cluster", "--nodes", "2", "--dir", t.TempDir(), "--hello", "50ms", "-p", "heartbeat=100ms", "-p", "timeout=500ms")
	clusterAwait(t, lines, `agreed: leader 1`, 10*time.Second)
	io.WriteString(in, "p\n")
	var pids []int
	for range 2 {
		m := clusterAwait(t, lines, `^ +\d +\d+ +(\d+) running`, 2*time.Second)
		p, _ := strconv.Atoi(m[1])
		pids = append(pids, p)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	for _, p := range pids {
		if clusterAlive(p) {
			t.Errorf("node pid %d outlived its killed parent", p)
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

func clusterWrite(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func clusterTail(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// badScripts are scripts and flags that elect cluster must refuse before it
// starts anything, and what the error must say.
var badScripts = []struct {
	script string // "" for none
	flags  []string
	want   string
}{
	{"nodes: 3\nsteps:\n  - {at: 1s, explode: 2}\n", nil,
		`s.yaml:3:14: steps[0]: unknown field "explode" (known: at, after, kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow, value)`},
	{"nodes: 3\nsteps:\n  - {at: 1s, kill: 3}\n", nil,
		`s.yaml:3:20: steps[0].kill: node 3 is out of range: the cluster has nodes 0..2`},
	{"nodes: 3\nsteps:\n  - {at: 1s}\n", nil,
		`s.yaml:3:5: steps[0]: a step needs exactly one action: kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow or value (got none)`},
	{"nodes: 3\nsteps:\n  - {at: 1s, kill: 1, stop: 2}\n", nil,
		`s.yaml:3:5: steps[0]: a step needs exactly one action: kill, stop, restart, recover, elect, expect, cut, uncut, clock, slow or value (got kill, stop)`},
	{"nodes: 3\nsteps:\n  - {at: soon, kill: 1}\n", nil,
		`s.yaml:3:10: steps[0].at: invalid duration "soon" (examples: 500ms, 2s)`},
	{"nodes: 3\nsteps:\n  - {at: 2s, kill: 1}\n  - {at: 1s, kill: 2}\n", nil,
		`s.yaml:4:5: steps[1].at: at 1s is before the 2s of the step on line 3: steps run in the order written`},
	{"nodes: 3\nsteps:\n  - expect: {leader: 1, within: fast}\n", nil,
		`s.yaml:3:33: steps[0].expect.within: invalid duration "fast" (examples: 500ms, 2s)`},
	{"nodes: 3\nsteps:\n  - expect: {leader: 5}\n", nil,
		`s.yaml:3:13: steps[0].expect.leader: node 5 is out of range: the cluster has nodes 0..2`},
	{"nodes: 3\nsteps:\n  - expect: {within: 1s}\n", nil,
		`s.yaml:3:13: steps[0].expect: expect what? give leader: ID, agree: true, elections: {NODE: COUNT} or failure: PHASE`},
	{"nodes: 3\nsteps:\n  - expect: {elections: {1: many}}\n", nil,
		`s.yaml:3:29: steps[0].expect.elections.1: invalid election count "many"`},
	{"nodes: 3\nsteps:\n  - expect: {agree: yes}\n", nil,
		`s.yaml:3:21: steps[0].expect.agree: agree takes true, got "yes"`},
	{"nodes: 3\nsteps:\n  - {kill: -1}\n", nil,
		`s.yaml:3:12: steps[0].kill: want a node id, a list of ids or "leader", got "-1"`},
	{"nodes: 0\nsteps: []\n", nil, `s.yaml:1:8: nodes: invalid node count "0" (want an integer from 1 to 200)`},
	{"nodes: 300\nsteps: []\n", nil, `s.yaml:1:8: nodes: invalid node count "300" (want an integer from 1 to 200)`},
	{"nodes: 3\ncolour: blue\nsteps: []\n", nil, `s.yaml:2:1: unknown field "colour" (known: nodes, algorithm, params, hello, hello_loss, values, seed, topology, initiators, crash_on, corrupt, steps)`},
	{"nodes: 3\n", nil, `s.yaml:1:1: missing "steps" (a list of steps like {at: 2s, kill: 7})`},
	{"nodes: 3\nsteps:\n\t- {kill: 1}\n", nil, `s.yaml:3: invalid YAML: found character that cannot start any token (YAML indents with spaces, not tabs)`},
	{"nodes: 4\nalgorithm: chang-roberts\ntopology: complete\nsteps: []\n", nil, `s.yaml:2:12: algorithm: algorithm chang-roberts needs a ring of 3 or more nodes: node 0 of 4 has 3 peers`},
	{"nodes: 4\nalgorithm: ring\ntopology: ring\ncrash_on: {node: 2, message: gathering}\nsteps: []\n", nil, `s.yaml:4:11: crash_on: node 2: algorithm ring has no message "gathering" (it has gather, confirm)`},
	{"nodes: 4\ncrash_on: {node: 7, message: election}\nsteps: []\n", nil, `s.yaml:2:11: crash_on: node 7 is out of range: the cluster has nodes 0..3`},
	{"nodes: 4\ncrash_on: {node: 1}\nsteps: []\n", nil, `s.yaml:2:11: crash_on: want {node: N, message: TYPE}: both fields`},
	{"nodes: 4\ninitiators: 9\nalgorithm: echo\nsteps: []\n", nil, `s.yaml:2:13: initiators: `},
	{"nodes: 3\nsteps:\n  - expect: {failure: {phase: gathering, when: now}}\n", nil, `s.yaml:3:42: steps[0].expect.failure: unknown field "when" (known: phase, node)`},
	{"nodes: 3\nsteps:\n  - {cut: {from: 1, to: 3}}\n", nil, `s.yaml:3:25: steps[0].cut.to: node 3 is out of range: the cluster has nodes 0..2`},
	{"", []string{"--nodes", "3", "--crash-on", "2"}, `--crash-on "2": want NODE=TYPE, e.g. 2=gather`},
	{"", []string{"--nodes", "3", "--crash-on", "5=election"}, `--crash-on "5=election": node 5 is out of range`},
	{"", []string{"--nodes", "3", "--corrupt", "4"}, `--corrupt: node 4 is out of range: the cluster has nodes 0..2`},
	{"", []string{"--nodes", "3", "--elect", "x"}, `--elect "x": want a node id from 0 to 2, or none`},
	{"", []string{"--nodes", "3", "--initiators", "7"}, `--initiators "7": `},
	{"nodes: 3\ntopology: hexagon\nsteps: []\n", nil, `s.yaml:2:11: topology: topology "hexagon" (nodes=3): unknown`},
	{"nodes: 4\ntopology: grid:3x3\nsteps: []\n", nil, `s.yaml:1:8: nodes: topology grid:3x3 has 9 nodes, but nodes says 4`},
	{"", []string{"--nodes", "0"}, `--nodes 0: want 1 to 200`},
	{"", []string{"--nodes", "201"}, `--nodes 201: want 1 to 200`},
	{"", []string{"--nodes", "3", "--param", "timeout"}, `--param "timeout": want NAME=VALUE`},
	{"", []string{"--nodes", "3", "--param", "timeout=soon"}, `vkt parameter timeout: invalid duration "soon"`},
	{"", []string{"--nodes", "3", "--values", "1,2"}, `--values "1,2": want id, random, or 3 comma-separated integers`},
	{"", []string{"--topology", "grid:20x20"}, `--topology: topology grid:20x20 has 400 nodes: want at most 200`},
	{"", []string{"--nodes", "3", "--base-port", "65000"}, `--base-port 65000: want a port from 1024 to 64533`},
	{"", []string{"--nodes", "3", "--key-file", "/nonexistent/key"}, `--key-file: stat /nonexistent/key: no such file or directory`},
	{"", []string{"--script", "/nonexistent/s.yaml"}, `open /nonexistent/s.yaml: no such file or directory`},
}

// TestClusterBadInput: bad scripts and flags are refused before any node
// starts, with errors naming the file, line, column and field, or the flag.
func TestClusterBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range badScripts {
		args := append([]string{"cluster"}, c.flags...)
		if c.script != "" {
			p := filepath.Join(dir, "s.yaml")
			if err := os.WriteFile(p, []byte(c.script), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "--script", p)
		}
		code, out, errOut := cli(t, args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("elect %s with\n%s\nexit %d, stdout %q, stderr %q\nwant exit 1 and %q", strings.Join(args, " "), c.script, code, out, errOut, c.want)
		}
		if c.script != "" && !strings.HasPrefix(errOut, "elect: "+filepath.Join(dir, "s.yaml")) {
			t.Errorf("error %q does not start with the file's name", errOut)
		}
	}
}

// TestClusterExamples: the example scripts parse, and their node ids fit.
func TestClusterExamples(t *testing.T) {
	files, err := filepath.Glob("../scenarios/cluster-scripts/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios/cluster-scripts/*.yaml: %v", err)
	}
	for _, f := range files {
		s, err := cluster.LoadScript(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(s.Steps) == 0 || s.Nodes == 0 {
			t.Errorf("%s: %d nodes, %d steps", f, s.Nodes, len(s.Steps))
		}
		if err := s.CheckNodes(s.Nodes); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestParseClusterCommand: the keyboard's own commands; the actions are
// cluster.ParseCommand's (cluster's TestParseCommand).
func TestParseClusterCommand(t *testing.T) {
	good := map[string]string{
		"k 3":  "kill [3] false",
		"q":    "quit [] false",
		"P":    "print [] false",
		"":     " [] false",
		"?":    "help [] false",
		"exit": "quit [] false",
	}
	for line, want := range good {
		c, err := parseClusterCommand(line, 8)
		if got := fmt.Sprintf("%s %v %v", c.Action, c.Nodes, c.Leader); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", line, got, err, want)
		}
	}
	bad := map[string]string{
		"x 1":    `unknown command "x" (k N, s N, r N, c N, e N, p, q; h for help)`,
		"q now":  "quit takes no argument",
		"k 8":    "node 8 is out of range: the cluster has nodes 0..7",
		"help 2": "help takes no argument",
	}
	for line, want := range bad {
		if _, err := parseClusterCommand(line, 8); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", line, err, want)
		}
	}
}

func TestClusterTable(t *testing.T) {
	if got := cluster.IDRanges([]int{0, 1, 2, 3, 5, 7, 8, 9}); got != "0-3,5,7-9" {
		t.Errorf("IDRanges: %q", got)
	}
	rows := []cluster.NodeRow{
		{ID: 0, Value: 0, Alive: true, Process: "running", PID: 100, Started: "start", Answered: true, State: "Norm", Leader: 2, ElectionIndex: 1, Neighbors: 2, Sent: 12, Elections: 1},
		{ID: 1, Value: 1, Alive: true, Process: "running", PID: 101, Started: "fresh", Answered: true, State: "Elect", Leader: -1, ElectionIndex: 2, Neighbors: 2, Sent: 3, Elections: 1},
		{ID: 2, Value: 2, Alive: true, Process: "starting", PID: 102, Started: "recover"},
		{ID: 3, Value: 3, Process: "killed", PID: 103, Started: "start", Leader: -1},
	}
	want := []string{
		"  id   value      pid process  started state leader  index nbrs     sent elect",
		"   0       0      100 running  start   Norm       2      1    2       12     1",
		"   1       1      101 running  fresh   Elect      -      2    2        3     1",
		"   2       2      102 starting recover ?          -      -    -        -     -",
		"   3       3      103 killed   start   -          -      -    -        -     -",
	}
	if got := cluster.TableLines(rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a := cluster.Agreement{Components: [][]int{{0, 1, 2}}, Best: []int{2}, Leaders: []int{-1}}
	if got := describeAgreement(a, rows); got != "no agreement: 1 Elect, 1 follow 2, 1 not answering" {
		t.Errorf("describeAgreement: %q", got)
	}
	a = cluster.Agreement{Components: [][]int{{0, 1}, {2, 3}}, Best: []int{1, 3}, Leaders: []int{1, 2}}
	if got := describeAgreement(a, rows); got != "{0-1}: leader 1, agreed by all 2 live nodes | {2-3}: all 2 live nodes follow 2, but 3 is more valued" {
		t.Errorf("describeAgreement: %q", got)
	}

	// On a terminal the table is drawn at the top, above a scroll region.
	var b bytes.Buffer
	v := &clusterView{w: &b, tty: true, fd: -1}
	v.draw([]string{"head", "agreement", "table"})
	v.logf(1500*time.Millisecond, "an event")
	v.close()
	for _, want := range []string{"\x1b[2J\x1b[5;24r\x1b[24;1H", "\x1b7\x1b[1;1Hhead\x1b[K", "\x1b[4;1H----", "\x1b8", "   1.500s  an event\n", "\x1b[r\x1b[24;1H\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("terminal output lacks %q:\n%q", want, b.String())
		}
	}
}

// FuzzClusterScript: no input makes the script parser panic, and every
// error it returns names the file.
func FuzzClusterScript(f *testing.F) {
	for _, c := range badScripts {
		f.Add([]byte(c.script))
	}
	for _, name := range []string{"failover", "gray-oneway-leader"} {
		if b, err := os.ReadFile("../scenarios/cluster-scripts/" + name + ".yaml"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("steps:\n  - {clock: {node: [1, 2], rate: 0.8, jump: -1h}}\n  - {slow: {node: leader, by: 1s, for: 2s}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseClusterScript("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if err := s.checkNodes(3); err != nil && !strings.HasPrefix(err.Error(), "f.yaml:") {
			t.Fatalf("error %q does not name the file and line", err)
		}
	})
}
