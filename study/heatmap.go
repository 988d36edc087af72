package study

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/electgo/elect/bench"
)

// heatmaps draws h's measure over the sweep's sizes (rows) and speeds
// (columns), one map for each experiment, algorithm, topology and mobility
// of the sweep, named heatmap-EXPERIMENT-MEASURE-ALGORITHM[-TOPOLOGY]. It
// returns the figures written, and why maps were not drawn.
func heatmaps(d *sweepData, h Heatmap, dir string, st bench.Style) ([]figure, []string, error) {
	m, err := bench.MeasureOf(h.Measure)
	if err != nil {
		return nil, nil, err
	}
	type group struct {
		exp, alg, tmpl, motion string
		points                 []*bench.Point
	}
	var groups []*group
	for i := range d.points {
		p := &d.points[i]
		j := slices.IndexFunc(groups, func(g *group) bool {
			return g.exp == p.Experiment && g.alg == p.Algorithm && g.tmpl == p.Template && g.motion == p.Motion
		})
		if j < 0 {
			groups = append(groups, &group{exp: p.Experiment, alg: p.Algorithm, tmpl: p.Template, motion: p.Motion})
			j = len(groups) - 1
		}
		groups[j].points = append(groups[j].points, p)
	}
	templates, motions := map[string]bool{}, map[string]bool{}
	for _, g := range groups {
		templates[g.tmpl] = true
		motions[g.motion] = true
	}
	var files []figure
	var notes []string
	for _, g := range groups {
		var sizes []int
		var speeds []float64
		for _, p := range g.points {
			if !slices.Contains(sizes, p.Size) {
				sizes = append(sizes, p.Size)
			}
			if !slices.Contains(speeds, p.Speed) {
				speeds = append(speeds, p.Speed)
			}
		}
		name := "heatmap-" + g.exp + "-" + h.Measure + "-" + fileSafe(g.alg)
		if len(templates) > 1 {
			name += "-" + fileSafe(g.tmpl)
		}
		if len(motions) > 1 {
			name += "-" + fileSafe(g.motion)
		}
		if len(sizes) < 2 || len(speeds) < 2 {
			notes = append(notes, fmt.Sprintf("%s: a heat map needs two sizes and two speeds at least (the sweep has %d and %d)", name, len(sizes), len(speeds)))
			continue
		}
		slices.Sort(sizes)
		slices.Sort(speeds)
		hm := bench.HeatMap{
			Title:    fmt.Sprintf("%s: %s, %s", h.Measure, g.alg, g.exp),
			XLabel:   "node speed (m/s)",
			YLabel:   "size ({n} of " + g.tmpl + ")",
			ZLabel:   m.Axis,
			Boundary: h.Boundary,
		}
		if r := g.points[0].Results; len(r) > 0 && r[0].Nodes == r[0].Size {
			hm.YLabel = "nodes"
		}
		if strings.Contains(m.Axis, "(% of") {
			// A share: the whole scale, so that 99.85% and 99.9% look
			// alike, as they are.
			hm.ZLow, hm.ZHigh = 0, 100
		}
		for _, v := range speeds {
			hm.X = append(hm.X, v)
		}
		for _, n := range sizes {
			hm.Y = append(hm.Y, float64(n))
			row := make([]float64, len(speeds))
			for c, v := range speeds {
				row[c] = math.NaN()
				for _, p := range g.points {
					if p.Size == n && p.Speed == v {
						if iv := m.Interval(*p); iv.N > 0 {
							row[c] = iv.Mean
						}
					}
				}
			}
			hm.Z = append(hm.Z, row)
		}
		if !math.IsNaN(h.Boundary) {
			hm.BoundaryLabel = strconv.FormatFloat(h.Boundary, 'g', -1, 64)
			if hm.ZHigh == 100 {
				hm.BoundaryLabel += "%"
			}
		}
		written, err := hm.Save(dir, name, st)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		for _, f := range written {
			files = append(files, figure{filepath.Join(d.sw.Name, filepath.Base(f)), g.alg})
		}
	}
	return files, notes, nil
}

// fileSafe makes a name fit a file name: vkt:medium=broadcast becomes
// vkt_medium-broadcast.
func fileSafe(s string) string {
	return strings.NewReplacer(":", "_", "=", "-", "/", "_", "{", "", "}", "", " ", "_", ".", "_").Replace(s)
}
