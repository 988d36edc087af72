package cluster_test

import (
	"context"
	"fmt"
	"time"

	"github.com/electgo/elect/cluster"
)

// The ring document's run on four real elect node processes: a ring of
// the document's PIDs, no node initiating; the control process sends the
// election message to node 0, waits until every node follows the elected
// one, and says the outcome.
func Example() {
	ctx := context.Background()
	c, err := cluster.Start(ctx, cluster.Config{
		Algorithm:  "ring",
		Topology:   "ring",
		Nodes:      4,
		Values:     []int64{271, 259, 254, 463},
		Initiators: "none",
		Params:     map[string]string{"timeout": "1s", "wait_timeout": "3s"},
		Hello:      50 * time.Millisecond,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close() // every node is stopped, and the temporary directory removed
	if err := c.Elect(ctx, 0); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := c.Wait(ctx, cluster.ExpectLeader(3, 10*time.Second)); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range c.Outcome().Lines {
		fmt.Printf("Control process says: %q\n", line)
	}
	// Output:
	// Control process says: "Election confirmed. Elected: node 3"
}

// A script of timed steps on four vkt nodes: the leader is killed, the
// survivors follow the most valued one left, and the summary times the
// failover.
func ExampleCluster_Run() {
	script, err := cluster.ParseScript("failover.yaml", []byte(`
steps:
  - expect: {leader: 3, within: 5s}
  - kill: leader
  - expect: {leader: 2, within: 3s}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	c, err := cluster.Start(ctx, cluster.Config{Nodes: 4, Hello: 50 * time.Millisecond,
		Params: map[string]string{"heartbeat": "100ms", "timeout": "500ms"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	runErr := c.Run(ctx, script)
	sum := c.Finish(runErr)
	for _, st := range sum.Steps {
		fmt.Printf("line %d: %s: ok %v\n", st.Line, st.Step, st.OK)
	}
	for _, f := range sum.Failovers {
		fmt.Printf("%s %d -> leaders %v (done %v)\n", f.How, f.Node, f.Leaders, f.Done)
	}
	fmt.Println(sum.Control.Lines)
	// Output:
	// line 3: expect leader 3 within 5s: ok true
	// line 4: kill leader: ok true
	// line 5: expect leader 2 within 3s: ok true
	// kill 3 -> leaders [2] (done true)
	// [Election confirmed. Elected: node 2]
}
