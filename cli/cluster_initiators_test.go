package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
)

// elect cluster hands the initiators of a spontaneous algorithm to its
// nodes as a simulated run does: every vkt and park node is started with
// them in its boot parameter (--param initiators=SET) and none with
// --initiator, which asked node 0 of --initiators 0 for a second election
// while every node elected at boot. The others' initiators are started with
// --initiator, as before; bully, whose every node elects at boot, takes
// only all, and --elect, which starts the election itself, leaves the vkt
// nodes none but what the deprecated parameter names.
func TestClusterInitiatorsBoot(t *testing.T) {
	for _, c := range []struct {
		name, algo, initiators, elect, param string
		flagged                              []int  // nodes started with --initiator
		boot                                 string // --param initiators= of every node ("": none)
		note, err                            string
	}{
		{"vkt --initiators 0", "vkt", "0", "", "", nil, "0", "", ""},
		{"park --initiators 1,3", "park", "1,3", "", "", nil, "1,3", "", ""},
		{"vkt default", "vkt", "", "", "", nil, "", "", ""},
		{"vkt --initiators all", "vkt", "all", "", "", nil, "all", "", ""},
		{"vkt --elect 1", "vkt", "", "1", "", nil, "none", "", ""},
		{"vkt --elect 1 -p initiators=2", "vkt", "", "1", "2", nil, "2", "vkt parameter initiators is deprecated", ""},
		{"vkt --initiators 2 -p initiators=2", "vkt", "2", "", "2", nil, "2", "vkt parameter initiators is deprecated", ""},
		{"vkt --initiators 0 -p initiators=3", "vkt", "0", "", "3", nil, "", "", `--initiators "0": initiators "0" and vkt parameter initiators="3" disagree`},
		{"vkt --initiators 9", "vkt", "9", "", "", nil, "", "", `--initiators "9": initiator 9 does not exist`},
		{"bully --elect 1", "bully", "", "1", "", nil, "", "", ""},
		{"bully --initiators 0", "bully", "0", "", "", nil, "", "", "bully: every node elects at boot"},
		{"echo --initiators 2", "echo", "2", "", "", []int{2}, "", "", ""},
		{"echo --elect 1", "echo", "", "1", "", nil, "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := newClusterCmd()
			var flags []string
			if c.initiators != "" {
				flags = append(flags, "--initiators", c.initiators)
			}
			if err := cmd.ParseFlags(flags); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.SetErr(&stderr)
			f := clusterFlags{initiators: c.initiators, elect: c.elect, within: time.Second}
			cfg := &clusterConfig{algo: c.algo, nodes: 4, params: map[string]string{}, fromScript: map[string]string{}}
			if c.param != "" {
				cfg.params["initiators"] = c.param
			}
			err := f.merge(cmd, cfg, nil)
			var cl *cluster.Cluster
			if err == nil {
				cl, err = cfg.newCluster(cmd, nil)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("%v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if note := stderr.String(); !strings.Contains(note, c.note) || (note == "") != (c.note == "") {
				t.Errorf("stderr %q, want the note %q", note, c.note)
			}
			var flagged []int
			for id := range cfg.nodes {
				args := cl.NodeArgs(id)
				if slices.Contains(args, "--initiator") {
					flagged = append(flagged, id)
				}
				var boot []string
				for i, a := range args {
					if a == "--param" && strings.HasPrefix(args[i+1], "initiators=") {
						boot = append(boot, strings.TrimPrefix(args[i+1], "initiators="))
					}
				}
				if want := []string{c.boot}; c.boot == "" && boot != nil || c.boot != "" && !slices.Equal(boot, want) {
					t.Errorf("node %d is started with initiators %q, want %q: %q", id, boot, c.boot, args)
				}
			}
			if !slices.Equal(flagged, c.flagged) {
				t.Errorf("nodes %v are started with --initiator, want %v", flagged, c.flagged)
			}
		})
	}
}

// On real processes, --initiators 0 makes node 0 alone start an election
// at boot: the others, less valued, follow it (from its heartbeats, or its
// election's Leader) and take part in no election. Before, every node
// elected at boot, node 0 being asked again.
func TestClusterInitiatorsOnProcesses(t *testing.T) {
	t.Parallel()
	code, s, errOut := clusterJSON(t, "--algo", "vkt", "--nodes", "3", "--values", "9,1,2", "--hello", "50ms",
		"--initiators", "0", "--param", "heartbeat=100ms", "--param", "timeout=1h", "--elect", "none", "--within", "10s")
	if code != ExitOK || s.Control.Elected != 0 {
		t.Fatalf("exit %d, elected %d, error %q\nstderr:\n%s", code, s.Control.Elected, s.Error, clusterTail(errOut, 30))
	}
	for _, r := range s.Final {
		if r.ElectionIndex > 1 || r.Leader != 0 || r.ID != 0 && r.Elections > 0 {
			t.Errorf("node %d: election index %d, %d elections, leader %d; want node 0's one election", r.ID, r.ElectionIndex, r.Elections, r.Leader)
		}
	}
}
