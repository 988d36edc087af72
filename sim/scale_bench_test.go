package sim_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/park"
	_ "github.com/electgo/elect/algo/vkt"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// The engine's share of the scale targets, without the checker and the
// counters (runner's and cmd's benchmarks measure whole runs). Each reports
// the time to build the engine (new-s) apart from the run itself.

// vktScale is the scenario of algo/vkt's BenchmarkElect100k and
// BenchmarkElect1M and of the scale targets: one initiator (node 0), no
// heartbeat within the run, constant 3 ms links.
func vktScale(b *testing.B, spec string, timeout, end time.Duration) {
	if testing.Short() {
		b.Skip("a scale benchmark")
	}
	g := specGraph(b, spec)
	a, _ := algo.Lookup("vkt")
	params := map[string]string{"initiators": "0", "heartbeat": "1h", "timeout": timeout.String(), "election_timeout": "1h"}
	cfg := sim.Config{Algorithm: a, Params: params, Graph: g, Values: sim.Values{Mode: sim.ValueRandom}, Seed: 1,
		Delay: sim.Delay{Kind: sim.Constant, A: 3 * time.Millisecond}, Duration: end}
	runScale(b, cfg)
}

func runScale(b *testing.B, cfg sim.Config) {
	var newTime time.Duration
	var events, hash uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		e, err := sim.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		newTime += time.Since(t0)
		res := e.Run()
		events, hash = res.Stats.Events, res.Hash
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(newTime.Seconds()/float64(b.N), "new-s")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.Logf("trace hash %016x", hash)
}

// BenchmarkVKT100k is the engine's part of scale target 2:
// geometric:100000:1.8:316x316, 3 s of virtual time.
//
//	go test ./sim -run X -bench VKT100k -benchtime 3x -count 3
func BenchmarkVKT100k(b *testing.B) {
	vktScale(b, "geometric:100000:1.8:316x316", 2500*time.Millisecond, 3*time.Second)
}

// BenchmarkVKT1M is the engine's part of scale target 1:
// geometric:1000000:1.8, 7.5 s of virtual time (27.6 million messages).
//
//	go test ./sim -run X -bench VKT1M -benchtime 1x -count 3
func BenchmarkVKT1M(b *testing.B) {
	vktScale(b, "geometric:1000000:1.8", 7*time.Second, 7500*time.Millisecond)
}

// BenchmarkParkMobile is the engine's part of the mobility target: park on
// 10,000 nodes moving by random waypoint (1 to 20 m/s, pauses of 2 s) in
// 14 km x 14 km with a range of 250 m (mean degree about 10), uniform
// 1-5 ms delays, for 60 s of virtual time (the target runs 600 s): the
// radio, the engine and the machines. /radio runs the radio alone over the
// same 60 s, to tell its share.
//
//	go test ./sim -run X -bench ParkMobile -benchtime 1x -count 3
func BenchmarkParkMobile(b *testing.B) {
	if testing.Short() {
		b.Skip("a scale benchmark")
	}
	const until = 60 * time.Second
	g := specGraph(b, "geometric:10000:250:14000x14000")
	w := mobility.Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * time.Second, Width: g.Width, Height: g.Height}
	plan, err := w.Plan(g.N(), g.Pos, until, rand.New(rand.NewPCG(1, 0x6d6f7665)))
	if err != nil {
		b.Fatal(err)
	}
	radio := func() *mobility.Radio {
		r, err := mobility.NewRadio(plan, 250)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	a, _ := algo.Lookup("park")
	b.Run("run", func(b *testing.B) {
		var events, hash uint64
		for i := 0; i < b.N; i++ {
			r := radio()
			cnt := &eventCounter{}
			e, err := sim.New(sim.Config{Algorithm: a, Graph: r.Graph(), Motion: r, Values: sim.Values{Mode: sim.ValueRandom}, Seed: 1,
				Delay: sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 5 * time.Millisecond}, Duration: until,
				Observers: []trace.Observer{cnt}})
			if err != nil {
				b.Fatal(err)
			}
			hash = e.Run().Hash
			events = cnt.n
		}
		b.ReportMetric(float64(events), "events")
		b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		b.Logf("trace hash %016x", hash)
	})
	b.Run("radio", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := radio()
			for {
				c, ok := r.Next()
				if !ok || c.At > until {
					break
				}
			}
		}
	})
}

// eventCounter counts the events of a run: an observer that costs next to
// nothing, so that the engine's fan-out to observers is measured too.
type eventCounter struct{ n uint64 }

func (c *eventCounter) Observe(*trace.Event) { c.n++ }

// BenchmarkQueue measures the event queue alone under the two patterns of
// the scale runs: a wave under constant delays (many events share a time,
// and every node holds timers far ahead, which sit in the top buckets) and
// random delays (times rarely tie, and events move down through more
// buckets). One op is one push and one pop; about 100,000 events are
// pending.
func BenchmarkQueue(b *testing.B) {
	for _, c := range []struct {
		name string
		next func(rng *rand.Rand) int64
	}{
		{"constant", func(*rand.Rand) int64 { return 3e6 }},
		{"uniform", func(rng *rand.Rand) int64 { return 1e6 + rng.Int64N(4e6+1) }},
		{"timers", func(rng *rand.Rand) int64 {
			if rng.IntN(8) == 0 {
				return 7e9 + rng.Int64N(1e9)
			}
			return 3e6
		}},
	} {
		b.Run(c.name, func(b *testing.B) { sim.BenchQueue(b, c.next) })
	}
}
