package ringtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/electgo/elect/cli"
	"github.com/electgo/elect/cluster"
)

// NodeMain, called first in a test's TestMain, runs the test binary as
// elect (cli.Main) when it was started as a cluster's node ("node ..."):
// Config.Binary's default, os.Executable, is then a program that runs
// `elect node` with the algorithms the test's package registers.
func NodeMain() {
	if len(os.Args) > 1 && os.Args[1] == "node" {
		os.Exit(cli.Main(os.Args[1:]))
	}
}

// OnCluster runs algorithm on a ring of five real elect node processes
// (package cluster), each knowing only its two ring neighbours, values 3,
// 9, 1, 4, 2: with every node initiating at boot, and with the control
// process asking node 2 alone (POST /elect), as the ring document's does.
// Each must elect node 1, of value 9, sending at most bound(5) + 5
// messages (what's named says how the bound reads, for the failure).
func OnCluster(t *testing.T, algorithm string, bound func(n int) uint64, named string) {
	for _, c := range []struct {
		name, initiators string
		elect            int // -1: none
	}{
		{"initiators all", "all", -1},
		{"elect 2", "none", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			cl, err := cluster.Start(ctx, cluster.Config{Algorithm: algorithm, Topology: "ring", Nodes: 5,
				Values: []int64{3, 9, 1, 4, 2}, Initiators: c.initiators, Hello: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if c.elect >= 0 {
				if err := cl.Elect(ctx, c.elect); err != nil {
					t.Fatal(err)
				}
			}
			_, err = cl.Wait(ctx, cluster.ExpectLeader(1, 10*time.Second))
			sum := cl.Finish(err)
			if err != nil || sum.Control.Elected != 1 || sum.Topology != "ring:5" {
				t.Fatalf("%v; elected %d on %s, the control process says %q (logs in %s)", err, sum.Control.Elected, sum.Topology, sum.Control.Lines, sum.Dir)
			}
			var sent uint64
			for _, r := range sum.Final {
				sent += r.Sent
			}
			if sent > bound(5)+5 {
				t.Errorf("%d messages, more than %s + n = %d", sent, named, bound(5)+5)
			}
			t.Logf("%d messages on 5 processes; election %.0f ms", sent, sum.Control.ElectionMS)
		})
	}
}
