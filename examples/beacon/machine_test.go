package beacon_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/examples/beacon"
)

// env is an algo.Env a test drives by hand: it writes down what the
// machine sends as "TYPE>TO <term,leader> beat", "; "-separated.
type env struct {
	id    algo.NodeID
	value int64
	nbrs  []algo.NodeID
	timer map[algo.Timer]time.Duration
	sent  []string
	rng   *rand.Rand
}

func newEnv(id algo.NodeID, nbrs ...algo.NodeID) *env {
	return &env{id: id, value: int64(id), nbrs: nbrs, timer: map[algo.Timer]time.Duration{}, rng: rand.New(rand.NewPCG(1, 2))}
}

func (e *env) ID() algo.NodeID          { return e.id }
func (e *env) Value() int64             { return e.value }
func (e *env) Now() time.Duration       { return 0 }
func (e *env) Rand() *rand.Rand         { return e.rng }
func (e *env) Neighbors() []algo.NodeID { return e.nbrs }
func (e *env) Send(to algo.NodeID, m algo.Message) {
	e.sent = append(e.sent, fmt.Sprintf("%s>%d %v %d", beacon.MessageNames[m.Type], to, m.Index, m.Level))
}
func (e *env) SetTimer(t algo.Timer, d time.Duration) { e.timer[t] = d }
func (e *env) StopTimer(t algo.Timer)                 { delete(e.timer, t) }
func (e *env) Report(what string)                     { e.sent = append(e.sent, "report: "+what) }

// take returns what was sent since the last call.
func (e *env) take() string {
	s := strings.Join(e.sent, "; ")
	e.sent = nil
	return s
}

// machine builds one node of a 10-node network with parameters raw.
func machine(t *testing.T, id algo.NodeID, raw map[string]string) algo.Machine {
	t.Helper()
	a, err := algo.Lookup("beacon")
	if err != nil {
		t.Fatal(err)
	}
	_, newNode, err := a.Instantiate(raw, 10)
	if err != nil {
		t.Fatal(err)
	}
	return newNode(id)
}

// beat is a heartbeat of leader l, term <num, l>, beat b, from a neighbour.
func beat(from, l algo.NodeID, num uint32, b int32) *algo.Message {
	return &algo.Message{Type: beacon.Heartbeat, From: from, Peer: algo.Peer{ID: l, Value: int64(l)}, Index: algo.Index{Num: num, ID: l}, Level: b}
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: sent %q, want %q", what, got, want)
	}
}

func status(t *testing.T, what string, m algo.Machine, want algo.Status) {
	t.Helper()
	if got := m.Status(); got != want {
		t.Errorf("%s: status %+v, want %+v", what, got, want)
	}
}

// TestCampaign: a node boots as a candidate with term <1,self>, beats at
// once and at each tick, and leads at its timeout-th tick; the period and
// the timeout are its parameters.
func TestCampaign(t *testing.T) {
	m := machine(t, 5, map[string]string{"period": "200ms", "timeout": "3"})
	e := newEnv(5, 2, 7)
	m.Start(e)
	expect(t, "Start", e.take(), "heartbeat>2 <1,5> 1; heartbeat>7 <1,5> 1")
	status(t, "Start", m, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 1, ID: 5}})
	if d := e.timer[0]; d != 200*time.Millisecond {
		t.Errorf("tick set to %v, want the period 200ms", d)
	}
	m.Timer(e, 0)
	m.Timer(e, 0)
	expect(t, "two ticks", e.take(), "heartbeat>2 <1,5> 2; heartbeat>7 <1,5> 2; heartbeat>2 <1,5> 3; heartbeat>7 <1,5> 3")
	status(t, "two ticks", m, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 1, ID: 5}})
	m.Timer(e, 0)
	expect(t, "third tick", e.take(), "heartbeat>2 <1,5> 4; heartbeat>7 <1,5> 4")
	status(t, "third tick", m, algo.Status{Leader: 5, State: algo.Norm, Index: algo.Index{Num: 1, ID: 5}})
	// A less valued node's beat changes nothing.
	m.Receive(e, beat(2, 3, 7, 1))
	expect(t, "a worse leader's beat", e.take(), "")
	status(t, "a worse leader's beat", m, algo.Status{Leader: 5, State: algo.Norm, Index: algo.Index{Num: 1, ID: 5}})
}

// TestFollow: a node follows the most valued node it hears of, relays each
// new beat once to every neighbour but the sender, ignores copies, answers
// a report of an earlier term with stale (once a tick), and drops a leader at its
// timeout-th silent tick, campaigning with a term above every one it saw.
func TestFollow(t *testing.T) {
	m := machine(t, 3, nil)
	e := newEnv(3, 1, 4, 8)
	m.Start(e)
	e.take()
	m.Receive(e, beat(4, 8, 6, 10))
	expect(t, "a better leader's beat", e.take(), "heartbeat>1 <6,8> 10; heartbeat>8 <6,8> 10")
	status(t, "a better leader's beat", m, algo.Status{Leader: 8, State: algo.Norm, Index: algo.Index{Num: 6, ID: 8}})
	m.Receive(e, beat(8, 8, 6, 10))
	m.Receive(e, beat(1, 8, 6, 9))
	expect(t, "copies", e.take(), "")
	m.Receive(e, beat(1, 8, 5, 30))
	expect(t, "an earlier term", e.take(), "stale>1 <6,8> 10")
	m.Receive(e, beat(1, 8, 5, 31))
	expect(t, "another in the same tick", e.take(), "")
	m.Timer(e, 0)
	m.Receive(e, beat(1, 8, 6, 6))
	expect(t, "4 beats behind in the same term, at the next tick", e.take(), "stale>1 <6,8> 10")
	m.Receive(e, beat(1, 9, 2, 1))
	expect(t, "a yet better leader", e.take(), "heartbeat>4 <2,9> 1; heartbeat>8 <2,9> 1")
	status(t, "a yet better leader", m, algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 2, ID: 9}})
	m.Receive(e, beat(4, 8, 6, 11))
	expect(t, "the former leader", e.take(), "")
	for range 3 {
		m.Timer(e, 0)
	}
	status(t, "three silent ticks", m, algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 2, ID: 9}})
	m.Receive(e, beat(8, 9, 2, 2))
	expect(t, "a new beat", e.take(), "heartbeat>1 <2,9> 2; heartbeat>4 <2,9> 2")
	for range 3 {
		m.Timer(e, 0)
	}
	expect(t, "three silent ticks", e.take(), "")
	m.Timer(e, 0)
	expect(t, "the fourth", e.take(), "heartbeat>1 <7,3> 1; heartbeat>4 <7,3> 1; heartbeat>8 <7,3> 1")
	status(t, "the fourth", m, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 7, ID: 3}})
	// A copy of the dropped leader's last beat does not bring it back; its
	// next one does.
	m.Receive(e, beat(4, 9, 2, 2))
	expect(t, "a ghost", e.take(), "")
	m.Receive(e, beat(4, 9, 2, 3))
	expect(t, "the next beat", e.take(), "heartbeat>1 <2,9> 3; heartbeat>8 <2,9> 3")
	status(t, "the next beat", m, algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 2, ID: 9}})
}

// TestStale: a stale message that reaches the leader it speaks of, with a
// report later than its own, makes it take a term above; a follower passes
// one on toward its leader (to the neighbour its latest beat came from)
// once a beat; a report later than the leader's own that comes back as a
// heartbeat (of an earlier life) does the same as a stale one.
func TestStale(t *testing.T) {
	l := machine(t, 9, nil)
	e := newEnv(9, 4)
	l.Start(e)
	e.take()
	stale := &algo.Message{Type: beacon.Stale, From: 4, Peer: algo.Peer{ID: 9, Value: 9}, Index: algo.Index{Num: 1, ID: 9}, Level: 1}
	l.Receive(e, stale)
	expect(t, "a report no later than its own", e.take(), "")
	stale.Level = 12
	l.Receive(e, stale)
	expect(t, "a later report", e.take(), "heartbeat>4 <2,9> 1")
	status(t, "a later report", l, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 2, ID: 9}})
	l.Receive(e, beat(4, 9, 5, 1))
	expect(t, "a heartbeat of an earlier life", e.take(), "heartbeat>4 <6,9> 1")

	f := machine(t, 3, nil)
	e = newEnv(3, 1, 4)
	f.Start(e)
	f.Receive(e, beat(4, 9, 1, 2))
	e.take()
	stale = &algo.Message{Type: beacon.Stale, From: 1, Peer: algo.Peer{ID: 9, Value: 9}, Index: algo.Index{Num: 1, ID: 9}, Level: 40}
	f.Receive(e, stale)
	f.Receive(e, stale)
	expect(t, "stale at a follower", e.take(), "stale>4 <1,9> 40")
	f.Receive(e, beat(4, 9, 1, 3))
	f.Receive(e, stale)
	expect(t, "stale after the next beat", e.take(), "heartbeat>1 <1,9> 3; stale>4 <1,9> 40")
	stale.From = 4
	f.Receive(e, beat(4, 9, 1, 4))
	f.Receive(e, stale)
	expect(t, "stale from the neighbour it would go to", e.take(), "heartbeat>1 <1,9> 4")
}

// TestElectAndValue: Elect starts a new campaign, unless the node is
// campaigning already; a follower whose leader becomes less valued than
// itself campaigns.
func TestElectAndValue(t *testing.T) {
	m := machine(t, 3, nil)
	e := newEnv(3, 4)
	m.Start(e)
	m.Elect(e)
	expect(t, "Elect on a candidate", e.take(), "heartbeat>4 <1,3> 1")
	m.Receive(e, beat(4, 8, 1, 1))
	e.take()
	m.Elect(e)
	expect(t, "Elect", e.take(), "heartbeat>4 <2,3> 1")
	status(t, "Elect", m, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 2, ID: 3}})
	m.Receive(e, beat(4, 8, 1, 2))
	status(t, "the leader's next beat", m, algo.Status{Leader: 8, State: algo.Norm, Index: algo.Index{Num: 1, ID: 8}})
	e.take()
	e.value = 100
	m.Timer(e, 0)
	expect(t, "more valued than its leader", e.take(), "heartbeat>4 <3,3> 1")
	status(t, "more valued than its leader", m, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 3, ID: 3}})
}

// TestNeighborUp: a new neighbour is told the latest beat.
func TestNeighborUp(t *testing.T) {
	m := machine(t, 3, nil)
	e := newEnv(3, 4)
	m.Start(e)
	m.Receive(e, beat(4, 8, 2, 7))
	e.take()
	e.nbrs = []algo.NodeID{4, 6}
	m.NeighborUp(e, 6)
	m.NeighborDown(e, 4)
	expect(t, "a new neighbour", e.take(), "heartbeat>6 <2,8> 7")
}

// TestSaveRecover: Save and Recover round-trip: a recovered follower
// follows its leader again with the same term, keeps what it knew of the
// others (a ghost is still refused) and says so in a Save identical to the
// one it came from; a recovered leader takes a new term; saved state that
// does not read back is an error, never a panic.
func TestSaveRecover(t *testing.T) {
	m := machine(t, 3, nil)
	e := newEnv(3, 1, 4)
	m.Start(e)
	m.Receive(e, beat(4, 7, 2, 5))
	m.Receive(e, beat(4, 8, 4, 9))
	saved := m.Save()
	back := machine(t, 3, nil)
	if err := back.Recover(e, bytes.Clone(saved)); err != nil {
		t.Fatal(err)
	}
	status(t, "recovered follower", back, m.Status())
	if again := back.Save(); !bytes.Equal(again, saved) {
		t.Errorf("Save after Recover gives %x, want %x", again, saved)
	}
	e.take()
	back.Receive(e, beat(4, 7, 1, 99))
	back.Receive(e, beat(4, 7, 2, 1))
	expect(t, "reports of 7 it had (beat numbers are not saved: a later beat of the same term is new)", e.take(), "stale>4 <2,7> 0")
	for range 4 {
		back.Timer(e, 0)
	}
	status(t, "four silent ticks after recovery", back, algo.Status{Leader: algo.None, State: algo.Elect, Index: algo.Index{Num: 5, ID: 3}})

	l := machine(t, 9, nil)
	e = newEnv(9, 4)
	l.Start(e)
	for range 4 {
		l.Timer(e, 0)
	}
	status(t, "a leader", l, algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 1, ID: 9}})
	e.take()
	back = machine(t, 9, nil)
	if err := back.Recover(e, l.Save()); err != nil {
		t.Fatal(err)
	}
	expect(t, "recovered leader", e.take(), "heartbeat>4 <2,9> 1")
	status(t, "recovered leader", back, algo.Status{Leader: 9, State: algo.Norm, Index: algo.Index{Num: 2, ID: 9}})

	for _, bad := range [][]byte{nil, {1}, saved[:len(saved)-1], append([]byte{2}, saved[1:]...), append(bytes.Clone(saved[:1]), append([]byte{9}, saved[2:]...)...)} {
		back = machine(t, 3, nil)
		if err := back.Recover(e, bad); err == nil {
			t.Errorf("Recover(%x) accepted", bad)
		}
		status(t, fmt.Sprintf("after Recover(%x)", bad), back, algo.Status{Leader: algo.None, State: algo.Norm})
	}
}

// TestParams: the defaults, and bad values refused with an error naming
// the parameter.
func TestParams(t *testing.T) {
	a, err := algo.Lookup("beacon")
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Resolve(nil)
	if err != nil || p["period"] != "500ms" || p["timeout"] != "4" {
		t.Errorf("defaults %v, %v; want period 500ms, timeout 4", p, err)
	}
	for _, c := range []struct{ name, value string }{
		{"period", "0s"}, {"period", "-1s"}, {"period", "fast"}, {"period", "10"},
		{"timeout", "1"}, {"timeout", "0"}, {"timeout", "-3"}, {"timeout", "2.5"}, {"timeout", "1001"}, {"timeout", "3s"}, {"timeout", ""},
	} {
		_, _, err := a.Instantiate(map[string]string{c.name: c.value}, 4)
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s=%q: error %v, want one naming %s", c.name, c.value, err, c.name)
		}
	}
	for _, c := range []struct{ name, value string }{{"period", "1ms"}, {"timeout", "2"}, {"timeout", " 1000 "}} {
		if _, _, err := a.Instantiate(map[string]string{c.name: c.value}, 4); err != nil {
			t.Errorf("%s=%q: %v", c.name, c.value, err)
		}
	}
}

// TestFarLeader: the runtime builds a node for a network as large as its
// peers' largest id, but a leader may be many hops away with a larger one:
// node 1 of a line knowing only node 0 and 2 follows node 40.
func TestFarLeader(t *testing.T) {
	a, err := algo.Lookup("beacon")
	if err != nil {
		t.Fatal(err)
	}
	_, newNode, err := a.Instantiate(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	m := newNode(1)
	e := newEnv(1, 0, 2)
	m.Start(e)
	e.take()
	m.Receive(e, beat(2, 40, 1, 3))
	expect(t, "a beat of node 40", e.take(), "heartbeat>0 <1,40> 3")
	status(t, "a beat of node 40", m, algo.Status{Leader: 40, State: algo.Norm, Index: algo.Index{Num: 1, ID: 40}})
	back := newNode(1)
	if err := back.Recover(e, m.Save()); err != nil {
		t.Fatalf("Recover of a follower of 40: %v", err)
	}
	status(t, "recovered", back, m.Status())
}
