package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// channel carries frames one way with loss, duplication and a random delay
// (which reorders them), drawn from rng.
type channel struct {
	rng              *rand.Rand
	loss, dup        float64
	minDelay, spread time.Duration
	inFlight         []timed
}

type timed struct {
	at time.Time
	f  Frame[string]
}

func (c *channel) send(fs []Frame[string], now time.Time) {
	for _, f := range fs {
		if c.rng.Float64() < c.loss {
			continue
		}
		copies := 1
		if c.rng.Float64() < c.dup {
			copies = 2
		}
		for range copies {
			d := c.minDelay + time.Duration(c.rng.Int64N(int64(c.spread)+1))
			c.inFlight = append(c.inFlight, timed{now.Add(d), f})
		}
	}
}

// due removes and returns the frames arriving by now, in arrival order.
func (c *channel) due(now time.Time) []Frame[string] {
	slices.SortStableFunc(c.inFlight, func(a, b timed) int { return a.at.Compare(b.at) })
	i := 0
	for i < len(c.inFlight) && !c.inFlight[i].at.After(now) {
		i++
	}
	out := make([]Frame[string], i)
	for k := range i {
		out[k] = c.inFlight[k].f
	}
	c.inFlight = c.inFlight[i:]
	return out
}

// end is one side of a link under test: what it delivered, in order.
type end struct {
	r   *Reliable[string]
	got []string
}

// run sends n messages each way between a and b over lossy channels, in
// steps of 1 ms for at most limit, and returns the two ends.
func run(t *testing.T, cfg ReliableConfig, seed uint64, loss, dup float64, n int, limit time.Duration) (a, b *end) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	a = &end{r: NewReliable[string](cfg, 100)}
	b = &end{r: NewReliable[string](cfg, 200)}
	ab := &channel{rng: rng, loss: loss, dup: dup, minDelay: time.Millisecond, spread: 20 * time.Millisecond}
	ba := &channel{rng: rng, loss: loss, dup: dup, minDelay: time.Millisecond, spread: 20 * time.Millisecond}
	now := time.Unix(0, 0)
	sentA, sentB := 0, 0
	for step := time.Duration(0); step < limit; step += time.Millisecond {
		now = now.Add(time.Millisecond)
		// Each side sends a message every other millisecond until n.
		if sentA < n && step%(2*time.Millisecond) == 0 {
			ab.send(a.r.Send(fmt.Sprintf("a%d", sentA), now), now)
			sentA++
		}
		if sentB < n && step%(3*time.Millisecond) == 0 {
			ba.send(b.r.Send(fmt.Sprintf("b%d", sentB), now), now)
			sentB++
		}
		for _, f := range ab.due(now) {
			d, out := b.r.Receive(f, now)
			for _, p := range d {
				b.got = append(b.got, p)
			}
			ba.send(out, now)
		}
		for _, f := range ba.due(now) {
			d, out := a.r.Receive(f, now)
			for _, p := range d {
				a.got = append(a.got, p)
			}
			ab.send(out, now)
		}
		ab.send(a.r.Tick(now), now)
		ba.send(b.r.Tick(now), now)
		if len(a.got) == n && len(b.got) == n {
			_, pa := a.r.Next()
			_, pb := b.r.Next()
			if !pa && !pb {
				return a, b
			}
		}
	}
	return a, b
}

func want(prefix string, n int) []string {
	var w []string
	for i := range n {
		w = append(w, fmt.Sprintf("%s%d", prefix, i))
	}
	return w
}

// Every message arrives once, in order, whatever the channel loses,
// duplicates and reorders, and the link does not fail: under the default
// bounds up to 20% loss each way (the figure), and at 40% with more
// tries.
func TestReliableDeliversInOrder(t *testing.T) {
	patient := DefaultReliable
	patient.Tries = 40
	for _, c := range []struct {
		cfg       ReliableConfig
		loss, dup float64
	}{{DefaultReliable, 0, 0}, {DefaultReliable, 0.1, 0.1}, {DefaultReliable, 0.2, 0.1}, {DefaultReliable, 0.2, 0.3}, {patient, 0.4, 0.3}} {
		for seed := uint64(1); seed <= 5; seed++ {
			a, b := run(t, c.cfg, seed, c.loss, c.dup, 300, 10*time.Minute)
			if !slices.Equal(b.got, want("a", 300)) || !slices.Equal(a.got, want("b", 300)) {
				t.Fatalf("loss %v dup %v seed %d: b got %d of a's (in order: %v), a got %d of b's", c.loss, c.dup, seed,
					len(b.got), slices.Equal(b.got, want("a", len(b.got))), len(a.got))
			}
			if a.r.Failed() || b.r.Failed() {
				t.Fatalf("loss %v seed %d: the link failed", c.loss, seed)
			}
			if st := a.r.Stats(); st.Sent != 300 || c.loss == 0 && st.Retransmits != 0 {
				t.Errorf("loss %v seed %d: a's stats %+v", c.loss, seed, st)
			}
		}
	}
}

// Unacknowledged, a frame is sent again after RTO, then twice as long each
// time up to MaxRTO, and the link fails at the deadline after the Tries-th
// transmission.
func TestReliableBackoffAndFailure(t *testing.T) {
	cfg := ReliableConfig{Window: 4, RTO: 100 * time.Millisecond, MaxRTO: 400 * time.Millisecond, Tries: 5}
	r := NewReliable[string](cfg, 1)
	t0 := time.Unix(0, 0)
	if out := r.Send("m", t0); len(out) != 1 || out[0].Seq != 0 || !out[0].Data {
		t.Fatalf("first send: %+v", out)
	}
	// Retransmissions at 100, 100+200, +400, +400 ms: tries 2 to 5.
	var at []time.Duration
	for ms := 1; ms <= 3000; ms++ {
		now := t0.Add(time.Duration(ms) * time.Millisecond)
		if out := r.Tick(now); len(out) > 0 {
			at = append(at, now.Sub(t0))
		}
		if r.Failed() {
			at = append(at, -now.Sub(t0)) // the failure, negated
			break
		}
	}
	wantAt := []time.Duration{100 * time.Millisecond, 300 * time.Millisecond, 700 * time.Millisecond, 1100 * time.Millisecond, -1500 * time.Millisecond}
	if !slices.Equal(at, wantAt) {
		t.Errorf("retransmissions and failure at %v, want %v", at, wantAt)
	}
	if st := r.Stats(); st.Sent != 1 || st.Retransmits != 4 {
		t.Errorf("stats %+v", st)
	}
	if _, pending := r.Next(); pending {
		t.Errorf("a failed link still has a deadline")
	}
}

// At most Window frames are unacknowledged; the rest wait, and go out as
// acknowledgements free the window, on the frames that carry them back.
func TestReliableWindow(t *testing.T) {
	cfg := ReliableConfig{Window: 2, RTO: time.Second, MaxRTO: time.Second, Tries: 3}
	a, b := NewReliable[string](cfg, 1), NewReliable[string](cfg, 2)
	now := time.Unix(0, 0)
	var sent []Frame[string]
	for i := range 5 {
		sent = append(sent, a.Send(fmt.Sprint(i), now)...)
	}
	if len(sent) != 2 || sent[0].Seq != 0 || sent[1].Seq != 1 {
		t.Fatalf("sent %+v, want frames 0 and 1 only", sent)
	}
	// b acknowledges frame 0 with a bare acknowledgement; a's window moves.
	d, back := b.Receive(sent[0], now)
	if len(d) != 1 || len(back) != 1 || back[0].Data || back[0].Ack != 1 || back[0].Theirs != 1 {
		t.Fatalf("b delivered %v and answered %+v", d, back)
	}
	if _, more := a.Receive(back[0], now); len(more) != 1 || more[0].Seq != 2 {
		t.Fatalf("after the acknowledgement a sent %+v, want frame 2", more)
	}
	// A message of b's carries the acknowledgement: no bare one.
	out := b.Send("x", now)
	if len(out) != 1 || !out[0].Data || out[0].Ack != 1 {
		t.Fatalf("b's message %+v does not carry its acknowledgement", out)
	}
	if st := b.Stats(); st.Acks != 1 {
		t.Errorf("b sent %d bare acknowledgements, want 1", st.Acks)
	}
	// a is settled once every message is acknowledged, those the window
	// held back too.
	for i := 1; i < 5; i++ {
		if a.Settled() {
			t.Fatalf("a is settled with frames %d to 4 unacknowledged", i)
		}
		_, back := b.Receive(Frame[string]{FrameHeader: FrameHeader{Epoch: 1, Seq: uint32(i), Data: true}, Payload: fmt.Sprint(i)}, now)
		for _, f := range back {
			a.Receive(f, now)
		}
	}
	if !a.Settled() {
		t.Error("a is not settled with every frame acknowledged")
	}
}

// A neighbour that restarts (a higher epoch) starts the link over both
// ways; frames of its earlier life are refused; frames numbered for our
// earlier life are not delivered to the new one.
func TestReliableRestart(t *testing.T) {
	cfg := ReliableConfig{Window: 8, RTO: time.Second, MaxRTO: time.Second, Tries: 3}
	now := time.Unix(0, 0)
	a, b := NewReliable[string](cfg, 10), NewReliable[string](cfg, 20)
	for i := range 3 {
		for _, f := range a.Send(fmt.Sprint(i), now) {
			b.Receive(f, now)
		}
	}
	old := a.Send("9", now)[0] // in flight when a restarts
	a2 := NewReliable[string](cfg, 11)
	first := a2.Send("new", now)[0]
	if d, _ := b.Receive(first, now); len(d) != 1 || d[0] != "new" {
		t.Fatalf("the restarted neighbour's first message: delivered %q", d)
	}
	if d, out := b.Receive(old, now); len(d) != 0 || len(out) != 0 {
		t.Errorf("a frame of the earlier life was taken: delivered %q, answered %+v", d, out)
	}
	// b had frames in flight to a's earlier life: they are gone.
	if _, pending := b.Next(); pending {
		t.Errorf("b still waits for acknowledgements from a's earlier life")
	}
}

func FuzzReliableReceive(f *testing.F) {
	f.Add(uint64(1), uint64(0), uint32(0), uint32(0), true, []byte("x"))
	f.Add(uint64(5), uint64(3), uint32(7), uint32(1<<31), false, []byte(nil))
	f.Fuzz(func(t *testing.T, epoch, theirs uint64, ack, seq uint32, data bool, payload []byte) {
		r := NewReliable[[]byte](DefaultReliable, 3)
		now := time.Unix(0, 0)
		r.Send([]byte("a"), now)
		r.Send([]byte("b"), now)
		d, _ := r.Receive(Frame[[]byte]{FrameHeader{Epoch: epoch, Theirs: theirs, Ack: ack, Seq: seq, Data: data}, payload}, now)
		if len(d) > 1 || len(d) == 1 && (!data || seq != 0) {
			t.Fatalf("delivered %d messages from one frame (seq %d, data %v)", len(d), seq, data)
		}
		r.Tick(now.Add(time.Hour))
	})
}
