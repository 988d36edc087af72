package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electgo/elect/explore"
)

// TestExploreClean: correct algorithms on small networks are explored
// whole, exit 0, and say so.
func TestExploreClean(t *testing.T) {
	for _, args := range [][]string{
		{"explore", "--algo", "chang-roberts", "--topology", "ring:4", "--values", "id"},
		{"explore", "--algo", "echo", "--topology", "complete:4"},
	} {
		code, out, errOut := cli(t, args...)
		if code != ExitOK || !strings.Contains(out, "verdict:  every state explored: ") || !strings.Contains(out, "no violation") {
			t.Errorf("elect %s: exit %d, want %d and every state explored:\n%s%s", strings.Join(args, " "), code, ExitOK, out, errOut)
		}
		if strings.Contains(out, "schedule:") || strings.Contains(out, "VIOLATION") {
			t.Errorf("elect %s prints a counterexample:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestExploreCounterexample: Chang and Roberts on links that reorder sends
// more messages than its bound allows; explore exits 2, writes the
// counterexample's trace and scenario, elect check rejects the trace, and
// elect sim replays the scenario to the same violation.
func TestExploreCounterexample(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := cli(t, "explore", "--algo", "chang-roberts", "--topology", "ring:3", "--reorder", "--out", dir, "--json")
	if code != ExitViolation {
		t.Fatalf("explore --reorder: exit %d, want %d:\n%s%s", code, ExitViolation, out, errOut)
	}
	var rep explore.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("explore --json: %v:\n%s", err, out)
	}
	tracePath, yamlPath := filepath.Join(dir, "counterexample.jsonl"), filepath.Join(dir, "counterexample.yaml")
	if len(rep.Violations) == 0 || len(rep.Steps) == 0 || rep.Complete || !strings.HasPrefix(rep.Verdict, "counterexample of ") {
		t.Fatalf("explore --json: want a counterexample, got %+v", rep)
	}
	if !strings.Contains(rep.Violations[0], "messages: ") {
		t.Errorf("first violation %q, want the message bound's", rep.Violations[0])
	}
	if len(rep.Files) != 2 || rep.Files[0] != tracePath || rep.Files[1] != yamlPath {
		t.Errorf("files %q, want %s and %s", rep.Files, tracePath, yamlPath)
	}
	for _, f := range []string{tracePath, yamlPath} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v (want a file that holds the counterexample)", f, err)
		}
	}
	if code, out, errOut := cli(t, "check", tracePath); code != ExitViolation || !strings.Contains(out, "messages: ") {
		t.Errorf("check %s: exit %d, want %d and the message bound's violation:\n%s%s", tracePath, code, ExitViolation, out, errOut)
	}
	// The same without --json: the schedule, the files and how to replay.
	dir2 := t.TempDir()
	code, out, errOut = cli(t, "explore", "--algo", "chang-roberts", "--topology", "ring:3", "--reorder", "--out", dir2)
	if code != ExitViolation || !strings.Contains(out, "VIOLATION") || !strings.Contains(out, "schedule:\n    1. ") ||
		!strings.Contains(out, "replay: elect sim "+filepath.Join(dir2, "counterexample.yaml")) {
		t.Errorf("explore --reorder --out: exit %d, want %d, the violation, the schedule and the replay command:\n%s%s", code, ExitViolation, out, errOut)
	}
	// elect sim replays the schedule.
	code, sum, _ := runJSON(t, "sim", yamlPath)
	if code != ExitViolation || len(sum.Violations) == 0 {
		t.Fatalf("sim %s: exit %d with %d violations, want %d and the counterexample's", yamlPath, code, len(sum.Violations), ExitViolation)
	}
	if v := sum.Violations[0]; !strings.Contains(rep.Violations[0], v.Property+": "+v.Reason) {
		t.Errorf("sim's first violation is %s: %s; explore's %s", v.Property, v.Reason, rep.Violations[0])
	}
}

// TestExploreBadInput: what explore cannot explore is refused with exit 1
// and a message that says why, before any search.
func TestExploreBadInput(t *testing.T) {
	events := filepath.Join(t.TempDir(), "events.yaml")
	if err := os.WriteFile(events, []byte("algorithm: echo\ntopology: line:3\nevents:\n  - {at: 1s, crash: [1]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"--algo", "echo", "--crashes", "-1"}, "--crashes -1: want 0 or more"},
		{[]string{"--algo", "echo", "--timed", "--untimed"}, "--timed and --untimed: give one"},
		{[]string{"--algo", "vkt", "--reorder", "--duration", "3s"}, "vkt needs FIFO links (its model says so)"},
		{[]string{"--algo", "vkt"}, "vkt is explored timed (its model is not asynchronous): give --duration"},
		{[]string{events}, "events: exploration makes its own faults from the budget"},
		{[]string{"--algo", "echo", "--time", "soon"}, `--time "soon": want a duration above 0`},
		{[]string{"--algo", "echo", "--max-states", "-5"}, "take a count of 0"},
	} {
		args := append([]string{"explore"}, c.args...)
		code, out, errOut := cli(t, args...)
		if code != ExitError || !strings.Contains(errOut, c.want) {
			t.Errorf("elect %s: exit %d, want %d and %q in stderr:\n%s%s", strings.Join(args, " "), code, ExitError, c.want, out, errOut)
		}
		if strings.Contains(out, "verdict:") {
			t.Errorf("elect %s searched:\n%s", strings.Join(args, " "), out)
		}
	}
}
