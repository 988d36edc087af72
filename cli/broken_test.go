package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/electgo/elect/internal/broken" // the doubles
)

// TestBrokenAlgorithmsFail: algorithms the tests have never seen, each with
// one bug, exit 2 from sim and from check on their trace, and fail fuzz; the
// correct flood they are copies of passes all three. (An initiator's flood
// that elects the wrong node and sets no index used to pass as "unreached".)
func TestBrokenAlgorithmsFail(t *testing.T) {
	for _, c := range []struct {
		algo string
		want string // in sim's stderr or summary
	}{
		{"test-broken-least", "liveness: settled on node "},
		{"test-broken-noindex", "index: node 0 took up leader 0 at index <0,·> (no election index)"},
		{"test-broken-stuck", "never left the election (it is in Wait)"},
		{"test-broken-two-leaders", "safety: 9 leaders in one component: nodes 0, 1, 3, 5, 7 and 4 more, from "},
		// Elects right, sends n^2 + n where its bound allows n(n+1)/2 + n.
		{"test-broken-chatty", "messages: 272 messages sent, more than one election may send: at most 152 (from 2n to n(n+1)/2 + n)"},
		// The same, spontaneous: every node counts as starting.
		{"test-broken-chatty-boot", "messages: 272 messages sent, more than one election may send: at most 152 (from 2n to n(n+1)/2 + n)"},
	} {
		t.Run(c.algo, func(t *testing.T) {
			tr := filepath.Join(t.TempDir(), "run.jsonl")
			topology := "grid:4x4"
			if strings.HasPrefix(c.algo, "test-broken-chatty") {
				topology = "ring:16"
			}
			code, out, errOut := cli(t, "sim", "--algo", c.algo, "--topology", topology, "--values", "random", "--trace", tr)
			if code != ExitViolation || !strings.Contains(out, c.want) {
				t.Errorf("sim: exit %d, want %d and %q in the summary:\n%s%s", code, ExitViolation, c.want, out, errOut)
			}
			if code, out, errOut := cli(t, "check", tr); code != ExitViolation {
				t.Errorf("check: exit %d, want %d:\n%s%s", code, ExitViolation, out, errOut)
			}
			if code, out, errOut := cli(t, "fuzz", "--algo", c.algo, "--runs", "10", "--shrink-budget", "-1", "--out", t.TempDir()); code == ExitOK {
				t.Errorf("fuzz: exit %d, want a failure:\n%s%s", code, out, errOut)
			}
		})
	}
	tr := filepath.Join(t.TempDir(), "run.jsonl")
	cr := filepath.Join(t.TempDir(), "cr.jsonl")
	for _, args := range [][]string{
		{"sim", "--algo", "test-flood", "--topology", "grid:4x4", "--values", "random", "--trace", tr},
		{"check", tr},
		{"fuzz", "--algo", "test-flood", "--runs", "30", "--out", t.TempDir()},
		{"sim", "--algo", "test-ring-cr", "--topology", "ring:16", "--values", "random", "--trace", cr},
		{"check", cr},
		{"fuzz", "--algo", "test-ring-cr", "--runs", "30", "--out", t.TempDir()},
	} {
		if code, out, errOut := cli(t, args...); code != ExitOK {
			t.Errorf("%s: exit %d, want 0:\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// A machine that panics is a violation (exit 2), not an error: sim names
// the node, the time, the call and the panic with the algorithm's frames,
// and keeps the trace up to it; check on that trace exits 2 and names it;
// fuzz fails, and the scenario it shrinks to panics again.
func TestAlgorithmPanicIsAViolation(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "run.jsonl")
	said := "panic: node 1 panicked in Receive of flood from 0: assignment to entry in nil map; at github.com/electgo/elect/internal/broken.(*node).Receive (broken.go:"
	code, out, errOut := cli(t, "sim", "--algo", "test-broken-panic", "--topology", "ring:4", "--trace", tr)
	story := "node 1 panics in Receive of flood from 0: assignment to entry in nil map: the run ends"
	if code != ExitViolation || !strings.Contains(out, said) || !strings.Contains(out, story) || !strings.Contains(errOut, "the checker found 1 violation") {
		t.Errorf("sim: exit %d, want %d and %q:\n%s%s", code, ExitViolation, said, out, errOut)
	}
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if n := len(lines); n < 3 || !strings.Contains(lines[n-2], `"ev":"panic"`) || !strings.Contains(lines[n-1], `"ev":"end"`) {
		t.Errorf("the trace does not end with the panic, then the end:\n%s", text)
	}
	if code, out, errOut := cli(t, "check", tr); code != ExitViolation || !strings.Contains(out, said) {
		t.Errorf("check: exit %d, want %d and %q:\n%s%s", code, ExitViolation, said, out, errOut)
	}
	fuzzOut := filepath.Join(dir, "fuzz")
	code, out, errOut = cli(t, "fuzz", "--algo", "test-broken-panic", "--runs", "3", "--out", fuzzOut)
	if code != ExitViolation || !strings.Contains(out, "panic: ") {
		t.Fatalf("fuzz: exit %d, want %d:\n%s%s", code, ExitViolation, out, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(fuzzOut, "*.yaml"))
	if len(files) == 0 {
		t.Fatalf("fuzz wrote no scenario in %s:\n%s", fuzzOut, out)
	}
	if code, out, errOut := cli(t, "sim", files[0]); code != ExitViolation || !strings.Contains(out, "panicked in Receive of flood") {
		t.Errorf("sim %s: exit %d, want %d and the panic:\n%s%s", files[0], code, ExitViolation, out, errOut)
	}
}

// An algorithm that panics outside its machines' calls (its Build) is an
// error (exit 1) naming the panic and whose it is, with the stack on
// stderr: not the runtime's exit 2, which reads as violations.
func TestAlgorithmBuildPanicIsAnError(t *testing.T) {
	code, out, errOut := cli(t, "sim", "--algo", "test-broken-build", "--topology", "ring:4")
	if code != ExitError || out != "" || !strings.Contains(errOut, "elect sim panicked:\ngoroutine ") ||
		!strings.Contains(errOut, "elect: elect sim: panic: test-broken-build builds no node: in the algorithm's code, outside its machines' calls (a bug of the algorithm, at github.com/electgo/elect/internal/broken.init.0.func1 (broken.go:") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}
