package bench

import (
	"fmt"
	"math"
	"path/filepath"
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
}

var movingFigures = []figure{
	{"leader-time", "time with a leader", "% of node-time", func(p Point) float64 { return 100 * (1 - p.Leaderless) }},
	{"reachable-leader-time", "time following a reachable leader", "% of node-time", func(p Point) float64 { return 100 * p.Reachable }},
	{"election-rate", "elections started", "per node per minute", func(p Point) float64 { return p.ElectionRate }},
	{"leader-changes", "leader changes", "per node per minute", func(p Point) float64 { return p.LeaderChangeRate }},
	{"messages-per-node-second", "messages, heartbeats included", "per node per second", func(p Point) float64 { return p.MessagesPerNodeSecond }},
}

var figures = []figure{
	{"election-time", "mean election time", "milliseconds", func(p Point) float64 { return p.ElectionMS }},
	{"messages-per-election", "message overhead per election", "messages", func(p Point) float64 { return p.PerElection }},
	{"messages-per-node", "message overhead per node", "messages", func(p Point) float64 { return p.PerNode }},
	{"leaderless", "time without a leader", "% of node-time", func(p Point) float64 { return 100 * p.Leaderless }},
}

// Plot writes, for every experiment among the points, one plot of each
// figure into dir, as PNG or SVG (format "png" or "svg"), and returns the
// files written.
func Plot(points []Point, dir, format string) ([]string, error) {
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("invalid plot format %q (want png or svg)", format)
	}
	var written []string
	for _, x := range Experiments {
		for _, moving := range []bool{false, true} {
			files, err := plotExperiment(points, x, moving, dir, format)
			if err != nil {
				return nil, err
			}
			written = append(written, files...)
		}
	}
	return written, nil
}

// plotExperiment plots the figures of one experiment: those of still
// networks against the number of nodes on log scales, those of moving ones
// against speed on linear scales.
func plotExperiment(points []Point, x Experiment, moving bool, dir, format string) ([]string, error) {
	names, lines := series(points, x.Name, moving)
	if len(names) == 0 {
		return nil, nil
	}
	figs, suffix := figures, ""
	if moving {
		figs = movingFigures
		if !x.Mobile {
			suffix = "-moving" // a still experiment run on moving networks too
		}
	}
	var written []string
	for _, fig := range figs {
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
		for i, name := range names {
			var xy plotter.XYs
			for _, pt := range lines[name] {
				v := fig.value(pt)
				switch {
				case moving:
					xy = append(xy, plotter.XY{X: pt.Speed, Y: v})
				case v > 0 && pt.Nodes > 0: // log scales
					xy = append(xy, plotter.XY{X: pt.Nodes, Y: v})
				}
			}
			if len(xy) == 0 {
				continue
			}
			line, marks, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, err
			}
			line.Color = plotutil.Color(i)
			marks.Color = plotutil.Color(i)
			marks.Shape = plotutil.Shape(i)
			p.Add(line, marks)
			p.Legend.Add(name, line, marks)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%s%s.%s", x.Name, fig.file, suffix, format))
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}

// logTicks marks a logarithmic axis at 1, 2 and 5 times each power of ten,
// labelled, with the other integer multiples as minor ticks: a narrow range
// (8 to 80, say) still gets labels.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
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
