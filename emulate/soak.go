package emulate

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// A soak runs many randomized schedules of faults on real nodes and checks
// each against the specification, on the nodes' own status streams: the
// chaos test of the runtime. Each schedule is drawn from its seed, so a
// failing one is run again by its seed alone.
//
// A schedule, on n nodes of a complete network with random values:
//
//   - SIGKILL of a node or of the leader, and its restart (no state: it
//     elects) or recovery (its state: it merges) a moment later;
//   - SIGSTOP of a node for up to 2 s, then SIGCONT (Pause);
//   - a partition into two groups, healed a moment later;
//   - impairment of every link for the whole run: loss (up to 20%),
//     duplication and jitter that reorders, at the senders (Faults);
//   - in half the schedules, a replay of a node's (or the leader's)
//     captured datagrams a few seconds later, and in a third, forged
//     datagrams in a node's name whose counters are at the end of their
//     range (Attack), half of those on nodes that run without a key,
//     where forgery is possible at all;
//   - gray failures, within vkt's and park's model scaled to the soak's
//     quick timings (a third of the defaults'): in a third of the
//     schedules a link cut one way for a while, in a third a node's clock
//     at 0.8 to 1.2 of true time, in a quarter a clock that jumps (up to an
//     hour, either way), in a third a node slow by 20 to 150 ms for a
//     while; and in a quarter a node's disk gone for a while (DiskFault).
//     They are drawn after the attacks: what a seed drew before, it still
//     draws;
//   - in a third of the schedules, a value change (sim.SetValue, POST
//     /value) of a node or of the leader then, to a value drawn anew as the
//     random values are: a leader whose value falls below a follower's
//     hands over. It is drawn after the gray failures, for the same reason.
//
// Faults fall in the first faultSpan of the run; the run then lasts the
// checker's liveness bound and a margin more, so that every component's
// liveness is judged after the faults stop.

// SoakConfig is what a soak runs.
type SoakConfig struct {
	Binary    string
	Algorithm string            // default vkt
	Params    map[string]string // default: the soak's quick timings for vkt and park
	Nodes     int               // default 5
	Runs      int
	Seed      uint64 // schedule i is drawn from Seed+i
	// Hello and HelloLoss are the nodes' beacons (default 100ms and 6).
	Hello     time.Duration
	HelloLoss int
	Log       func(format string, args ...any) // the emulator's lines, if wanted
	// KeepFailed, when set, is a directory where a schedule that broke
	// the specification (or could not run) leaves its trace
	// (soak-SEED.jsonl, for elect check and elect viz) and its nodes'
	// logs and state (soak-SEED/); a schedule that passed leaves nothing.
	KeepFailed string
	// Each, when set, is told of every schedule's result as it ends.
	Each func(SoakRun)
}

// SoakRun is one schedule and how it ended.
type SoakRun struct {
	Seed       uint64  `json:"seed"`
	Schedule   string  `json:"schedule"`           // the faults, in words
	Faults     string  `json:"faults"`             // the impairment of the links
	Insecure   bool    `json:"insecure,omitempty"` // the nodes ran without a key
	Violations int     `json:"violations"`
	First      string  `json:"first_violation,omitempty"`
	Elections  int     `json:"elections"`
	Leaderless float64 `json:"leaderless_fraction"`
	// Replayed and Forged are the datagrams the schedule's attacks sent;
	// Rejected what the nodes refused, by reason (docs/wire.md).
	Replayed int               `json:"replayed,omitempty"`
	Forged   int               `json:"forged,omitempty"`
	Rejected map[string]uint64 `json:"rejected,omitempty"`
	WallMS   float64           `json:"wall_ms"`
	Err      string            `json:"error,omitempty"`
}

// The soak's timings: faults in the first faultSpan; the checker's bounds.
const (
	faultSpan         = 7 * time.Second
	soakStabilization = 3 * time.Second
	soakLiveness      = 5 * time.Second
)

// quick are timings that settle within the soak's bounds.
var quick = map[string]map[string]string{
	"vkt":  {"heartbeat": "200ms", "timeout": "1s", "probe": "200ms", "election_timeout": "2s"},
	"park": {"heartbeat": "200ms", "timeout": "1s", "resend": "200ms", "election_timeout": "2s"},
}

// Soak runs the schedules in turn, and returns their results.
func Soak(ctx context.Context, cfg SoakConfig) ([]SoakRun, error) {
	if cfg.Algorithm == "" {
		cfg.Algorithm = "vkt"
	}
	if cfg.Params == nil {
		cfg.Params = quick[cfg.Algorithm]
	}
	if cfg.Nodes == 0 {
		cfg.Nodes = 5
	}
	if cfg.Nodes < 3 || cfg.Nodes > maxNodes {
		return nil, fmt.Errorf("soak of %d nodes: want 3 to %d", cfg.Nodes, maxNodes)
	}
	if cfg.Hello == 0 {
		cfg.Hello, cfg.HelloLoss = 100*time.Millisecond, 6
	}
	var out []SoakRun
	for i := range cfg.Runs {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		seed := cfg.Seed + uint64(i)
		d := Schedule(cfg.Algorithm, cfg.Params, cfg.Nodes, seed)
		run := Config{Scenario: d.Scenario, Binary: cfg.Binary, Hello: cfg.Hello, HelloLoss: cfg.HelloLoss,
			Faults: d.Faults, Pauses: d.Pauses, Disks: d.Disks, Attacks: d.Attacks, Insecure: d.Insecure, Log: cfg.Log}
		keep, err := keepFor(cfg.KeepFailed, seed, d.Scenario, &run)
		if err != nil {
			return out, err
		}
		start := time.Now()
		res, err := Run(ctx, run)
		r := SoakRun{Seed: seed, Schedule: d.Words, Faults: d.Faults.String(), Insecure: d.Insecure, WallMS: metrics.MS(time.Since(start))}
		if err != nil {
			r.Err = err.Error()
		} else {
			sum := res.Emulated
			r.Violations, r.Elections, r.Leaderless = sum.ViolationCount, sum.Elections.Completed, sum.LeaderlessFraction
			if len(sum.Violations) > 0 {
				r.First = fmt.Sprintf("%+v", sum.Violations[0])
			}
			if em := sum.Emulation; em != nil {
				r.Replayed, r.Forged, r.Rejected = em.Replayed, em.Forged, em.Rejected
			}
		}
		keep.done(r.Err == "" && r.Violations == 0)
		out = append(out, r)
		if cfg.Each != nil {
			cfg.Each(r)
		}
	}
	return out, nil
}

// Drawn is one schedule of a soak.
type Drawn struct {
	// Scenario holds the network, values, crashes, restarts, recoveries
	// and partitions.
	Scenario *scenario.Scenario
	Pauses   []Pause
	Disks    []DiskFault
	Attacks  []Attack
	// Faults impair every link; Insecure runs the nodes without a key.
	Faults   runtime.Faults
	Insecure bool
	// Words says it all, for a soak's line.
	Words string
}

// Schedule draws the schedule of seed. (What schedules drew before attacks
// came, they still draw: attacks are drawn last.)
func Schedule(alg string, params map[string]string, n int, seed uint64) Drawn {
	rng := rand.New(rand.NewPCG(seed, 0x736f616b)) // "soak"
	s := scenario.Default()
	s.File = fmt.Sprintf("soak-%d", seed)
	s.Algorithm, s.Topology, s.Seed, s.Params = alg, fmt.Sprintf("complete:%d", n), seed, maps.Clone(params)
	s.Values = sim.Values{Mode: sim.ValueRandom}
	s.Duration = faultSpan + soakLiveness + 2*time.Second
	s.Check = scenario.Check{Stabilization: soakStabilization, Liveness: soakLiveness}
	all := make([]algo.NodeID, n)
	for v := range all {
		all[v] = algo.NodeID(v)
	}
	busy := make([]time.Duration, n) // per node, until when a fault holds it
	var partitionUntil time.Duration
	var pauses []Pause
	var words []string
	ms := func(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }
	for range 2 + rng.IntN(5) {
		at := ms(500*time.Millisecond + time.Duration(rng.Int64N(int64(faultSpan-3*time.Second))))
		v := algo.NodeID(rng.IntN(n))
		switch k := rng.IntN(4); {
		case k == 0 && at >= busy[v]: // a crash, then a restart or a recovery
			back := ms(at + 500*time.Millisecond + time.Duration(rng.Int64N(int64(2*time.Second))))
			how, kind := "restart", sim.Restart
			if rng.IntN(2) == 0 {
				how, kind = "recover", sim.Recover
			}
			s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Crash, Nodes: []algo.NodeID{v}},
				sim.Action{At: back, Kind: kind, Nodes: []algo.NodeID{v}})
			busy[v] = back + time.Second
			words = append(words, fmt.Sprintf("%v kill %d, %s at %v", at, v, how, back))
		case k == 1: // the leader, whichever it is then; it comes back with its state
			back := ms(at + 500*time.Millisecond + time.Duration(rng.Int64N(int64(2*time.Second))))
			for u := range busy {
				busy[u] = max(busy[u], back+time.Second) // whichever it was, it may be any node
			}
			// Every node is brought back: the one killed recovers, the
			// others are alive and ignore it.
			s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Crash, Leader: true},
				sim.Action{At: back, Kind: sim.Recover, Nodes: slices.Clone(all)})
			words = append(words, fmt.Sprintf("%v kill the leader, recover at %v", at, back))
		case k == 2 && at >= busy[v]: // a freeze
			d := ms(300*time.Millisecond + time.Duration(rng.Int64N(int64(1700*time.Millisecond))))
			pauses = append(pauses, Pause{Node: v, At: at, For: d})
			busy[v] = at + d + time.Second
			words = append(words, fmt.Sprintf("%v pause %d for %v", at, v, d))
		case k == 3 && at >= partitionUntil: // a partition in two, healed
			perm := rng.Perm(n)
			cut := 1 + rng.IntN(n-1)
			a, b := slices.Sorted(slices.Values(perm[:cut])), slices.Sorted(slices.Values(perm[cut:]))
			heal := ms(at + time.Second + time.Duration(rng.Int64N(int64(2*time.Second))))
			s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Partition, Groups: []sim.Group{{Name: "a", Nodes: nodeIDs(a)}, {Name: "b", Nodes: nodeIDs(b)}}},
				sim.Action{At: heal, Kind: sim.Heal})
			partitionUntil = heal + time.Second
			words = append(words, fmt.Sprintf("%v partition %v|%v, heal at %v", at, a, b, heal))
		}
	}
	s.SortEvents()
	if len(words) == 0 {
		words = append(words, "no fault but the links'")
	}
	faults := runtime.Faults{Seed: seed}
	faults.Loss = []float64{0, 0.05, 0.1, 0.2}[rng.IntN(4)]
	faults.Duplicate = []float64{0, 0.05}[rng.IntN(2)]
	faults.Jitter = []time.Duration{0, 2 * time.Millisecond, 5 * time.Millisecond}[rng.IntN(3)]
	attacks, insecure := drawAttacks(rng, n)
	for _, a := range attacks {
		words = append(words, a.Describe())
	}
	if insecure {
		words = append(words, "no key")
	}
	disks, grayWords := drawGray(rng, s, busy)
	words = append(words, grayWords...)
	words = append(words, drawValue(rng, s, n)...)
	return Drawn{Scenario: s, Pauses: pauses, Disks: disks, Attacks: attacks, Faults: faults, Insecure: insecure, Words: strings.Join(words, "; ")}
}

// drawGray draws a schedule's gray failures into its scenario, and its
// disk faults on nodes no other fault holds then (busy), each said in
// words.
func drawGray(rng *rand.Rand, s *scenario.Scenario, busy []time.Duration) ([]DiskFault, []string) {
	n := len(busy)
	ms := func(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }
	when := func(room time.Duration) time.Duration {
		return ms(500*time.Millisecond + time.Duration(rng.Int64N(int64(faultSpan-room-500*time.Millisecond))))
	}
	var words []string
	var disks []DiskFault
	if rng.IntN(3) == 0 { // a link cut one way, then carrying again
		from, to := algo.NodeID(rng.IntN(n)), algo.NodeID(rng.IntN(n-1))
		if to >= from {
			to++
		}
		at := when(3 * time.Second)
		back := ms(at + 500*time.Millisecond + time.Duration(rng.Int64N(int64(2*time.Second))))
		k := topo.Edge{A: from, B: to}
		s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Cut, Link: k}, sim.Action{At: back, Kind: sim.Uncut, Link: k})
		words = append(words, fmt.Sprintf("%v cut %d->%d, uncut at %v", at, from, to, back))
	}
	if rng.IntN(3) == 0 { // a clock at its own rate, to the end
		v, rate := algo.NodeID(rng.IntN(n)), float64(80+rng.IntN(41))/100
		at := when(0)
		s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Clock, Nodes: []algo.NodeID{v}, Rate: rate})
		words = append(words, fmt.Sprintf("%v clock of %d at %g", at, v, rate))
	}
	if rng.IntN(4) == 0 { // a clock that jumps
		v := algo.NodeID(rng.IntN(n))
		jump := time.Duration(1+rng.Int64N(int64(time.Hour/time.Millisecond))) * time.Millisecond
		if rng.IntN(2) == 0 {
			jump = -jump
		}
		at := when(0)
		s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Clock, Nodes: []algo.NodeID{v}, Jump: jump})
		words = append(words, fmt.Sprintf("%v clock of %d jumps %v", at, v, jump))
	}
	if rng.IntN(3) == 0 { // a slow spell
		v := algo.NodeID(rng.IntN(n))
		by := time.Duration(20+rng.IntN(131)) * time.Millisecond
		span := ms(500*time.Millisecond + time.Duration(rng.Int64N(int64(2500*time.Millisecond))))
		at := when(span)
		s.Events = append(s.Events, sim.Action{At: at, Kind: sim.Slow, Nodes: []algo.NodeID{v}, By: by, For: span})
		words = append(words, fmt.Sprintf("%v slow %d by %v for %v", at, v, by, span))
	}
	if rng.IntN(4) == 0 { // a disk gone, on a node nothing else holds then
		d := ms(500*time.Millisecond + time.Duration(rng.Int64N(int64(1500*time.Millisecond))))
		at := when(d)
		var free []algo.NodeID
		for v, b := range busy {
			if at >= b && at+d+time.Second <= faultSpan+soakLiveness {
				free = append(free, algo.NodeID(v))
			}
		}
		if len(free) > 0 {
			v := free[rng.IntN(len(free))]
			disks = append(disks, DiskFault{Node: v, At: at, For: d})
			busy[v] = at + d + time.Second
			words = append(words, disks[0].String())
		}
	}
	s.SortEvents()
	return disks, words
}

// drawValue draws a schedule's value change into its scenario, in a third
// of the schedules: the value of a node, or of the leader then (one time in
// two), becomes one drawn as the random values are, at a moment of the
// faults' span; it is said in words.
func drawValue(rng *rand.Rand, s *scenario.Scenario, n int) []string {
	if rng.IntN(3) != 0 {
		return nil
	}
	at := (500*time.Millisecond + time.Duration(rng.Int64N(int64(faultSpan-500*time.Millisecond)))).Round(10 * time.Millisecond)
	a := sim.Action{At: at, Kind: sim.SetValue, Value: rng.Int64N(sim.RandomValueRange)}
	who := "the leader"
	if rng.IntN(2) == 0 {
		v := algo.NodeID(rng.IntN(n))
		a.Nodes, who = []algo.NodeID{v}, fmt.Sprintf("node %d", v)
	} else {
		a.Leader = true
	}
	s.Events = append(s.Events, a)
	s.SortEvents()
	return []string{fmt.Sprintf("%v value of %s to %d", at, who, a.Value)}
}

// drawAttacks draws a schedule's attacks: in half the schedules a replay,
// a few seconds later, of 1 to 2 s of the datagrams of a node or of the
// node that led then (which a crash of the leader may have killed since);
// in a third, 1 to 3 forgeries of counters at the end of their range in a
// node's or the leader's name, and then, one time in two, nodes without a
// key, which only the range checks guard.
func drawAttacks(rng *rand.Rand, n int) (attacks []Attack, insecure bool) {
	ms := func(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }
	who := func() algo.NodeID {
		if rng.IntN(2) == 0 {
			return algo.None
		}
		return algo.NodeID(rng.IntN(n))
	}
	if rng.IntN(2) == 0 {
		from := ms(500*time.Millisecond + time.Duration(rng.Int64N(int64(faultSpan/2))))
		d := ms(time.Second + time.Duration(rng.Int64N(int64(time.Second))))
		at := ms(from + d + time.Duration(rng.Int64N(int64(faultSpan-from-d))))
		attacks = append(attacks, Attack{At: at, Kind: Replay, Node: who(), From: from, For: d})
	}
	if rng.IntN(3) == 0 {
		for range 1 + rng.IntN(3) {
			at := ms(time.Second + time.Duration(rng.Int64N(int64(faultSpan-time.Second))))
			kind := []AttackKind{ForgeFence, ForgeIndex}[rng.IntN(2)]
			attacks = append(attacks, Attack{At: at, Kind: kind, Node: who()})
		}
		insecure = rng.IntN(2) == 0
	}
	slices.SortStableFunc(attacks, func(x, y Attack) int { return cmp.Compare(x.At, y.At) })
	return attacks, insecure
}

func nodeIDs(v []int) []algo.NodeID {
	out := make([]algo.NodeID, len(v))
	for i, x := range v {
		out[i] = algo.NodeID(x)
	}
	return out
}

// kept is what a schedule keeps in KeepFailed until it is known to pass.
type kept struct {
	trace *os.File
	w     *trace.Writer
	dir   string
}

// keepFor sets run up to leave its trace and files in dir (none if "").
func keepFor(dir string, seed uint64, s *scenario.Scenario, run *Config) (*kept, error) {
	k := &kept{}
	if dir == "" {
		return k, nil
	}
	h, err := TraceHeader(s)
	if err != nil {
		return nil, err
	}
	if k.trace, err = os.Create(filepath.Join(dir, fmt.Sprintf("soak-%d.jsonl", seed))); err != nil {
		return nil, err
	}
	if k.w, err = trace.NewWriter(k.trace, h); err != nil {
		k.trace.Close()
		return nil, err
	}
	k.dir = filepath.Join(dir, fmt.Sprintf("soak-%d", seed))
	run.Observers, run.Dir = append(run.Observers, k.w), k.dir
	return k, nil
}

// done closes what was kept, and removes it if the schedule passed.
func (k *kept) done(passed bool) {
	if k.trace == nil {
		return
	}
	k.w.Close()
	k.trace.Close()
	if passed {
		os.Remove(k.trace.Name())
		os.RemoveAll(k.dir)
	}
}
