package cli

import (
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
		{"test-broken-least", "liveness"},
		{"test-broken-noindex", "no election index"},
		{"test-broken-stuck", "liveness"},
		{"test-broken-two-leaders", "safety"},
	} {
		t.Run(c.algo, func(t *testing.T) {
			tr := filepath.Join(t.TempDir(), "run.jsonl")
			code, out, errOut := cli(t, "sim", "--algo", c.algo, "--topology", "grid:4x4", "--values", "random", "--trace", tr)
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
	for _, args := range [][]string{
		{"sim", "--algo", "test-flood", "--topology", "grid:4x4", "--values", "random", "--trace", tr},
		{"check", tr},
		{"fuzz", "--algo", "test-flood", "--runs", "30", "--out", t.TempDir()},
	} {
		if code, out, errOut := cli(t, args...); code != ExitOK {
			t.Errorf("%s: exit %d, want 0:\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// An algorithm that panics in a command is an error (exit 1) naming the
// panic, with the stack on stderr: not the runtime's exit 2, which reads as
// violations.
func TestAlgorithmPanicIsAnError(t *testing.T) {
	code, out, errOut := cli(t, "sim", "--algo", "test-broken-panic", "--topology", "ring:4")
	if code != ExitError || out != "" || !strings.Contains(errOut, "elect sim panicked:\ngoroutine ") ||
		!strings.Contains(errOut, "elect: elect sim: panic: assignment to entry in nil map (a bug of elect or of the algorithm") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}
