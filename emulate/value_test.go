//go:build linux

// These tests need no root: the node is a sleep process, its HTTP
// server a socket file in the test's directory, or none.

package emulate

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/trace"
)

// valueRig is an emulation of one node, node 0 of value 1, whose process
// is a sleep that runs; its POST /value reaches serve, or nothing when
// serve is nil.
func valueRig(t *testing.T, serve http.HandlerFunc) (*emulation, *recorder) {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "http.sock")
	if serve != nil {
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: serve}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
	}
	sup := supervisor.New(supervisor.Spec{Name: "node 0", Binary: "sleep", Args: []string{"60"},
		Log: filepath.Join(dir, "log"), HTTP: supervisor.Endpoint{Network: "unix", Address: sock}})
	if err := sup.Launch(supervisor.Start); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Kill() })
	rec := &recorder{}
	e := &emulation{
		procs:         []*proc{{id: 0, value: 1, sup: sup}},
		j:             journal.New(time.Now(), 0, []trace.Observer{rec}),
		log:           t.Logf,
		pendingValues: map[algo.NodeID]int64{},
		gray:          grayState{frozen: map[algo.NodeID]bool{}, pending: map[algo.NodeID]node.Gray{}},
	}
	return e, rec
}

// set carries out a value event for node 0 and returns its error and the
// events journaled.
func set(e *emulation, rec *recorder, to int64) ([]trace.Event, error) {
	err := e.act(context.Background(), &sim.Action{Kind: sim.SetValue, Nodes: []algo.NodeID{0}, Value: to})
	e.j.Pass(time.Hour)
	got := rec.got
	rec.got = nil
	return got, err
}

// wantChange checks that the events are the one value change of node 0 to
// v, and that the node's next lives start with it.
func wantChange(t *testing.T, e *emulation, got []trace.Event, v int64) {
	t.Helper()
	if len(got) != 1 || got[0].Kind != trace.ValueChanged || got[0].Node != 0 || got[0].Value != v {
		t.Errorf("journaled %+v, want node 0's value changed to %d", got, v)
	}
	if args := e.procs[0].sup.Args(); !slices.Equal(args, []string{"60", "--value", strconv.FormatInt(v, 10)}) {
		t.Errorf("next lives' args %q, want --value %d", args, v)
	}
}

// A value event on a live node that answers sets it there.
func TestValueSent(t *testing.T) {
	var mu sync.Mutex
	var posted []int64
	sent := func() []int64 { mu.Lock(); defer mu.Unlock(); return slices.Clone(posted) }
	e, rec := valueRig(t, func(w http.ResponseWriter, r *http.Request) {
		var in node.ValueJSON
		if r.URL.Path != "/value" || json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		posted = append(posted, in.Value)
		mu.Unlock()
		json.NewEncoder(w).Encode(in)
	})
	got, err := set(e, rec, 5)
	if err != nil {
		t.Fatalf("value 5: %v", err)
	}
	wantChange(t, e, got, 5)
	if !slices.Equal(sent(), []int64{5}) || len(e.pendingValues) != 0 {
		t.Errorf("posted %v, pending %v; want 5 posted, nothing pending", sent(), e.pendingValues)
	}
	// The value it has already: nothing journaled, nothing sent.
	if got, err := set(e, rec, 5); err != nil || len(got) != 0 || !slices.Equal(sent(), []int64{5}) {
		t.Errorf("value 5 again: error %v, journaled %+v, posted %v; want nothing", err, got, sent())
	}
}

// A value event on a live node that is not frozen and does not answer
// fails the run: nothing would ever send it the value the journal says it
// has. A frozen node takes it when it goes on; a dead one, on its next
// life.
func TestValueUnanswered(t *testing.T) {
	e, rec := valueRig(t, nil)
	got, err := set(e, rec, 5)
	if err == nil || !strings.Contains(err.Error(), "setting node 0's value: ") {
		t.Errorf("value 5 on a node that does not answer: error %v, want one setting node 0's value", err)
	}
	wantChange(t, e, got, 5)
	if len(e.pendingValues) != 0 {
		t.Errorf("pending %v after the error, want nothing", e.pendingValues)
	}

	e.gray.frozen[0] = true
	got, err = set(e, rec, 6)
	if err != nil {
		t.Errorf("value 6 on a frozen node: %v", err)
	}
	wantChange(t, e, got, 6)
	if x, ok := e.pendingValues[0]; !ok || x != 6 {
		t.Errorf("pending %v on a frozen node, want 6 for node 0", e.pendingValues)
	}

	e.gray.frozen[0] = false
	delete(e.pendingValues, 0)
	if _, err := e.procs[0].sup.Kill(); err != nil {
		t.Fatal(err)
	}
	got, err = set(e, rec, 7)
	if err != nil {
		t.Errorf("value 7 on a dead node: %v", err)
	}
	wantChange(t, e, got, 7)
	if len(e.pendingValues) != 0 {
		t.Errorf("pending %v on a dead node, want nothing: its next life starts with it", e.pendingValues)
	}
}
