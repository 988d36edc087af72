package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// build builds this program, the user's elect with beacon, hs and
// franklin imported, into a temporary directory, as a user would:
// go build -o DIR/elect ./cmd/elect in the examples module.
func build(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "elect")
	start := time.Now()
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("go build: %v", time.Since(start).Round(time.Millisecond))
	return bin
}

// run runs bin with args and returns its exit status, stdout and stderr.
func run(t *testing.T, bin string, timeout time.Duration, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("elect %s: still running after %v\nstderr:\n%s", strings.Join(args, " "), timeout, errOut.String())
	}
	t.Logf("elect %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		code = exit.ExitCode()
	}
	return code, out.String(), errOut.String()
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// The part of elect cluster --json's summary this test reads.
type summary struct {
	Algorithm string           `json:"algorithm"`
	Nodes     int              `json:"nodes"`
	Agreed    bool             `json:"agreed"`
	Leaders   []int            `json:"leaders"`
	OK        bool             `json:"ok"`
	Error     string           `json:"error"`
	Failovers []failover       `json:"failovers"`
	Steps     []step           `json:"steps"`
	Final     []map[string]any `json:"final"`
}

type failover struct {
	Node    int     `json:"node"`
	How     string  `json:"how"`
	Done    bool    `json:"done"`
	MS      float64 `json:"ms"`
	Leaders []int   `json:"leaders"`
}

type step struct {
	Line  int    `json:"line"`
	Step  string `json:"step"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// script is the cluster's scenario, the one the README shows: four real
// nodes on loopback running beacon; the leader, 3, is killed and 2 takes
// over; 3 comes back with no state and leads again.
const script = "../../beacon/cluster.yaml"

// TestCluster proves that a user's algorithm reaches real processes: the
// user's program, built from this module, runs elect cluster with beacon,
// and its node processes (the same program) elect the most valued node,
// survive the loss of their leader and take it back when it restarts; on a
// line, where each node knows only its neighbours, they follow the far end.
// The ring elections hs and franklin elect on a ring of real processes; a
// node of hs started alone, without the fixed ring it needs, is refused
// with what is missing named.
func TestCluster(t *testing.T) {
	start := time.Now()
	bin := build(t)

	t.Run("beacon", func(t *testing.T) {
		code, out, errOut := run(t, bin, 40*time.Second, "cluster", "--script", script, "--json")
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("exit %d, --json printed no summary (%v):\n%s\nstderr:\n%s", code, err, out, tail(errOut, 30))
		}
		if code != 0 || !s.OK {
			t.Fatalf("exit %d, ok %v, error %q, steps %+v\nstderr:\n%s", code, s.OK, s.Error, s.Steps, tail(errOut, 30))
		}
		if s.Algorithm != "beacon" || s.Nodes != 4 || len(s.Steps) != 6 {
			t.Errorf("ran %s on %d nodes, %d steps; want beacon, 4, 6", s.Algorithm, s.Nodes, len(s.Steps))
		}
		for _, st := range s.Steps {
			if !st.OK {
				t.Errorf("step of line %d (%s) failed: %s", st.Line, st.Step, st.Error)
			}
		}
		if !s.Agreed || len(s.Leaders) != 1 || s.Leaders[0] != 3 {
			t.Errorf("at the end: agreed %v, leaders %v; want one leader, 3, the most valued node", s.Agreed, s.Leaders)
		}
		for _, r := range s.Final {
			if r["alive"] != true || r["state"] != "Norm" || r["leader"] != float64(3) {
				t.Errorf("node %v at the end: alive %v, %v following %v; want alive, Norm following 3", r["id"], r["alive"], r["state"], r["leader"])
			}
		}
		if len(s.Failovers) != 1 || s.Failovers[0].Node != 3 || !s.Failovers[0].Done || len(s.Failovers[0].Leaders) != 1 || s.Failovers[0].Leaders[0] != 2 {
			t.Errorf("failovers %+v, want the kill of 3, then everyone following 2", s.Failovers)
		} else {
			// 4 silent periods to give 3 up, 4 of campaign for 2, with a
			// period of 100ms, and polls every 50ms.
			t.Logf("failover from the kill of 3 to everyone following 2: %.0f ms", s.Failovers[0].MS)
		}
	})

	t.Run("line", func(t *testing.T) {
		// Each node lists only its neighbours on a line as peers: the
		// leader's beats reach the far end through three relays, and a
		// node hears of leaders it has no address for.
		code, out, errOut := run(t, bin, 30*time.Second, "cluster", "--algo", "beacon", "--topology", "line", "--nodes", "5",
			"--param", "period=100ms", "--hello", "50ms", "--duration", "2500ms", "--json")
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
			t.Fatalf("exit %d, summary %v:\n%s\nstderr:\n%s", code, err, out, tail(errOut, 30))
		}
		if !s.Agreed || len(s.Leaders) != 1 || s.Leaders[0] != 4 {
			t.Errorf("agreed %v, leaders %v; want everyone following 4: %v", s.Agreed, s.Leaders, s.Final)
		}
	})

	t.Run("rings", func(t *testing.T) {
		// The ring elections run unchanged on real processes too: the
		// cluster gives each node its two ring neighbours and the true n,
		// reliable FIFO links and initiators (every node, as their model
		// says), and the control process waits for the outcome.
		for _, alg := range []string{"hs", "franklin"} {
			code, out, errOut := run(t, bin, 30*time.Second, "cluster", "--algo", alg, "--topology", "ring", "--nodes", "5",
				"--values", "3,9,1,4,2", "--hello", "50ms", "--elect", "2", "--initiators", "all", "--json")
			var s summary
			if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
				t.Fatalf("%s: exit %d, summary %v:\n%s\nstderr:\n%s", alg, code, err, out, tail(errOut, 30))
			}
			if !s.Agreed || len(s.Leaders) != 1 || s.Leaders[0] != 1 {
				t.Errorf("%s: agreed %v, leaders %v; want everyone following 1, the most valued: %v", alg, s.Agreed, s.Leaders, s.Final)
			}
		}
	})

	t.Run("refused", func(t *testing.T) {
		// A node of an algorithm for static rings, started alone without
		// the ring it needs, is refused before it runs: exit status 1, and
		// a message that names the algorithm and the assumption its
		// configuration does not meet.
		code, _, errOut := run(t, bin, 10*time.Second, "node", "--algo", "hs", "--id", "0", "--listen", "127.0.0.1:0")
		t.Logf("elect node --algo hs: exit %d: %s", code, strings.TrimSpace(errOut))
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		msg := strings.ToLower(errOut)
		if !strings.Contains(msg, "hs") {
			t.Errorf("the message does not name the algorithm hs: %q", errOut)
		}
		named := false
		for _, w := range []string{"ring", "topology", "fifo", "spontaneous", "initiator", "loss", "lost", "crash"} {
			named = named || strings.Contains(msg, w)
		}
		if !named || !strings.Contains(msg, "not") && !strings.Contains(msg, "assume") && !strings.Contains(msg, "need") {
			t.Errorf("the message does not say which assumption the runtime lacks: %q", errOut)
		}
	})
	t.Logf("in all %v", time.Since(start).Round(time.Millisecond))
}
