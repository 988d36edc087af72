package node

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
)

// getStatus is what GET /status on nd's handler answers.
func getStatus(t *testing.T, nd *Node) StatusJSON {
	t.Helper()
	rec := httptest.NewRecorder()
	nd.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/status", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /status: %d %s", rec.Code, rec.Body)
	}
	var st StatusJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatalf("GET /status: %v", err)
	}
	return st
}

// TestRestartReportsRecovered: issue 31's finding E. A node restarted with
// its state reported election_index 0, fencing_token 0, leader -1 and Norm
// until its machine booted, a hello interval later: an election index that
// went back, and a state the documents do not define. From its very first
// answer (before Run, as `elect node` serves HTTP before it) it now reports
// the recovered index and fence, and says it is starting; no status it
// publishes afterwards goes below them, and it stops starting once booted.
func TestRestartReportsRecovered(t *testing.T) {
	c := newCluster(t, 3, func(cfg *Config) { cfg.StateDir = t.TempDir() })
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	// The leader's token and index, as last reported before the restart
	// (the final save at the stop holds them).
	deadline := time.Now().Add(5 * time.Second)
	for !c.nodes[2].Status().Leading() {
		if time.Now().After(deadline) {
			t.Fatal("node 2 never led")
		}
		time.Sleep(2 * time.Millisecond)
	}
	for _, i := range []int{2, 0} { // the leader, and a follower
		before := c.nodes[i].Status()
		if before.ElectionIndex == 0 || before.FencingToken == 0 {
			t.Fatalf("node %d before the restart: election index %d, token %#x: nothing to recover", i, before.ElectionIndex, before.FencingToken)
		}
		c.stop(i)

		cfg := c.cfgs[i]
		cfg.Transport, cfg.Peers = c.net.Listen(), c.addrs
		nd, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		first := nd.Status()
		if first.ElectionIndex != before.ElectionIndex || first.FencingToken < before.FencingToken {
			t.Errorf("node %d's first status after its restart: election index %d, token %#x; it had %d, %#x",
				i, first.ElectionIndex, first.FencingToken, before.ElectionIndex, before.FencingToken)
		}
		if !first.Starting || first.Leader != algo.None || first.Leading() || first.HasLeader() {
			t.Errorf("node %d's first status: starting %v, leader %d, leading %v: want starting, no leader", i, first.Starting, first.Leader, first.Leading())
		}
		js := getStatus(t, nd)
		if js.ElectionIndex != before.ElectionIndex || js.FencingToken < before.FencingToken || !js.Starting || js.Leader != algo.None || js.Leading {
			t.Errorf("node %d's first GET /status: election_index %d, fencing_token %#x, starting %v, leader %d, leading %v; want %d, at least %#x, starting, -1, false",
				i, js.ElectionIndex, js.FencingToken, js.Starting, js.Leader, js.Leading, before.ElectionIndex, before.FencingToken)
		}

		// Every status it publishes from now on, the first included.
		watch, unwatch := context.WithCancel(context.Background())
		ch := nd.Subscribe(watch)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- nd.Run(ctx) }()
		c.nodes[i], c.stops[i], c.ended[i] = nd, cancel, done

		booted := false
		limit := time.After(5 * time.Second)
		for !booted {
			select {
			case st := <-ch:
				if st.ElectionIndex < before.ElectionIndex || st.FencingToken < before.FencingToken {
					t.Errorf("node %d after its restart: election index %d, token %#x (starting %v); it had %d, %#x",
						i, st.ElectionIndex, st.FencingToken, st.Starting, before.ElectionIndex, before.FencingToken)
				}
				if st.Starting && st.Leader != algo.None {
					t.Errorf("node %d starting with leader %d", i, st.Leader)
				}
				booted = !st.Starting
			case <-limit:
				t.Fatalf("node %d still starting 5 s after its restart", i)
			}
		}
		unwatch()
		c.waitAgree(ids(0, 3), 2, 3*time.Second)
		if js := getStatus(t, nd); js.Starting {
			t.Errorf("node %d: starting still, once it follows a leader", i)
		}
	}
}

// TestFreshNodeStarting: a node without state is starting, with nothing
// recovered, until its machine boots.
func TestFreshNodeStarting(t *testing.T) {
	c := newCluster(t, 1, nil)
	cfg := c.cfgs[0]
	cfg.Transport = c.net.Listen()
	defer cfg.Transport.Close() // never Run, which would close it
	nd, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := nd.Status(); !st.Starting || st.ElectionIndex != 0 || st.FencingToken != 0 || st.Leader != algo.None {
		t.Errorf("fresh node before Run: %+v, want starting, nothing recovered", st)
	}
	if js := getStatus(t, nd); !js.Starting {
		t.Errorf("fresh node's GET /status before Run: starting false")
	}
	// The cluster's own node 0, booted long since, is not.
	c.waitAgree([]int{0}, 0, 5*time.Second)
	if st := c.nodes[0].Status(); st.Starting {
		t.Errorf("a booted node still starting: %+v", st)
	}
}
