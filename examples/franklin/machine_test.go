package franklin_test

import (
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
	"github.com/electgo/elect/examples/franklin"
)

// machine builds node id of a ring of n nodes, with its Env.
func machine(t *testing.T, id algo.NodeID, nbrs ...algo.NodeID) (algo.Machine, *algotest.Env) {
	t.Helper()
	a, err := algo.Lookup("franklin")
	if err != nil {
		t.Fatal(err)
	}
	_, newNode, err := a.Instantiate(nil, 8)
	if err != nil {
		t.Fatal(err)
	}
	return newNode(id), algotest.New(id, franklin.MessageNames, nbrs...)
}

func number(from algo.NodeID, round int32, p algo.Peer) *algo.Message {
	return &algo.Message{Type: franklin.Number, From: from, Index: algo.Index{Num: 1, ID: p.ID}, Peer: p, Level: round}
}

// TestEarlyNumberRelayed: node 2 (value 2, neighbours 1 and 3) hears from
// side 1 a number of round 1 before the number of round 0 from side 3. It
// keeps it; when node 3's better number ends its round 0, it turns passive
// and relays the kept number to node 3, in the direction it was going.
func TestEarlyNumberRelayed(t *testing.T) {
	m, env := machine(t, 2, 1, 3)
	m.Start(env)
	if got := env.Take(); got != "" {
		t.Fatalf("Start sent %q, want nothing: initiation is the driver's", got)
	}
	m.Elect(env)
	if got, want := env.Take(), "number>1 <1,2> 2; number>3 <1,2> 2"; got != want {
		t.Fatalf("Elect sent %q, want %q", got, want)
	}
	m.Receive(env, number(1, 0, algo.Peer{ID: 1, Value: 1}))
	m.Receive(env, number(1, 1, algo.Peer{ID: 7, Value: 7}))
	if got := env.Take(); got != "" {
		t.Fatalf("sent %q before round 0 ended", got)
	}
	if s := m.Status(); s.State != algo.Elect {
		t.Fatalf("status %+v, want Elect", s)
	}
	m.Receive(env, number(3, 0, algo.Peer{ID: 3, Value: 3}))
	if got, want := env.Take(), "number>3 <1,7> 7 (again)"; got != want { // (again): Level 1, the round
		t.Fatalf("sent %q, want %q", got, want)
	}
	if s := m.Status(); s.State != algo.Wait {
		t.Fatalf("status %+v, want Wait (passive)", s)
	}
	// Passive: it relays what comes, either way.
	m.Receive(env, number(3, 2, algo.Peer{ID: 9, Value: 9}))
	if got, want := env.Take(), "number>1 <1,9> 9"; got != want {
		t.Fatalf("sent %q, want %q", got, want)
	}
}

// TestEarlyNumberRead: node 2 beats both neighbours in round 0 and reads
// the round-1 number it had kept as soon as round 1 begins; round 1 ends
// when the other side's arrives.
func TestEarlyNumberRead(t *testing.T) {
	m, env := machine(t, 2, 1, 3)
	m.Start(env)
	m.Elect(env)
	env.Take()
	m.Receive(env, number(1, 0, algo.Peer{ID: 1, Value: 1}))
	m.Receive(env, number(1, 1, algo.Peer{ID: 0, Value: 0}))
	m.Receive(env, number(3, 0, algo.Peer{ID: 3, Value: -1}))
	if got, want := env.Take(), "number>1 <1,2> 2 (again); number>3 <1,2> 2 (again)"; got != want {
		t.Fatalf("round 1 sent %q, want %q", got, want)
	}
	m.Receive(env, number(3, 1, algo.Peer{ID: 5, Value: 5}))
	if got, want := env.Take(), ""; got != want {
		t.Fatalf("sent %q, want nothing (passive, nothing kept)", got)
	}
	if s := m.Status(); s.State != algo.Wait {
		t.Fatalf("status %+v, want Wait: 5 beats 2", s)
	}
}

// TestWoken: a node that hears a number before its own Elect becomes
// active in round 0 and sends its number both ways first; a later Elect
// changes nothing.
func TestWoken(t *testing.T) {
	m, env := machine(t, 2, 1, 3)
	m.Start(env)
	m.Receive(env, number(3, 0, algo.Peer{ID: 3, Value: 3}))
	if got, want := env.Take(), "number>1 <1,2> 2; number>3 <1,2> 2"; got != want {
		t.Fatalf("woken node sent %q, want %q", got, want)
	}
	m.Elect(env)
	if got := env.Take(); got != "" {
		t.Fatalf("Elect during the election sent %q", got)
	}
	m.Receive(env, number(1, 0, algo.Peer{ID: 1, Value: 1}))
	if s := m.Status(); s.State != algo.Wait || s.Index != (algo.Index{Num: 1, ID: 2}) {
		t.Fatalf("status %+v, want Wait in election <1,2>", s)
	}
}

// TestSaveRecover: Recover brings back the election number and the leader
// Save kept; an election under way is lost with its messages, so a node
// saved during one comes back idle, in Norm without a leader.
func TestSaveRecover(t *testing.T) {
	m, env := machine(t, 2, 1, 3)
	m.Start(env)
	m.Elect(env)
	back, _ := machine(t, 2, 1, 3)
	if err := back.Recover(env, m.Save()); err != nil {
		t.Fatal(err)
	}
	if s, want := back.Status(), (algo.Status{Leader: algo.None, State: algo.Norm, Index: algo.Index{Num: 1, ID: 2}}); s != want {
		t.Errorf("recovered during an election: status %+v, want %+v", s, want)
	}
	m.Receive(env, &algo.Message{Type: franklin.Leader, From: 1, Index: algo.Index{Num: 1, ID: 7}, Peer: algo.Peer{ID: 7, Value: 7}})
	if got, want := env.Take(), "number>1 <1,2> 2; number>3 <1,2> 2; leader>3 <1,7> 7"; got != want {
		t.Errorf("sent %q, want %q", got, want)
	}
	back, _ = machine(t, 2, 1, 3)
	if err := back.Recover(env, m.Save()); err != nil {
		t.Fatal(err)
	}
	if s, want := back.Status(), (algo.Status{Leader: 7, State: algo.Norm, Index: algo.Index{Num: 1, ID: 7}}); s != want {
		t.Errorf("recovered after the election: status %+v, want %+v", s, want)
	}
	if err := back.Recover(env, []byte{1, 2, 3}); err == nil {
		t.Errorf("Recover accepted 3 bytes")
	}
}
