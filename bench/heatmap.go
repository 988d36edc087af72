package bench

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatMap is a measure over two swept parameters: one cell per (x, y),
// coloured on the viridis scale (sequential, and readable by the colour
// blind and in grey) and carrying its value as text, with a colour bar
// that says what the colours are. The same heat map gives the same files,
// byte for byte.
type HeatMap struct {
	// Title is the figure's title, in words: "time with a leader, vkt".
	Title string
	// XLabel and YLabel name the swept parameters of the columns and the
	// rows, in words with their units: "node speed (m/s)", "nodes".
	XLabel, YLabel string
	// ZLabel names the measure and its unit, along the colour bar: "time
	// with a leader (% of node-time)".
	ZLabel string
	// X and Y are the values swept, of the columns and of the rows,
	// strictly ascending and finite. Every column and every row is drawn
	// the same size and labelled with its value: a sweep need not be
	// evenly spaced (sizes doubling, say) and no axis is numeric. Y[0] is
	// the bottom row.
	X, Y []float64
	// Z is the measure, Z[row][col] at Y[row] and X[col]: len(Y) rows of
	// len(X) values. NaN is a cell with no run, drawn hatched light grey
	// and named "no run" under the figure; an infinite value is an error.
	Z [][]float64
	// Boundary, when not NaN, draws a line along the cell edges between
	// neighbouring cells at or above it and cells below it (a cell with no
	// run is on neither side), named under the figure. A map with every
	// cell on one side has no line. Set it to NaN for none: the zero value
	// draws the line at 0, which a map of no negative value never shows.
	Boundary float64
	// BoundaryLabel names the boundary under the figure ("90%"); empty,
	// the boundary's value is used.
	BoundaryLabel string
	// ZLow and ZHigh, when ZLow < ZHigh, fix the colour scale's ends (0
	// and 100 for a share in percent, so that 99.85 and 99.9 look alike,
	// as they are); otherwise the scale spans Z's values. Values outside
	// take the nearer end's colour.
	ZLow, ZHigh float64
}

// Save writes the heat map as dir/name.FORMAT for each of st.Formats (png,
// svg, pdf; none is png) at st's size (none is DefaultStyle's), and returns
// the paths written. A heat map that is not well formed (rows or columns
// of the wrong length, nothing to draw) is an error before any file is
// written; a file that cannot be drawn leaves no file behind.
func (h HeatMap) Save(dir, name string, st Style) ([]string, error) {
	if name == "" {
		return nil, errors.New("heat map: no file name")
	}
	if len(st.Formats) == 0 {
		st.Formats = DefaultStyle.Formats
	}
	if st.Width <= 0 || st.Height <= 0 {
		st.Width, st.Height = DefaultStyle.Width, DefaultStyle.Height
	}
	for _, f := range st.Formats {
		switch f {
		case "png", "svg", "pdf":
		default:
			return nil, fmt.Errorf("heat map %s: invalid plot format %q (want png, svg or pdf)", name, f)
		}
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("heat map %s: %w", name, err)
	}
	var paths []string
	for _, format := range st.Formats {
		data, err := h.render(format, st)
		if err != nil {
			return paths, fmt.Errorf("heat map %s.%s: %w", name, format, err)
		}
		path := filepath.Join(dir, name+"."+format)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// check says what is wrong with the heat map's shape and values.
func (h HeatMap) check() error {
	if len(h.X) == 0 {
		return errors.New("no columns (X is empty)")
	}
	if len(h.Y) == 0 {
		return errors.New("no rows (Y is empty)")
	}
	for _, a := range []struct {
		name string
		vs   []float64
	}{{"X", h.X}, {"Y", h.Y}} {
		for i, v := range a.vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s[%d] is %v, not a value swept", a.name, i, v)
			}
			if i > 0 && v <= a.vs[i-1] {
				return fmt.Errorf("%s is not strictly ascending: %s[%d] = %g after %g", a.name, a.name, i, v, a.vs[i-1])
			}
		}
	}
	if len(h.Z) != len(h.Y) {
		return fmt.Errorf("Z has %d rows, Y %d values: want one row of Z per value of Y", len(h.Z), len(h.Y))
	}
	finite := 0
	for r, row := range h.Z {
		if len(row) != len(h.X) {
			return fmt.Errorf("row %d of Z (Y = %g) has %d values, X %d: want one per value of X", r, h.Y[r], len(row), len(h.X))
		}
		for c, v := range row {
			if math.IsInf(v, 0) {
				return fmt.Errorf("Z[%d][%d] (X = %g, Y = %g) is %v, which no colour shows", r, c, h.X[c], h.Y[r], v)
			}
			if !math.IsNaN(v) {
				finite++
			}
		}
	}
	if finite == 0 {
		return errors.New("every cell is NaN (no run anywhere): nothing to draw")
	}
	return nil
}

// zRange is the least and greatest values of Z, NaN aside, and whether
// some cell is NaN. A map of one value gets a range about it, so that the
// colour bar has a length.
func (h HeatMap) zRange() (lo, hi float64, missing bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range h.Z {
		for _, v := range row {
			if math.IsNaN(v) {
				missing = true
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if h.ZLow < h.ZHigh {
		return h.ZLow, h.ZHigh, missing
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	return lo, hi, missing
}

// edge is a stretch of a cell's side, in the data's coordinates (cell
// centres at integers), and which of its ends are on the map's border.
type edge struct {
	x0, y0, x1, y1   float64
	border0, border1 bool
}

// boundaryEdges are the edges between neighbouring cells on either side of
// the boundary: the line to draw, as a step contour along the cells' sides.
func (h HeatMap) boundaryEdges() []edge {
	if math.IsNaN(h.Boundary) {
		return nil
	}
	b := h.Boundary
	parts := func(u, v float64) bool {
		return !math.IsNaN(u) && !math.IsNaN(v) && (u >= b) != (v >= b)
	}
	nx, ny := len(h.X), len(h.Y)
	var out []edge
	for r := range ny {
		for c := range nx {
			y, x := float64(r), float64(c)
			if c+1 < nx && parts(h.Z[r][c], h.Z[r][c+1]) {
				out = append(out, edge{x + 0.5, y - 0.5, x + 0.5, y + 0.5, r == 0, r == ny-1})
			}
			if r+1 < ny && parts(h.Z[r][c], h.Z[r+1][c]) {
				out = append(out, edge{x - 0.5, y + 0.5, x + 0.5, y + 0.5, c == 0, c == nx-1})
			}
		}
	}
	return out
}

// boundaryLabel is how the key names the boundary.
func (h HeatMap) boundaryLabel() string {
	if h.BoundaryLabel != "" {
		return h.BoundaryLabel
	}
	return strconv.FormatFloat(h.Boundary, 'g', -1, 64)
}

// valueFormat is how the cells' values are written: whole numbers as
// such, others to about three significant digits of the largest (99.5,
// 7.25, 0.043), with a decimal more, in a cell whose rounded value would
// be on the other side of the boundary (89.96 is not written 90.0 beside a
// 90 line).
func (h HeatMap) valueFormat() func(float64) string {
	whole, most := true, 0.0
	for _, row := range h.Z {
		for _, v := range row {
			if math.IsNaN(v) {
				continue
			}
			whole = whole && v == math.Trunc(v)
			most = max(most, math.Abs(v))
		}
	}
	if most < 1e-3 && !whole {
		return func(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }
	}
	digits := 0
	if !whole {
		digits = min(max(2-int(math.Floor(math.Log10(most))), 0), 5)
	}
	b := h.Boundary
	return func(v float64) string {
		s := strconv.FormatFloat(v, 'f', digits, 64)
		for more := 1; more <= 4 && !math.IsNaN(b); more++ {
			if w, _ := strconv.ParseFloat(s, 64); (w >= b) == (v >= b) {
				break
			}
			s = strconv.FormatFloat(v, 'f', digits+more, 64)
		}
		return s
	}
}

// scaleTicks are the colour bar's ticks: at 1, 2 or 5 times a power of
// ten, six at most, all labelled alike.
func scaleTicks(lo, hi float64) []plot.Tick {
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	digits := max(0, -int(math.Floor(math.Log10(step))))
	var out []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi*(1+1e-12); i++ {
		v := i * step
		label := strconv.FormatFloat(v, 'f', digits, 64)
		if v == 0 {
			label = strconv.FormatFloat(0, 'f', digits, 64) // not -0
		}
		out = append(out, plot.Tick{Value: v, Label: label})
	}
	return out
}

// viridisAnchors are nine colours of the viridis scale (van der Walt and
// Smith, matplotlib), evenly spaced from its dark end to its light one;
// viridis interpolates between them.
var viridisAnchors = []color.RGBA{
	{0x44, 0x01, 0x54, 0xff},
	{0x47, 0x2D, 0x7B, 0xff},
	{0x3B, 0x52, 0x8B, 0xff},
	{0x2C, 0x72, 0x8E, 0xff},
	{0x21, 0x90, 0x8C, 0xff},
	{0x27, 0xAD, 0x81, 0xff},
	{0x5D, 0xC8, 0x63, 0xff},
	{0xAA, 0xDC, 0x32, 0xff},
	{0xFD, 0xE7, 0x25, 0xff},
}

// viridis is the colour of t on the viridis scale, t from 0 (dark purple)
// to 1 (yellow), clamped.
func viridis(t float64) color.RGBA {
	if math.IsNaN(t) {
		t = 0
	}
	t = min(max(t, 0), 1) * float64(len(viridisAnchors)-1)
	i := min(int(t), len(viridisAnchors)-2)
	f := t - float64(i)
	a, b := viridisAnchors[i], viridisAnchors[i+1]
	mix := func(u, v uint8) uint8 { return uint8(math.Round(float64(u) + f*(float64(v)-float64(u)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// luminance is c's relative luminance (WCAG), 0 for black to 1 for white.
func luminance(c color.RGBA) float64 {
	lin := func(u uint8) float64 {
		s := float64(u) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// textOn is black or white, whichever contrasts more with the cell's
// colour: black on viridis's green and yellow, white on its blue and
// purple.
func textOn(c color.RGBA) color.Color {
	if l := luminance(c); (l+0.05)/0.05 > 1.05/(l+0.05) {
		return color.Black
	}
	return color.White
}

var (
	noRunFill  = color.RGBA{0xE8, 0xE8, 0xE8, 0xff} // a cell with no run: light grey, hatched
	noRunHatch = color.RGBA{0x90, 0x90, 0x90, 0xff}
)

// heatDrawing is what every part of one drawing shares: the sizes of its
// text and lines, in proportion to the figure as fit makes a line plot's.
type heatDrawing struct {
	k                float64 // shrink(style)
	tick, label, key text.Style
}

// pt is a length of pt points at the default size, in proportion to this one.
func (d heatDrawing) pt(pt float64) vg.Length { return vg.Length(pt * d.k) }

func newHeatDrawing(st Style) heatDrawing {
	k := shrink(st)
	style := func(pt float64) text.Style {
		return text.Style{
			Color:   color.Black,
			Font:    font.From(plot.DefaultFont, max(vg.Length(pt*k), 6)),
			XAlign:  draw.XLeft,
			YAlign:  draw.YCenter,
			Handler: plot.DefaultTextHandler,
		}
	}
	return heatDrawing{k: k, tick: style(10), label: style(12), key: style(10)}
}

// render draws the heat map in one format. A panic of the plotting library
// comes back as a plotPanic.
func (h HeatMap) render(format string, st Style) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = plotPanic{r}
		}
	}()
	c, err := draw.NewFormattedCanvas(st.Width, st.Height, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	d := newHeatDrawing(st)
	lo, hi, missing := h.zRange()
	edges := h.boundaryEdges()

	// The colour bar's ticks, and the column it takes at the right.
	var zTicks []plot.Tick
	widest := vg.Length(0)
	for _, t := range scaleTicks(lo, hi) {
		zTicks = append(zTicks, t)
		widest = max(widest, d.tick.Width(t.Label))
	}
	barGap, barW, tickLen := d.pt(14), d.pt(14), d.pt(4)
	right := barGap + barW + tickLen + d.pt(3) + widest + d.pt(6) + d.label.FontExtents().Height + d.pt(4)

	// The key under the figure: what a hatched cell and the line are.
	var keys []keyItem
	if missing {
		keys = append(keys, keyItem{"no run", false})
	}
	if len(edges) > 0 {
		keys = append(keys, keyItem{h.boundaryLabel() + " line: cells at or above it on one side, below it on the other", true})
	}
	keyH := vg.Length(0)
	if len(keys) > 0 {
		d.key = fitKey(d, keys, dc.Max.X-dc.Min.X)
		keyH = d.key.FontExtents().Height * 2
	}

	mainC := dc
	mainC.Max.X -= right
	mainC.Min.Y += keyH
	mainC.Max.Y -= d.pt(4) // the title off the edge

	p := plot.New()
	p.Title.Text = h.Title
	p.Title.Padding = d.pt(4)
	p.X.Label.Text, p.Y.Label.Text = h.XLabel, h.YLabel
	p.X.Min, p.X.Max = -0.5, float64(len(h.X))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(h.Y))-0.5
	p.X.Padding, p.Y.Padding = 0, 0
	fit(p, st)
	p.Add(heatCells{h: h, d: d, lo: lo, hi: hi, edges: edges})
	xLabels, yLabels := categoryLabels(h.X), categoryLabels(h.Y)
	p.X.Tick.Marker = categoryTicks{labels: xLabels, stride: 1}
	p.Y.Tick.Marker = categoryTicks{labels: yLabels, stride: 1}
	// Label every column and row whose label has room: one in stride.
	da := p.DataCanvas(mainC)
	xStride := strideFor(maxWidth(p.X.Tick.Label, xLabels)+d.pt(6), (da.Max.X-da.Min.X)/vg.Length(len(h.X)))
	yStride := strideFor(p.Y.Tick.Label.FontExtents().Height*1.15, (da.Max.Y-da.Min.Y)/vg.Length(len(h.Y)))
	p.X.Tick.Marker = categoryTicks{labels: xLabels, stride: xStride}
	p.Y.Tick.Marker = categoryTicks{labels: yLabels, stride: yStride}
	p.Draw(mainC)
	da = p.DataCanvas(mainC)

	h.drawColourBar(dc, d, da, mainC.Max.X+barGap, barW, tickLen, lo, hi, zTicks, widest)
	if len(keys) > 0 {
		drawKey(dc, d, keys, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Min.Y + keyH/2})
	}

	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// drawColourBar draws the scale beside the data, as tall as they are, with
// its ticks and the measure's name.
func (h HeatMap) drawColourBar(dc draw.Canvas, d heatDrawing, da draw.Canvas, x0, barW, tickLen vg.Length, lo, hi float64, ticks []plot.Tick, widest vg.Length) {
	y0, y1 := da.Min.Y, da.Max.Y
	const steps = 128
	for i := range steps {
		a := y0 + (y1-y0)*vg.Length(i)/steps
		b := y0 + (y1-y0)*vg.Length(i+1)/steps
		if i < steps-1 {
			b += (y1 - y0) / steps / 2 // overlap the next: no seam between them
		}
		dc.FillPolygon(viridis((float64(i)+0.5)/steps), rect(x0, a, x0+barW, b))
	}
	thin := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	dc.StrokeLines(thin, append(rect(x0, y0, x0+barW, y1), vg.Point{X: x0, Y: y0}))
	for _, t := range ticks {
		y := y0 + (y1-y0)*vg.Length((t.Value-lo)/(hi-lo))
		dc.StrokeLine2(thin, x0+barW, y, x0+barW+tickLen, y)
		dc.FillText(d.tick, vg.Point{X: x0 + barW + tickLen + d.pt(3), Y: y}, t.Label)
	}
	if h.ZLabel != "" {
		sty := d.label
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		x := x0 + barW + tickLen + d.pt(3) + widest + d.pt(6) + d.label.FontExtents().Height/2
		dc.FillText(sty, vg.Point{X: x, Y: (y0 + y1) / 2}, h.ZLabel)
	}
}

// heatCells draws the cells, their values, the hatching of those with no
// run, and the boundary: the data of the figure.
type heatCells struct {
	h      HeatMap
	d      heatDrawing
	lo, hi float64
	edges  []edge
}

func (hc heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	h, d := hc.h, hc.d
	nx, ny := len(h.X), len(h.Y)
	X := func(x float64) vg.Length { return c.X(p.X.Norm(x)) }
	Y := func(y float64) vg.Length { return c.Y(p.Y.Norm(y)) }
	cellW, cellH := X(0.5)-X(-0.5), Y(0.5)-Y(-0.5)
	seam := vg.Points(1) // cells run under their right and upper neighbours: no light hairline between them

	format := h.valueFormat()
	values := d.tick
	values.XAlign, values.YAlign = draw.XCenter, draw.YCenter
	widest := vg.Length(0)
	for _, row := range h.Z {
		for _, v := range row {
			if !math.IsNaN(v) {
				widest = max(widest, values.Width(format(v)))
			}
		}
	}
	// The values' text is the ticks' size, or smaller where the cells are
	// small; too small to read (under 5 points), the values are left out.
	size := values.Font.Size
	if widest > 0 {
		size = min(size, size*0.88*cellW/widest)
	}
	size = min(size, size*0.7*cellH/values.FontExtents().Height)
	showValues := size >= 5
	values.Font.Size = size

	var hatched [][2]int
	for r := range ny {
		for col := range nx {
			v := h.Z[r][col]
			x0, y0 := X(float64(col)-0.5), Y(float64(r)-0.5)
			x1, y1 := x0+cellW, y0+cellH
			if col < nx-1 {
				x1 += seam
			}
			if r < ny-1 {
				y1 += seam
			}
			if math.IsNaN(v) {
				c.FillPolygon(noRunFill, rect(x0, y0, x1, y1))
				hatched = append(hatched, [2]int{r, col})
				continue
			}
			c.FillPolygon(viridis((v-hc.lo)/(hc.hi-hc.lo)), rect(x0, y0, x1, y1))
		}
	}
	hatch := draw.LineStyle{Color: noRunHatch, Width: vg.Points(0.6)}
	for _, rc := range hatched {
		x0, y0 := X(float64(rc[1])-0.5), Y(float64(rc[0])-0.5)
		hatchRect(c, hatch, x0, y0, cellW, cellH, max(d.pt(5), 3))
	}
	if showValues {
		for r := range ny {
			for col := range nx {
				v := h.Z[r][col]
				if math.IsNaN(v) {
					continue
				}
				sty := values
				sty.Color = textOn(viridis((v - hc.lo) / (hc.hi - hc.lo)))
				c.FillText(sty, vg.Point{X: X(float64(col)), Y: Y(float64(r))}, format(v))
			}
		}
	}
	drawBoundary(c, d, hc.edges, X, Y)
}

// drawBoundary draws the edges as one line, black on a white casing so
// that it shows on every colour; each edge runs on by half the line's
// width past its ends within the map, so that corners close.
func drawBoundary(c draw.Canvas, d heatDrawing, edges []edge, X, Y func(float64) vg.Length) {
	if len(edges) == 0 {
		return
	}
	casing := draw.LineStyle{Color: color.White, Width: max(d.pt(3.5), 2.5)}
	line := draw.LineStyle{Color: color.Black, Width: max(d.pt(1.6), 1.2)}
	for _, sty := range []draw.LineStyle{casing, line} {
		for _, e := range edges {
			a := vg.Point{X: X(e.x0), Y: Y(e.y0)}
			b := vg.Point{X: X(e.x1), Y: Y(e.y1)}
			run := sty.Width / 2
			if e.x0 == e.x1 { // vertical
				if !e.border0 {
					a.Y -= run
				}
				if !e.border1 {
					b.Y += run
				}
			} else {
				if !e.border0 {
					a.X -= run
				}
				if !e.border1 {
					b.X += run
				}
			}
			c.StrokeLines(sty, []vg.Point{a, b})
		}
	}
}

// hatchRect hatches a w by h rectangle at (x0, y0) with diagonal lines
// space apart, kept within it.
func hatchRect(c draw.Canvas, sty draw.LineStyle, x0, y0, w, h, space vg.Length) {
	for off := -h; off < w; off += space {
		// The line (x0+off+t, y0+t), t from 0 to h, within x0..x0+w.
		t0, t1 := max(0, -off), min(h, w-off)
		if t0 >= t1 {
			continue
		}
		c.StrokeLines(sty, []vg.Point{{X: x0 + off + t0, Y: y0 + t0}, {X: x0 + off + t1, Y: y0 + t1}})
	}
}

func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// keyItem is an entry of the key under a heat map: a hatched cell, or the
// boundary's line, and what it is.
type keyItem struct {
	text string
	line bool
}

// keyWidth is the width of the key's entries, side by side.
func keyWidth(d heatDrawing, sty text.Style, keys []keyItem) vg.Length {
	var w vg.Length
	for i, k := range keys {
		if i > 0 {
			w += d.pt(18)
		}
		w += keySwatch(d, sty, k) + d.pt(4) + sty.Width(k.text)
	}
	return w
}

func keySwatch(d heatDrawing, sty text.Style, k keyItem) vg.Length {
	if k.line {
		return d.pt(20)
	}
	return sty.FontExtents().Height
}

// fitKey is the key's text style, made smaller (to 5 points) if the key
// would be wider than the figure.
func fitKey(d heatDrawing, keys []keyItem, width vg.Length) text.Style {
	sty := d.key
	if w := keyWidth(d, sty, keys); w > 0.96*width {
		sty.Font.Size = max(sty.Font.Size*0.96*width/w, 5)
	}
	return sty
}

// drawKey draws the key's entries side by side, centred on at.
func drawKey(dc draw.Canvas, d heatDrawing, keys []keyItem, at vg.Point) {
	sty := d.key
	x := max(at.X-keyWidth(d, sty, keys)/2, dc.Min.X+d.pt(2))
	s := sty.FontExtents().Height * 0.8
	for i, k := range keys {
		if i > 0 {
			x += d.pt(18)
		}
		sw := keySwatch(d, sty, k)
		if k.line {
			drawBoundary(dc, d, []edge{{0, 0, 1, 0, true, true}}, func(v float64) vg.Length { return x + sw*vg.Length(v) },
				func(float64) vg.Length { return at.Y })
		} else {
			y0 := at.Y - s/2
			dc.FillPolygon(noRunFill, rect(x, y0, x+s, y0+s))
			hatchRect(dc, draw.LineStyle{Color: noRunHatch, Width: vg.Points(0.6)}, x, y0, s, s, s/3)
			dc.StrokeLines(draw.LineStyle{Color: noRunHatch, Width: vg.Points(0.5)}, append(rect(x, y0, x+s, y0+s), vg.Point{X: x, Y: y0}))
		}
		x += sw + d.pt(4)
		dc.FillText(sty, vg.Point{X: x, Y: at.Y}, k.text)
		x += sty.Width(k.text)
	}
}

// categoryLabels are the values swept, as the axes label them.
func categoryLabels(vs []float64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	return out
}

func maxWidth(sty text.Style, labels []string) vg.Length {
	var w vg.Length
	for _, l := range labels {
		w = max(w, sty.Width(l))
	}
	return w
}

// strideFor is how many cells of size cell one label of size need spans.
func strideFor(need, cell vg.Length) int {
	if cell <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(float64(need/cell))))
}

// categoryTicks marks an axis of categories, the cell centres 0, 1, 2 ...,
// labelling one in stride (from the first) and marking the others.
type categoryTicks struct {
	labels []string
	stride int
}

func (t categoryTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i, l := range t.labels {
		if v := float64(i); v >= lo && v <= hi {
			tick := plot.Tick{Value: v}
			if i%t.stride == 0 {
				tick.Label = l
			}
			out = append(out, tick)
		}
	}
	return out
}
