package cli

import (
	"strings"
	"testing"
)

// A real node whose machine panics exits 2 with the panic as its last
// words; the cluster reads them, says in its control events that the
// node's machine panicked, and in which call (it said only that the
// process exited with status 2), and exits 2 as sim does.
func TestClusterMachinePanic(t *testing.T) {
	code, s, errOut := clusterJSON(t, "--algo", "test-broken-panic", "--nodes", "3", "--topology", "line", "--elect", "0", "--within", "3s")
	var said []string
	for _, e := range s.Control.Events {
		if e.Kind == "died" {
			said = append(said, e.What)
		}
	}
	if code != ExitViolation || len(said) == 0 || !strings.Contains(said[0], "its machine panicked in Receive: assignment to entry in nil map; at github.com/electgo/elect/internal/broken.(*node).Receive (broken.go:") {
		t.Errorf("exit %d, want %d; died events %q; stderr:\n%s", code, ExitViolation, said, errOut)
	}
}
