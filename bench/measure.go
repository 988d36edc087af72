package bench

import (
	"fmt"
	"math"
	"strings"
)

// Measure is one figure of a run that a study can state a claim about:
// every figure that bench plots, under the name of its file
// (election-time, leader-time, ...), and the run's counts that have no plot
// (violations, elections).
type Measure struct {
	Name string
	// Axis is the measure in words with its unit, as the plots label it.
	Axis string
	// EveryRun says that a bound on the measure binds each run, not the
	// mean over runs: one run that breaks the specification is a
	// violation, however many others keep it.
	EveryRun bool
	// run is the measure of one run, and whether the run counts for it
	// (the elections' figures count the runs that elected).
	run func(r *Result) (float64, bool)
}

// countMeasures are the measures of a run that no figure plots.
var countMeasures = []Measure{
	{"violations", "violations of the specification found by the checker, per run", true,
		always(func(r *Result) float64 { return float64(r.Violations) })},
	{"elections", "elections begun from the experiment's start and ended, per run", false,
		always(func(r *Result) float64 { return float64(r.Elections) })},
	{"messages", "messages sent from the experiment's start, heartbeats apart, per run", false,
		always(func(r *Result) float64 { return float64(r.Messages) })},
}

// Measures are the names of every measure, the figures' first.
func Measures() []string {
	var names []string
	for _, f := range everyFigure {
		names = append(names, f.file)
	}
	for _, m := range countMeasures {
		names = append(names, m.Name)
	}
	return names
}

// MeasureOf is the measure of that name (Measures).
func MeasureOf(name string) (Measure, error) {
	for _, f := range everyFigure {
		if f.file == name {
			return Measure{Name: f.file, Axis: f.axis, run: f.run}, nil
		}
	}
	for _, m := range countMeasures {
		if m.Name == name {
			return m, nil
		}
	}
	return Measure{}, fmt.Errorf("unknown measure %q (known: %s)", name, strings.Join(Measures(), ", "))
}

// Of is the measure of one run, and whether the run counts for it: a
// figure of elections counts only the runs that measured one.
func (m Measure) Of(r *Result) (float64, bool) {
	v, ok := m.run(r)
	return v, ok && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// Interval is the measure's mean over the point's runs that count for it,
// with its 95% interval (Student t).
func (m Measure) Interval(p Point) Interval {
	var xs []float64
	for _, r := range p.Results {
		if v, ok := m.Of(r); ok {
			xs = append(xs, v)
		}
	}
	return interval(xs)
}

// Quantile975 is Student's t at 0.975 for df degrees of freedom: a 95%
// interval's half-width over n runs is Quantile975(n-1) times the standard
// error. Past 30 it is interpolated in 1/df between the table's values at
// 30, 40, 60 and 120 and the normal's 1.96, within 0.002 of the exact
// quantile and never below it by more.
func Quantile975(df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	if df < len(tQuantile975) {
		return tQuantile975[df]
	}
	knots := []struct{ df, t float64 }{{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {math.Inf(1), 1.960}}
	x := 1 / float64(df)
	for i := 1; i < len(knots); i++ {
		a, b := knots[i-1], knots[i]
		if float64(df) <= b.df {
			xa, xb := 1/a.df, 1/b.df
			return a.t + (b.t-a.t)*(xa-x)/(xa-xb)
		}
	}
	return 1.96
}
