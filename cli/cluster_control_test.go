package cli

import (
	"slices"
	"strings"
	"testing"
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
		failed []controlFailure // phase and node of each failure named
		lines  []string
	}{
		{"ring-success", nil, []string{"Election confirmed. Elected: node 3"}},
		{"ring-dead-at-gathering", []controlFailure{{Phase: "gathering", Node: 2}},
			[]string{"Election failed in gathering: node 2 died", "Election confirmed. Elected: node 3"}},
		{"ring-dead-at-confirmation", []controlFailure{{Phase: "confirmation", Node: 1}},
			[]string{"Election failed in confirmation: node 1 died", "Election confirmed. Elected: node 3"}},
		{"ring-joker", []controlFailure{{Phase: "checksum", Node: 1}},
			[]string{"Payload checksum failed: altered by node 1", "Election confirmed. Elected: node 3"}},
	} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			code, s, errOut := clusterJSON(t, "--script", "../scenarios/cluster-scripts/"+c.script+".yaml")
			if code != ExitOK || !s.OK {
				t.Fatalf("exit %d, ok %v, error %q; steps:%s\nstderr:\n%s", code, s.OK, s.Error, clusterSteps(s), clusterTail(errOut, 40))
			}
			ctl := s.Control
			if ctl.Elected != 3 {
				t.Errorf("elected %d, want 3", ctl.Elected)
			}
			var got []controlFailure
			for _, f := range ctl.Failures {
				got = append(got, controlFailure{Phase: f.Phase, Node: f.Node})
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
