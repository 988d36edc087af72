package sim_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

// Observers behind the engine see the same events: the trace, byte for
// byte, and the hash are those of the run without the pipeline, over many
// batches of every kind of event.
func TestPipelineSameRun(t *testing.T) {
	g := geometric(t, 2000, 60)
	r1, t1 := faultyRunPiped(t, g, 5, false)
	r2, t2 := faultyRunPiped(t, g, 5, true)
	if r1.Stats.Events < 20*1024 {
		t.Fatalf("only %d events: the run fills too few batches", r1.Stats.Events)
	}
	if r1 != r2 || !bytes.Equal(t1, t2) {
		t.Fatalf("the pipeline changed the run: results %+v and %+v, traces equal %v", r1, r2, bytes.Equal(t1, t2))
	}
}

// panicky panics at its nth event.
type panicky struct{ n int }

func (p *panicky) Observe(*trace.Event) {
	if p.n--; p.n == 0 {
		panic("observer gave up")
	}
}

// An observer's panic behind the engine comes out of Run, on the caller's
// goroutine, with what it said; the observers' goroutine is gone after it.
func TestPipelineObserverPanic(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, at := range []int{1, 3000} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "observer gave up") {
					t.Errorf("panic at event %d: Run panicked with %v", at, r)
				}
			}()
			a, err := algo.Lookup("extinction")
			if err != nil {
				t.Fatal(err)
			}
			e, err := sim.New(sim.Config{Algorithm: a, Graph: geometric(t, 500, 90), Delay: sim.DefaultDelay,
				Observers: []trace.Observer{&panicky{n: at}}, Pipeline: true})
			if err != nil {
				t.Fatal(err)
			}
			e.Run()
		}()
	}
	waitGoroutines(t, before)
}

// A machine's panic stops the engine; the observers' goroutine ends too.
func TestPipelineEnginePanic(t *testing.T) {
	before := runtime.NumGoroutine()
	a := &algo.Algorithm{Name: "test-pipe-panic", Messages: []string{"m"},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			return func(algo.NodeID) algo.Machine { return panicMachine{} }, nil
		}}
	e, err := sim.New(sim.Config{Algorithm: a, Graph: line(3), Delay: sim.DefaultDelay, Pipeline: true,
		Observers: []trace.Observer{&panicky{n: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { recover() }()
		e.Run()
		t.Error("Run returned though a machine panicked")
	}()
	waitGoroutines(t, before)
}

// waitGoroutines waits a little for goroutines to end, down to n.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines, %d before: the observers' goroutine outlived the run", runtime.NumGoroutine(), n)
}

// panicMachine sends one message at start and panics when it arrives.
type panicMachine struct{}

func (panicMachine) Start(env algo.Env) {
	for _, u := range env.Neighbors() {
		env.Send(u, algo.Message{})
	}
}
func (panicMachine) Restart(algo.Env)                   {}
func (panicMachine) Recover(algo.Env, []byte) error     { return nil }
func (panicMachine) Save() []byte                       { return nil }
func (panicMachine) Receive(algo.Env, *algo.Message)    { panic("machine gave up") }
func (panicMachine) Timer(algo.Env, algo.Timer)         {}
func (panicMachine) NeighborUp(algo.Env, algo.NodeID)   {}
func (panicMachine) NeighborDown(algo.Env, algo.NodeID) {}
func (panicMachine) Elect(algo.Env)                     {}
func (panicMachine) Status() algo.Status                { return algo.Status{Leader: algo.None} }
