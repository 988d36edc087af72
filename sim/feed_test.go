package sim

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/batches"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/topo"
)

// counting is a Motion of n changes, one a millisecond; it panics at the
// change numbered panicAt, if that is below n.
type counting struct {
	i, n, panicAt int
}

func (c *counting) Next() (mobility.Change, bool) {
	if c.i == c.panicAt {
		panic("motion bug")
	}
	if c.i == c.n {
		return mobility.Change{}, false
	}
	c.i++
	return mobility.Change{At: time.Duration(c.i) * time.Millisecond, A: algo.NodeID(c.i), B: algo.NodeID(c.i + 1), Up: c.i%2 == 0}, true
}

func (c *counting) Positions(time.Duration) []topo.Point { return nil }

// The feed gives the motion's changes in order, across batches, then none.
func TestFeedKeepsOrder(t *testing.T) {
	for _, n := range []int{0, 1, feedLen - 1, feedLen, 3*feedLen + 5, 10 * feedLen} {
		f := startFeed(&counting{n: n, panicAt: -1})
		ref := &counting{n: n, panicAt: -1}
		for i := 0; ; i++ {
			got, ok := f.next()
			want, wantOK := ref.Next()
			if got != want || ok != wantOK {
				t.Fatalf("%d changes: change %d is %v (%v), want %v (%v)", n, i, got, ok, want, wantOK)
			}
			if !ok {
				break
			}
		}
		if _, ok := f.next(); ok {
			t.Errorf("%d changes: a change after the last", n)
		}
		f.close()
	}
}

// A panic of the motion's is raised where the engine asks for the change
// it did not make, after every change it made.
func TestFeedRaisesMotionPanic(t *testing.T) {
	f := startFeed(&counting{n: 5 * feedLen, panicAt: 2*feedLen + 3})
	defer f.close()
	read := 0
	got := func() (v any) {
		defer func() { v = recover() }()
		for {
			if _, ok := f.next(); !ok {
				return nil
			}
			read++
		}
	}()
	fault, _ := got.(*batches.Fault)
	if fault == nil || fault.Value != "motion bug" || !strings.Contains(string(fault.Stack), "counting") || read != 2*feedLen+3 {
		t.Errorf("after %d changes raised %v, want the motion's panic after the %d changes before it", read, got, 2*feedLen+3)
	}
}

// Closing a feed that is batches ahead of its reader stops it.
func TestFeedClose(t *testing.T) {
	f := startFeed(&counting{n: 1 << 30, panicAt: -1})
	for range feedLen + 1 {
		f.next()
	}
	done := make(chan struct{})
	go func() { f.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not return")
	}
}

// hidden is a Motion that is not a *mobility.Radio: the engine asks it for
// changes in line.
type hidden struct{ Motion }

// A large moving run gives the same trace whether the radio's changes come
// from the feed or are asked for one by one.
func TestFeedSameRun(t *testing.T) {
	a, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	run := func(wrap func(*mobility.Radio) Motion) (uint64, bool) {
		w := mobility.Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: 14000, Height: 14000}
		plan, err := w.Plan(feedMin, nil, 20*time.Second, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		radio, err := mobility.NewRadio(plan, 250)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Config{Algorithm: a, Graph: radio.Graph(), Delay: DefaultDelay, Duration: 20 * time.Second,
			Initiators: []algo.NodeID{0}, Motion: wrap(radio)})
		if err != nil {
			t.Fatal(err)
		}
		res := e.Run()
		return res.Hash, e.feed != nil
	}
	fed, usedFeed := run(func(r *mobility.Radio) Motion { return r })
	asked, usedFeedToo := run(func(r *mobility.Radio) Motion { return hidden{r} })
	if !usedFeed || usedFeedToo {
		t.Fatalf("feed used: %v with the radio, %v without it", usedFeed, usedFeedToo)
	}
	if fed != asked {
		t.Errorf("trace hash %016x with the feed, %016x without", fed, asked)
	}
}
