package bench

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// figure is one kind of plot: a figure of the measure against the number of
// nodes, as the document's figures 3 to 6 plot them.
type figure struct {
	file, title, axis string
	value             func(p Point) float64
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
		names, lines := series(points, x.Name)
		if len(names) == 0 {
			continue
		}
		for _, fig := range figures {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s: %s", x.Title, fig.title)
			p.X.Label.Text = "nodes"
			p.Y.Label.Text = fig.axis
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
			p.Legend.Top, p.Legend.Left = true, true
			for i, name := range names {
				var xy plotter.XYs
				for _, pt := range lines[name] {
					if v := fig.value(pt); v > 0 && pt.Nodes > 0 {
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
			path := filepath.Join(dir, fmt.Sprintf("%s-%s.%s", x.Name, fig.file, format))
			if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
				return nil, err
			}
			written = append(written, path)
		}
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
