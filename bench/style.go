package bench

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Style is how figures are drawn: in which formats, and at what size.
type Style struct {
	// Formats are the files made of each figure: png, svg, pdf.
	Formats []string
	// Width and Height are each figure's size.
	Width, Height vg.Length
}

// DefaultStyle is a PNG of 7 by 4.5 inches.
var DefaultStyle = Style{Formats: []string{"png"}, Width: 7 * vg.Inch, Height: 4.5 * vg.Inch}

// ParseStyle reads --format and --plot-size (ParseFormats, ParsePlotSize).
func ParseStyle(formats, size string) (Style, error) {
	s := DefaultStyle
	var err error
	if s.Formats, err = ParseFormats(formats); err != nil {
		return s, fmt.Errorf("--format: %w", err)
	}
	if size != "" {
		if s.Width, s.Height, err = ParsePlotSize(size); err != nil {
			return s, fmt.Errorf("--plot-size: %w", err)
		}
	}
	return s, nil
}

// ParseFormats reads --format: png, svg or pdf, or several comma-separated.
func ParseFormats(formats string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(formats, ",") {
		f = strings.TrimSpace(f)
		switch f {
		case "png", "svg", "pdf":
			out = append(out, f)
		default:
			return nil, fmt.Errorf("invalid plot format %q (want png, svg or pdf, or several: png,pdf)", f)
		}
	}
	return out, nil
}

// ParsePlotSize reads --plot-size: WIDTHxHEIGHT with a unit, in or cm
// (3.5x2.5in, a column of a two-column paper).
func ParsePlotSize(size string) (width, height vg.Length, err error) {
	unit := vg.Inch
	num := size
	switch {
	case strings.HasSuffix(size, "in"):
		num = strings.TrimSuffix(size, "in")
	case strings.HasSuffix(size, "cm"):
		num, unit = strings.TrimSuffix(size, "cm"), vg.Centimeter
	default:
		return 0, 0, fmt.Errorf("invalid plot size %q (want WIDTHxHEIGHT in inches or centimetres: 3.5x2.5in, 17x11cm)", size)
	}
	ws, hs, ok := strings.Cut(num, "x")
	w, errW := strconv.ParseFloat(ws, 64)
	h, errH := strconv.ParseFloat(hs, 64)
	if !ok || errW != nil || errH != nil || !(w >= 1 && w <= 100) || !(h >= 1 && h <= 100) {
		return 0, 0, fmt.Errorf("invalid plot size %q (want WIDTHxHEIGHT, each from 1 to 100, in or cm: 3.5x2.5in)", size)
	}
	return vg.Length(w) * unit, vg.Length(h) * unit, nil
}

// okabeIto is the colour-blind-safe palette of Okabe and Ito, black last;
// lines differ by marker and dash too, so that a figure printed in grey
// still reads.
var okabeIto = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0xF0, 0xE4, 0x42, 0xff}, // yellow
	{0x00, 0x00, 0x00, 0xff}, // black
}

// words names a line of a figure in words: "vkt, broadcast (geometric,
// mean degree 10)" for vkt:medium=broadcast on geometric:{n}:d10.
func words(series string) string {
	alg, rest, _ := strings.Cut(series, " ")
	name, params, _ := strings.Cut(alg, ":")
	if params != "" {
		var vals []string
		for _, kv := range strings.Split(params, ":") {
			k, v, _ := strings.Cut(kv, "=")
			if k == "medium" {
				vals = append(vals, v)
			} else {
				vals = append(vals, k+" "+v)
			}
		}
		name += ", " + strings.Join(vals, ", ")
	}
	if rest == "" {
		return name
	}
	return name + " (" + topologyWords(rest) + ")"
}

// topologyWords says a topology template in words: its family, and a mean
// degree (dN) when it has one; what it does not know it leaves as written,
// without its {n}.
func topologyWords(t string) string {
	motion := ""
	if i := strings.Index(t, " "); i >= 0 {
		t, motion = t[:i], t[i:]
	}
	parts := strings.Split(t, ":")
	out := []string{parts[0]}
	for _, p := range parts[1:] {
		switch {
		case p == "{n}" || p == "{n}x{n}":
		case strings.HasPrefix(p, "d") && isNumber(p[1:]):
			out = append(out, "mean degree "+p[1:])
		default:
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ") + motion
}

func isNumber(s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsNaN(v)
}

// tQuantile975 is Student's t at 0.975 for 1 to 30 degrees of freedom: a
// 95% interval's half-width is t times the standard error.
var tQuantile975 = []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// Interval is a mean over runs and its 95% confidence interval, mean ±
// Half (Student t; Half is 0 for fewer than two runs).
type Interval struct {
	Mean, Half float64
	N          int
}

// interval of xs.
func interval(xs []float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n < 2 {
		return Interval{Mean: mean, N: n}
	}
	var sq float64
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return Interval{Mean: mean, Half: Quantile975(n-1) * math.Sqrt(sq/float64(n-1)/float64(n)), N: n}
}
