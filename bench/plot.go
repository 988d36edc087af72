package bench

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
	// run is the measure of one run, and whether the run counts for it
	// (the elections' figures count the runs that elected): the points'
	// intervals are taken over these.
	run func(r *Result) (float64, bool)
}

// always counts every run; withElection those that measured an election.
func always(f func(r *Result) float64) func(*Result) (float64, bool) {
	return func(r *Result) (float64, bool) { return f(r), true }
}

func withElection(f func(r *Result) float64) func(*Result) (float64, bool) {
	return func(r *Result) (float64, bool) { return f(r), r.Elections > 0 }
}

var movingFigures = []figure{
	{"leader-time", "time with a leader", "time with a leader (% of node-time)", func(p Point) float64 { return 100 * (1 - p.Leaderless) }, nil,
		always(func(r *Result) float64 { return 100 * (1 - r.Leaderless) })},
	{"reachable-leader-time", "time following a reachable leader", "time following a reachable leader (% of node-time)", func(p Point) float64 { return 100 * p.Reachable }, nil,
		always(func(r *Result) float64 { return 100 * r.Reachable })},
	{"election-rate", "elections started", "elections started per node per minute", func(p Point) float64 { return p.ElectionRate }, nil,
		always(func(r *Result) float64 { return r.ElectionRate })},
	{"leader-changes", "leader changes", "leader changes per node per minute", func(p Point) float64 { return p.LeaderChangeRate }, nil,
		always(func(r *Result) float64 { return r.LeaderChangeRate })},
	{"messages-per-node-second", "messages, heartbeats included", "messages per node per second", func(p Point) float64 { return p.MessagesPerNodeSecond }, nil,
		always(func(r *Result) float64 { return r.MessagesPerNodeSecond })},
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
	{"election-time", "mean election time", "election time (ms)", func(p Point) float64 { return p.ElectionMS }, elected("the elections took no time"),
		withElection(func(r *Result) float64 { return r.ElectionMS })},
	{"messages-per-election", "message overhead per election", "messages per election (transmissions)", func(p Point) float64 { return p.PerElection }, elected("the elections sent no message"),
		withElection(func(r *Result) float64 { return r.PerElection() })},
	{"receptions-per-election", "receptions per election (a broadcast is heard by every neighbour)", "receptions per election", func(p Point) float64 { return p.ReceptionsPerElection }, elected("the elections sent no message"),
		withElection((*Result).ReceptionsPerElection)},
	{"messages-per-node", "message overhead per node", "messages per node", func(p Point) float64 { return p.PerNode },
		func(Point) string { return "no message sent from the experiment's start" }, always(func(r *Result) float64 { return r.PerNode() })},
	{"leaderless", "time without a leader", "time without a leader (% of node-time)", func(p Point) float64 { return 100 * p.Leaderless },
		func(Point) string { return "never without a leader" }, always(func(r *Result) float64 { return 100 * r.Leaderless })},
}

// everyFigure is every figure, of still networks then of moving ones.
var everyFigure = append(slices.Clone(figures), movingFigures...)

// FigureNames name the figures plotted for each experiment, files named
// EXPERIMENT-NAME.FORMAT: those of still networks against the number of
// nodes, and those of moving ones against speed (a still experiment run at
// speeds adds -moving to the name). receptions-per-election is plotted
// only when some message was broadcast.
func FigureNames() (still, moving []string) {
	for _, f := range figures {
		still = append(still, f.file)
	}
	for _, f := range movingFigures {
		moving = append(moving, f.file)
	}
	return still, moving
}

// intervalOf is fig's measure at pt with its 95% interval, over pt's runs.
func (fig figure) intervalOf(pt Point) Interval {
	var xs []float64
	for _, r := range pt.Results {
		if v, ok := fig.run(r); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			xs = append(xs, v)
		}
	}
	iv := interval(xs)
	iv.Mean = fig.value(pt)
	return iv
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
// figure into dir, as PNG, SVG or PDF (format "png", "svg" or "pdf"), 7 by
// 4.5 inches; PlotStyled takes several formats and a size. A single point is
// a plot; a figure with no point to show (every value 0 on a log scale, say)
// is skipped, and Plots says why. The error is for a bad format or a file
// that cannot be written.
func Plot(points []Point, dir, format string) (Plots, error) {
	style, err := ParseStyle(format, "")
	if err != nil {
		return Plots{}, err
	}
	return PlotStyled(points, dir, style)
}

// PlotStyled is Plot in the formats and at the size style says. Every point
// is a mean over its runs with its 95% confidence interval as an error bar
// (Student t); lines are named in words, in the Okabe–Ito palette with a
// marker and a dash of their own; the axes say the measure and its unit,
// and the number of nodes is marked at the sizes swept. The same points
// give the same files.
func PlotStyled(points []Point, dir string, style Style) (Plots, error) {
	var out Plots
	if len(style.Formats) == 0 {
		style.Formats = DefaultStyle.Formats
	}
	if style.Width == 0 || style.Height == 0 {
		style.Width, style.Height = DefaultStyle.Width, DefaultStyle.Height
	}
	for _, x := range Experiments {
		if x.Battery {
			if err := plotBattery(&out, points, x, dir, style); err != nil {
				return out, err
			}
			continue
		}
		for _, moving := range []bool{false, true} {
			if err := plotExperiment(&out, points, x, moving, dir, style); err != nil {
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
func plotExperiment(out *Plots, points []Point, x Experiment, moving bool, dir string, style Style) error {
	names, lines := series(points, x.Name, moving)
	if len(names) == 0 {
		return nil
	}
	shared := sharedTemplate(names)
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
		file := fmt.Sprintf("%s-%s%s.%s", x.Name, fig.file, suffix, style.Formats[0])
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: %s", x.Title, fig.title)
		if shared != "" {
			p.Title.Text += " (" + topologyWords(shared) + ")" // said once, not in every line's name
		}
		p.Y.Label.Text = fig.axis
		p.Legend.Top, p.Legend.Left = true, true
		var xs []float64 // the swept values, for the ticks
		if moving {
			p.X.Label.Text = "speed (m/s)"
			p.Legend.Top = !strings.HasSuffix(fig.file, "leader-time") // high values: the legend goes below
		} else {
			p.X.Label.Text = "nodes"
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.Y.Tick.Marker = logTicks{}
		}
		total, shown := 0, 0
		var left []leftOut
		for i, name := range names {
			var pts errXYs
			for _, pt := range lines[name] {
				total++
				iv := fig.intervalOf(pt)
				v, px := iv.Mean, pt.Nodes
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
					low := iv.Half
					if !moving {
						low = min(low, 0.99*v) // a log scale has no 0 to reach
					} else {
						low = min(low, v) // nor does any figure of moving networks go below 0
					}
					pts.XYs = append(pts.XYs, plotter.XY{X: px, Y: v})
					pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{low, iv.Half})
					xs = append(xs, px)
				}
			}
			if len(pts.XYs) == 0 {
				continue
			}
			shown += len(pts.XYs)
			label := words(name)
			if shared != "" {
				label = words(strings.SplitN(name, " ", 2)[0])
			}
			if err := addSeries(p, pts, label, okabeIto[i%len(okabeIto)], plotutil.Dashes(i), plotutil.Shape(i), style); err != nil {
				return err
			}
		}
		if shown == 0 {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: no point to plot: %s", file, summarize(left)))
			continue
		}
		if moving {
			linearRange(&p.X)
			linearRange(&p.Y)
		} else {
			p.X.Tick.Marker = sweptTicks(xs)
			logRange(&p.X)
			logRange(&p.Y)
		}
		fit(p, style)
		var failed bool
		for _, format := range style.Formats {
			path := filepath.Join(dir, fmt.Sprintf("%s-%s%s.%s", x.Name, fig.file, suffix, format))
			if err := save(p, path, style); err != nil {
				var pe plotPanic
				if !errors.As(err, &pe) {
					return err
				}
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s: the plotting library failed: %v", file, pe.value))
				failed = true
				break
			}
			out.Files = append(out.Files, path)
		}
		if !failed && len(left) > 0 {
			out.Partial = append(out.Partial, fmt.Sprintf("%s: %d of %d points left out, %s", file, len(left), total, summarize(left)))
		}
	}
	return nil
}

// sharedTemplate is the topology every line of a figure was run on, when
// they share one (a line's name is "ALGORITHM TEMPLATE[ MOTION]"), "" when
// they do not.
func sharedTemplate(names []string) string {
	var t string
	for i, n := range names {
		_, rest, _ := strings.Cut(n, " ")
		if i > 0 && rest != t {
			return ""
		}
		t = rest
	}
	return t
}

// fit scales the text to the figure: the library's sizes suit its 7 by 4.5
// inches; a paper's column (3.5 inches) gets them in proportion, 6 points
// at least, so that the labels neither overlap nor fill the plot.
func fit(p *plot.Plot, style Style) {
	k := shrink(style)
	if k >= 1 {
		return
	}
	scale := func(l *vg.Length) { *l = max(vg.Length(float64(*l)*k), 6) }
	scale(&p.Title.TextStyle.Font.Size)
	scale(&p.Legend.TextStyle.Font.Size)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		scale(&a.Label.TextStyle.Font.Size)
		scale(&a.Tick.Label.Font.Size)
	}
	p.Legend.ThumbnailWidth = vg.Length(float64(p.Legend.ThumbnailWidth) * k)
	if lt, ok := p.Y.Tick.Marker.(logTicks); ok {
		lt.decadesOnly = true // a short axis has no room for 2 and 5
		p.Y.Tick.Marker = lt
	}
}

// shrink is how much smaller than the default the figure is (1 at most).
func shrink(style Style) float64 {
	return min(1, float64(style.Width)/float64(DefaultStyle.Width), float64(style.Height)/float64(DefaultStyle.Height))
}

// errXYs are a line's points with their error bars.
type errXYs struct {
	plotter.XYs
	plotter.YErrors
}

// sweptTicks labels a log axis at the values swept (the sizes), when they
// are few enough to read; otherwise at 1, 2 and 5 times each power of ten.
func sweptTicks(xs []float64) plot.Ticker {
	vals := slices.Compact(slices.Sorted(slices.Values(xs)))
	if len(vals) == 0 || len(vals) > 12 {
		return logTicks{}
	}
	return sizeTicks(vals)
}

// sizeTicks marks an axis at given values, each labelled.
type sizeTicks []float64

func (t sizeTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, v := range t {
		if v >= min && v <= max {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		}
	}
	return out
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

// A PDF's metadata carries its creation and modification dates, the time
// it was made unless told: the library is told a fixed date (the
// reproducible-builds convention's SOURCE_DATE_EPOCH when set, else the
// Unix epoch) and to sort its catalogue, so that the same points give the
// same PDF, as they give the same SVG and PNG.
func init() {
	date := time.Unix(0, 0).UTC()
	if v, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		date = time.Unix(v, 0).UTC()
	}
	fpdf.SetDefaultCreationDate(date)
	fpdf.SetDefaultModificationDate(date)
	fpdf.SetDefaultCatalogSort(true)
}

// save draws the plot, then writes it: a plot that cannot be drawn leaves
// no empty file behind. A panic of the plotting library (it panics on data
// it cannot scale) comes back as a plotPanic.
func save(p *plot.Plot, path string, style Style) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = plotPanic{r}
		}
	}()
	c, err := p.WriterTo(style.Width, style.Height, strings.TrimPrefix(filepath.Ext(path), "."))
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
type logTicks struct {
	decadesOnly bool // label the powers of ten alone, on an axis spanning more than two
}

func (lt logTicks) Ticks(min, max float64) []plot.Tick {
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
			wide := lt.decadesOnly && max/min > 100
			if m == 1 || !wide && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// addSeries adds one series to p: its points joined by a line in colour c
// (dashed so), marked (shape), with their 95% intervals as error bars, the
// marks and caps in proportion to the text (style), under label in the
// legend.
func addSeries(p *plot.Plot, pts errXYs, label string, c color.Color, dashes []vg.Length, shape draw.GlyphDrawer, style Style) error {
	line, marks, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return err
	}
	line.Color, line.Dashes = c, dashes
	marks.Color, marks.Shape = c, shape
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	bars.Color = c
	k := vg.Length(shrink(style))
	marks.Radius, bars.CapWidth = marks.Radius*k, bars.CapWidth*k
	p.Add(line, marks, bars)
	p.Legend.Add(label, line, marks)
	return nil
}
