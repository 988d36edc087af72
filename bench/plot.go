package bench

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// figure is one kind of plot: a figure of the measure against the number of
// nodes, as the document's figures 3 to 6 plot them, or, for moving
// networks, against the nodes' speed.
type figure struct {
	file, title, axis string
	value             func(p Point) float64
	// zero says what a value of 0 means, for the figures on log scales,
	// which cannot show it.
	zero func(p Point) string
}

var movingFigures = []figure{
	{"leader-time", "time with a leader", "% of node-time", func(p Point) float64 { return 100 * (1 - p.Leaderless) }, nil},
	{"reachable-leader-time", "time following a reachable leader", "% of node-time", func(p Point) float64 { return 100 * p.Reachable }, nil},
	{"election-rate", "elections started", "per node per minute", func(p Point) float64 { return p.ElectionRate }, nil},
	{"leader-changes", "leader changes", "per node per minute", func(p Point) float64 { return p.LeaderChangeRate }, nil},
	{"messages-per-node-second", "messages, heartbeats included", "per node per second", func(p Point) float64 { return p.MessagesPerNodeSecond }, nil},
}

// elected says why a figure of elections is 0: none was measured, or, when
// some were, what they measured was 0.
func elected(measured string) func(Point) string {
	return func(p Point) string {
		if p.Elected == 0 {
			return "no election began from the experiment's start and ended"
		}
		return measured
	}
}

var figures = []figure{
	{"election-time", "mean election time", "milliseconds", func(p Point) float64 { return p.ElectionMS }, elected("the elections took no time")},
	{"messages-per-election", "message overhead per election (transmissions)", "messages", func(p Point) float64 { return p.PerElection }, elected("the elections sent no message")},
	{"receptions-per-election", "receptions per election (a broadcast is heard by every neighbour)", "receptions", func(p Point) float64 { return p.ReceptionsPerElection }, elected("the elections sent no message")},
	{"messages-per-node", "message overhead per node", "messages", func(p Point) float64 { return p.PerNode },
		func(Point) string { return "no message sent from the experiment's start" }},
	{"leaderless", "time without a leader", "% of node-time", func(p Point) float64 { return 100 * p.Leaderless },
		func(Point) string { return "never without a leader" }},
}

// Plots is what Plot made of the points.
type Plots struct {
	// Files are the plots written.
	Files []string
	// Skipped says, for each figure not written, why: "start-election-time.png:
	// ...".
	Skipped []string
	// Partial says, for each figure written without some of its points,
	// which and why.
	Partial []string
}

// Plot writes, for every experiment among the points, one plot of each
// figure into dir, as PNG or SVG (format "png" or "svg"). A single point is
// a plot; a figure with no point to show (every value 0 on a log scale, say)
// is skipped, and Plots says why. The error is for a bad format or a file
// that cannot be written.
func Plot(points []Point, dir, format string) (Plots, error) {
	var out Plots
	if format != "png" && format != "svg" {
		return out, fmt.Errorf("invalid plot format %q (want png or svg)", format)
	}
	for _, x := range Experiments {
		for _, moving := range []bool{false, true} {
			if err := plotExperiment(&out, points, x, moving, dir, format); err != nil {
				return out, err
			}
		}
	}
	var unknown []string
	for _, p := range points {
		if _, err := experiment(p.Experiment); err != nil && !slices.Contains(unknown, p.Experiment) {
			unknown = append(unknown, p.Experiment)
			out.Skipped = append(out.Skipped, fmt.Sprintf("experiment %q: not one elect knows (%s), so it has no figures", p.Experiment, experimentNames()))
		}
	}
	return out, nil
}

// broadcasts says some point's messages were heard more often than sent:
// a broadcast medium.
func broadcasts(points []Point) bool {
	return slices.ContainsFunc(points, func(p Point) bool { return p.ReceptionsPerElection > p.PerElection })
}

func experimentNames() string {
	names := make([]string, len(Experiments))
	for i, x := range Experiments {
		names[i] = x.Name
	}
	return strings.Join(names, ", ")
}

// plotExperiment plots the figures of one experiment: those of still
// networks against the number of nodes on log scales, those of moving ones
// against speed on linear scales.
func plotExperiment(out *Plots, points []Point, x Experiment, moving bool, dir, format string) error {
	names, lines := series(points, x.Name, moving)
	if len(names) == 0 {
		return nil
	}
	figs, suffix := figures, ""
	if moving {
		figs = movingFigures
		if !x.Mobile {
			suffix = "-moving" // a still experiment run on moving networks too
		}
	}
	for _, fig := range figs {
		if fig.file == "receptions-per-election" && !broadcasts(points) {
			continue // every message was unicast: the receptions are the messages' figure again
		}
		file := fmt.Sprintf("%s-%s%s.%s", x.Name, fig.file, suffix, format)
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: %s", x.Title, fig.title)
		p.Y.Label.Text = fig.axis
		p.Legend.Top, p.Legend.Left = true, true
		if moving {
			p.X.Label.Text = "speed (m/s)"
			p.Legend.Top = !strings.HasSuffix(fig.file, "leader-time") // high values: the legend goes below
		} else {
			p.X.Label.Text = "nodes"
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
		}
		total, shown := 0, 0
		var left []leftOut
		for i, name := range names {
			var xy plotter.XYs
			for _, pt := range lines[name] {
				total++
				v, px := fig.value(pt), pt.Nodes
				where := fmt.Sprintf("%s at %g node", name, pt.Nodes)
				if pt.Nodes != 1 {
					where += "s"
				}
				if moving {
					px = pt.Speed
					where = fmt.Sprintf("%s at %g m/s", name, pt.Speed)
				}
				switch {
				case math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(px) || math.IsInf(px, 0):
					left = append(left, leftOut{where, "not a number"})
				case !moving && px <= 0:
					left = append(left, leftOut{where, "no nodes, which a log scale cannot show"})
				case !moving && v <= 0:
					left = append(left, leftOut{where, "0, which a log scale cannot show (" + fig.zero(pt) + ")"})
				default:
					xy = append(xy, plotter.XY{X: px, Y: v})
				}
			}
			if len(xy) == 0 {
				continue
			}
			shown += len(xy)
			line, marks, err := plotter.NewLinePoints(xy)
			if err != nil {
				return err
			}
			line.Color = plotutil.Color(i)
			marks.Color = plotutil.Color(i)
			marks.Shape = plotutil.Shape(i)
			p.Add(line, marks)
			p.Legend.Add(name, line, marks)
		}
		if shown == 0 {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: no point to plot: %s", file, summarize(left)))
			continue
		}
		if moving {
			linearRange(&p.X)
			linearRange(&p.Y)
		} else {
			logRange(&p.X)
			logRange(&p.Y)
		}
		path := filepath.Join(dir, file)
		if err := save(p, path); err != nil {
			var pe plotPanic
			if !errors.As(err, &pe) {
				return err
			}
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: the plotting library failed: %v", file, pe.value))
			continue
		}
		out.Files = append(out.Files, path)
		if len(left) > 0 {
			out.Partial = append(out.Partial, fmt.Sprintf("%s: %d of %d points left out, %s", file, len(left), total, summarize(left)))
		}
	}
	return nil
}

// leftOut is a point a figure leaves out: where, and why.
type leftOut struct{ where, why string }

// summarize groups the points left out by why, naming the first few of
// each group: "not a number: vkt ring:{n} at 5 nodes, ... and 2 more".
func summarize(left []leftOut) string {
	const most = 3
	var whys []string
	where := map[string][]string{}
	for _, l := range left {
		if _, ok := where[l.why]; !ok {
			whys = append(whys, l.why)
		}
		where[l.why] = append(where[l.why], l.where)
	}
	parts := make([]string, len(whys))
	for i, why := range whys {
		ws := where[why]
		text := strings.Join(ws[:min(len(ws), most)], ", ")
		if len(ws) > most {
			text += fmt.Sprintf(" and %d more", len(ws)-most)
		}
		parts[i] = why + ": " + text
	}
	return strings.Join(parts, "; ")
}

// logRange widens a log axis to span at least a factor of ten about its
// data, so that a single point or a flat line has a labelled tick (a power
// of ten). Left alone, the plotting library would pad an axis of one value
// by one on either side, which for a value up to 1 reaches 0 or below: it
// panics then, or, for 1 exactly, loops forever making ticks.
func logRange(a *plot.Axis) {
	if a.Max/a.Min >= 10 {
		return
	}
	mid := math.Sqrt(a.Min * a.Max)
	a.Min, a.Max = mid/math.Sqrt(10), mid*math.Sqrt(10)
}

// linearRange gives an axis of one value a range about it that does not go
// below 0 (the figures of moving networks are never negative; the library
// would draw a speed of 0 from -1 to 1).
func linearRange(a *plot.Axis) {
	if a.Min == a.Max && a.Min >= 0 {
		a.Min, a.Max = max(0, a.Min-1), a.Max+1
	}
}

// plotPanic is a panic of the plotting library, caught.
type plotPanic struct{ value any }

func (p plotPanic) Error() string { return fmt.Sprintf("plot: %v", p.value) }

// save draws the plot, then writes it: a plot that cannot be drawn leaves
// no empty file behind. A panic of the plotting library (it panics on data
// it cannot scale) comes back as a plotPanic.
func save(p *plot.Plot, path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = plotPanic{r}
		}
	}()
	c, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, strings.TrimPrefix(filepath.Ext(path), "."))
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// logTicks marks a logarithmic axis at 1, 2 and 5 times each power of ten,
// labelled, with the other integer multiples as minor ticks: a narrow range
// (8 to 80, say) still gets labels. A range that is not positive and finite
// has no ticks.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) {
		return nil // log10 of 0 is -Inf: counting decades from it never ends
	}
	var ticks []plot.Tick
	for d := math.Floor(math.Log10(min)); d <= math.Ceil(math.Log10(max)); d++ {
		base := math.Pow(10, d)
		for m := 1.0; m < 10; m++ {
			v := m * base
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
