package bench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

var heatNaN = math.NaN()

// leaderTime is a heat map of time with a leader over speeds and sizes,
// some cells without a run, with a 90% boundary crossing it.
func leaderTime() HeatMap {
	return HeatMap{
		Title:  "time with a leader, vkt",
		XLabel: "node speed (m/s)", YLabel: "nodes",
		ZLabel: "time with a leader (% of node-time)",
		X:      []float64{0, 1, 2, 5, 10, 20},
		Y:      []float64{10, 20, 50, 100, 200},
		Z: [][]float64{
			{99.8, 99.1, 97.5, 93.2, 88.7, 80.1},
			{99.5, 98.2, 95.9, 89.96, 84.0, 71.3},
			{99.1, 96.0, 91.4, 85.5, 76.2, heatNaN},
			{98.0, 93.1, 87.0, 78.8, heatNaN, heatNaN},
			{96.5, 90.2, 81.1, 70.0, 58.3, heatNaN},
		},
		Boundary: 90, BoundaryLabel: "ninety-percent",
	}
}

// saveHeatMap saves h in every format at a paper column's size, failing
// the test on an error or a panic.
func saveHeatMap(t *testing.T, h HeatMap, dir string, st Style) []string {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Save panicked: %v", r)
		}
	}()
	paths, err := h.Save(dir, "map", st)
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

var everyFormat = Style{Formats: []string{"png", "svg", "pdf"}, Width: 3.5 * vg.Inch, Height: 2.5 * vg.Inch}

// A heat map comes in every format asked for, at every size, and the same
// heat map gives the same files byte for byte.
func TestHeatMapSave(t *testing.T) {
	magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}
	for _, c := range []struct {
		name  string
		style Style
		want  []string
	}{
		{"every format, a paper column", everyFormat, []string{"map.png", "map.svg", "map.pdf"}},
		{"the default style", Style{}, []string{"map.png"}},
		{"svg alone, large", Style{Formats: []string{"svg"}, Width: 10 * vg.Inch, Height: 8 * vg.Inch}, []string{"map.svg"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var dirs []string
			for range 2 {
				dir := t.TempDir()
				paths := saveHeatMap(t, leaderTime(), dir, c.style)
				var names []string
				for _, p := range paths {
					if filepath.Dir(p) != dir {
						t.Errorf("%s: not in %s", p, dir)
					}
					names = append(names, filepath.Base(p))
				}
				if !slices.Equal(names, c.want) {
					t.Fatalf("wrote %v, want %v", names, c.want)
				}
				dirs = append(dirs, dir)
			}
			for _, name := range c.want {
				a, errA := os.ReadFile(filepath.Join(dirs[0], name))
				b, errB := os.ReadFile(filepath.Join(dirs[1], name))
				if errA != nil || errB != nil {
					t.Fatal(errA, errB)
				}
				if m := magic[strings.TrimPrefix(filepath.Ext(name), ".")]; !bytes.HasPrefix(a, []byte(m)) {
					t.Errorf("%s does not begin %q: %q", name, m, a[:min(len(a), 16)])
				}
				if !bytes.Equal(a, b) {
					t.Errorf("the same heat map gave two different %s files", name)
				}
				if today := "D:" + time.Now().UTC().Format("20060102"); strings.HasSuffix(name, ".pdf") && bytes.Contains(a, []byte(today)) {
					t.Errorf("the PDF carries today's date (%s): the same heat map made later would give another file", today)
				}
			}
		})
	}
}

// Two different heat maps give different files: the comparison above can
// fail.
func TestHeatMapDiffers(t *testing.T) {
	other := leaderTime()
	other.Z[0][0] = 50
	a := saveHeatMap(t, leaderTime(), t.TempDir(), everyFormat)
	b := saveHeatMap(t, other, t.TempDir(), everyFormat)
	for i := range a {
		x, _ := os.ReadFile(a[i])
		y, _ := os.ReadFile(b[i])
		if bytes.Equal(x, y) {
			t.Errorf("%s: two different heat maps gave the same file", filepath.Base(a[i]))
		}
	}
}

// A heat map that is not well formed is an error that says what is wrong,
// and no file is written.
func TestHeatMapErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(h *HeatMap)
		style Style
		file  string
		want  string
	}{
		{name: "no columns", edit: func(h *HeatMap) { h.X = nil }, want: "no columns (X is empty)"},
		{name: "no rows", edit: func(h *HeatMap) { h.Y, h.Z = nil, nil }, want: "no rows (Y is empty)"},
		{name: "a row too few", edit: func(h *HeatMap) { h.Z = h.Z[:4] }, want: "Z has 4 rows, Y 5 values"},
		{name: "a row too many", edit: func(h *HeatMap) { h.Z = append(h.Z, h.Z[0]) }, want: "Z has 6 rows, Y 5 values"},
		{name: "a short row", edit: func(h *HeatMap) { h.Z[2] = h.Z[2][:5] }, want: "row 2 of Z (Y = 50) has 5 values, X 6"},
		{name: "a long row", edit: func(h *HeatMap) { h.Z[0] = append(h.Z[0], 1) }, want: "row 0 of Z (Y = 10) has 7 values, X 6"},
		{name: "every cell NaN", edit: func(h *HeatMap) {
			for _, row := range h.Z {
				for i := range row {
					row[i] = heatNaN
				}
			}
		}, want: "every cell is NaN (no run anywhere): nothing to draw"},
		{name: "an infinite value", edit: func(h *HeatMap) { h.Z[1][3] = math.Inf(1) }, want: "Z[1][3] (X = 5, Y = 20) is +Inf"},
		{name: "X not ascending", edit: func(h *HeatMap) { h.X[2] = 1 }, want: "X is not strictly ascending: X[2] = 1 after 1"},
		{name: "Y descending", edit: func(h *HeatMap) { slices.Reverse(h.Y) }, want: "Y is not strictly ascending"},
		{name: "a NaN swept", edit: func(h *HeatMap) { h.Y[0] = heatNaN }, want: "Y[0] is NaN"},
		{name: "an unknown format", style: Style{Formats: []string{"png", "jpg"}}, want: `invalid plot format "jpg" (want png, svg or pdf)`},
		{name: "no file name", file: "-", want: "heat map: no file name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := leaderTime()
			if c.edit != nil {
				c.edit(&h)
			}
			dir := t.TempDir()
			name := "map"
			if c.file == "-" {
				name = ""
			}
			paths, err := h.Save(dir, name, c.style)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(paths) > 0 || len(entries) > 0 {
				t.Errorf("wrote %v (%d files) for a heat map that is not well formed", paths, len(entries))
			}
		})
	}
}

// What the figure shows, read in its SVG: the boundary, drawn (black on a
// white casing, the SVG's only white strokes: one an edge and one in the
// key) and named where cells are on either side of it, and only there; the
// hatching and the key for cells with no run; the values; the scale.
func TestHeatMapDrawn(t *testing.T) {
	oneCell := func(h *HeatMap) {
		for r, row := range h.Z {
			for c := range row {
				if r != 2 || c != 3 {
					row[c] = heatNaN
				}
			}
		}
	}
	for _, c := range []struct {
		name      string
		edit      func(h *HeatMap)
		want, not []string
		casings   int  // the boundary's edges, and its line in the key
		hatched   bool // cells with no run
	}{
		{
			name: "a boundary across the map, cells with no run",
			want: []string{"ninety-percent line", "no run", ">89.96<", ">96.5<", ">58.3<", "time with a leader (% of node-time)",
				"node speed (m/s)", ">nodes<", ">200<", ">20<", ">80<"},
			not:     []string{">90.0<"}, // 89.96 is below the line, so not written 90.0
			casings: 5 + 2 + 1,          // five edges between columns, two between rows
			hatched: true,
		},
		{
			name:    "every cell above the boundary",
			edit:    func(h *HeatMap) { h.Boundary = 50 },
			want:    []string{"no run"},
			not:     []string{"ninety-percent"},
			hatched: true,
		},
		{
			name:    "every cell below the boundary",
			edit:    func(h *HeatMap) { h.Boundary = 100 },
			not:     []string{"ninety-percent"},
			hatched: true,
		},
		{
			name:    "no boundary (NaN)",
			edit:    func(h *HeatMap) { h.Boundary = heatNaN },
			not:     []string{"ninety-percent"},
			hatched: true,
		},
		{
			name:    "the boundary unnamed is named by its value",
			edit:    func(h *HeatMap) { h.BoundaryLabel = "" },
			want:    []string{">90 line: "},
			casings: 8,
			hatched: true,
		},
		{
			name: "a run in every cell: no key for cells with none",
			edit: func(h *HeatMap) {
				for _, row := range h.Z {
					for c := range row {
						if math.IsNaN(row[c]) {
							row[c] = 50
						}
					}
				}
			},
			want:    []string{"ninety-percent"},
			not:     []string{"no run"},
			casings: 8,
		},
		{
			name:    "one cell with a run among NaN: one value, no boundary",
			edit:    oneCell,
			want:    []string{">85.5<", "no run"},
			not:     []string{"ninety-percent"},
			hatched: true,
		},
		{
			name: "a single cell",
			edit: func(h *HeatMap) { h.X, h.Y, h.Z = []float64{3}, []float64{7}, [][]float64{{42}} },
			want: []string{">42<", ">3<", ">7<"},
			not:  []string{"no run", "ninety-percent"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := leaderTime()
			if c.edit != nil {
				c.edit(&h)
			}
			paths := saveHeatMap(t, h, t.TempDir(), everyFormat)
			svg, err := os.ReadFile(paths[1])
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !bytes.Contains(svg, []byte(w)) {
					t.Errorf("the SVG has no %q", w)
				}
			}
			for _, n := range c.not {
				if bytes.Contains(svg, []byte(n)) {
					t.Errorf("the SVG has %q", n)
				}
			}
			if n := bytes.Count(svg, []byte("stroke:#FFFFFF")); n != c.casings {
				t.Errorf("the SVG has %d white strokes (the boundary's casing), want %d", n, c.casings)
			}
			// Grey strokes hatch the cells with no run, several each, and
			// the key's cell.
			var noRun int
			for _, row := range h.Z {
				for _, v := range row {
					if math.IsNaN(v) {
						noRun++
					}
				}
			}
			n := bytes.Count(svg, []byte("stroke:#909090"))
			if c.hatched && n < 5*noRun || !c.hatched && n != 0 {
				t.Errorf("the SVG has %d grey strokes for %d cells with no run (hatched: want %v)", n, noRun, c.hatched)
			}
		})
	}
}

// The boundary runs along the edges between cells on either side of it,
// and not beside a cell with no run.
func TestHeatMapBoundaryEdges(t *testing.T) {
	for _, c := range []struct {
		name     string
		z        [][]float64
		boundary float64
		want     []edge
	}{
		{"none", [][]float64{{1, 2}, {3, 4}}, heatNaN, nil},
		{"all above", [][]float64{{1, 2}, {3, 4}}, 1, nil},
		{"all below", [][]float64{{1, 2}, {3, 4}}, 5, nil},
		{"a column", [][]float64{{1, 9}, {1, 9}}, 5, []edge{{0.5, -0.5, 0.5, 0.5, true, false}, {0.5, 0.5, 0.5, 1.5, false, true}}},
		{"a row, at the boundary exactly", [][]float64{{1, 1}, {5, 5}}, 5, []edge{{-0.5, 0.5, 0.5, 0.5, true, false}, {0.5, 0.5, 1.5, 0.5, false, true}}},
		{"a corner", [][]float64{{1, 1}, {1, 9}}, 5, []edge{{0.5, 0.5, 1.5, 0.5, false, true}, {0.5, 0.5, 0.5, 1.5, false, true}}},
		{"beside no run", [][]float64{{1, heatNaN}, {heatNaN, 9}}, 5, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := HeatMap{X: []float64{1, 2}, Y: []float64{1, 2}, Z: c.z, Boundary: c.boundary}
			if got := h.boundaryEdges(); !slices.Equal(got, c.want) {
				t.Errorf("edges %v, want %v", got, c.want)
			}
		})
	}
}

// Values are written to the digits their range needs, and never rounded
// across the boundary.
func TestHeatMapValueFormat(t *testing.T) {
	for _, c := range []struct {
		name     string
		z        []float64
		boundary float64
		in       map[float64]string
	}{
		{"whole numbers", []float64{3, 40, 1200}, heatNaN, map[float64]string{3: "3", 1200: "1200"}},
		{"percentages", []float64{58.26, 99.8}, heatNaN, map[float64]string{58.26: "58.3", 99.8: "99.8"}},
		{"to a hundred", []float64{58.26, 100}, heatNaN, map[float64]string{58.26: "58", 100: "100"}},
		{"near the boundary", []float64{89.96, 90.04, 100, 70.4}, 90, map[float64]string{89.96: "89.96", 90.04: "90", 70.4: "70"}},
		{"a little", []float64{0.0426, 0.5}, heatNaN, map[float64]string{0.0426: "0.043", 0.5: "0.500"}},
		{"very little", []float64{0.00012, 0.0002}, heatNaN, map[float64]string{0.00012: "0.00012"}},
		{"negative", []float64{-12.5, 3}, heatNaN, map[float64]string{-12.5: "-12.5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := HeatMap{Z: [][]float64{append(c.z, heatNaN)}, Boundary: c.boundary}
			f := h.valueFormat()
			for v, want := range c.in {
				if got := f(v); got != want {
					t.Errorf("%g written %q, want %q", v, got, want)
				}
			}
		})
	}
}

// The scale runs from viridis's purple to its yellow, each of its colours
// lighter than the last, and the values are written in black or white,
// whichever reads on the cell.
func TestViridis(t *testing.T) {
	if got := viridis(0); got != viridisAnchors[0] {
		t.Errorf("viridis(0) = %v", got)
	}
	if got := viridis(1); got != viridisAnchors[len(viridisAnchors)-1] {
		t.Errorf("viridis(1) = %v", got)
	}
	if viridis(-1) != viridis(0) || viridis(2) != viridis(1) || viridis(heatNaN) != viridis(0) {
		t.Error("viridis is not clamped to 0..1")
	}
	last := -1.0
	for i := range 101 {
		l := luminance(viridis(float64(i) / 100))
		if l <= last {
			t.Errorf("viridis(%.2f) is no lighter than the colour before it (%.4f <= %.4f): not a sequential scale", float64(i)/100, l, last)
		}
		last = l
	}
	for _, c := range []struct {
		at    float64
		black bool
	}{{0, false}, {0.2, false}, {0.7, true}, {1, true}} {
		r, _, _, _ := textOn(viridis(c.at)).RGBA()
		if (r == 0) != c.black {
			t.Errorf("text on viridis(%g): black %v, want %v", c.at, r == 0, c.black)
		}
	}
}

// The colour bar is marked at round values within the scale, every mark
// labelled.
func TestScaleTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{58.3, 99.8, []string{"60", "70", "80", "90"}},
		{0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{41, 43, []string{"41.0", "41.5", "42.0", "42.5", "43.0"}},
		{-3, 2, []string{"-3", "-2", "-1", "0", "1", "2"}},
	} {
		var got []string
		for _, tk := range scaleTicks(c.lo, c.hi) {
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("%g..%g: a tick at %g, outside", c.lo, c.hi, tk.Value)
			}
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%g..%g: ticks %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// A fixed scale spans its ends, not the values: a map of shares close to
// 100% keeps a bar from 0 to 100 (its ticks say so), where one that
// spans its values would stretch 99.85 to 99.9 over every colour.
func TestHeatMapFixedScale(t *testing.T) {
	dir := t.TempDir()
	h := HeatMap{Title: "shares", XLabel: "speed (m/s)", YLabel: "nodes", ZLabel: "time with a leader (%)",
		X: []float64{1, 2}, Y: []float64{50}, Z: [][]float64{{99.85, 99.9}}, Boundary: math.NaN()}
	ticks := func(h HeatMap, name string) string {
		files, err := h.Save(dir, name, Style{Formats: []string{"svg"}, Width: DefaultStyle.Width, Height: DefaultStyle.Height})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	auto := ticks(h, "auto")
	h.ZLow, h.ZHigh = 0, 100
	fixed := ticks(h, "fixed")
	if !strings.Contains(fixed, ">100<") || !strings.Contains(fixed, ">0<") {
		t.Error("the fixed scale's bar has no ticks at 0 and 100")
	}
	if strings.Contains(auto, ">100<") {
		t.Error("the scale that spans the values reaches 100")
	}
}
