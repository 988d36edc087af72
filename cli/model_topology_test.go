package cli

import (
	"strings"
	"testing"
)

// elect cluster with no --topology puts the nodes of an algorithm that
// needs a ring on a ring, saying so, where the default complete network
// was refused ("node 0 of 5 has 4 peers"); an algorithm that runs on any
// network keeps the default, with no note.
func TestClusterModelTopology(t *testing.T) {
	for _, c := range []struct {
		algo, topology, note string
	}{
		{"chang-roberts", "ring:5", "elect: note: chang-roberts needs a ring network (Model.Topology): the cluster is ring:5 (--topology chooses another)\n"},
		{"echo", "complete:5", ""},
	} {
		t.Run(c.algo, func(t *testing.T) {
			code, s, errOut := clusterJSON(t, "--algo", c.algo, "--elect", "0")
			if code != ExitOK || !s.OK || s.Topology != c.topology {
				t.Errorf("exit %d, ok %v, topology %q; want 0, true, %q\nstderr:\n%s", code, s.OK, s.Topology, c.topology, clusterTail(errOut, 20))
			}
			if note := strings.Contains(errOut, "elect: note:"); note != (c.note != "") || !strings.Contains(errOut, c.note) {
				t.Errorf("stderr %q, want the note %q", errOut, c.note)
			}
		})
	}
}
