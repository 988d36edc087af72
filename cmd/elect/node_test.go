package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/node"
)

// TestNodeBadFlags: elect node names the flag at fault and exits 1.
func TestNodeBadFlags(t *testing.T) {
	short := filepath.Join(t.TempDir(), "key")
	os.WriteFile(short, []byte("tiny\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--listen", "127.0.0.1:0"}, "--id is required"},
		{[]string{"node", "--id", "1"}, "--listen is required"},
		{[]string{"node", "--id", "-4", "--listen", "127.0.0.1:0"}, "--id -4"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--peers", "2:127.0.0.1:7"}, `--peers: peer 1 "2:127.0.0.1:7": want ID=HOST:PORT`},
		{[]string{"node", "--id", "1", "--listen", "nowhere"}, "--listen: "},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--algo", "ring"}, "algorithm ring needs a ring network"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--param", "heartbeat"}, `--param "heartbeat": want NAME=VALUE`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--param", "beat=1s"}, `vkt has no parameter "beat"`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--key-file", short}, "the key has 4 bytes; use at least 16"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--log-level", "loud"}, `--log-level "loud"`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--hello-loss", "0"}, "--hello-loss 0"},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			code, _, errOut := cli(t, c.args...)
			if code != exitError || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line holding %q", code, errOut, c.want)
			}
		})
	}
}

// TestNodeBroadcastDiscovery runs three elect node processes in network
// namespaces of their own on one bridge, with no peer list: they find each
// other by broadcast hello beacons and elect. It needs root and iproute2.
func TestNodeBroadcastDiscovery(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for network namespaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("needs ip (iproute2)")
	}
	bin := filepath.Join(t.TempDir(), "elect")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tag := fmt.Sprintf("%x", os.Getpid()&0xffff)
	bridge := "ebr" + tag
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Cleanup(func() { exec.Command("ip", "link", "del", bridge).Run() })
	ip("link", "add", bridge, "type", "bridge")
	ip("link", "set", bridge, "up")
	var procs []*exec.Cmd
	for i := 1; i <= 3; i++ {
		ns := fmt.Sprintf("ens%s-%d", tag, i)
		veth := fmt.Sprintf("ev%s%d", tag, i)
		t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })
		ip("netns", "add", ns)
		ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
		ip("link", "set", veth, "master", bridge, "up")
		ip("-n", ns, "addr", "add", fmt.Sprintf("10.78.0.%d/24", i), "brd", "10.78.0.255", "dev", "eth0")
		ip("-n", ns, "link", "set", "eth0", "up")
		ip("-n", ns, "link", "set", "lo", "up")
		cmd := exec.Command("ip", "netns", "exec", ns, bin, "node", "--id", fmt.Sprint(i),
			"--listen", "0.0.0.0:7000", "--broadcast", "10.78.0.255:7000", "--http", "127.0.0.1:8000",
			"--hello", "50ms", "--param", "heartbeat=100ms", "--param", "timeout=500ms")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		agreed := 0
		var last string
		for i := 1; i <= 3; i++ {
			out, err := exec.Command("ip", "netns", "exec", fmt.Sprintf("ens%s-%d", tag, i), "curl", "-s", "127.0.0.1:8000/status").Output()
			var st node.StatusJSON
			if err == nil && json.Unmarshal(out, &st) == nil && st.State == "Norm" && st.Leader == 3 && len(st.Neighbors) == 2 {
				agreed++
			} else {
				last = fmt.Sprintf("node %d: %s %v", i, out, err)
			}
		}
		if agreed == 3 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes did not find each other by broadcast and agree on 3: %s", last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
