package journal

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// recorder keeps a copy of every event it observes.
type recorder struct{ got []trace.Event }

func (r *recorder) Observe(e *trace.Event) { r.got = append(r.got, *e) }

// seen is the events observed as "At/kind/Node", for short comparisons.
func (r *recorder) seen() []string {
	var out []string
	for _, e := range r.got {
		out = append(out, fmt.Sprintf("%v/%v/%d", e.At, e.Kind, e.Node))
	}
	return out
}

func newTestJournal() (*Journal, *recorder) {
	r := &recorder{}
	return New(time.Time{}, 100*time.Millisecond, []trace.Observer{r}), r
}

func ev(at time.Duration, v algo.NodeID) trace.Event {
	return trace.Event{At: at, Kind: trace.StatusChanged, Node: v, Peer: algo.None}
}

// TestJournalOrder shows that events added out of order come out in time
// order, ties in the order they were added.
func TestJournalOrder(t *testing.T) {
	j, r := newTestJournal()
	j.Add(ev(3, 1))
	j.Add(ev(1, 2))
	j.Add(ev(2, 3))
	j.Add(ev(1, 4))
	j.Add(ev(1, 0))
	if len(r.got) != 0 {
		t.Fatalf("add passed events on: %v", r.seen())
	}
	j.Pass(10)
	want := []string{"1ns/status/2", "1ns/status/4", "1ns/status/0", "2ns/status/3", "3ns/status/1"}
	if got := r.seen(); !slices.Equal(got, want) {
		t.Errorf("passed %v, want %v", got, want)
	}
	if j.late != 0 {
		t.Errorf("late = %d, want 0", j.late)
	}
}

// TestJournalPassHoldsBack shows that Pass(upTo) passes the events up to
// and including upTo and keeps the later ones for a later pass.
func TestJournalPassHoldsBack(t *testing.T) {
	j, r := newTestJournal()
	j.Add(ev(5, 1))
	j.Add(ev(1, 2))
	j.Add(ev(3, 3))
	j.Pass(3)
	if got, want := r.seen(), []string{"1ns/status/2", "3ns/status/3"}; !slices.Equal(got, want) {
		t.Fatalf("Pass(3) passed %v, want %v", got, want)
	}
	j.Pass(4)
	if len(r.got) != 2 {
		t.Fatalf("Pass(4) passed %v, want nothing more", r.seen()[2:])
	}
	j.Pass(5)
	if got, want := r.seen(), []string{"1ns/status/2", "3ns/status/3", "5ns/status/1"}; !slices.Equal(got, want) {
		t.Errorf("Pass(5) passed %v, want %v", got, want)
	}
}

// TestJournalLate shows that an event earlier than one already passed is
// passed at the time of the last one passed, otherwise unchanged, and
// counted in late; later events are not late.
func TestJournalLate(t *testing.T) {
	j, r := newTestJournal()
	j.Add(ev(5, 1))
	j.Pass(5)
	late := trace.Event{At: 2, Kind: trace.StatusChanged, Node: 7, Peer: algo.None,
		Status: algo.Status{State: algo.Elect, Leader: 3}}
	j.Add(late)
	j.Pass(5)
	if len(r.got) != 2 {
		t.Fatalf("passed %v, want 2 events", r.seen())
	}
	want := late
	want.At = 5
	if !reflect.DeepEqual(r.got[1], want) {
		t.Errorf("late event passed as %+v, want %+v", r.got[1], want)
	}
	if j.late != 1 {
		t.Errorf("late = %d, want 1", j.late)
	}
	j.Add(ev(6, 2))
	j.Pass(10)
	if got, want := r.seen(), []string{"5ns/status/1", "5ns/status/7", "6ns/status/2"}; !slices.Equal(got, want) {
		t.Errorf("passed %v, want %v", got, want)
	}
	if j.late != 1 {
		t.Errorf("late = %d after an on-time event, want 1", j.late)
	}
}

// TestJournalEnd shows that End(at) passes what is left up to at (an event
// at exactly at included), then an End at at, and keeps what is later.
func TestJournalEnd(t *testing.T) {
	j, r := newTestJournal()
	j.Add(ev(9, 1))
	j.Add(ev(5, 2))
	j.Add(ev(1, 3))
	j.End(5)
	want := []string{"1ns/status/3", "5ns/status/2", "5ns/end/0"}
	if got := r.seen(); !slices.Equal(got, want) {
		t.Fatalf("End(5) passed %v, want %v", got, want)
	}
	if end := r.got[2]; !reflect.DeepEqual(end, trace.Event{At: 5, Kind: trace.End, Peer: algo.None}) {
		t.Errorf("end event = %+v", end)
	}
	if j.late != 0 {
		t.Errorf("late = %d, want 0", j.late)
	}
	if len(j.q) != 1 || j.q[0].e.At != 9 {
		t.Errorf("queue after end = %+v, want the event at 9 alone", j.q)
	}
}
