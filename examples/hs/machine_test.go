package hs_test

import (
	"slices"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
	"github.com/electgo/elect/examples/hs"
)

// levelEnv is algotest's Env that also writes down the Level of every
// message sent (algotest shows only whether it is 1).
type levelEnv struct {
	*algotest.Env
	levels []int32
}

func (e *levelEnv) Send(to algo.NodeID, m algo.Message) {
	e.levels = append(e.levels, m.Level)
	e.Env.Send(to, m)
}

// takeLevels returns the Levels sent since the last call.
func (e *levelEnv) takeLevels() []int32 {
	l := e.levels
	e.levels = nil
	return l
}

// machine builds node id with its Env (neighbours nbrs, value = id).
func machine(t *testing.T, id algo.NodeID, nbrs ...algo.NodeID) (algo.Machine, *levelEnv) {
	t.Helper()
	a, err := algo.Lookup("hs")
	if err != nil {
		t.Fatal(err)
	}
	_, newNode, err := a.Instantiate(nil, 8)
	if err != nil {
		t.Fatal(err)
	}
	return newNode(id), &levelEnv{Env: algotest.New(id, hs.MessageNames, nbrs...)}
}

func msg(typ algo.MsgType, from, cand algo.NodeID, level int32) *algo.Message {
	return &algo.Message{Type: typ, From: from, Index: algo.Index{Num: 1, ID: cand}, Peer: algo.Peer{ID: cand, Value: int64(cand)}, Level: level}
}

// TestPhases: a candidate probes 1 hop, then, with both replies, 2 hops
// (Level 1: one more hop after the first node), then 4 (Level 3); one
// reply is not enough.
func TestPhases(t *testing.T) {
	m, env := machine(t, 5, 4, 6)
	m.Start(env)
	if got := env.Take(); got != "" {
		t.Fatalf("Start sent %q, want nothing: initiation is the driver's", got)
	}
	m.Elect(env)
	if got, want := env.Take(), "probe>4 <1,5> 5; probe>6 <1,5> 5"; got != want {
		t.Fatalf("phase 0 sent %q, want %q", got, want)
	}
	m.Receive(env, msg(hs.Reply, 4, 5, 0))
	if got := env.Take(); got != "" {
		t.Fatalf("one reply started a phase: %q", got)
	}
	m.Receive(env, msg(hs.Reply, 6, 5, 0))
	if got, want := env.Take(), "probe>4 <1,5> 5 (again); probe>6 <1,5> 5 (again)"; got != want { // (again): Level 1
		t.Fatalf("phase 1 sent %q, want %q", got, want)
	}
	m.Receive(env, msg(hs.Reply, 6, 5, 0))
	m.Receive(env, msg(hs.Reply, 4, 5, 0))
	if got, want := env.Take(), "probe>4 <1,5> 5; probe>6 <1,5> 5"; got != want {
		t.Fatalf("phase 2 sent %q, want %q", got, want)
	}
	if got := env.takeLevels(); !slices.Equal(got, []int32{0, 0, 1, 1, 3, 3}) {
		t.Fatalf("probes of phases 0, 1, 2 had Levels %v, want 0 0 1 1 3 3 (hops left after the first)", got)
	}
	// Its own probe comes round: it wins and announces itself onward.
	m.Receive(env, &algo.Message{Type: hs.Probe, From: 6, Index: algo.Index{Num: 1, ID: 5}, Peer: algo.Peer{ID: 5, Value: 5}, Level: 0})
	if got, want := env.Take(), "leader>4 <1,5> 5"; got != want {
		t.Fatalf("winner sent %q, want %q", got, want)
	}
	if s := m.Status(); s != (algo.Status{Leader: 5, State: algo.Norm, Index: algo.Index{Num: 1, ID: 5}}) {
		t.Fatalf("status %+v, want Norm leading election <1,5>", s)
	}
}

// TestRelay: a better probe goes on while it has hops left and is answered
// where it has none; a worse one is swallowed; replies and the leader
// message go on to the other side.
func TestRelay(t *testing.T) {
	m, env := machine(t, 5, 4, 6)
	m.Start(env)
	m.Elect(env)
	env.Take()
	for _, c := range []struct {
		in   *algo.Message
		want string
	}{
		{msg(hs.Probe, 4, 3, 0), ""},
		{msg(hs.Probe, 4, 7, 2), "probe>6 <1,7> 7 (again)"},
		{msg(hs.Probe, 6, 7, 0), "reply>6 <1,7> 7"},
		{msg(hs.Reply, 6, 9, 0), "reply>4 <1,9> 9"},
		{msg(hs.Leader, 4, 9, 0), "leader>6 <1,9> 9"},
	} {
		m.Receive(env, c.in)
		if got := env.Take(); got != c.want {
			t.Errorf("%s from %d of %d: sent %q, want %q", hs.MessageNames[c.in.Type], c.in.From, c.in.Peer.ID, got, c.want)
		}
	}
	if s := m.Status(); s.Leader != 9 || s.State != algo.Norm {
		t.Fatalf("status %+v, want Norm following 9", s)
	}
}

// TestWoken: a node reached before its own Elect competes if the identity
// is worse than its own (it swallows it and probes), and only relays if it
// is better; a later Elect changes nothing.
func TestWoken(t *testing.T) {
	m, env := machine(t, 5, 4, 6)
	m.Start(env)
	m.Receive(env, msg(hs.Probe, 4, 3, 0))
	if got, want := env.Take(), "probe>4 <1,5> 5; probe>6 <1,5> 5"; got != want {
		t.Fatalf("woken by a worse probe: sent %q, want %q", got, want)
	}
	if s := m.Status(); s.State != algo.Elect {
		t.Fatalf("status %+v, want Elect (a candidate)", s)
	}

	m, env = machine(t, 5, 4, 6)
	m.Start(env)
	m.Receive(env, msg(hs.Probe, 4, 7, 0))
	if got, want := env.Take(), "reply>4 <1,7> 7"; got != want {
		t.Fatalf("woken by a better probe: sent %q, want %q", got, want)
	}
	if s := m.Status(); s.State != algo.Wait || s.Index != (algo.Index{Num: 1, ID: 7}) {
		t.Fatalf("status %+v, want Wait (a relay) in the computation <1,7>", s)
	}
	m.Elect(env)
	if got := env.Take(); got != "" {
		t.Fatalf("Elect during the election sent %q", got)
	}
}

// TestSaveRecover: Recover brings back the election number and the leader
// Save kept; an election under way is lost with its messages, so a node
// saved during one comes back idle, in Norm without a leader.
func TestSaveRecover(t *testing.T) {
	m, env := machine(t, 5, 4, 6)
	m.Start(env)
	m.Elect(env)
	back, _ := machine(t, 5, 4, 6)
	if err := back.Recover(env, m.Save()); err != nil {
		t.Fatal(err)
	}
	if s, want := back.Status(), (algo.Status{Leader: algo.None, State: algo.Norm, Index: algo.Index{Num: 1, ID: 5}}); s != want {
		t.Errorf("recovered during an election: status %+v, want %+v", s, want)
	}
	m.Receive(env, msg(hs.Leader, 4, 9, 0))
	back, _ = machine(t, 5, 4, 6)
	if err := back.Recover(env, m.Save()); err != nil {
		t.Fatal(err)
	}
	if s, want := back.Status(), (algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 1, ID: 9}}); s != want {
		t.Errorf("recovered after the election: status %+v, want %+v", s, want)
	}
	if err := back.Recover(env, []byte{1, 2, 3}); err == nil {
		t.Errorf("Recover accepted 3 bytes")
	}
}
