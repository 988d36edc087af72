package node

import (
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// The machine's clock is piecewise linear in true time: a change of rate
// continues from the local time it reads then, a jump moves it by that
// much, and a timer for d takes d/rate of true time, rounded up.
func TestLocalClock(t *testing.T) {
	s := time.Second
	type step struct {
		at   time.Duration // true time since the start
		rate float64       // set this rate (0: leave it)
		jump time.Duration // then jump by this
		want time.Duration // the local time read at `at`, after both
	}
	for _, c := range []struct {
		name   string
		before time.Duration // a jump before the start (Config.Gray)
		rate0  float64
		steps  []step
	}{
		{name: "true time", steps: []step{{at: 0, want: 0}, {at: 5 * s, want: 5 * s}}},
		{name: "slow from the start", rate0: 0.8, steps: []step{{at: 10 * s, want: 8 * s}}},
		{name: "faster then slower: continuous", steps: []step{
			{at: 10 * s, rate: 2, want: 10 * s},                  // no jump at the change
			{at: 12 * s, want: 14 * s},                           // 2 s at rate 2
			{at: 12 * s, rate: 0.5, want: 14 * s},                // again none
			{at: 16 * s, want: 16 * s},                           // 4 s at 0.5
			{at: 16 * s, rate: 1, want: 16 * s},                  // back to true time
			{at: 20 * s, want: 20 * s},                           // 4 s more
			{at: 20*s + 1, rate: 1.2, want: 20*s + 1},            // changed a nanosecond later
			{at: 30*s + 1, want: 32*s + 1},                       // 10 s at 1.2
			{at: 30*s + 1, rate: 0.8, want: 32*s + 1},            // continuous still
			{at: 40*s + 1, want: 40*s + 1},                       // 10 s at 0.8
			{at: 40*s + 1, rate: 100, want: 40*s + 1},            // the fastest allowed
			{at: 40*s + 1 + 10*time.Millisecond, want: 41*s + 1}, // 10 ms at 100
		}},
		{name: "jumps forward and back", rate0: 0.5, steps: []step{
			{at: 4 * s, jump: 3 * s, want: 5 * s}, // 2 s at 0.5, then 3 s ahead
			{at: 6 * s, want: 6 * s},
			{at: 6 * s, jump: -10 * s, want: -4 * s}, // back before the start
			{at: 6 * s, rate: 2, want: -4 * s},       // a change of rate keeps the jump
			{at: 8 * s, want: 0},
		}},
		{name: "jump before the start", before: -2 * s, steps: []step{
			{at: 0, want: -2 * s}, {at: 3 * s, want: s},
		}},
		{name: "jumps saturate", before: math.MaxInt64 - s, steps: []step{
			{at: 0, jump: 2 * s, want: math.MaxInt64},
			{at: 0, jump: math.MinInt64, want: -1},
			{at: 0, jump: math.MinInt64, want: math.MinInt64},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Unix(1000, 0)
			var clk localClock
			clk.setRate(start.Add(-time.Hour), c.rate0) // before the start: no base moved
			clk.jump(c.before)
			clk.since = start // begin
			for i, st := range c.steps {
				now := start.Add(st.at)
				if st.rate != 0 {
					clk.setRate(now, st.rate)
				}
				clk.jump(st.jump)
				if got := clk.at(now); got != st.want {
					t.Errorf("step %d (true %v): local %v, want %v", i, st.at, got, st.want)
				}
			}
		})
	}
}

func TestTrueDelay(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		rate    float64
		d, want time.Duration
	}{
		{0, 100 * ms, 100 * ms}, {1, 100 * ms, 100 * ms},
		{0.8, 800 * ms, time.Second}, // 20% slow: a timer takes longer
		{2, time.Second, 500 * ms},
		{3, time.Second, 333333334}, // rounded up
		{0.5, -ms, -ms},             // already due: as given
		{1e-12, time.Hour, 1<<63 - 1},
	} {
		clk := localClock{rate: c.rate}
		got := clk.trueDelay(c.d)
		if got != c.want {
			t.Errorf("rate %v, timer %v: true delay %v, want %v", c.rate, c.d, got, c.want)
		}
		// Never early on the local clock: at its true expiry, the local
		// clock has moved d at least.
		start := time.Unix(0, 0)
		clk.since = start
		if c.d > 0 && got < 1<<63-1 {
			if moved := clk.at(start.Add(got)); moved < c.d {
				t.Errorf("rate %v, timer %v: fires when the clock moved %v only", c.rate, c.d, moved)
			}
		}
	}
}

// quiet is a node on a memory network that is never run, with peers 1
// and 2 listed: for what needs no running node.
func quiet(t *testing.T, cfg Config) *Node {
	t.Helper()
	net := runtime.NewMemNetwork()
	ep := net.Listen()
	cfg.Transport = ep
	cfg.Peers = map[algo.NodeID]netip.AddrPort{0: ep.LocalAddr(), 1: net.Listen().LocalAddr(), 2: net.Listen().LocalAddr()}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A timer the machine sets is converted to true time when it is set: a
// later change of rate, or a jump, leaves its expiry where it was, and
// Env.Now follows the clock.
func TestTimersOnTheGrayClock(t *testing.T) {
	ms := time.Millisecond
	h := time.Hour
	for _, c := range []struct {
		name             string
		rate             float64       // the clock's rate as the timer is set
		d                time.Duration // the timer, on the machine's clock
		then             *Gray         // set right after
		atLeast, below   time.Duration // the true time it takes
		nowMin, nowBelow time.Duration // Env.Now when it fires
	}{
		{name: "true time", rate: 1, d: 60 * ms, atLeast: 60 * ms, below: 250 * ms, nowMin: 60 * ms, nowBelow: 250 * ms},
		{name: "slow clock: later", rate: 0.25, d: 30 * ms, atLeast: 120 * ms, below: 400 * ms, nowMin: 30 * ms, nowBelow: 100 * ms},
		{name: "fast clock: sooner", rate: 4, d: 800 * ms, atLeast: 200 * ms, below: 700 * ms, nowMin: 800 * ms, nowBelow: 2800 * ms},
		{name: "armed, then the clock slows", rate: 1, d: 60 * ms, then: &Gray{ClockRate: 0.01}, atLeast: 60 * ms, below: 400 * ms, nowMin: 0, nowBelow: 10 * ms},
		{name: "armed, then the clock speeds", rate: 0.5, d: 40 * ms, then: &Gray{ClockRate: 50}, atLeast: 80 * ms, below: 400 * ms, nowMin: 2 * time.Second, nowBelow: 20 * time.Second},
		{name: "armed, then the clock jumps", rate: 1, d: 60 * ms, then: &Gray{ClockJump: h}, atLeast: 60 * ms, below: 400 * ms, nowMin: h + 60*ms, nowBelow: h + 400*ms},
		{name: "armed, then the clock jumps back", rate: 1, d: 60 * ms, then: &Gray{ClockJump: -h}, atLeast: 60 * ms, below: 400 * ms, nowMin: -h + 60*ms, nowBelow: -h + 400*ms},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := quiet(t, Config{ID: 0, Gray: Gray{ClockRate: c.rate}})
			start := time.Now()
			n.gray.begin(start)
			e := n.env()
			e.SetTimer(0, c.d)
			defer e.StopTimer(0)
			if c.then != nil {
				if err := n.SetGray(*c.then); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-n.timerC:
			case <-time.After(5 * time.Second):
				t.Fatal("the timer never fired")
			}
			took, now := time.Since(start), e.Now()
			if took < c.atLeast || took >= c.below {
				t.Errorf("a timer for %v at rate %v, then %+v, fired after %v of true time; want [%v, %v)", c.d, c.rate, c.then, took, c.atLeast, c.below)
			}
			if now < c.nowMin || now >= c.nowBelow {
				t.Errorf("Env.Now %v when it fired, want [%v, %v)", now, c.nowMin, c.nowBelow)
			}
		})
	}
}

// A change of rate while the node runs never makes Env.Now jump.
func TestClockRateContinuous(t *testing.T) {
	n := quiet(t, Config{ID: 0})
	n.gray.begin(time.Now().Add(-time.Second)) // a second of true time gone
	for _, rate := range []float64{100, 0.01, 1, 2.5} {
		before := n.env().Now()
		if err := n.SetGray(Gray{ClockRate: rate}); err != nil {
			t.Fatal(err)
		}
		after := n.env().Now()
		if d := after - before; d < 0 || d > 100*time.Millisecond {
			t.Errorf("rate %v: Env.Now went from %v to %v at the change", rate, before, after)
		}
		if after < 900*time.Millisecond {
			t.Errorf("rate %v: Env.Now %v, want a second at least (continuous)", rate, after)
		}
	}
}

// hears says node i of c has node j among its neighbours.
func hears(c *cluster, i, j int) bool {
	return slices.Contains(c.nodes[i].Status().Neighbors, algo.NodeID(j))
}

// A one-way cut: the direction cut is never heard, as if nothing came
// (no hello counted, no neighbour), the other direction works, what was
// dropped is counted where it was; healed, both directions work.
func TestOneWayCut(t *testing.T) {
	for _, c := range []struct {
		name    string
		gray    [2]Gray // nodes 0 and 1
		cutSide int     // the node that drops
		from    bool    // as they arrive (else at send)
		deaf    int     // the node that hears nothing of the other
	}{
		{name: "1 cuts from 0 (0 does not reach 1)", gray: [2]Gray{{}, {CutFrom: []algo.NodeID{0}}}, cutSide: 1, from: true, deaf: 1},
		{name: "0 cuts to 1 (0 does not reach 1)", gray: [2]Gray{{CutTo: []algo.NodeID{1}}, {}}, cutSide: 0, deaf: 1},
		{name: "0 cuts from 1 (1 does not reach 0)", gray: [2]Gray{{CutFrom: []algo.NodeID{1}}, {}}, cutSide: 0, from: true, deaf: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newCluster(t, 2, func(cfg *Config) { cfg.Gray = c.gray[cfg.ID] })
			other := 1 - c.deaf
			waitFor(2*time.Second, func() bool { return hears(cl, other, c.deaf) })
			if !hears(cl, other, c.deaf) {
				t.Fatalf("node %d never heard node %d: the direction not cut", other, c.deaf)
			}
			time.Sleep(10 * fastHello) // many hellos each way
			deaf := cl.nodes[c.deaf]
			if hears(cl, c.deaf, other) || deaf.metrics.hellosReceived.Load() != 0 {
				t.Errorf("node %d hears node %d through the cut: neighbours %v, %d hellos taken",
					c.deaf, other, deaf.Status().Neighbors, deaf.metrics.hellosReceived.Load())
			}
			cut := &cl.nodes[c.cutSide].metrics
			dropped, wrong := cut.cutTo.Load(), cut.cutFrom.Load()
			if c.from {
				dropped, wrong = wrong, dropped
			}
			if dropped < 5 || wrong != 0 {
				t.Errorf("node %d counted %d cut in the cut direction, %d in the other", c.cutSide, dropped, wrong)
			}
			if err := cl.nodes[c.cutSide].SetGray(Gray{}); err != nil {
				t.Fatal(err)
			}
			waitFor(2*time.Second, func() bool { return hears(cl, c.deaf, other) })
			if !hears(cl, c.deaf, other) {
				t.Errorf("healed, node %d still does not hear node %d", c.deaf, other)
			}
		})
	}
}

// A slow node handles each input Slow late, the next behind it; healed,
// at once.
func TestSlowNode(t *testing.T) {
	const slow = 100 * time.Millisecond
	cl := newCluster(t, 1, func(cfg *Config) { cfg.Gray = Gray{Slow: slow} })
	n := cl.nodes[0]
	ran := make(chan time.Time, 2)
	start := time.Now()
	for range 2 {
		n.do(func() { ran <- time.Now() })
	}
	<-ran
	if second := <-ran; second.Sub(start) < 2*slow {
		t.Errorf("two calls on a node %v slow handled after %v, want %v at least", slow, second.Sub(start), 2*slow)
	}
	if err := n.SetGray(Gray{}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(slow + slow/2) // a sleep under way ends
	start = time.Now()
	n.do(func() { ran <- time.Now() })
	if took := (<-ran).Sub(start); took >= slow*8/10 {
		t.Errorf("healed, a call handled after %v", took)
	}
}

// SetGray and Config.Gray refuse a bad value, naming the field, and
// change nothing then.
func TestGrayRefused(t *testing.T) {
	n := quiet(t, Config{ID: 0, Gray: Gray{Slow: time.Millisecond}})
	for _, c := range []struct {
		g    Gray
		want string
	}{
		{Gray{CutFrom: []algo.NodeID{1, 9}}, "cut_from: node 9 is not a listed peer of node 0 (its peers: 1, 2)"},
		{Gray{CutTo: []algo.NodeID{0}}, "cut_to: node 0 is this node"},
		{Gray{ClockRate: -1}, "clock_rate: -1: want a rate above 0"},
		{Gray{ClockRate: 101}, "clock_rate: 101: want"},
		{Gray{Slow: -time.Second}, "slow_ns: -1s: want 0"},
	} {
		err := n.SetGray(c.g)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("SetGray(%+v): %v, want %q", c.g, err, c.want)
		}
		if g := n.Gray(); g.Slow != time.Millisecond || len(g.CutFrom) != 0 {
			t.Errorf("a refused SetGray changed the state: %+v", g)
		}
		cfg := Config{ID: 0, Transport: runtime.NewMemNetwork().Listen(), Peers: n.cfg.Peers, Gray: c.g}
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "gray: "+c.want) {
			t.Errorf("New with Gray %+v: %v, want %q", c.g, err, c.want)
		}
	}
	// Kept sorted, without repeats; true time reads 0.
	if err := n.SetGray(Gray{CutFrom: []algo.NodeID{2, 1, 2}, ClockRate: 1}); err != nil {
		t.Fatal(err)
	}
	if g := n.Gray(); !slices.Equal(g.CutFrom, []algo.NodeID{1, 2}) || g.ClockRate != 0 || g.Slow != 0 {
		t.Errorf("Gray() = %+v", g)
	}
}

// POST /gray is guarded as POST /elect is, refuses what is wrong with 400
// naming it, and answers the new state; GET /gray reads it on both
// handlers.
func TestGrayHTTP(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	token := "Bearer " + HTTPToken(key)
	n := quiet(t, Config{ID: 0, Key: key})
	do := func(h http.Handler, method, auth, body string) (int, string) {
		req := httptest.NewRequest(method, "/gray", strings.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	set := `{"cut_from":[1],"cut_to":[2,1],"clock_rate":0.8,"clock_jump_ns":1000000000,"slow_ns":1000000}`
	for _, c := range []struct {
		name, auth, body string
		read             bool // on ReadHandler
		code             int
		says             string // in the body
	}{
		{name: "no credential", body: set, code: 401, says: "POST /gray needs Authorization"},
		{name: "a wrong one", auth: "Bearer nope", body: set, code: 401},
		{name: "the reading address", read: true, auth: token, body: set, code: 403, says: "reading only"},
		{name: "no body", auth: token, code: 400, says: "no body"},
		{name: "not JSON", auth: token, body: "{", code: 400, says: "body:"},
		{name: "an unknown field", auth: token, body: `{"cut_form":[1]}`, code: 400, says: `unknown field "cut_form"`},
		{name: "a wrong type", auth: token, body: `{"slow_ns":"1s"}`, code: 400, says: "slow_ns"},
		{name: "two objects", auth: token, body: `{} {}`, code: 400, says: "one JSON object"},
		{name: "a bad rate", auth: token, body: `{"clock_rate":-0.5}`, code: 400, says: "clock_rate: -0.5"},
		{name: "not a peer", auth: token, body: `{"cut_to":[7]}`, code: 400, says: "cut_to: node 7 is not a listed peer"},
		{name: "itself", auth: token, body: `{"cut_from":[0]}`, code: 400, says: "cut_from: node 0 is this node"},
		{name: "a negative slow", auth: token, body: `{"slow_ns":-1}`, code: 400, says: "slow_ns: -1ns"},
		{name: "too large", auth: token, body: `{"cut_from":[` + strings.Repeat("1,", 600) + `1]}`, code: 413},
	} {
		h := n.Handler()
		if c.read {
			h = n.ReadHandler()
		}
		code, body := do(h, http.MethodPost, c.auth, c.body)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %q, want %d saying %q", c.name, code, body, c.code, c.says)
		}
		if g := n.Gray(); len(g.CutFrom)+len(g.CutTo) != 0 || g.Slow != 0 {
			t.Errorf("%s: refused, yet the state is %+v", c.name, g)
		}
	}
	if got := n.metrics.httpRefused.Load(); got != 3 {
		t.Errorf("%d refusals counted, want 3 (401, 401, 403)", got)
	}

	before := n.env().Now()
	code, body := do(n.Handler(), http.MethodPost, token, set)
	want := Gray{CutFrom: []algo.NodeID{1}, CutTo: []algo.NodeID{1, 2}, ClockRate: 0.8, Slow: time.Millisecond}
	var got Gray
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil || !sameGray(got, want) {
		t.Fatalf("POST /gray: %d %s (%v), want 200 and %+v", code, body, err, want)
	}
	if jumped := n.env().Now() - before; jumped != time.Second {
		t.Errorf("the clock moved %v, want the jump of 1s (the node has not started)", jumped)
	}
	for _, h := range []http.Handler{n.Handler(), n.ReadHandler()} {
		code, body := do(h, http.MethodGet, "", "")
		var read Gray
		if err := json.Unmarshal([]byte(body), &read); code != 200 || err != nil || !sameGray(read, want) {
			t.Errorf("GET /gray: %d %s, want %+v", code, body, want)
		}
	}
	if st := n.StatusJSON(); st.Gray == nil || !sameGray(*st.Gray, want) {
		t.Errorf("/status gray %+v, want %+v", st.Gray, want)
	}
	if code, body := do(n.Handler(), http.MethodPost, token, `{}`); code != 200 || strings.TrimSpace(body) != "{}" {
		t.Errorf("POST /gray {}: %d %s, want 200 {}", code, body)
	}
	if st := n.StatusJSON(); st.Gray != nil {
		t.Errorf("healed, /status still says gray %+v", st.Gray)
	}
}

func sameGray(a, b Gray) bool {
	return slices.Equal(a.CutFrom, b.CutFrom) && slices.Equal(a.CutTo, b.CutTo) && a.ClockRate == b.ClockRate && a.ClockJump == b.ClockJump && a.Slow == b.Slow
}

// A slow node stopped in the middle of a long sleep stops at once.
func TestSlowNodeStops(t *testing.T) {
	cl := newCluster(t, 1, func(cfg *Config) { cfg.Gray = Gray{Slow: time.Minute} })
	go cl.nodes[0].Elect() // the loop sleeps a minute before it
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	cl.stop(0)
	if took := time.Since(start); took > time.Second {
		t.Errorf("stopping took %v", took)
	}
}
