// Package bench runs the experiments of the source documents as sweeps:
// every combination of experiment, algorithm, topology, size and seed is one
// simulated run, checked like any other, whose figures (message overhead,
// election time, time without a leader) become one row of a CSV file. Runs
// are independent, so a sweep spreads over the cores of a machine, and over
// many machines by shards whose CSV files merge afterwards; aggregates and
// plots are made from the merged rows.
//
// A driver: it must not import cli or study (docs/architecture.md).
package bench

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/topo"
)

// Sweep is a study: the cross product of its lists.
type Sweep struct {
	Experiments []string
	// Algorithms are names or variants, NAME:PARAM=VALUE (Variant).
	Algorithms []string
	// Topologies are topology specs in which {n} stands for each of their
	// sizes.
	Topologies []Topology
	// Seeds are the seeds of each combination.
	Seeds  []uint64
	Delay  sim.Delay
	Values sim.Values
	// Params are algorithm parameters, for the algorithms that have them.
	Params map[string]string
	// Mobility are mobility specs in which {v} stands for each of Speeds
	// (metres per second; a speed of 0 is "static"): "waypoint:{v}:{v}:2s".
	// With no speeds the nodes do not move.
	Mobility []string
	Speeds   []float64
	// Drains are the drain rates of the battery experiment (units of
	// charge a byte sent; half that a byte received), each a run of its
	// own, and Capacity the batteries' charge at the start
	// (DefaultCapacity when 0). Experiments other than battery ignore
	// them.
	Drains   []float64
	Capacity float64
	// Duration, when set, replaces the experiments' own.
	Duration time.Duration
	// Density, when set, fills {side} in the topologies: the side in
	// metres of a square that holds the size's nodes at this many nodes a
	// square kilometre, so that a geometric network keeps its mean degree
	// as it grows: "geometric:{n}:250:{side}x{side}".
	Density float64
	// OutsideModel runs experiments on algorithms whose model does not
	// admit them (Experiment.Outside), to document how they fail; by
	// default Runs leaves those pairs out and lists them in Skipped.
	OutsideModel bool
	// Skipped says, after Runs, which experiments were left out for which
	// algorithms and why.
	Skipped []string
}

// DefaultMobility is the mobility of a sweep given speeds and no spec: random
// waypoint at the speed, with pauses of 2s.
const DefaultMobility = "waypoint:{v}:{v}:2s"

// MobilityAt fills a mobility spec in for one speed: speed 0 is "static".
func MobilityAt(template string, speed float64) string {
	if speed == 0 {
		return "static"
	}
	return strings.ReplaceAll(template, "{v}", strconv.FormatFloat(speed, 'g', -1, 64))
}

// Topology is a topology spec with {n} standing for each size:
// "geometric:{n}:d10" over node counts, "layered:{n}" over levels.
type Topology struct {
	Template string
	Sizes    []int
}

// ParseTopology reads TEMPLATE@SIZES (see ParseSizes), or a template alone,
// which takes the sizes given.
func ParseTopology(s string, sizes []int) (Topology, error) {
	tmpl, sz, ok := strings.Cut(s, "@")
	t := Topology{Template: strings.TrimSpace(tmpl), Sizes: sizes}
	if ok {
		var err error
		if t.Sizes, err = ParseSizes(sz); err != nil {
			return t, fmt.Errorf("topology %q: %w", s, err)
		}
	}
	if t.Template == "" {
		return t, fmt.Errorf("topology %q: no template before its sizes (like ring:{n}@8..64*2)", s)
	}
	if len(t.Sizes) > 1 && !strings.Contains(t.Template, "{n}") {
		return t, fmt.Errorf("topology %q has no {n} for its sizes to fill in", s)
	}
	if len(t.Sizes) == 0 && strings.Contains(t.Template, "{n}") {
		return t, fmt.Errorf("topology %q has no sizes for its {n} (give them after @, like %s@8..64*2, or with --sizes)", s, t.Template)
	}
	if len(t.Sizes) == 0 {
		t.Sizes = []int{0} // a template with no {n} runs once
	}
	return t, nil
}

// Run is one run of a sweep. Index is its place in the sweep, which shards
// and merged files keep.
type Run struct {
	Index      int
	Experiment string
	Algorithm  string
	Template   string // the topology as the sweep gave it
	Size       int
	Topology   string // with the size filled in
	// Motion is the mobility as the sweep gave it ("" when nodes do not
	// move) and Speed the speed filled in (MobilityAt).
	Motion string
	Speed  float64
	// Drain is the battery's drain of a battery run (Sweep.Drains), 0
	// for a run without batteries.
	Drain float64
	Seed  uint64
}

// Mobility is the run's mobility spec, "" for none.
func (r *Run) Mobility() string {
	if r.Motion == "" {
		return ""
	}
	return MobilityAt(r.Motion, r.Speed)
}

// Label names the run in messages: "run 3 (start vkt ring:8 seed 2)".
func (r *Run) Label() string {
	parts := []string{r.Experiment, r.Algorithm, r.Topology}
	if m := r.Mobility(); m != "" {
		parts = append(parts, m)
	}
	if r.Drain > 0 {
		parts = append(parts, "drain "+strconv.FormatFloat(r.Drain, 'g', -1, 64))
	}
	return fmt.Sprintf("run %d (%s seed %d)", r.Index, strings.Join(parts, " "), r.Seed)
}

// MaxRuns bounds the runs of a sweep: more would not fit in memory as a
// list, let alone run.
const MaxRuns = 1_000_000

// Runs lists the runs of the sweep in a fixed order: experiment, algorithm,
// topology, size, mobility, speed, drain (battery experiments), seed.
func (s *Sweep) Runs() ([]Run, error) {
	type motion struct {
		spec  string
		speed float64
	}
	for _, t := range s.Topologies {
		if strings.Contains(t.Template, "{side}") && s.Density <= 0 {
			return nil, fmt.Errorf("topology %q has {side} but the sweep no density to fill it in (nodes a square kilometre)", t.Template)
		}
	}
	motions := []motion{{}}
	if len(s.Speeds) > 0 {
		specs := s.Mobility
		if len(specs) == 0 {
			specs = []string{DefaultMobility}
		}
		motions = nil
		for _, m := range specs {
			if len(s.Speeds) > 1 && !strings.Contains(m, "{v}") {
				return nil, fmt.Errorf("mobility %q has no {v} for the speeds to fill in", m)
			}
			if err := s.canMove(m); err != nil {
				return nil, err
			}
			for _, v := range s.Speeds {
				motions = append(motions, motion{m, v})
			}
		}
	} else if len(s.Mobility) > 0 {
		return nil, fmt.Errorf("mobility %q needs speeds to fill {v} in", s.Mobility[0])
	}
	names := make([]string, 0, len(s.Params))
	for k := range s.Params {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if err := s.CheckParam(k, s.Params[k]); err != nil {
			return nil, fmt.Errorf("parameter %s=%s: %w", k, s.Params[k], err)
		}
	}
	for _, e := range s.Experiments {
		x, err := experiment(e)
		if err != nil {
			return nil, err
		}
		if x.Mobile && len(s.Speeds) == 0 {
			return nil, fmt.Errorf("experiment %s moves the nodes: give it speeds", e)
		}
		if x.Battery && len(s.Drains) == 0 {
			return nil, fmt.Errorf("experiment %s drains batteries: give it drains (units of charge a byte sent, like 0.5,1,2)", e)
		}
		if s.Duration > 0 && s.Duration <= x.From {
			return nil, fmt.Errorf("experiment %s measures from %v on: a run of %v ends before", e, x.From, s.Duration)
		}
	}
	sizes := 0
	for _, t := range s.Topologies {
		sizes += len(t.Sizes)
	}
	total := 1
	for _, n := range []int{len(s.Experiments), len(s.Algorithms), sizes, len(motions), max(len(s.Drains), 1), len(s.Seeds)} {
		if n > 0 && total > MaxRuns/n {
			return nil, fmt.Errorf("the sweep holds more than the %d runs elect lists at once: split it into several", MaxRuns)
		}
		total *= n
	}
	var runs []Run
	s.Skipped = nil
	for _, e := range s.Experiments {
		x, _ := experiment(e) // checked above
		drains := []float64{0}
		if x.Battery {
			drains = s.Drains
		}
		for _, a := range s.Algorithms {
			if x.Outside != nil && !s.OutsideModel {
				alg, _, err := Variant(a)
				if err != nil {
					return nil, err
				}
				if why := x.Outside(alg.Model); why != "" {
					s.Skipped = append(s.Skipped, fmt.Sprintf("experiment %s skipped for %s: %s (--outside-model runs it)", e, a, why))
					continue
				}
			}
			for _, t := range s.Topologies {
				for _, n := range t.Sizes {
					for _, m := range motions {
						for _, d := range drains {
							for _, seed := range s.Seeds {
								runs = append(runs, Run{
									Index: len(runs), Experiment: e, Algorithm: a, Template: t.Template, Size: n,
									Topology: s.fill(t.Template, n),
									Motion:   m.spec, Speed: m.speed, Drain: d, Seed: seed,
								})
							}
						}
					}
				}
			}
		}
	}
	return runs, nil
}

// fill fills a topology template in for size n: {n}, and {side} at the
// sweep's density.
func (s *Sweep) fill(template string, n int) string {
	out := strings.ReplaceAll(template, "{n}", strconv.Itoa(n))
	if s.Density > 0 {
		side := 1000 * math.Sqrt(float64(n)/s.Density)
		out = strings.ReplaceAll(out, "{side}", strconv.FormatFloat(math.Round(side), 'f', -1, 64))
	}
	return out
}

// canMove refuses a mobility for a topology whose nodes have no positions
// to move from (every one but geometric), before its runs fail one by one;
// an ns-2 trace brings its own nodes and positions.
func (s *Sweep) canMove(motion string) error {
	if ms, err := mobility.Parse(MobilityAt(motion, 1)); err == nil && ms.Kind == mobility.KindNS2 {
		return nil
	}
	for _, t := range s.Topologies {
		for _, n := range t.Sizes {
			spec, err := topo.Parse(s.fill(t.Template, n), 0)
			if err != nil {
				continue // that size fails as a run, saying why
			}
			if spec.Kind != topo.KindGeometric {
				return fmt.Errorf("speeds move the nodes, and the nodes of %s have no positions to move from: give speeds with geometric topologies only "+
					"(experiments start and crash run on still networks without speeds; mobile needs them)", t.Template)
			}
			break
		}
	}
	return nil
}

// CheckParam checks a parameter of the sweep, which goes to the algorithms
// that declare it: at least one of them must, and each that does must accept
// the value. An unknown name is refused with every algorithm's parameters
// (algo.Algorithm.Resolve's message, for each).
func (s *Sweep) CheckParam(name, value string) error {
	var unknown []string
	taken := false
	for _, an := range s.Algorithms {
		a, _, err := Variant(an)
		if err != nil {
			return err
		}
		_, err = a.Resolve(map[string]string{name: value})
		switch {
		case err == nil:
			taken = true
		case slices.ContainsFunc(a.Params, func(p algo.Param) bool { return p.Name == name }):
			return err // declared, and the value refused
		case !slices.Contains(unknown, err.Error()):
			unknown = append(unknown, err.Error())
		}
	}
	if taken {
		return nil
	}
	if len(unknown) == 0 {
		return fmt.Errorf("no algorithm to take parameter %q", name)
	}
	return errors.New(strings.Join(unknown, "; "))
}

// ParseSpeeds reads a comma-separated list of speeds in metres per second,
// each >= 0: "0,1,2,5,10,20".
func ParseSpeeds(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		v, err := strconv.ParseFloat(part, 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("invalid speed %q (want metres per second >= 0)", part)
		}
		out = append(out, v)
	}
	return out, nil
}

// Shard is part K of N of a sweep (1 <= K <= N): the runs whose index is K-1
// modulo N. Shards together hold every run once, and interleaving spreads
// large and small runs evenly.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	sh := Shard{}
	var err1, err2 error
	sh.K, err1 = strconv.Atoi(strings.TrimSpace(k))
	sh.N, err2 = strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || sh.N < 1 || sh.K < 1 || sh.K > sh.N {
		return Shard{}, fmt.Errorf("invalid shard %q (want K/N with 1 <= K <= N, like 2/8)", s)
	}
	return sh, nil
}

// Range is this shard's block of a campaign of runs numbered first to
// first+runs-1 (elect fuzz): blocks of equal size but the last, in order,
// so that shards together hold every run once.
func (sh Shard) Range(first, runs int) (int, int) {
	if sh.N <= 1 {
		return first, runs
	}
	size := (runs + sh.N - 1) / sh.N
	from := min((sh.K-1)*size, runs)
	return first + from, min(size, runs-from)
}

// Of keeps the runs of this shard.
func (sh Shard) Of(runs []Run) []Run {
	if sh.N <= 1 {
		return runs
	}
	var out []Run
	for _, r := range runs {
		if r.Index%sh.N == sh.K-1 {
			out = append(out, r)
		}
	}
	return out
}

// ParseSizes reads a comma-separated list of sizes and ranges: A..B counts
// from A to B, A..B*F multiplies by F from A up to B: "50,100", "2..12",
// "16..16384*2".
func ParseSizes(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if lo, rest, ok := strings.Cut(part, ".."); ok {
			hi, factor, mult := strings.Cut(rest, "*")
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			f, err3 := 1, error(nil)
			if mult {
				f, err3 = strconv.Atoi(factor)
			}
			if err1 != nil || err2 != nil || err3 != nil || a < 1 || b < a || mult && f < 2 || b > topo.MaxNodes {
				return nil, fmt.Errorf("invalid size range %q (want A..B, or A..B*F like 16..4096*2)", part)
			}
			for v := a; v <= b; {
				out = append(out, v)
				if mult {
					v *= f
				} else {
					v++
				}
			}
			continue
		}
		v, err := strconv.Atoi(part)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("invalid size %q (want a positive integer)", part)
		}
		out = append(out, v)
	}
	return out, nil
}
