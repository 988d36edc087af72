package sim_test

import (
	"runtime"
	"time"

	"github.com/electgo/elect/trace"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// specGraph builds a topology spec, with the random draws of seed 1.
func specGraph(t testing.TB, spec string) *topo.Graph {
	t.Helper()
	s, err := topo.Parse(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Build(randFor(1), "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// BenchmarkEchoGeometric1M is the echo wave from node 0 on a million nodes
// with about ten neighbours each, under constant and random delays: the
// engine and the machines alone, the network prebuilt, no observer.
func BenchmarkEchoGeometric1M(b *testing.B) {
	g := specGraph(b, "geometric:1000000:1.8")
	for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms"} {
		b.Run(delay, func(b *testing.B) { benchEcho(b, g, delay) })
	}
}

func benchEcho(b *testing.B, g *topo.Graph, delay string) {
	a, _ := algo.Lookup("echo")
	d, err := sim.ParseDelay(delay)
	if err != nil {
		b.Fatal(err)
	}
	var events uint64
	var run time.Duration
	for i := 0; i < b.N; i++ {
		// Since the driver chooses the initiators (issue 17), a wave
		// without one never starts: this measured New alone until then.
		e, err := sim.New(sim.Config{Algorithm: a, Graph: g, Seed: 1, Delay: d, Initiators: []algo.NodeID{0}})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		events = e.Run().Stats.Events
		run += time.Since(start)
	}
	if events < uint64(2*g.M()) {
		b.Fatalf("%d events: the wave did not cross the network", events)
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(events)*float64(b.N)/run.Seconds(), "events/s")
	b.ReportMetric(run.Seconds()/float64(b.N), "run-s")
}

// relay keeps tokens moving: every message received is passed on to the
// next neighbour in turn, so the engine does nothing but deliver and send.
type relay struct {
	id     algo.NodeID
	tokens int
	next   int
}

func (r *relay) Start(env algo.Env) {
	for i := 0; i < r.tokens; i++ {
		r.pass(env)
	}
}
func (r *relay) pass(env algo.Env) {
	nb := env.Neighbors()
	if len(nb) == 0 {
		return
	}
	r.next = (r.next + 1) % len(nb)
	env.Send(nb[r.next], algo.Message{Index: algo.Index{Num: 1, ID: r.id}})
}
func (r *relay) Restart(env algo.Env)                  {}
func (r *relay) Recover(algo.Env, []byte) error        { return nil }
func (r *relay) Save() []byte                          { return nil }
func (r *relay) Receive(env algo.Env, m *algo.Message) { r.pass(env) }
func (r *relay) Timer(algo.Env, algo.Timer)            {}
func (r *relay) NeighborUp(algo.Env, algo.NodeID)      {}
func (r *relay) NeighborDown(algo.Env, algo.NodeID)    {}
func (r *relay) Elect(algo.Env)                        {}
func (r *relay) Status() algo.Status                   { return algo.Status{Leader: r.id} }

var relayAlgo = &algo.Algorithm{
	Name:     "bench-relay",
	Messages: []string{"token"},
	Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
		return func(id algo.NodeID) algo.Machine { return &relay{id: id, tokens: 4} }, nil
	},
}

// BenchmarkEngineMessages measures the engine's own cost per message (send,
// queue, deliver, fingerprint): four tokens per node circulate on a
// 10,000-node geometric network for one virtual second (40 million
// messages). Run with -cpu 1 for
// the one-core figure. Allocations are reported per message, after a
// warm-up of 100 virtual milliseconds.
func BenchmarkEngineMessages(b *testing.B) {
	g := specGraph(b, "geometric:10000:15")
	for _, delay := range []string{"constant:1ms", "uniform:1ms:5ms"} {
		b.Run(delay, func(b *testing.B) {
			d, _ := sim.ParseDelay(delay)
			var msgs, allocs, counted uint64
			for i := 0; i < b.N; i++ {
				cnt := &allocCounter{from: 100 * time.Millisecond}
				e, err := sim.New(sim.Config{Algorithm: relayAlgo, Graph: g, Seed: 1, Delay: d, Duration: time.Second, Observers: []trace.Observer{cnt}})
				if err != nil {
					b.Fatal(err)
				}
				msgs += e.Run().Stats.Events
				allocs += cnt.allocs()
				counted += cnt.delivered
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
			b.ReportMetric(float64(allocs)/float64(counted), "allocs/msg")
		})
	}
}

// allocCounter counts heap allocations made while messages are delivered,
// from virtual time from on.
type allocCounter struct {
	from      time.Duration
	started   bool
	start     runtime.MemStats
	delivered uint64
	end       runtime.MemStats
}

func (c *allocCounter) Observe(e *trace.Event) {
	switch {
	case e.Kind == trace.End:
		runtime.ReadMemStats(&c.end)
	case e.At < c.from:
	case !c.started:
		c.started = true
		runtime.ReadMemStats(&c.start)
	case e.Kind == trace.Delivered:
		c.delivered++
	}
}

func (c *allocCounter) allocs() uint64 { return c.end.Mallocs - c.start.Mallocs }
