package cli

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/electgo/elect/torture"
)

// Started with "viz ..." (never so by go test, whose flags come first), this
// test binary runs as elect, so that a test can stop viz with Ctrl-C.
func init() {
	if len(os.Args) > 1 && os.Args[1] == "viz" {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// exitCase is a command line and what it must end with.
type exitCase struct {
	name string
	args []string
	code int
	out  []string // in stdout
	err  []string // in stderr
}

func (c exitCase) run(t *testing.T) (string, string) {
	t.Helper()
	code, out, errOut := cli(t, c.args...)
	if code != c.code {
		t.Errorf("elect %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c.args, " "), code, c.code, out, errOut)
	}
	for _, w := range c.out {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
	for _, w := range c.err {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if c.code == ExitOK && errOut != "" {
		t.Errorf("exit 0 with stderr %q", errOut)
	}
	if c.code != ExitOK && !strings.Contains(errOut, "elect: ") {
		t.Errorf("exit %d without a message on stderr: %q", code, errOut)
	}
	return out, errOut
}

// elect bench: 0 when every run completed and kept the specification, 1 on
// bad input or when runs failed, 2 when completed runs broke the
// specification, once every output is written.
func TestExitBench(t *testing.T) {
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	small := []string{"--quiet", "--experiments", "start", "--seeds", "2"}
	for _, c := range []exitCase{
		{name: "ok", args: append([]string{"bench", "--out", out("ok"), "--topology", "ring:{n}@5"}, small...), code: ExitOK,
			out: []string{"2 runs written to"}},
		{name: "bad input", args: []string{"bench", "--seeds", "0"}, code: ExitError, err: []string{"--seeds: 0"}},
		{name: "unknown flag", args: []string{"bench", "--bogus"}, code: ExitError, err: []string{"unknown flag: --bogus"}},
		{name: "a run fails", args: append([]string{"bench", "--out", out("fails"), "--topology", "ring:{n}@2"}, small...), code: ExitError,
			err: []string{"elect: 2 of 2 runs failed (listed above) and are not in " + out("fails/results.csv")}},
		{name: "violations", args: append([]string{"bench", "--out", out("broke"), "--algos", "test-wrong-leader", "--topology", "line:{n}@3"}, small...),
			code: ExitViolation, out: []string{"2 runs written to", "not plotted: start-leaderless.png: no point to plot"},
			err: []string{"elect: 2 of 2 completed runs broke the specification (the violations column of " + out("broke/results.csv") + "): the checker found "}},
		{name: "some runs violate", args: append([]string{"bench", "--out", out("some"), "--algos", "vkt,test-wrong-leader", "--topology", "line:{n}@3"}, small...),
			code: ExitViolation, err: []string{"elect: 2 of 4 completed runs broke the specification"}},
		{name: "failures and violations: the failures win", args: append([]string{"bench", "--out", out("both"), "--algos", "test-wrong-leader", "--topology", "ring:{n}@2,3"}, small...),
			code: ExitError, err: []string{"elect: 2 of 4 runs failed (listed above) and are not in " + out("both/results.csv") + "; 2 of 2 completed runs broke the specification"}},
		{name: "a run panics", args: append([]string{"bench", "--out", out("panic"), "--algos", "vkt,test-broken-build", "--topology", "ring:{n}@5"}, small...),
			code: ExitError, out: []string{"2 of 4 runs written to"},
			err: []string{"run 2 (start test-broken-build ring:5 seed 1) and 1 more: panic: test-broken-build builds no node", "run 2 (start test-broken-build ring:5 seed 1) panicked:\ngoroutine ", "elect: 2 of 4 runs failed"}},
		{name: "plot: violations in the results", args: []string{"bench", "plot", "--out", out("replot"), out("broke/results.csv")}, code: ExitViolation,
			err: []string{"elect: 2 of 2 completed runs broke the specification (the violations column of " + out("replot/results.csv")}},
		{name: "plot: all well", args: []string{"bench", "plot", "--out", out("replot-ok"), out("ok/results.csv")}, code: ExitOK},
		{name: "plot: not a results file", args: []string{"bench", "plot", "--out", out("replot-bad"), out("ok/summary.txt")}, code: ExitError,
			err: []string{"not a results file of elect bench"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
	// Every output was written before the exit status said violations.
	for _, f := range []string{"results.csv", "summary.txt"} {
		if _, err := os.Stat(out("broke/" + f)); err != nil {
			t.Error(err)
		}
	}
}

// elect fuzz: 0 when no run failed within the model (failures outside it
// are expected), 1 on bad input or error, 2 when runs within the model
// broke the specification.
func TestExitFuzz(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []exitCase{
		{name: "ok", args: []string{"fuzz", "--algo", "vkt", "--runs", "2", "--out", filepath.Join(dir, "ok")}, code: ExitOK,
			out: []string{"vkt, in its model", "0 failed of 2"}},
		{name: "failures", args: []string{"fuzz", "--algo", "test-wrong-leader", "--runs", "2", "--shrink-budget", "3", "--out", filepath.Join(dir, "f")},
			code: ExitViolation, out: []string{"2 failed of 2", "safety: "},
			err: []string{"elect: 2 of 2 runs broke the specification within their algorithm's model (shrunk scenarios in " + filepath.Join(dir, "f") + "): the checker found "}},
		{name: "failures, json", args: []string{"fuzz", "--json", "--algo", "test-wrong-leader", "--runs", "1", "--shrink-budget", "-1", "--out", filepath.Join(dir, "j")},
			code: ExitViolation, out: []string{`"algorithm":"test-wrong-leader"`, `"failed":1`}, err: []string{"elect: 1 of 1 runs broke"}},
		{name: "failures outside the model", args: []string{"fuzz", "--outside", "--algo", "test-wrong-leader", "--runs", "2", "--shrink-budget", "-1", "--out", filepath.Join(dir, "o")},
			code: ExitOK, out: []string{"outside its model", "2 failed of 2"}},
		{name: "bad input", args: []string{"fuzz", "--runs", "0"}, code: ExitError, err: []string{"--runs 0: want at least 1"}},
		{name: "unknown algorithm", args: []string{"fuzz", "--algo", "nope"}, code: ExitError, err: []string{`--algo: unknown algorithm "nope"`}},
		{name: "arguments", args: []string{"fuzz", "vkt"}, code: ExitError, err: []string{`unknown command "vkt"`}},
		// An algorithm that panics has a bug the search found: a failure.
		{name: "a panic", args: []string{"fuzz", "--algo", "test-broken-build", "--runs", "1", "--out", filepath.Join(dir, "p")}, code: ExitViolation,
			out: []string{"panic: 1", "the run panicked: test-broken-build builds no node; at github.com/electgo/elect/internal/broken.init.0.func1 (broken.go:"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
	files, _ := filepath.Glob(filepath.Join(dir, "f", "test-wrong-leader-seed1-run*.yaml"))
	if len(files) != 2 {
		t.Errorf("failing scenarios written: %v, want 2", files)
	}
	// --json: one object per algorithm, even when failures end the command.
	_, out, _ := cli(t, "fuzz", "--json", "--algo", "test-wrong-leader", "--runs", "1", "--shrink-budget", "-1", "--out", filepath.Join(dir, "j"))
	var r torture.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Failed != 1 || len(r.Failures) != 1 || r.Failures[0].Property == "" {
		t.Errorf("--json: %v, %+v", err, r)
	}
}

// elect algos and elect viz: 0 or 1 (they check no run).
func TestExitAlgosViz(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	if code, _, errOut := cli(t, "sim", "--topology", "ring:4", "--trace", trace); code != ExitOK {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	notTrace := writeFile(t, dir, "n.jsonl", "not a trace\n")
	// A trace broken further on: elect viz names the line, keeps the page
	// up with what came before it, and fails after Ctrl-C.
	good, _ := os.ReadFile(trace)
	lines := strings.SplitAfter(string(good), "\n")
	lines[5] = "{\"t\":0,\"ev\":\"nonsense\"}\n"
	broken := writeFile(t, dir, "b.jsonl", strings.Join(lines, ""))
	for _, c := range []exitCase{
		{name: "algos", args: []string{"algos"}, code: ExitOK, out: []string{"vkt: ", "test-broken-build: "}},
		{name: "algos with an argument", args: []string{"algos", "vkt"}, code: ExitError, err: []string{`unknown command "vkt"`}},
		{name: "algos, unknown flag", args: []string{"algos", "--bogus"}, code: ExitError, err: []string{"unknown flag: --bogus"}},
		{name: "viz without a trace", args: []string{"viz"}, code: ExitError, err: []string{"accepts 1 arg(s), received 0"}},
		{name: "viz, no such file", args: []string{"viz", filepath.Join(dir, "missing.jsonl")}, code: ExitError, err: []string{"no such file"}},
		{name: "viz, not a trace", args: []string{"viz", notTrace}, code: ExitError, err: []string{notTrace}},
		{name: "viz, bad address", args: []string{"viz", trace, "--addr", "nowhere"}, code: ExitError, err: []string{"--addr: "}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
	t.Run("viz until Ctrl-C", func(t *testing.T) { vizUntilInterrupt(t, trace) })
	t.Run("viz, broken on line 6", func(t *testing.T) { vizBroken(t, broken) })
}

// vizBroken serves a trace broken on its line 6: elect viz says so at
// once, keeps the page up with the events before it, and after Ctrl-C
// exits with 1.
func vizBroken(t *testing.T, broken string) {
	cmd, sc := startElect(t, false, "viz", broken, "--addr", "127.0.0.1:0")
	said := ""
	for !strings.Contains(said, "until Ctrl-C") && sc.Scan() {
		said += sc.Text() + "\n"
	}
	if !strings.Contains(said, broken+":6: ") || !strings.Contains(said, `unknown event "nonsense"`) || !strings.Contains(said, "the page shows the 4 events before it") {
		t.Errorf("elect viz of a broken trace said %q", said)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitError {
		t.Errorf("after Ctrl-C: %v, want exit status %d", err, ExitError)
	}
}

// vizUntilInterrupt serves a trace with elect viz in a process of its own,
// fetches the page, and stops it with Ctrl-C, which must end it with 0.
func vizUntilInterrupt(t *testing.T, trace string) {
	cmd, sc := startElect(t, true, "viz", trace, "--addr", "127.0.0.1:0")
	if !sc.Scan() {
		t.Fatal("viz printed nothing")
	}
	m := regexp.MustCompile(`at (http://\S+)`).FindStringSubmatch(sc.Text())
	if m == nil {
		t.Fatalf("no address in %q", sc.Text())
	}
	resp, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", m[1], resp.Status)
	}
	interruptExitsZero(t, cmd)
}
