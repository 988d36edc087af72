package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electgo/elect/emulate"
	"github.com/electgo/elect/metrics"
)

// TestEmulateBadInput: elect emulate names what is wrong, on one line,
// and exits 1; what it can judge without root, it judges first.
func TestEmulateBadInput(t *testing.T) {
	dir := t.TempDir()
	zero := writeFile(t, dir, "zero.yaml", "algorithm: vkt\ntopology: ring:4\nduration: 0\n")
	echoCrash := writeFile(t, dir, "echo-crash.yaml", "algorithm: echo\ntopology: ring:4\nduration: 5s\nevents:\n  - {at: 1s, crash: 2}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hello", "soon"}, `--hello "soon": want a duration above 0`},
		{[]string{"--hello", "0s"}, `--hello "0s": want a duration above 0`},
		{[]string{"--hello-loss", "0"}, "--hello-loss 0: want at least 1"},
		{[]string{"--port", "70000"}, "--port 70000: want 1 to 65535"},
		{[]string{"--cleanup", "--topology", "ring:3"}, "--cleanup takes no scenario"},
		{[]string{"--algo", "ring", "--topology", "ring:4"}, "algorithm ring assumes a fixed ring network (Model.Topology)"},
		{[]string{echoCrash}, echoCrash + ":5: crash: algorithm echo does not survive crashes (Model.Crash is false)"},
		{[]string{"--topology", "ring:4", "--duration", "0"}, "an emulation runs in real time until its duration"},
		{[]string{zero}, zero + ":3:11: duration: an emulation runs in real time"},
		{[]string{"--topology", "ring:x"}, "--topology: "},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errOut := cli(t, append([]string{"emulate", "-q"}, c.args...)...)
			if code != ExitError || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line holding %q", code, errOut, c.want)
			}
		})
	}
}

// TestEmulateMissingTools: without ip and nft in PATH, elect emulate says
// what to install.
func TestEmulateMissingTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, _, errOut := cli(t, "emulate", "-q", "--topology", "ring:3", "--duration", "1s")
	for _, want := range []string{"ip not found in PATH: install iproute2", "nft not found in PATH: install nftables"} {
		if code != ExitError || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
		}
	}
}

// TestEmulateCompareJSON runs three real nodes in namespaces of their own,
// with no peer list: they find each other by broadcast hellos over the
// bridge and elect the highest; --compare --json prints both runs, which
// agree, and its trace re-checks. The nodes are this test binary, run as elect node. A neighbour is
// lost after 1 s unheard: go test runs other packages' real-time tests
// beside this one.
func TestEmulateCompareJSON(t *testing.T) {
	if err := emulate.Preflight(); err != nil {
		t.Skipf("cannot emulate here: %v", err)
	}
	tracePath := filepath.Join(t.TempDir(), "emulated.jsonl")
	code, out, errOut := cli(t, "emulate", "-q", "--topology", "complete:3", "--values", "id",
		"--duration", "4s", "--hello", "100ms", "--hello-loss", "10", "--json", "--compare", "--trace", tracePath)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	var c emulate.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if !c.SameFinalLeaders || len(c.Differences) != 0 || c.Emulated == nil || c.Simulated == nil {
		t.Fatalf("comparison %+v", c)
	}
	for _, f := range c.Emulated.Final {
		if !f.Alive || f.Leader != 2 || f.State != "Norm" {
			t.Errorf("node %d ended %+v, want alive following 2 in Norm", f.ID, f)
		}
	}
	em := c.Emulated.Emulation
	if em == nil || em.Lives != 3 || em.HelloMS != 100 || em.HellosReceived == 0 || em.NodeCPUSeconds <= 0 || em.NodeRSSMaxMB <= 0 {
		t.Errorf("emulation %+v", em)
	}
	if c.Simulated.Emulation != nil {
		t.Errorf("the simulated run has an emulation part: %+v", c.Simulated.Emulation)
	}
	// The emulated run's trace re-checks to the same verdict.
	code, out, errOut = cli(t, "check", "--json", tracePath)
	var rechecked metrics.Summary
	if code != ExitOK || json.Unmarshal([]byte(out), &rechecked) != nil {
		t.Fatalf("elect check of the emulated trace: exit %d, stderr %q\n%s", code, errOut, out)
	}
	if rechecked.ViolationCount != 0 || rechecked.Elections.Completed != c.Emulated.Elections.Completed || rechecked.TraceHash != c.Emulated.TraceHash {
		t.Errorf("re-checked: %d violations, %d elections, hash %s; the run had %d elections, hash %s",
			rechecked.ViolationCount, rechecked.Elections.Completed, rechecked.TraceHash, c.Emulated.Elections.Completed, c.Emulated.TraceHash)
	}
}
