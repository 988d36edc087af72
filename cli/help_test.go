package cli

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
)

// cluster --help says that every registered algorithm runs on its real
// nodes, and names the network that each one written for a fixed network
// needs; so it is: each such algorithm is accepted on that network, as the
// cluster judges it before any process starts. (It said once that real
// nodes refused them.)
func TestClusterHelpFixedNetworks(t *testing.T) {
	cmd := newClusterCmd()
	help := cmd.Long + "\n" + cmd.Flags().Lookup("algo").Usage
	for _, stale := range []string{"spontaneous", "tolerating loss", "refuse"} {
		if strings.Contains(help, stale) {
			t.Errorf("cluster --help says %q of the algorithms it runs:\n%s", stale, help)
		}
	}
	for _, name := range algo.Names() {
		a, _ := algo.Lookup(name)
		spec := a.Model.Topology
		if spec == "" || strings.HasPrefix(name, "test-") || strings.HasPrefix(name, "example-") {
			continue // not for a fixed network, or a test's own
		}
		if !strings.Contains(cmd.Long, name) {
			t.Errorf("cluster --help does not say on which network %s (Model.Topology %q) runs", name, spec)
		}
		g, _, err := clusterTopology(spec, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg := &clusterConfig{algo: name, nodes: 4, graph: g, params: map[string]string{},
			hello: node.DefaultHello, helloLoss: node.DefaultHelloLoss}
		if err := checkNodeConfig(cfg); err != nil {
			t.Errorf("%s on --topology %s: %v", name, spec, err)
		}
	}
}

// emulate --help offers no --duration that emulate refuses: elect sim's
// 0 (until no event is left) is not one of an emulation's, which runs in
// real time.
func TestEmulateHelpDuration(t *testing.T) {
	usage := newEmulateCmd().Flags().Lookup("duration").Usage
	if strings.Contains(usage, "0:") || !strings.Contains(usage, "above 0") {
		t.Errorf("emulate --help says of --duration %q; want a duration above 0, and 0 not offered", usage)
	}
	if code, _, errOut := cli(t, "emulate", "-q", "--topology", "ring:4", "--duration", "0"); code != ExitError || !strings.Contains(errOut, "give one") {
		t.Errorf("emulate --duration 0: exit %d, %q; want it refused", code, errOut)
	}
}
