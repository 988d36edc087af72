//go:build linux

package node

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The sixth finding of issue 20: a node whose state directory cannot be
// written kept leading, said it was healthy and exited 0 after a failed
// final save. Now it is unhealthy, leads no more as far as its users are
// told, and a stop reports the failed save; once saves work again it is
// healthy and leads again. Three faults: the directory gone (a file in its
// place), and, as root, a full file system and a read-only one (a small
// tmpfs filled up, or remounted read-only).
func TestStorageFaults(t *testing.T) {
	for _, fault := range []string{"gone", "full", "read-only"} {
		t.Run(fault, func(t *testing.T) {
			dir := t.TempDir()
			if fault != "gone" {
				mountTmpfs(t, dir)
			}
			c := storageCluster(t, dir)
			leader := c.nodes[1]
			healthz := func() (int, string) {
				rec := httptest.NewRecorder()
				leader.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
				return rec.Code, rec.Body.String()
			}
			if code, body := healthz(); code != http.StatusOK {
				t.Fatalf("healthy leader: /healthz %d %q", code, body)
			}

			stateDir := c.cfgs[1].StateDir
			breakStorage(t, fault, dir, stateDir)
			c.nodes[0].Elect() // a change every node must save
			waitFor(5*time.Second, func() bool { code, _ := healthz(); return code != http.StatusOK })
			code, body := healthz()
			if code != http.StatusServiceUnavailable || !strings.Contains(body, "cannot save state") {
				t.Errorf("unable to save: /healthz %d %q, want 503 naming the save", code, body)
			}
			if st := leader.Status(); st.Leading() || leader.metrics.saveErrors.Load() == 0 {
				t.Errorf("unable to save, node 1 still leads (%+v), %d save errors counted", st, leader.metrics.saveErrors.Load())
			}

			if fault == "gone" {
				// Saves work again: healthy, and leading, at the next change.
				mendStorage(t, fault, dir, stateDir)
				c.nodes[0].Elect()
				waitFor(5*time.Second, func() bool { code, _ := healthz(); return code == http.StatusOK && leader.Status().Leading() })
				if code, body := healthz(); code != http.StatusOK || !leader.Status().Leading() {
					t.Errorf("saving again: /healthz %d %q, leading %v", code, body, leader.Status().Leading())
				}
				return
			}
			// A stop now reports that the state on disk is behind.
			c.stops[1]()
			err := <-c.ended[1]
			c.stops[1] = nil
			if err == nil || !strings.Contains(err.Error(), "final save failed") {
				t.Errorf("stopped while unable to save: Run returned %v, want the failed final save", err)
			}
		})
	}
}

// fill writes path until its file system has no room left (ENOSPC).
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the file system: %v, want ENOSPC", err)
			}
			return
		}
	}
}
