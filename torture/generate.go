package torture

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// Faults says which kinds of fault a generated scenario may hold.
type Faults struct {
	Loss, Crash, Partition, Mobility bool
	// Jokers are the ring's injected faults: a node that dies on a given
	// message (crash_on) and one that corrupts what it sends (corrupt).
	Jokers bool
	// Late lets messages take longer than the algorithm's shortest
	// timeout (unbounded delays). It matters only to algorithms that
	// assume a bound (algo.Model.BoundedDelay): for the others no delay
	// is a fault, and every delay model is drawn in their model too.
	Late bool
	// Gray failures (algo.Model's OneWay, Drift, Jumps, Slow): links cut
	// one way; clocks at rates 1±d for d from DriftFrom to Drift (none when
	// Drift is 0); clock jumps; nodes slow by SlowFrom to Slow (none when
	// Slow is 0). In a model the draws start at 0; beyond it, at the
	// model's bound.
	OneWay, Jumps    bool
	Drift, DriftFrom float64
	Slow, SlowFrom   time.Duration
	// Values lets nodes' values change during the run (sim.SetValue): in
	// the model of algorithms that hand leadership over as values change
	// (algo.Model.FollowsValue), beyond it for the others, which elect
	// once (the checker holds them to the values at their election).
	Values bool
}

// Tolerated is what an algorithm's model declares it keeps the
// specification under: the faults of in-model runs.
func Tolerated(m algo.Model) Faults {
	f := Faults{Loss: m.Loss, Crash: m.Crash, Partition: m.Partition, Mobility: m.Mobility,
		OneWay: m.OneWay, Drift: m.Drift, Jumps: m.Jumps, Slow: m.Slow, Values: m.FollowsValue}
	if m.Asynchronous {
		f.Drift, f.Jumps, f.Slow = anyDrift, true, anySlow
	}
	return f
}

// Untolerated is every fault the model does not declare: what an
// out-of-model run adds, to document how the algorithm fails. Beyond a
// bounded drift or slowness it draws rates up to 5 times true time's, and
// slowness up to 5 s past the bound.
func Untolerated(m algo.Model) Faults {
	f := Faults{Loss: !m.Loss, Crash: !m.Crash, Partition: !m.Partition, Mobility: !m.Mobility && m.Topology == "",
		Jokers: m.Topology == "ring", Late: m.BoundedDelay, OneWay: !m.OneWay, Values: !m.FollowsValue}
	if !m.Asynchronous {
		f.Drift, f.DriftFrom, f.Jumps = 4, m.Drift, !m.Jumps
		f.Slow, f.SlowFrom = m.Slow+5*time.Second, m.Slow
	}
	return f
}

func (f Faults) String() string {
	var s []string
	for _, x := range []struct {
		on   bool
		name string
	}{{f.Loss, "loss"}, {f.Crash, "crash"}, {f.Partition, "partition"}, {f.Mobility, "mobility"}, {f.Jokers, "jokers"}, {f.Late, "late"},
		{f.OneWay, "one-way"}, {f.Drift > 0, fmt.Sprintf("drift %g-%g", f.DriftFrom, f.Drift)}, {f.Jumps, "jumps"},
		{f.Slow > 0, fmt.Sprintf("slow %v-%v", f.SlowFrom, f.Slow)}, {f.Values, "values"}} {
		if x.on {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}

// Limits bound generated scenarios.
type Limits struct {
	// MaxNodes bounds the network's size (at least 3).
	MaxNodes int
}

// Generate draws one scenario for algorithm a from rng: a network of the
// kind a needs (or any), values, delays, the algorithm's own choices
// (initiators, candidates), and faults of the kinds f allows at random
// times; the run lasts until the checker's liveness bound has passed after
// the last event.
func Generate(a *algo.Algorithm, f Faults, lim Limits, rng *rand.Rand) *scenario.Scenario {
	s := scenario.Default()
	s.File = ""
	s.Algorithm = a.Name
	s.Params = nil
	s.Seed = rng.Uint64() >> 1
	n := 3 + int(float64(max(lim.MaxNodes, 3)-2)*rng.Float64()*rng.Float64()) // small networks most often
	s.Topology = topology(a, n, rng)
	g, _, err := runner.Network(s)
	if err != nil {
		// Every spec drawn here builds; a failure is the generator's bug.
		panic(fmt.Sprintf("torture: topology %s: %v", s.Topology, err))
	}
	n = g.N() // a grid rounds n to its rows and columns
	if rng.IntN(2) == 0 {
		s.Values = sim.Values{Mode: sim.ValueID}
	} else {
		s.Values = sim.Values{Mode: sim.ValueRandom}
	}
	// Faults and random graphs leave pieces no initiator reaches: the
	// checker does not expect them to elect (check.ExpectInitiated).
	s.Initiators = initiators(a, n, rng)
	s.Delay = delay(rng)
	if a.Model.BoundedDelay && !f.Late {
		// In time for the timeouts: at most a quarter of the shortest.
		s.Delay = bounded(s.Delay, shortest(a, s.Params)/4)
	}
	moving := f.Mobility && rng.IntN(3) == 0
	if moving {
		s.Topology = fmt.Sprintf("geometric:%d:d%d", n, 3+rng.IntN(5))
		s.Mobility = fmt.Sprintf("waypoint:%d:%d:%dms", 1+rng.IntN(3), 5+rng.IntN(20), rng.IntN(3000))
	}
	if f.Loss && rng.IntN(2) == 0 {
		s.Loss = float64(1+rng.IntN(150)) / 1000
	}
	last := time.Duration(0)
	add := func(act sim.Action) {
		s.Events = append(s.Events, act)
		last = max(last, act.At+act.For) // a slow spell's end is a change too
	}
	at := func(from time.Duration) time.Duration {
		return from + time.Duration(rng.Int64N(int64(15*time.Second)))/time.Millisecond*time.Millisecond
	}
	if f.Crash {
		for range rng.IntN(4) {
			t := at(500 * time.Millisecond)
			crash := sim.Action{At: t, Kind: sim.Crash}
			v := algo.NodeID(rng.IntN(n))
			if a.Model.Spontaneous && rng.IntN(3) == 0 {
				crash.Leader = true
			} else {
				crash.Nodes = []algo.NodeID{v}
			}
			add(crash)
			if !crash.Leader && rng.IntN(3) != 0 {
				kind := sim.Restart
				if rng.IntN(2) == 0 {
					kind = sim.Recover
				}
				add(sim.Action{At: at(t + time.Millisecond), Kind: kind, Nodes: []algo.NodeID{v}})
			}
		}
	}
	if f.Partition {
		for range rng.IntN(3) {
			t := at(500 * time.Millisecond)
			add(sim.Action{At: t, Kind: sim.Partition, Groups: groups(n, rng)})
			if rng.IntN(4) != 0 {
				add(sim.Action{At: at(t + time.Millisecond), Kind: sim.Heal})
			}
		}
		edges := g.Edges()
		for range rng.IntN(3) {
			if len(edges) == 0 || moving {
				break // moving nodes have no fixed links to cut
			}
			k := edges[rng.IntN(len(edges))]
			t := at(500 * time.Millisecond)
			add(sim.Action{At: t, Kind: sim.LinkDown, Link: k})
			if rng.IntN(3) != 0 {
				add(sim.Action{At: at(t + time.Millisecond), Kind: sim.LinkUp, Link: k})
			}
		}
	}
	if f.Jokers {
		if len(a.Messages) > 0 && rng.IntN(2) == 0 {
			add(sim.Action{Kind: sim.CrashOn, Nodes: []algo.NodeID{algo.NodeID(rng.IntN(n))}, Message: a.Messages[rng.IntN(len(a.Messages))]})
		}
		if rng.IntN(2) == 0 {
			add(sim.Action{Kind: sim.Corrupt, Nodes: []algo.NodeID{algo.NodeID(rng.IntN(n))}})
		}
	}
	if a.Model.Spontaneous {
		for range rng.IntN(2) {
			add(sim.Action{At: at(0), Kind: sim.ElectAt, Nodes: []algo.NodeID{algo.NodeID(rng.IntN(n))}})
		}
	}
	gray(f, g.Edges(), moving, n, rng, at, add)
	// Drawn after every other draw, so that a seed's earlier draws stay
	// what they were before values changed.
	if f.Values {
		changeValues(s.Values.Mode, n, a.Model.Spontaneous, rng, at, add)
	}
	s.SortEvents()
	// The checker's bounds leave room for the algorithm's own timers, and
	// the run lasts past the last event by the liveness bound and a
	// margin: every component must have settled by then. Algorithms that
	// go quiet end by themselves when nothing is moving.
	s.Check = bounds(a, s.Params)
	s.Duration = last + s.Check.Liveness + 5*time.Second
	if !a.Model.Spontaneous && !moving && len(s.Events) == 0 {
		s.Duration = 0
	}
	return s
}

// topology draws a network spec of n nodes of the kind a needs.
func topology(a *algo.Algorithm, n int, rng *rand.Rand) string {
	switch a.Model.Topology {
	case "complete":
		return fmt.Sprintf("complete:%d", n)
	case "ring":
		return fmt.Sprintf("ring:%d", n)
	}
	switch rng.IntN(8) {
	case 0:
		return fmt.Sprintf("line:%d", n)
	case 1:
		return fmt.Sprintf("ring:%d", n)
	case 2:
		return fmt.Sprintf("star:%d", n)
	case 3:
		w := 2 + rng.IntN(max(1, n/2))
		return fmt.Sprintf("grid:%dx%d", w, max(1, n/w))
	case 4:
		return fmt.Sprintf("tree:%d", n)
	case 5:
		return fmt.Sprintf("complete:%d", n)
	case 6:
		return fmt.Sprintf("gnp:%d:%.2f", n, 0.2+0.6*rng.Float64())
	}
	return fmt.Sprintf("geometric:%d:d%d", n, 2+rng.IntN(6))
}

// delay draws a link delay model.
func delay(rng *rand.Rand) sim.Delay {
	ms := func(lo, hi int) time.Duration { return time.Duration(lo+rng.IntN(hi-lo+1)) * time.Millisecond }
	switch rng.IntN(3) {
	case 0:
		return sim.Delay{Kind: sim.Constant, A: ms(1, 20)}
	case 1:
		lo := ms(1, 10)
		return sim.Delay{Kind: sim.Uniform, A: lo, B: lo + ms(0, 50)}
	}
	return sim.Delay{Kind: sim.Exponential, A: ms(1, 20)}
}

// initiators draws the run's initiators, the nodes that start an election
// at boot. Those of an algorithm whose machines start it of their own
// accord and read who does in a parameter (algo.Param.Boot: vkt's and
// park's) are any set, every node a third of the time, as their documents
// have it; every parameter keeps its default. The others' are the
// algorithm's default, or one node (those of a spontaneous algorithm
// without such a parameter, bully, its default: every node). Those of an
// algorithm that elects the best of its candidates (Model.ElectsInitiator:
// the capture algorithms) are any set too, which the checker holds to its
// best. Another whose default is every node keeps it.
func initiators(a *algo.Algorithm, n int, rng *rand.Rand) string {
	if a.Model.ElectsInitiator || slices.ContainsFunc(a.Params, func(p algo.Param) bool { return p.Boot }) {
		return nodeSet(n, rng)
	}
	if a.Model.Spontaneous || a.Model.Initiators == "all" || rng.IntN(2) == 0 {
		return ""
	}
	return fmt.Sprint(rng.IntN(n))
}

// nodeSet draws "all", or a non-empty set of nodes written as a list.
func nodeSet(n int, rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return "all"
	}
	var ids []string
	for v := range n {
		if rng.IntN(3) == 0 {
			ids = append(ids, fmt.Sprint(v))
		}
	}
	if len(ids) == 0 {
		ids = append(ids, fmt.Sprint(rng.IntN(n)))
	}
	return strings.Join(ids, ",")
}

// groups draws the sides of a partition: two or three named groups
// holding every node.
func groups(n int, rng *rand.Rand) []sim.Group {
	k := 2 + rng.IntN(2)
	gs := make([]sim.Group, k)
	for i := range gs {
		gs[i].Name = fmt.Sprintf("g%d", i)
	}
	for v := range n {
		i := rng.IntN(k)
		gs[i].Nodes = append(gs[i].Nodes, algo.NodeID(v))
	}
	out := gs[:0]
	for _, g := range gs {
		if len(g.Nodes) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// bounds are the checker's bounds for a run of a with params: the defaults,
// or more when the algorithm's own timers are long: a component may need
// twice its longest timeout to notice what changed (vkt's election_timeout
// is 10s, the default stabilization bound too).
func bounds(a *algo.Algorithm, params map[string]string) scenario.Check {
	longest := time.Duration(0)
	if p, err := a.Resolve(params); err == nil {
		for _, v := range p {
			if d, err := time.ParseDuration(v); err == nil {
				longest = max(longest, d)
			}
		}
	}
	stab := max(check.DefaultStabilization, 2*longest)
	return scenario.Check{Stabilization: stab, Liveness: max(check.DefaultLiveness, stab+20*time.Second)}
}

// shortest is the shortest duration among a's parameters (0: none).
func shortest(a *algo.Algorithm, params map[string]string) time.Duration {
	least := time.Duration(0)
	if p, err := a.Resolve(params); err == nil {
		for _, v := range p {
			if d, err := time.ParseDuration(v); err == nil && d > 0 && (least == 0 || d < least) {
				least = d
			}
		}
	}
	return least
}

// bounded keeps a delay model under limit: an exponential delay (no bound)
// becomes a uniform one of the same mean, and every bound is cut to limit.
func bounded(d sim.Delay, limit time.Duration) sim.Delay {
	if limit <= 0 {
		return d
	}
	if d.Kind == sim.Exponential {
		d = sim.Delay{Kind: sim.Uniform, A: time.Millisecond, B: 2 * d.A}
	}
	d.A, d.B = min(d.A, limit), min(d.B, limit)
	return d
}
