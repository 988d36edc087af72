package conform_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/electgo/elect/conform"
	_ "github.com/electgo/elect/internal/broken" // the doubles
)

// TestDouble runs the kit on the algorithm named by CONFORM_DOUBLE, in a
// process of its own started by TestKitCatchesDoubles (a failing kit fails
// its test, which is what that test looks for).
func TestDouble(t *testing.T) {
	name := os.Getenv("CONFORM_DOUBLE")
	if name == "" {
		t.Skip("run by TestKitCatchesDoubles")
	}
	opts := []conform.Option{conform.Runs(15)}
	if os.Getenv("CONFORM_NO_EXPLORE") != "" {
		opts = append(opts, conform.NoExplore())
	}
	conform.Run(t, name, opts...)
}

// TestKitCatchesDoubles: the kit fails each broken double in the part that
// concerns its bug, and passes the correct flood they are copies of.
func TestKitCatchesDoubles(t *testing.T) {
	for _, c := range []struct {
		algo string
		want string // a failing subtest, "" for none
	}{
		{"test-flood", ""},
		{"test-broken-least", "--- FAIL: TestDouble/runs"},
		{"test-broken-noindex", "no election index"},
		{"test-broken-stuck", "--- FAIL: TestDouble/fuzz"},
		{"test-broken-two-leaders", "safety"},
		{"test-broken-random", "the same seed gave two runs"},
		{"test-broken-param", "makes Build panic"},
		{"test-broken-panic", "assignment to entry in nil map"},
		{"test-broken-elect-leader", "a node in Elect names leader"},
		{"test-broken-hypercube", `the kit cannot make the "hypercube" network the model needs`},
		{"test-broken-undeclared", "sent message type 1, which its Messages (1 types) does not name"},
		{"test-ring-cr", ""},
		{"test-broken-chatty", "more than one election may send"},
		// Wrong in one order of arrival only, which the fuzz meets in
		// about 5 runs of 1000 (by chance, 2 of the 15 here): exploring
		// the square finds it whatever the chance.
		{"test-order", ""},
		{"test-broken-order", "--- FAIL: TestDouble/explore/grid:2x2"},
		// NoExplore leaves the exploration out.
		{"test-order/no-explore", ""},
	} {
		t.Run(c.algo, func(t *testing.T) {
			name, noExplore := strings.CutSuffix(c.algo, "/no-explore")
			cmd := exec.Command(os.Args[0], "-test.run=^TestDouble$", "-test.v", "-test.short")
			cmd.Env = append(os.Environ(), "CONFORM_DOUBLE="+name)
			if noExplore {
				cmd.Env = append(cmd.Env, "CONFORM_NO_EXPLORE=1")
			}
			out, err := cmd.CombinedOutput()
			if explored := strings.Contains(string(out), "=== RUN   TestDouble/explore"); explored == noExplore && name == "test-order" {
				t.Errorf("with NoExplore %v, the exploration ran: %v, want %v\n%s", noExplore, explored, !noExplore, out)
			}
			switch {
			case c.want == "" && err != nil:
				t.Errorf("the kit fails the correct flood: %v\n%s", err, out)
			case c.want != "" && err == nil:
				t.Errorf("the kit passes %s\n%s", c.algo, out)
			case c.want != "" && !strings.Contains(string(out), c.want):
				t.Errorf("the kit fails %s, but not with %q:\n%s", c.algo, c.want, out)
			}
		})
	}
}
