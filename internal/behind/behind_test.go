package behind

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/batches"
	"github.com/electgo/elect/trace"
)

// recorder keeps what it is handed, and the layout if told one.
type recorder struct {
	events []trace.Event
	rank   []int32
	early  bool // Arrange came before any event
}

func (r *recorder) Observe(e *trace.Event) { r.events = append(r.events, *e) }
func (r *recorder) Arrange(rank []int32)   { r.rank, r.early = rank, len(r.events) == 0 }

// randomEvent makes an event of kind k with the fields that kind carries.
func randomEvent(rng *rand.Rand, k trace.Kind) trace.Event {
	e := trace.Event{At: time.Duration(rng.Int64N(1 << 50)), Kind: k, Node: algo.NodeID(rng.Int32()), Peer: algo.NodeID(rng.Int32() - 1<<30)}
	switch k {
	case trace.NodeAdded, trace.ValueChanged:
		e.Value = rng.Int64() - 1<<62
	case trace.StatusChanged:
		e.Status = algo.Status{Leader: algo.NodeID(rng.Int32() - 1<<30), State: algo.State(rng.IntN(4)), Index: algo.Index{Num: rng.Uint32(), ID: algo.NodeID(rng.Int32() - 1<<30)}}
	case trace.LinkUp, trace.LinkDown:
		e.Moved = rng.IntN(2) == 0
	case trace.End:
		e.Quiescent = rng.IntN(2) == 0
	case trace.Reported:
		e.Text = fmt.Sprintf("report %d", rng.Int())
	}
	return e
}

var passed = []trace.Kind{trace.NodeAdded, trace.LinkUp, trace.LinkDown, trace.Crashed, trace.Restarted, trace.Recovered,
	trace.ElectCalled, trace.StatusChanged, trace.ValueChanged, trace.End, trace.Reported}

func notTraffic(k trace.Kind) bool {
	switch k {
	case trace.Sent, trace.Delivered, trace.Dropped, trace.TimerFired:
		return false
	}
	return true
}

// Every observer behind the pipe sees exactly the kept events, whole and in
// order, across many batches, and the layout before any of them; message
// traffic is not passed.
func TestPipePassesKeptEventsInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a, b := &recorder{}, &recorder{}
	p := New(notTraffic, a, b)
	defer p.Close()
	rank := []int32{2, 0, 1}
	p.Arrange(rank)
	var want []trace.Event
	for range 3*batchLen + 17 {
		if rng.IntN(3) == 0 {
			e := trace.Event{At: 5, Kind: trace.Delivered, Node: 1, Peer: 2, Msg: algo.Message{Type: 1}}
			p.Observe(&e)
			continue
		}
		e := randomEvent(rng, passed[rng.IntN(len(passed))])
		p.Observe(&e)
		want = append(want, e)
	}
	p.Wait()
	for name, r := range map[string]*recorder{"first": a, "second": b} {
		if !r.early || !reflect.DeepEqual(r.rank, rank) {
			t.Errorf("%s observer: layout %v (before any event: %v), want %v", name, r.rank, r.early, rank)
		}
		if len(r.events) != len(want) {
			t.Fatalf("%s observer saw %d events, want %d", name, len(r.events), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(r.events[i], want[i]) {
				t.Fatalf("%s observer, event %d:\n got %+v\nwant %+v", name, i, r.events[i], want[i])
			}
		}
	}
}

// slim keeps every field the kinds passed carry: a round trip through it
// gives the event back.
func TestSlimRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range passed {
		for range 100 {
			e := randomEvent(rng, k)
			var texts textStore
			s := pack(&e, &texts)
			if got := s.unpack(&texts); !reflect.DeepEqual(got, e) {
				t.Fatalf("%s:\n got %+v\nwant %+v", k, got, e)
			}
		}
	}
}

type panicker struct{ after int }

func (p *panicker) Observe(*trace.Event) {
	if p.after--; p.after < 0 {
		panic("observer bug")
	}
}

// A panic in an observer reaches the emitter: in Observe when the pipe next
// needs a batch, or in Wait.
func TestPipeRaisesObserverPanic(t *testing.T) {
	for _, c := range []struct {
		name   string
		events int
	}{{"in Wait", 10}, {"in Observe", 20 * batchLen}} {
		t.Run(c.name, func(t *testing.T) {
			p := New(notTraffic, &panicker{after: 5})
			defer p.Close()
			got := func() (v any) {
				defer func() { v = recover() }()
				e := trace.Event{Kind: trace.StatusChanged}
				for range c.events {
					p.Observe(&e)
				}
				p.Wait()
				return nil
			}()
			f, _ := got.(*batches.Fault)
			if f == nil || f.Value != "observer bug" || !strings.Contains(string(f.Stack), "panicker") {
				t.Errorf("raised %v, want the observer's panic with its stack", got)
			}
		})
	}
}

// Message traffic cannot go behind: its fields are not carried.
func TestPipeRefusesTraffic(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("a pipe keeping delivered events was made")
		}
	}()
	New(func(trace.Kind) bool { return true }).Close()
}

// Close ends the observers' goroutine, and Wait or Close after it do
// nothing.
func TestPipeClose(t *testing.T) {
	r := &recorder{}
	p := New(notTraffic, r)
	e := trace.Event{Kind: trace.Crashed}
	p.Observe(&e)
	p.Close()
	p.Wait()
	p.Close()
	if len(r.events) > 1 {
		t.Errorf("after Close the observer saw %d events, of 1", len(r.events))
	}
}

// With SkipInitialLinks the link_up events of the network's announcement
// are left out, and only those: a link_up at 0 after any other event, or
// after 0, is passed.
func TestPipeSkipsInitialLinks(t *testing.T) {
	r := &recorder{}
	p := New(notTraffic, r)
	defer p.Close()
	p.SkipInitialLinks()
	in := []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Value: 5},
		{Kind: trace.LinkUp, Node: 0, Peer: 1},
		{Kind: trace.NodeAdded, Node: 1, Value: 6},
		{Kind: trace.LinkUp, Node: 1, Peer: 2},
		{Kind: trace.Delivered, Node: 1, Peer: 2}, // not passed, but ends the announcement
		{Kind: trace.LinkUp, Node: 0, Peer: 2},
		{At: 1, Kind: trace.LinkUp, Node: 1, Peer: 3},
	}
	for i := range in {
		p.Observe(&in[i])
	}
	p.Wait()
	want := []trace.Event{in[0], in[2], in[5], in[6]}
	if !reflect.DeepEqual(r.events, want) {
		t.Errorf("passed %+v\nwant %+v", r.events, want)
	}
}

type discard struct{}

func (discard) Observe(*trace.Event) {}

// Passing events allocates nothing per event, on either goroutine (an event
// handed to an observer escapes: one made per event would be a heap
// allocation each, 470 MB on a million-node run).
func TestPipeAllocatesNothingPerEvent(t *testing.T) {
	p := New(notTraffic, discard{})
	e := trace.Event{Kind: trace.StatusChanged}
	const events = 20 * batchLen
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range events {
		p.Observe(&e)
	}
	p.Wait()
	runtime.ReadMemStats(&after)
	if n := after.Mallocs - before.Mallocs; n > events/100 {
		t.Errorf("%d allocations for %d events", n, events)
	}
}
