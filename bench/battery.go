package bench

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/scenario"
)

// The battery experiment (issue 38): every node starts with a full battery
// (sim.ValueModel, Battery) that drains with the bytes it sends and
// receives, and its value is its charge, so that the leader of a component
// must keep being its most charged node: an algorithm that follows the
// value (algo.Model.FollowsValue) hands leadership over as the leader's
// battery falls below another's. The sweep runs it at each drain rate
// (Sweep.Drains: units of charge a byte sent; a byte received costs half
// as much, as sim's default battery has it) from Sweep.Capacity units.

// DefaultCapacity is a battery's charge at the start of a battery run when
// the sweep gives none (Sweep.Capacity).
const DefaultCapacity = 100_000

// batteryDuration is a battery run's length: long enough for a battery to
// run out in every run of docs/BENCHMARKS.md's sweep (the longest lifetime
// there, broadcast at the lowest drain, is 452 ± 91 s).
const batteryDuration = 900 * time.Second

// BatterySpec is the value model of a battery run at drain tx a byte sent
// (tx/2 a byte received) from capacity units (sim.ParseValueModel reads
// it).
func BatterySpec(capacity, tx float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("battery:capacity=%s,tx=%s,rx=%s,idle=0,recharge=0,every=1s", f(capacity), f(tx), f(tx/2))
}

var batteryExperiment = Experiment{
	Name: "battery", Title: "batteries drain", Battery: true, From: 5 * time.Second,
	Doc: "every node's value is its battery's charge, which drains with the bytes it sends and receives (Sweep.Drains, from Sweep.Capacity): " +
		"leader hand-overs a minute, time without a leader, hand-over election time (elections begun from 5s on), energy a second of the leader and of the others, " +
		"network lifetime (the first battery empty)",
	Setup: func(s *scenario.Scenario, b Bounds) time.Duration {
		s.Check = scenario.Check{Stabilization: max(check.DefaultStabilization, b.Settle), Liveness: max(check.DefaultLiveness, b.Settle)}
		s.Duration = batteryDuration
		return max(5*time.Second, b.Slowest) // the start-up election is over
	},
	Outside: func(m algo.Model) string {
		if !m.FollowsValue {
			return "its values change as batteries drain, and the model elects once (Model.FollowsValue)"
		}
		return ""
	},
}

func init() { Experiments = append(Experiments, batteryExperiment) }

// ParseDrains reads a comma-separated list of drain rates, units of
// charge a byte sent, each above 0: "0.5,1,2".
func ParseDrains(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		v, err := strconv.ParseFloat(part, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("invalid drain %q (want units of charge a byte sent, above 0)", part)
		}
		out = append(out, v)
	}
	return out, nil
}

// noteValues copies a run's value figures into its result.
func (res *Result) noteValues(v *metrics.ValueSummary) {
	res.HandOvers, res.HandOverRate = v.HandOvers, v.HandOversPerMinute
	res.FirstEmptyMS, res.Empty = v.FirstEmptyMS, v.Empty
	res.LeaderEnergy, res.OtherEnergy = v.LeaderPerSecond, v.OtherPerSecond
}

// Lifetime is the network's lifetime in seconds, the time until the
// first battery ran out, and whether one did.
func (res *Result) Lifetime() (float64, bool) {
	return res.FirstEmptyMS / 1000, res.FirstEmptyMS >= 0
}

// batteryFigure is one figure of the battery experiment: its lines (one,
// or several that share a colour, like the leader's energy and the
// others'), each a measure of one run.
type batteryFigure struct {
	file, title, axis string
	parts             []string // the lines' names, "" for one
	run               []func(r *Result) (float64, bool)
}

var batteryFigures = []batteryFigure{
	{"hand-overs", "leader hand-overs", "hand-overs a minute", []string{""},
		[]func(*Result) (float64, bool){always(func(r *Result) float64 { return r.HandOverRate })}},
	{"leaderless", "time without a leader", "time without a leader (% of node-time)", []string{""},
		[]func(*Result) (float64, bool){always(func(r *Result) float64 { return 100 * r.Leaderless })}},
	{"lifetime", "network lifetime (first battery empty)", "lifetime (s)", []string{""},
		[]func(*Result) (float64, bool){(*Result).Lifetime}},
	{"energy", "energy a second, leader and others", "energy a second (units of charge)", []string{"leader", "others"},
		[]func(*Result) (float64, bool){always(func(r *Result) float64 { return r.LeaderEnergy }), always(func(r *Result) float64 { return r.OtherEnergy })}},
}

// BatteryFigureNames name the battery experiment's figures: each is
// plotted against size (battery-NAME-size) and against drain
// (battery-NAME-drain).
func BatteryFigureNames() []string {
	var out []string
	for _, f := range batteryFigures {
		out = append(out, f.file)
	}
	return out
}

// batteryInterval is a measure over a point's runs that count for it.
func batteryInterval(run func(*Result) (float64, bool), p Point) Interval {
	var xs []float64
	for _, r := range p.Results {
		if v, ok := run(r); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			xs = append(xs, v)
		}
	}
	return interval(xs)
}

// middle is the middle of the values swept (the lower of two).
func middle(xs []float64) float64 {
	vals := slices.Compact(slices.Sorted(slices.Values(xs)))
	if len(vals) == 0 {
		return 0
	}
	return vals[(len(vals)-1)/2]
}

// plotBattery plots the battery experiment's figures: against the number
// of nodes at the middle drain swept, and against the drain at the middle
// size swept, a line for each algorithm (and topology when several).
func plotBattery(out *Plots, points []Point, x Experiment, dir string, style Style) error {
	var ps []Point
	for _, p := range points {
		if p.Experiment == x.Name && p.Drain > 0 {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	var drains, sizes []float64
	templates := map[string]bool{}
	for _, p := range ps {
		drains = append(drains, p.Drain)
		sizes = append(sizes, float64(p.Size))
		templates[p.Template] = true
	}
	atDrain, atSize := middle(drains), middle(sizes)
	for _, bySize := range []bool{true, false} {
		var names []string
		lines := map[string][]Point{}
		for _, p := range ps {
			if bySize && p.Drain != atDrain || !bySize && float64(p.Size) != atSize {
				continue
			}
			name := p.Algorithm
			if len(templates) > 1 {
				name += " " + p.Template
			}
			if _, ok := lines[name]; !ok {
				names = append(names, name)
			}
			lines[name] = append(lines[name], p)
		}
		for _, l := range lines {
			slices.SortStableFunc(l, func(a, b Point) int {
				if bySize {
					return cmp.Compare(a.Nodes, b.Nodes)
				}
				return cmp.Compare(a.Drain, b.Drain)
			})
		}
		for _, fig := range batteryFigures {
			suffix, at := "drain", fmt.Sprintf("at %g nodes", atSize)
			if bySize {
				suffix, at = "size", fmt.Sprintf("at a drain of %g a byte sent", atDrain)
			}
			base := fmt.Sprintf("%s-%s-%s", x.Name, fig.file, suffix)
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s: %s (%s)", x.Title, fig.title, at)
			if len(templates) == 1 {
				for t := range templates {
					p.Title.Text = fmt.Sprintf("%s: %s (%s, %s)", x.Title, fig.title, topologyWords(t), at)
				}
			}
			p.Y.Label.Text = fig.axis
			p.Legend.Top, p.Legend.Left = true, fig.file != "lifetime" // lifetimes fall to the right
			var xs []float64
			if bySize {
				p.X.Label.Text = "nodes"
				p.X.Scale = plot.LogScale{}
			} else {
				p.X.Label.Text = "drain (units of charge a byte sent; half that a byte received)"
			}
			shown := 0
			for i, name := range names {
				for j, part := range fig.parts {
					var pts errXYs
					for _, pt := range lines[name] {
						iv := batteryInterval(fig.run[j], pt)
						px := pt.Drain
						if bySize {
							px = pt.Nodes
						}
						if iv.N == 0 || math.IsNaN(iv.Mean) || bySize && px <= 0 {
							continue
						}
						pts.XYs = append(pts.XYs, plotter.XY{X: px, Y: iv.Mean})
						pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{min(iv.Half, iv.Mean), iv.Half})
						xs = append(xs, px)
					}
					if len(pts.XYs) == 0 {
						continue
					}
					shown += len(pts.XYs)
					label := words(name)
					if part != "" {
						label += ", " + part
					}
					if err := addSeries(p, pts, label, okabeIto[i%len(okabeIto)], plotutil.Dashes(j), plotutil.Shape(i), style); err != nil {
						return err
					}
				}
			}
			if shown == 0 {
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s.%s: no point to plot (no run measured it)", base, style.Formats[0]))
				continue
			}
			if bySize {
				p.X.Tick.Marker = sweptTicks(xs)
				logRange(&p.X)
			} else {
				linearRange(&p.X)
			}
			p.Y.Min = 0
			linearRange(&p.Y)
			fit(p, style)
			for _, format := range style.Formats {
				path := filepath.Join(dir, base+"."+format)
				if err := save(p, path, style); err != nil {
					if _, ok := err.(plotPanic); ok {
						out.Skipped = append(out.Skipped, fmt.Sprintf("%s.%s: the plotting library failed: %v", base, format, err))
						break
					}
					return err
				}
				out.Files = append(out.Files, path)
			}
		}
	}
	return nil
}

// writeBattery writes the battery points' table: by algorithm, size and
// drain.
func writeBattery(w io.Writer, points []Point) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\talgorithm\ttopology\tsize\tdrain\truns\tnodes\thand-overs/min\t± 95%\tleaderless %\thand-over election ms\tleader energy/s\tothers' energy/s\tlifetime s\t± 95%\tempty at end\tviolations\t")
	for _, p := range points {
		life := batteryInterval((*Result).Lifetime, p)
		lifeText, lifeHalf := "none", "-"
		if life.N > 0 {
			lifeText, lifeHalf = fmt.Sprintf("%.1f", life.Mean), fmt.Sprintf("%.1f", life.Half)
			if life.N < p.Runs {
				lifeText += fmt.Sprintf(" (%d of %d)", life.N, p.Runs)
			}
		}
		elected := "-" // no election began from the start-up's end
		if p.Elected > 0 {
			elected = fmt.Sprintf("%.1f", p.ElectionMS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%g\t%d\t%.0f\t%.2f\t%.2f\t%.3f\t%s\t%.1f\t%.1f\t%s\t%s\t%.1f\t%d\t\n",
			p.Experiment, p.Algorithm, p.Template, p.Size, p.Drain, p.Runs, p.Nodes, p.HandOverRate,
			batteryInterval(batteryFigures[0].run[0], p).Half, 100*p.Leaderless, elected,
			p.LeaderEnergy, p.OtherEnergy, lifeText, lifeHalf, p.Empty, p.Violations)
	}
	return tw.Flush()
}

// batteryRun is the value model of run r in sweep s, "" for none.
func (s *Sweep) batteryRun(r Run) string {
	if r.Drain <= 0 {
		return ""
	}
	return BatterySpec(s.capacity(), r.Drain)
}

// capacity is the sweep's battery capacity, DefaultCapacity unless told.
func (s *Sweep) capacity() float64 {
	if s.Capacity > 0 {
		return s.Capacity
	}
	return DefaultCapacity
}
