//go:build linux

package node

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// Issue 31, C: a leader whose state directory filled up (or went
// read-only) stopped reporting itself leader and failed /healthz, but its
// machine still led: it heartbeat as before, every other node kept
// following it for as long as it lived, and nobody led. Now a node that
// cannot save is silent, to the others a crashed node, until a save works:
// their failure detection elects another within a failover, and the
// failing node does not claim to lead. Once it can save again it comes
// back and, the most valued node, leads again with a token above the
// interim leader's.
//
// Three faults: the directory gone (a file in its place, which stops a save
// as root too), and, as root, a full tmpfs and a read-only one.
func TestSaveFailureStepsDown(t *testing.T) {
	// The usual failover, for comparison: the leader crashes.
	crash := newCluster(t, 3, nil)
	crash.waitAgree(ids(0, 3), 2, 5*time.Second)
	crashed := time.Now()
	crash.stop(2)
	usual := waitNewLeader(t, crash, ids(0, 2), 2, 5*time.Second, crashed)
	t.Logf("the usual failover: a crashed leader replaced after %v", usual.Round(time.Millisecond))

	for _, fault := range []string{"gone", "full", "read-only"} {
		t.Run(fault, func(t *testing.T) {
			dir := t.TempDir()
			if fault != "gone" {
				mountTmpfs(t, dir)
			}
			other := t.TempDir()
			c := newCluster(t, 3, func(cfg *Config) {
				cfg.StateDir = filepath.Join(other, fmt.Sprint("node-", cfg.ID))
				if cfg.ID == 2 {
					cfg.StateDir = filepath.Join(dir, "node-2")
				}
			})
			c.waitAgree(ids(0, 3), 2, 5*time.Second)
			leader := c.nodes[2]
			if !leader.Status().Leading() {
				t.Fatalf("node 2 does not lead before the fault: %+v", leader.Status())
			}

			faulted := time.Now()
			breakStorage(t, fault, dir, c.cfgs[2].StateDir)
			// The leader finds out at its next save: within a second (its
			// replay windows move with every hello it hears).
			waitFor(5*time.Second, func() bool { return leader.metrics.saveErrors.Load() > 0 })
			noticed := time.Now()
			if leader.metrics.saveErrors.Load() == 0 {
				t.Fatal("node 2 never failed a save")
			}
			took := waitNewLeader(t, c, ids(0, 2), 2, 5*time.Second, noticed)
			t.Logf("%s: the leader's first failed save %v after the fault; another node leads %v after it (%v after the fault)",
				fault, noticed.Sub(faulted).Round(time.Millisecond), took.Round(time.Millisecond), time.Since(faulted).Round(time.Millisecond))
			if limit := usual + time.Second; took > limit {
				t.Errorf("failover after a failed save took %v, the usual (a crash) %v", took, usual)
			}

			// It stays so while the node cannot save: nobody follows node
			// 2, which claims nothing.
			time.Sleep(500 * time.Millisecond)
			interim := c.nodes[0].Status().Leader
			for _, i := range ids(0, 2) {
				if st := c.nodes[i].Status(); !st.HasLeader() || st.Leader == 2 || st.Leader != interim {
					t.Errorf("node %d while node 2 cannot save: leader %d, %v (want %d)", i, st.Leader, st.State, interim)
				}
			}
			if st := leader.Status(); st.Leading() || st.Fenced {
				t.Errorf("node 2 claims to lead while it cannot save: %+v", st)
			}
			if !c.nodes[interim].Status().Leading() {
				t.Errorf("node %d, the others' leader, does not lead: %+v", interim, c.nodes[interim].Status())
			}
			interimToken := c.nodes[interim].Status().FencingToken
			if leader.metrics.withheld.Load() == 0 {
				t.Errorf("node 2 withheld no datagram while silent (elect_datagrams_withheld_total)")
			}

			// Saves work again: node 2 comes back and, the most valued,
			// leads again, with a token above the interim leader's.
			mendStorage(t, fault, dir, c.cfgs[2].StateDir)
			waitFor(5*time.Second, func() bool {
				st := leader.Status()
				return st.Leading() && c.nodes[0].Status().Leader == 2 && c.nodes[1].Status().Leader == 2
			})
			st := leader.Status()
			if !st.Leading() || st.FencingToken <= interimToken {
				t.Errorf("saving again: node 2 %+v, want leading with a token above %#x", st, interimToken)
			}
			for _, i := range ids(0, 2) {
				if st := c.nodes[i].Status(); st.Leader != 2 {
					t.Errorf("saving again: node %d follows %d, not node 2", i, st.Leader)
				}
			}
		})
	}
}

// A node restarted on storage that takes no save refuses to start, naming
// the error, before it sends anything: with its state (a full tmpfs, a
// read-only one) and without (a read-only one). It used to run as if
// nothing were wrong until its first save, and then lead its peers on
// state it could not keep.
func TestSaveFailureRefusesStart(t *testing.T) {
	for _, fault := range []string{"full", "read-only", "read-only, no state"} {
		t.Run(fault, func(t *testing.T) {
			dir := t.TempDir()
			mountTmpfs(t, dir)
			c := storageCluster(t, dir)
			c.stop(1) // a clean stop: its state is saved
			if fault == "read-only, no state" {
				if err := os.RemoveAll(c.cfgs[1].StateDir); err != nil {
					t.Fatal(err)
				}
			}
			c.waitAgree(ids(0, 1), 0, 5*time.Second)
			breakStorage(t, strings.TrimSuffix(fault, ", no state"), dir, c.cfgs[1].StateDir)

			c.restart(1)
			restarted := c.nodes[1]
			select {
			case err := <-c.ended[1]:
				c.stops[1] = nil
				if err == nil || !strings.Contains(err.Error(), "cannot save state") || !strings.Contains(err.Error(), dir) {
					t.Errorf("restarted on storage that takes no save: Run returned %v, want an error naming the save and the directory", err)
				}
			case <-time.After(3 * time.Second):
				t.Fatalf("restarted on storage that takes no save, node 1 still runs: %+v", restarted.Status())
			}
			if sent := restarted.metrics.hellosSent.Load(); sent != 0 {
				t.Errorf("node 1 sent %d hellos before refusing to start", sent)
			}
			if st := c.nodes[0].Status(); st.Leader != 0 || !st.Leading() {
				t.Errorf("node 0 after node 1 refused to start: %+v", st)
			}
		})
	}
}

// waitNewLeader waits until every node of group follows one leader other
// than old, and that leader leads (its token saved), and returns the time
// since from.
func waitNewLeader(t *testing.T, c *cluster, group []int, old algo.NodeID, within time.Duration, from time.Time) time.Duration {
	t.Helper()
	deadline := from.Add(within)
	for {
		l := c.nodes[group[0]].Status().Leader
		ok := l != old && l != algo.None
		for _, i := range group {
			if st := c.nodes[i].Status(); !ok || !st.HasLeader() || st.Leader != l {
				ok = false
				break
			}
		}
		if ok && int(l) < len(c.nodes) && c.nodes[l].Status().Leading() {
			return time.Since(from)
		}
		if time.Now().After(deadline) {
			var got []string
			for i := range c.nodes {
				if c.stops[i] != nil {
					st := c.nodes[i].Status()
					got = append(got, fmt.Sprintf("node %d: %v, leader %d, leading %v", i, st.State, st.Leader, st.Leading()))
				}
			}
			t.Fatalf("no leader but node %d within %v: %s", old, within, strings.Join(got, "; "))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// storageCluster is two nodes led by node 1, which saves its state on dir
// (node 0 elsewhere, unharmed).
func storageCluster(t *testing.T, dir string) *cluster {
	t.Helper()
	other := t.TempDir()
	c := newCluster(t, 2, func(cfg *Config) {
		cfg.StateDir = filepath.Join(other, "node-0")
		if cfg.ID == 1 {
			cfg.StateDir = filepath.Join(dir, "node-1")
		}
	})
	c.waitAgree(ids(0, 2), 1, 5*time.Second)
	return c
}

// mountTmpfs mounts a 256 KB tmpfs at dir, as the audit did (root only).
func mountTmpfs(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
}

// breakStorage makes stateDir, on dir, take no save: replaced by a file
// (gone), dir's tmpfs filled (full) or remounted read-only.
func breakStorage(t *testing.T, fault, dir, stateDir string) {
	t.Helper()
	switch fault {
	case "gone":
		if err := os.RemoveAll(stateDir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(stateDir, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	case "full":
		fill(t, filepath.Join(dir, "filler"))
	case "read-only":
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, "size=256k"); err != nil {
			t.Fatalf("remounting read-only: %v", err)
		}
	default:
		t.Fatalf("no fault %q", fault)
	}
}

// mendStorage undoes breakStorage.
func mendStorage(t *testing.T, fault, dir, stateDir string) {
	t.Helper()
	var err error
	switch fault {
	case "gone":
		err = os.Remove(stateDir)
	case "full":
		err = os.Remove(filepath.Join(dir, "filler"))
	case "read-only":
		err = syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size=256k")
	}
	if err != nil {
		t.Fatal(err)
	}
}
