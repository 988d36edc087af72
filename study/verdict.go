package study

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electgo/elect/bench"
)

// Verdict is what the runs say of a claim.
type Verdict int

const (
	// Holds: every point's 95% interval lies on the claimed side.
	Holds Verdict = iota
	// Undecided: no point's interval lies on the other side, but some
	// straddle the bound; more seeds may decide.
	Undecided
	// Fails: some point's interval lies wholly on the other side.
	Fails
)

func (v Verdict) String() string {
	return [...]string{"holds", "undecided", "fails"}[v]
}

// Check is the claim at one point (a bound), one pair of points (a
// comparison) or one step between neighbouring points (a trend).
type Check struct {
	// Label names the point, the pair or the step.
	Label string
	// Interval is the measure's mean and 95% interval there: for a
	// comparison or a trend, of the difference (this point's minus the
	// other's, or the next point's minus this one's).
	Interval bench.Interval
	// Low and High are the claimed region (infinite on an open side);
	// Strict says whether its ends are left out (a comparison or a trend
	// claims a difference of more than 0).
	Low, High float64
	Strict    bool
	Verdict   Verdict
	// By is how far a failed check's interval lies past the region.
	By float64
	// Seeds, for an undecided check, is the seeds per point that would
	// decide it if the spread stays as measured: 0 when the mean lies on
	// the bound (no number would), -1 when more than maxSeeds would.
	Seeds int
	// Why says what left a check undecided for want of runs.
	Why string
	// Runs are the indices of the runs behind the check, in its sweep.
	Sweep string
	Runs  []int
}

// Outcome is a claim's verdict and the checks it rests on.
type Outcome struct {
	Claim   *Claim
	Verdict Verdict
	Checks  []Check
	// Why says why a claim with no check is undecided.
	Why string
}

// maxSeeds bounds the seeds an undecided check is said to need.
const maxSeeds = 100_000

// Evaluate checks the claim against the points of the study's sweeps
// (bench.Aggregate of each sweep's results), keyed by sweep name.
func Evaluate(c *Claim, points map[string][]bench.Point) (Outcome, error) {
	out := Outcome{Claim: c}
	picked := pick(&c.Where, points)
	var err error
	switch c.Relation {
	case "at-least", "at-most", "between":
		out.Checks, err = c.bounds(picked)
	case "below", "above":
		out.Checks, err = c.compare(picked, pick(c.Than, points))
	default:
		out.Checks = c.trend(picked)
	}
	if err != nil {
		return out, fmt.Errorf("claim %s: %w", c.ID, err)
	}
	if len(out.Checks) == 0 {
		out.Verdict = Undecided
		out.Why = "no run of the study is selected by the claim (where: " + c.Where.String() + ")"
		if len(picked) > 0 {
			out.Why = "the claim's points have nothing to be compared with"
		}
		return out, nil
	}
	for _, ch := range out.Checks {
		out.Verdict = max(out.Verdict, ch.Verdict)
	}
	return out, nil
}

func pick(s *Selection, points map[string][]bench.Point) []*bench.Point {
	var out []*bench.Point
	for i := range points[s.Sweep.Name] {
		if p := &points[s.Sweep.Name][i]; s.picks(p) {
			out = append(out, p)
		}
	}
	return out
}

func (c *Claim) bounds(picked []*bench.Point) ([]Check, error) {
	var checks []Check
	for _, p := range picked {
		iv := c.Measure.Interval(*p)
		lo, hi := math.Inf(-1), math.Inf(1)
		// Summed, then divided once: a mean of whole counts stays whole
		// (24, not 23.999999999999996), so an exact count's bound holds
		// exactly.
		var links int
		for _, r := range p.Results {
			links += r.Edges
		}
		m := float64(links) / float64(max(len(p.Results), 1))
		var err error
		switch c.Relation {
		case "at-least":
			lo, err = c.Bounds[0].At(p.Nodes, m, p.Size)
		case "at-most":
			hi, err = c.Bounds[0].At(p.Nodes, m, p.Size)
		case "between":
			if lo, err = c.Bounds[0].At(p.Nodes, m, p.Size); err == nil {
				hi, err = c.Bounds[1].At(p.Nodes, m, p.Size)
			}
		}
		if err != nil {
			return nil, err
		}
		ch := Check{Label: pointLabel(p), Interval: iv, Low: lo, High: hi, Sweep: c.Where.Sweep.Name, Runs: runsOf(p)}
		if c.Measure.EveryRun || c.EachRun {
			ch.decideEach(c.Measure, p)
		} else {
			ch.decide(sd(iv) * sd(iv))
		}
		checks = append(checks, ch)
	}
	return checks, nil
}

// compare pairs each point with the one of than that matches it in every
// field than does not name, and checks the difference of their means.
func (c *Claim) compare(picked, than []*bench.Point) ([]Check, error) {
	t := c.Than
	same := func(p, q *bench.Point) bool {
		return (len(t.Experiments) > 0 || p.Experiment == q.Experiment) &&
			(len(t.Algorithms) > 0 || p.Algorithm == q.Algorithm) &&
			(len(t.Topologies) > 0 || p.Template == q.Template) &&
			(len(t.Sizes) > 0 || p.Size == q.Size) &&
			(len(t.Speeds) > 0 || p.Speed == q.Speed && p.Motion == q.Motion)
	}
	var checks []Check
	for _, p := range picked {
		var match []*bench.Point
		for _, q := range than {
			if q != p && same(p, q) {
				match = append(match, q)
			}
		}
		switch {
		case len(match) == 0:
			// Not passed over in silence: a point with nothing to be
			// compared with leaves the claim undecided there.
			checks = append(checks, Check{Label: pointLabel(p), Verdict: Undecided, Low: math.Inf(-1), High: math.Inf(1),
				Why: "no point of " + t.String() + " to compare it with", Sweep: c.Where.Sweep.Name, Runs: runsOf(p)})
			continue
		case len(match) > 1:
			return nil, fmt.Errorf("%s matches %d points of %s (%s and %s): name the fields that tell them apart", pointLabel(p), len(match), t.String(), pointLabel(match[0]), pointLabel(match[1]))
		}
		q := match[0]
		a, b := c.Measure.Interval(*p), c.Measure.Interval(*q)
		ch := Check{Label: pointLabel(p) + " against " + pointLabel(q), Interval: difference(a, b), Sweep: c.Where.Sweep.Name, Runs: runsOf(p)}
		ch.Strict = true
		if c.Relation == "below" {
			ch.Low, ch.High = math.Inf(-1), 0
		} else {
			ch.Low, ch.High = 0, math.Inf(1)
		}
		if a.N < 2 || b.N < 2 {
			ch.Interval.N = 1 // no interval of the difference without two runs a side
		}
		ch.decide(sd(a)*sd(a) + sd(b)*sd(b))
		checks = append(checks, ch)
	}
	return checks, nil
}

// trend checks each step from a point to the next along the sizes (by mean
// node count) or the speeds, within each line of the other fields.
func (c *Claim) trend(picked []*bench.Point) []Check {
	type line struct {
		key    string
		points []*bench.Point
	}
	var lines []*line
	for _, p := range picked {
		key := p.Experiment + "\x00" + p.Algorithm + "\x00" + p.Template + "\x00" + p.Motion
		if c.Along == "size" {
			key += "\x00" + ftoa(p.Speed)
		} else {
			key += "\x00" + strconv.Itoa(p.Size)
		}
		i := slices.IndexFunc(lines, func(l *line) bool { return l.key == key })
		if i < 0 {
			lines = append(lines, &line{key: key})
			i = len(lines) - 1
		}
		lines[i].points = append(lines[i].points, p)
	}
	var checks []Check
	for _, l := range lines {
		slices.SortStableFunc(l.points, func(a, b *bench.Point) int {
			if c.Along == "size" {
				return cmp.Compare(a.Nodes, b.Nodes)
			}
			return cmp.Compare(a.Speed, b.Speed)
		})
		for i := 1; i < len(l.points); i++ {
			p, q := l.points[i-1], l.points[i]
			a, b := c.Measure.Interval(*p), c.Measure.Interval(*q)
			ch := Check{Label: pointLabel(p) + " to " + along(q, c.Along), Interval: difference(b, a), Strict: true, Sweep: c.Where.Sweep.Name, Runs: append(runsOf(p), runsOf(q)...)}
			if c.Relation == "grows" {
				ch.Low, ch.High = 0, math.Inf(1)
			} else {
				ch.Low, ch.High = math.Inf(-1), 0
			}
			if a.N < 2 || b.N < 2 {
				ch.Interval.N = 1
			}
			ch.decide(sd(a)*sd(a) + sd(b)*sd(b))
			checks = append(checks, ch)
		}
	}
	return checks
}

// decide sets the check's verdict from its interval and region; variance
// is the spread of one seed's measure (of the difference: both sides'
// summed), from which the seeds that would decide an undecided check are
// estimated.
func (ch *Check) decide(variance float64) {
	iv := ch.Interval
	if iv.N < 2 {
		ch.Verdict = Undecided
		ch.Why = "one run a point gives no interval"
		ch.Seeds = 2
		return
	}
	lower, upper := iv.Mean-iv.Half, iv.Mean+iv.Half
	// A strict region (a difference above 0) leaves its ends out: an
	// interval that touches 0 has not shown the difference, and one that
	// ends at 0 from the other side has shown it absent.
	inside := lower >= ch.Low && upper <= ch.High
	outside := upper < ch.Low || lower > ch.High
	if ch.Strict {
		inside = lower > ch.Low && upper < ch.High
		outside = upper <= ch.Low || lower >= ch.High
	}
	switch {
	case inside:
		ch.Verdict = Holds
	case outside:
		ch.Verdict = Fails
		if upper <= ch.Low {
			ch.By = ch.Low - upper
		} else {
			ch.By = lower - ch.High
		}
	default:
		ch.Verdict = Undecided
		d := math.Min(math.Abs(iv.Mean-ch.Low), math.Abs(iv.Mean-ch.High))
		ch.Seeds = seedsToDecide(d, variance, iv.N)
	}
}

// decideEach judges a bound on every run of the point (a measure such as
// violations, of which one run is enough): it holds when each run lies in
// the region, and fails when one does not, by that run's distance.
func (ch *Check) decideEach(m bench.Measure, p *bench.Point) {
	var broke []int
	for _, r := range p.Results {
		v, ok := m.Of(r)
		if !ok {
			continue
		}
		if v < ch.Low || v > ch.High {
			broke = append(broke, r.Index)
			ch.By = max(ch.By, ch.Low-v, v-ch.High)
		}
	}
	ch.Verdict = Holds
	if len(broke) > 0 {
		ch.Verdict = Fails
		ch.Why = fmt.Sprintf("runs %s lie outside it (a bound on each run)", runList(broke))
	}
	if ch.Interval.N == 0 {
		ch.Verdict, ch.Why = Undecided, "no run counts for the measure"
	}
}

// seedsToDecide is the fewest seeds m (more than n) whose 95% half-width,
// t(m-1) times sqrt(variance/m), is below d: 0 when d is 0, -1 past
// maxSeeds.
func seedsToDecide(d, variance float64, n int) int {
	if d == 0 {
		return 0
	}
	for m := n + 1; m <= maxSeeds; m++ {
		if bench.Quantile975(m-1)*math.Sqrt(variance/float64(m)) < d {
			return m
		}
	}
	return -1
}

// sd is the standard deviation of one run's measure that an interval was
// taken from.
func sd(iv bench.Interval) float64 {
	if iv.N < 2 {
		return 0
	}
	return iv.Half * math.Sqrt(float64(iv.N)) / bench.Quantile975(iv.N-1)
}

// difference is a's mean less b's, with the 95% interval of the difference
// (Welch: the two sides' variances need not be equal).
func difference(a, b bench.Interval) bench.Interval {
	va, vb := sd(a)*sd(a)/float64(max(a.N, 1)), sd(b)*sd(b)/float64(max(b.N, 1))
	se := math.Sqrt(va + vb)
	out := bench.Interval{Mean: a.Mean - b.Mean, N: min(a.N, b.N)}
	if se == 0 || a.N < 2 || b.N < 2 {
		return out
	}
	df := (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	out.Half = bench.Quantile975(int(df)) * se
	return out
}

func runsOf(p *bench.Point) []int {
	var out []int
	for _, r := range p.Results {
		out = append(out, r.Index)
	}
	return out
}

// pointLabel names a point: "mobile vkt geometric:50:250:1000x1000 at 5 m/s".
func pointLabel(p *bench.Point) string {
	top := strings.ReplaceAll(p.Template, "{n}", strconv.Itoa(p.Size))
	if len(p.Results) > 0 {
		top = p.Results[0].Topology // {side} and all filled in
	}
	parts := []string{p.Experiment, p.Algorithm, top}
	if p.Motion != "" {
		parts = append(parts, "at "+ftoa(p.Speed)+" m/s")
	}
	return strings.Join(parts, " ")
}

// along names the next point of a trend by what changed.
func along(p *bench.Point, what string) string {
	if what == "speed" {
		return ftoa(p.Speed) + " m/s"
	}
	return fmt.Sprintf("%d nodes", int(math.Round(p.Nodes)))
}
