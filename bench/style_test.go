package bench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

func TestParseStyle(t *testing.T) {
	for _, c := range []struct {
		format, size string
		formats      []string
		w, h         vg.Length
		bad          string
	}{
		{"png", "", []string{"png"}, 7 * vg.Inch, 4.5 * vg.Inch, ""},
		{"pdf,svg, png", "3.5x2.5in", []string{"pdf", "svg", "png"}, 3.5 * vg.Inch, 2.5 * vg.Inch, ""},
		{"svg", "17x11cm", []string{"svg"}, 17 * vg.Centimeter, 11 * vg.Centimeter, ""},
		{"gif", "", nil, 0, 0, `invalid plot format "gif"`},
		{"png,", "", nil, 0, 0, `invalid plot format ""`},
		{"png", "7x4", nil, 0, 0, "in inches or centimetres"},
		{"png", "0x4in", nil, 0, 0, "from 1 to 100"},
		{"png", "axbin", nil, 0, 0, "from 1 to 100"},
	} {
		s, err := ParseStyle(c.format, c.size)
		switch {
		case c.bad != "":
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q %q: %v, want an error saying %q", c.format, c.size, err, c.bad)
			}
		case err != nil || strings.Join(s.Formats, ",") != strings.Join(c.formats, ",") || math.Abs(float64(s.Width-c.w)) > 1e-9 || math.Abs(float64(s.Height-c.h)) > 1e-9:
			t.Errorf("%q %q: %+v, %v", c.format, c.size, s, err)
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"vkt geometric:{n}:d10":                           "vkt (geometric, mean degree 10)",
		"vkt:medium=broadcast ring:{n}":                   "vkt, broadcast (ring)",
		"park:medium=broadcast:heartbeat=2s grid:{n}x{n}": "park, broadcast, heartbeat 2s (grid)",
		"vkt geometric:50:250:1000x1000":                  "vkt (geometric, 50, 250, 1000x1000)",
		"vkt":                                             "vkt",
	} {
		if got := words(in); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

// A 95% interval with Student's t: five runs of 1..5 have mean 3 and half
// width 2.776 × sd/√5; one run has none.
func TestInterval(t *testing.T) {
	iv := interval([]float64{1, 2, 3, 4, 5})
	if want := 2.776 * math.Sqrt(2.5) / math.Sqrt(5); iv.Mean != 3 || math.Abs(iv.Half-want) > 1e-9 || iv.N != 5 {
		t.Errorf("interval of 1..5: %+v, want mean 3, half %.4f", iv, want)
	}
	if iv := interval([]float64{7}); iv.Mean != 7 || iv.Half != 0 {
		t.Errorf("one run: %+v", iv)
	}
}

// The figures of a sweep come in every format asked for, the same points
// giving the same files byte for byte, with lines named in words and the
// sizes swept marked on the axis.
func TestPlotStyled(t *testing.T) {
	sw := tinySweep(t)
	sw.Experiments, sw.Algorithms = []string{"start"}, []string{"vkt", "vkt:medium=broadcast"}
	runs, _ := sw.Runs()
	rs, failed := sw.RunAll(runs, 2, nil)
	if failed != nil {
		t.Fatal(failed[0])
	}
	style, err := ParseStyle("svg,pdf,png", "3.5x2.5in")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for range 2 {
		dir := t.TempDir()
		plots, err := PlotStyled(Aggregate(rs), dir, style)
		if err != nil {
			t.Fatal(err)
		}
		if len(plots.Files) != 3*5 { // five figures (receptions: the sweep holds broadcasts)
			t.Fatalf("files %v", plots.Files)
		}
		dirs = append(dirs, dir)
	}
	svg, err := os.ReadFile(filepath.Join(dirs[0], "start-messages-per-election.svg"))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dirs[1], "start-messages-per-election.svg"))
	if !bytes.Equal(svg, again) {
		t.Error("the same points gave two different SVG files")
	}
	for _, name := range []string{"start-messages-per-election.pdf", "start-messages-per-election.png"} {
		a, errA := os.ReadFile(filepath.Join(dirs[0], name))
		b, errB := os.ReadFile(filepath.Join(dirs[1], name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("the same points gave two different %s files (%v, %v)", filepath.Ext(name), errA, errB)
		}
	}
	// Two PDFs made within a second match anyway: the date in them is
	// what would part them.
	pdf, _ := os.ReadFile(filepath.Join(dirs[0], "start-messages-per-election.pdf"))
	if today := "D:" + time.Now().UTC().Format("20060102"); bytes.Contains(pdf, []byte(today)) {
		t.Errorf("the PDF carries today's date (%s): the same points made later would give another file", today)
	}
	for _, want := range []string{"vkt, broadcast (geometric, mean degree 6)", "messages per election (transmissions)", ">40<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the SVG has no %q", want)
		}
	}
}

// The summary CSV carries every figure's mean, interval and runs.
func TestSummaryCSV(t *testing.T) {
	sw := tinySweep(t)
	runs, _ := sw.Runs()
	rs, failed := sw.RunAll(runs, 2, nil)
	if failed != nil {
		t.Fatal(failed[0])
	}
	points := Aggregate(rs)
	var buf bytes.Buffer
	if err := WriteSummaryCSV(&buf, points); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(points)+1 || !strings.Contains(lines[0], "election-time,election-time_ci95,election-time_runs") {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	first := strings.Split(lines[1], ",")
	want := interval([]float64{rs[0].ElectionMS, rs[1].ElectionMS}) // the first point's two seeds
	if first[8] != strconv.FormatFloat(points[0].ElectionMS, 'g', 6, 64) || first[9] != strconv.FormatFloat(want.Half, 'g', 6, 64) || first[10] != "2" {
		t.Errorf("first row %v, want election time %g ± %g over 2 runs", first[:11], points[0].ElectionMS, want.Half)
	}
	// By hand, not through interval, on every row whose two seeds took
	// different times (the first row's took the same: a half-width of 0
	// says nothing): over runs a and b the mean is (a+b)/2 and the 95%
	// half-width t(0.975, 1) s/√2 = 12.7062 |a-b|/2.
	checked := 0
	for k, p := range points {
		var times []float64
		for _, r := range rs {
			if r.Experiment == p.Experiment && r.Template == p.Template && r.Size == p.Size && r.Elections > 0 {
				times = append(times, r.ElectionMS)
			}
		}
		if len(times) != 2 || times[0] == times[1] {
			continue
		}
		a, b := times[0], times[1]
		row := strings.Split(lines[k+1], ",")
		mean, _ := strconv.ParseFloat(row[8], 64)
		half, _ := strconv.ParseFloat(row[9], 64)
		if math.Abs(mean-(a+b)/2) > 1e-5*math.Abs(mean) || math.Abs(half-12.7062*math.Abs(a-b)/2) > 1e-4*half {
			t.Errorf("row %d: %g ± %g, want %g ± %g from runs %g and %g", k+1, mean, half, (a+b)/2, 12.7062*math.Abs(a-b)/2, a, b)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no point whose two seeds took different times: nothing checked by hand")
	}
}
