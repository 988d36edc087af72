package trace

import (
	"math"
	"testing"

	"github.com/electgo/elect/algo"
)

func TestHasherEmpty(t *testing.T) {
	a, b := NewHasher(), NewHasher()
	if a.Sum() != b.Sum() {
		t.Fatal("two fresh hashers differ")
	}
	e := Event{Kind: End, Peer: algo.None}
	b.Add(&e)
	if a.Sum() == b.Sum() {
		t.Fatal("adding an event left the sum unchanged")
	}
	// Sum does not consume anything.
	if s := b.Sum(); s != b.Sum() {
		t.Fatal("Sum is not repeatable")
	}
}

func TestHasherOrder(t *testing.T) {
	events := sampleEvents()
	base := hashOf(events)
	if base != hashOf(sampleEvents()) {
		t.Fatal("the same events hash differently")
	}
	for i := 0; i+1 < len(events); i++ {
		swapped := sampleEvents()
		swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
		if events[i].Kind == Acted || events[i+1].Kind == Acted {
			continue // passed over (TestHasherPassesOverActed)
		}
		if hashOf(swapped) == base {
			t.Errorf("swapping events %d and %d (%v, %v) leaves the hash unchanged", i, i+1, events[i].Kind, events[i+1].Kind)
		}
	}
	// Two events that differ only by which comes first.
	a := Event{Kind: NodeAdded, Node: 0, Peer: algo.None, Value: 1}
	b := Event{Kind: NodeAdded, Node: 1, Peer: algo.None, Value: 0}
	if hashOf([]Event{a, b}) == hashOf([]Event{b, a}) {
		t.Error("hash is not order sensitive")
	}
	// Dropping or repeating an event changes it too.
	if hashOf(events[:len(events)-1]) == base {
		t.Error("dropping the last event leaves the hash unchanged")
	}
	if hashOf(append(sampleEvents(), events[len(events)-1])) == base {
		t.Error("repeating the last event leaves the hash unchanged")
	}
}

// Every field that the trace records for a kind must move the hash, whichever
// bit of it changes: two runs that differ in any recorded detail must not
// share a fingerprint.
func TestHasherEveryField(t *testing.T) {
	type mutation struct {
		name string
		f    func(e *Event)
	}
	// Mutations of the fields that every kind carries.
	common := []mutation{
		{"At+1", func(e *Event) { e.At++ }},
		{"At high bit", func(e *Event) { e.At |= 1 << 62 }},
		{"At top byte", func(e *Event) { e.At ^= 0x7f << 56 }},
		{"Node+1", func(e *Event) { e.Node++ }},
		{"Node high bit", func(e *Event) { e.Node ^= 1 << 30 }},
		{"Node bit 24", func(e *Event) { e.Node ^= 1 << 24 }},
		{"Peer+1", func(e *Event) { e.Peer++ }},
		{"Peer bit 24", func(e *Event) { e.Peer ^= 1 << 24 }},
		{"Peer high bit", func(e *Event) { e.Peer ^= 1 << 30 }},
		{"Peer none", func(e *Event) {
			if e.Peer == algo.None {
				e.Peer = 1<<24 - 1 // the low 24 bits of None
			} else {
				e.Peer = algo.None
			}
		}},
	}
	msg := []mutation{
		{"Msg.Type", func(e *Event) { e.Msg.Type++ }},
		{"Msg.Type top", func(e *Event) { e.Msg.Type ^= 0x80 }},
		{"Msg.Level", func(e *Event) { e.Msg.Level++ }},
		{"Msg.Level sign", func(e *Event) { e.Msg.Level ^= math.MinInt32 }},
		{"Msg.Index.Num", func(e *Event) { e.Msg.Index.Num++ }},
		{"Msg.Index.Num top", func(e *Event) { e.Msg.Index.Num ^= 1 << 31 }},
		{"Msg.Index.ID", func(e *Event) { e.Msg.Index.ID++ }},
		{"Msg.Index.ID none", func(e *Event) { e.Msg.Index.ID = algo.None }},
		{"Msg.Peer.ID", func(e *Event) { e.Msg.Peer.ID++ }},
		{"Msg.Peer.ID top", func(e *Event) { e.Msg.Peer.ID ^= 1 << 30 }},
		{"Msg.Peer.Value", func(e *Event) { e.Msg.Peer.Value++ }},
		{"Msg.Peer.Value sign", func(e *Event) { e.Msg.Peer.Value ^= math.MinInt64 }},
		{"Msg.Peers more", func(e *Event) { e.Msg.Peers = append(e.Msg.Peers, algo.Peer{}) }},
		{"Msg.Peers fewer", func(e *Event) { e.Msg.Peers = e.Msg.Peers[:len(e.Msg.Peers)-1] }},
		{"Msg.Peers[0].ID", func(e *Event) { e.Msg.Peers[0].ID++ }},
		{"Msg.Peers[1].ID top", func(e *Event) { e.Msg.Peers[1].ID ^= 1 << 30 }},
		{"Msg.Peers[1].Value", func(e *Event) { e.Msg.Peers[1].Value-- }},
		{"Msg.Peers swapped", func(e *Event) { e.Msg.Peers[0], e.Msg.Peers[1] = e.Msg.Peers[1], e.Msg.Peers[0] }},
		{"Msg.Data byte", func(e *Event) { e.Msg.Data = []byte{1, 2, 3, 5} }},
		{"Msg.Data longer", func(e *Event) { e.Msg.Data = []byte{1, 2, 3, 4, 0} }},
		{"Msg.Data none", func(e *Event) { e.Msg.Data = nil }},
	}
	withPeers := func(e Event) Event {
		e.Msg = algo.Message{Type: 2, Level: 3, Index: algo.Index{Num: 4, ID: 5}, Peer: algo.Peer{ID: 6, Value: 7},
			Peers: []algo.Peer{{ID: 1, Value: 10}, {ID: 2, Value: 20}}, Data: []byte{1, 2, 3, 4}}
		return e
	}
	cases := []struct {
		base  Event
		extra []mutation
	}{
		{Event{At: 5, Kind: NodeAdded, Node: 3, Peer: algo.None, Value: 9}, []mutation{
			{"Value", func(e *Event) { e.Value++ }},
			{"Value sign", func(e *Event) { e.Value ^= math.MinInt64 }},
			{"Kind", func(e *Event) { e.Kind = ValueChanged }},
		}},
		{Event{At: 5, Kind: ValueChanged, Node: 3, Peer: algo.None, Value: -9}, []mutation{
			{"Value", func(e *Event) { e.Value++ }},
			{"Value top", func(e *Event) { e.Value ^= 1 << 62 }},
		}},
		{Event{At: 5, Kind: LinkUp, Node: 3, Peer: 4}, []mutation{{"Kind", func(e *Event) { e.Kind = LinkDown }}}},
		{Event{At: 5, Kind: LinkDown, Node: 3, Peer: 4}, []mutation{{"Kind", func(e *Event) { e.Kind = LinkUp }}}},
		{Event{At: 5, Kind: Crashed, Node: 3, Peer: algo.None}, []mutation{{"Kind", func(e *Event) { e.Kind = Restarted }}}},
		{Event{At: 5, Kind: Restarted, Node: 3, Peer: algo.None}, []mutation{{"Kind", func(e *Event) { e.Kind = Recovered }}}},
		{Event{At: 5, Kind: Recovered, Node: 3, Peer: algo.None}, []mutation{{"Kind", func(e *Event) { e.Kind = ElectCalled }}}},
		{Event{At: 5, Kind: ElectCalled, Node: 3, Peer: algo.None}, []mutation{{"Kind", func(e *Event) { e.Kind = Crashed }}}},
		{Event{At: 5, Kind: Reported, Node: 3, Peer: algo.None, Text: "died in gathering"}, []mutation{
			{"Text", func(e *Event) { e.Text = "died in confirmation" }},
			{"Text empty", func(e *Event) { e.Text = "" }},
			{"Kind", func(e *Event) { e.Kind = Panicked }},
		}},
		{Event{At: 5, Kind: Panicked, Node: 3, Peer: algo.None, Text: "in Timer of timer 1: boom"}, []mutation{
			{"Text's call", func(e *Event) { e.Text = "in Timer of timer 2: boom" }},
			{"Kind", func(e *Event) { e.Kind = Reported }},
		}},
		{withPeers(Event{At: 5, Kind: Sent, Node: 3, Peer: 4}), append(msg, mutation{"Kind", func(e *Event) { e.Kind = Delivered }})},
		{withPeers(Event{At: 5, Kind: Delivered, Node: 4, Peer: 3}), append(msg, mutation{"Kind", func(e *Event) { e.Kind = Sent }})},
		{withPeers(Event{At: 5, Kind: Dropped, Node: 3, Peer: 4, Reason: Lost}), append(msg,
			mutation{"Reason", func(e *Event) { e.Reason = LinkBroke }},
			mutation{"Reason zero", func(e *Event) { e.Reason = NoLink }},
			mutation{"Kind", func(e *Event) { e.Kind = Sent }},
		)},
		{Event{At: 5, Kind: TimerFired, Node: 3, Peer: algo.None, Timer: 1}, []mutation{
			{"Timer", func(e *Event) { e.Timer++ }},
			{"Timer top", func(e *Event) { e.Timer ^= 0x80 }},
		}},
		{Event{At: 5, Kind: StatusChanged, Node: 3, Peer: algo.None, Status: algo.Status{Leader: 7, State: algo.Norm, Index: algo.Index{Num: 2, ID: 1}}}, []mutation{
			{"Leader", func(e *Event) { e.Status.Leader++ }},
			{"Leader none", func(e *Event) { e.Status.Leader = algo.None }},
			{"Leader top", func(e *Event) { e.Status.Leader ^= 1 << 30 }},
			{"State", func(e *Event) { e.Status.State = algo.Wait }},
			{"Index.Num", func(e *Event) { e.Status.Index.Num++ }},
			{"Index.Num top", func(e *Event) { e.Status.Index.Num ^= 1 << 31 }},
			{"Index.ID", func(e *Event) { e.Status.Index.ID++ }},
			{"Index.ID none", func(e *Event) { e.Status.Index.ID = algo.None }},
		}},
		{Event{At: 5, Kind: End, Peer: algo.None, Quiescent: false}, []mutation{
			{"Quiescent", func(e *Event) { e.Quiescent = true }},
		}},
		{Event{At: 5, Kind: End, Peer: algo.None, Quiescent: true}, []mutation{
			{"Quiescent", func(e *Event) { e.Quiescent = false }},
		}},
	}
	for _, c := range cases {
		clone := func() Event {
			e := c.base
			e.Msg.Peers = append([]algo.Peer(nil), c.base.Msg.Peers...)
			return e
		}
		base := hashOf([]Event{c.base})
		for _, m := range append(append([]mutation(nil), common...), c.extra...) {
			e := clone()
			m.f(&e)
			if got := hashOf([]Event{e}); got == base {
				t.Errorf("%v: changing %s leaves the hash unchanged", c.base.Kind, m.name)
			}
			// The same holds in the middle of a run.
			prefix := []Event{{Kind: NodeAdded, Peer: algo.None}}
			suffix := []Event{{At: 9, Kind: End, Peer: algo.None}}
			if hashOf(append(append(prefix, clone()), suffix...)) == hashOf(append(append(prefix, e), suffix...)) {
				t.Errorf("%v: changing %s in a run leaves the hash unchanged", c.base.Kind, m.name)
			}
		}
	}
}

// Fields a kind does not record are not in the file either, so they must not
// move the hash: a trace read back hashes as the run did.
func TestHasherIgnoresUnrecorded(t *testing.T) {
	cases := []struct {
		e Event
		f func(e *Event)
	}{
		{Event{Kind: LinkUp, Node: 1, Peer: 2}, func(e *Event) { e.Value = 5; e.Timer = 3; e.Quiescent = true }},
		{Event{Kind: NodeAdded, Node: 1, Peer: algo.None, Value: 3}, func(e *Event) { e.Msg.Type = 2; e.Status.Leader = 4 }},
		{Event{Kind: Sent, Node: 1, Peer: 2}, func(e *Event) { e.Msg.From = 1; e.Msg.To = 2; e.Value = 9 }},
		{Event{Kind: StatusChanged, Node: 1, Peer: algo.None}, func(e *Event) { e.Value = 9; e.Timer = 1 }},
		{Event{Kind: End, Peer: algo.None}, func(e *Event) { e.Value = 9; e.Msg.Level = 1 }},
	}
	for _, c := range cases {
		e := c.e
		c.f(&e)
		if hashOf([]Event{e}) != hashOf([]Event{c.e}) {
			t.Errorf("%v: a field the trace does not record moves the hash", c.e.Kind)
		}
	}
}

func BenchmarkHasher(b *testing.B) {
	events := sampleEvents()
	h := NewHasher()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Add(&events[i%len(events)])
	}
	_ = h.Sum()
}

// An Acted event only names what the events after it do: a trace with it
// hashes as the same trace without it, so that naming a scenario's events
// changed no run's hash.
func TestHasherPassesOverActed(t *testing.T) {
	down := Event{At: 5, Kind: LinkDown, Node: 1, Peer: 2}
	acted := Event{At: 5, Kind: Acted, Peer: algo.None, Text: "the network splits (west, and the rest)"}
	if hashOf([]Event{acted, down}) != hashOf([]Event{down}) {
		t.Errorf("an Acted event moves the hash")
	}
}

// A panic's value and frames stay out of the hash, its call in it: a
// value may print an address, and frames move with any edit of the code.
func TestHasherPanicCallOnly(t *testing.T) {
	e := Event{At: 5, Kind: Panicked, Node: 3, Peer: algo.None, Text: "in Receive of flood from 0: &{0xc000012345}; at x.(*m).Receive (x.go:3)"}
	f := e
	f.Text = "in Receive of flood from 0: &{0xc000067890}; at x.(*m).Receive (x.go:7)"
	if hashOf([]Event{e}) != hashOf([]Event{f}) {
		t.Errorf("a panic's value or frames move the hash")
	}
}
