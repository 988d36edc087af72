// Package study runs studies that check published claims: one YAML file
// names the sweeps of simulated runs an experiment needs (bench's
// experiments, algorithms, topologies, sizes, mobility, seeds) and the
// claims the literature makes about their measures, each with its source.
// Running it runs the sweeps (resuming where an interrupted study
// stopped, or one shard of it), checks every claim against the runs' 95%
// confidence intervals, and writes a report in Markdown and HTML that says
// each claim's verdict (holds, fails, undecided) with the figures, tables
// and commands that bear on it.
//
// A study file (studies/*.yaml):
//
//	name: vkt-paper
//	title: Leader availability of VKT under movement
//	about: what the study asks, in a paragraph (Markdown)
//	sweeps:
//	  - name: availability
//	    experiments: [mobile]
//	    algorithms: [vkt, "vkt:medium=broadcast"]
//	    topologies: ["geometric:{n}:250:1000x1000@50"]
//	    speeds: [1, 5, 10, 20]
//	    seeds: 10
//	    small: {speeds: [5], seeds: 3, duration: 120s}  # the form CI runs (--small)
//	claims:
//	  - id: availability
//	    says: each node has a leader approximately 97-99% of the time
//	    source: {document: "Vasudevan, Kurose, Towsley, ICNP 2004", where: abstract, page: 1}
//	    measure: leader-time
//	    where: {sweep: availability, algorithm: vkt}
//	    at-least: 97
//
// See docs/studies.md for every field.
//
// A driver above bench: it must not import cli (docs/architecture.md).
package study

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/bench"
	"github.com/electgo/elect/mobility"
	"github.com/electgo/elect/sim"
)

// Study is a study file, read and checked.
type Study struct {
	// File is where the study was read from, as given.
	File  string
	Name  string
	Title string
	// About says what the study asks and how, in Markdown.
	About  string
	Sweeps []*Sweep
	Claims []*Claim
}

// Sweep is one named sweep of a study, in its full form and its small one.
type Sweep struct {
	Name  string
	About string
	// Full is the sweep as the study states it; Small the same with the
	// small form's fields over it (the form CI runs, --small).
	Full, Small *bench.Sweep
	// Heatmaps are measures drawn over two of the sweep's parameters.
	Heatmaps []Heatmap
}

// Form is the full or the small form of the sweep.
func (s *Sweep) Form(small bool) *bench.Sweep {
	if small {
		return s.Small
	}
	return s.Full
}

// Heatmap asks for a measure drawn over the sweep's sizes (rows) and speeds
// (columns), one map per algorithm and experiment, with the boundary where
// the measure crosses Boundary (NaN: none) drawn.
type Heatmap struct {
	Measure  string
	Boundary float64
}

// The file's own shape. Every field is checked (unknown ones are refused),
// and a sweep's small form holds the same fields as the sweep.
type fileStudy struct {
	Name   string      `yaml:"name"`
	Title  string      `yaml:"title"`
	About  string      `yaml:"about"`
	Sweeps []fileSweep `yaml:"sweeps"`
	Claims []fileClaim `yaml:"claims"`
}

type fileForm struct {
	Experiments  []string          `yaml:"experiments"`
	Algorithms   []string          `yaml:"algorithms"`
	Topologies   []string          `yaml:"topologies"`
	Mobility     []string          `yaml:"mobility"`
	Speeds       []float64         `yaml:"speeds"`
	Seeds        int               `yaml:"seeds"`
	Delay        string            `yaml:"delay"`
	Values       string            `yaml:"values"`
	Params       map[string]string `yaml:"params"`
	Duration     string            `yaml:"duration"`
	Density      float64           `yaml:"density"`
	OutsideModel *bool             `yaml:"outside-model"`
}

type fileSweep struct {
	Name     string `yaml:"name"`
	About    string `yaml:"about"`
	fileForm `yaml:",inline"`
	Small    *fileForm     `yaml:"small"`
	Heatmaps []fileHeatmap `yaml:"heatmaps"`
}

type fileHeatmap struct {
	Measure  string   `yaml:"measure"`
	Boundary *float64 `yaml:"boundary"`
}

// Where a sweep's form leaves a field out, these are the values, bench's
// own defaults.
const (
	defaultSeeds  = 3
	defaultDelay  = "uniform:1ms:5ms"
	defaultValues = "random"
)

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Load reads and checks the study file at path.
func Load(path string) (*Study, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse reads and checks a study file's text; file names it in errors.
// An error names the file, and the sweep or claim and the field at fault.
func Parse(data []byte, file string) (*Study, error) {
	var f fileStudy
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty: a study needs a name, sweeps and claims", file)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	st, err := f.study(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return st, nil
}

func (f *fileStudy) study(file string) (*Study, error) {
	if !namePattern.MatchString(f.Name) {
		return nil, fmt.Errorf("name %q: want lower-case letters, digits and dashes (it names the report)", f.Name)
	}
	st := &Study{File: file, Name: f.Name, Title: strings.TrimSpace(f.Title), About: strings.TrimSpace(f.About)}
	if st.Title == "" {
		st.Title = f.Name
	}
	if len(f.Sweeps) == 0 {
		return nil, errors.New("sweeps: a study needs at least one sweep")
	}
	seen := map[string]bool{}
	for i := range f.Sweeps {
		fs := &f.Sweeps[i]
		where := fmt.Sprintf("sweeps[%d]", i)
		if !namePattern.MatchString(fs.Name) {
			return nil, fmt.Errorf("%s: name %q: want lower-case letters, digits and dashes (it names a directory)", where, fs.Name)
		}
		where = fmt.Sprintf("sweep %s", fs.Name)
		if seen[fs.Name] {
			return nil, fmt.Errorf("%s: a second sweep of that name", where)
		}
		seen[fs.Name] = true
		sw := &Sweep{Name: fs.Name, About: strings.TrimSpace(fs.About)}
		fs.fileForm.besideFile(file)
		if fs.Small != nil {
			fs.Small.besideFile(file)
		}
		var err error
		if sw.Full, err = fs.fileForm.sweep(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		small := fs.fileForm
		if fs.Small != nil {
			small = small.over(fs.Small)
		}
		if sw.Small, err = small.sweep(); err != nil {
			return nil, fmt.Errorf("%s: small: %w", where, err)
		}
		for j, h := range fs.Heatmaps {
			if _, err := bench.MeasureOf(h.Measure); err != nil {
				return nil, fmt.Errorf("%s: heatmaps[%d]: %w", where, j, err)
			}
			hm := Heatmap{Measure: h.Measure, Boundary: math.NaN()}
			if h.Boundary != nil {
				hm.Boundary = *h.Boundary
			}
			sw.Heatmaps = append(sw.Heatmaps, hm)
		}
		st.Sweeps = append(st.Sweeps, sw)
	}
	if len(f.Claims) == 0 {
		return nil, errors.New("claims: a study needs at least one claim (what the literature says about its runs)")
	}
	ids := map[string]bool{}
	for i := range f.Claims {
		c, err := f.Claims[i].claim(st)
		if err != nil {
			id := f.Claims[i].ID
			if id == "" {
				id = fmt.Sprintf("claims[%d]", i)
			} else {
				id = "claim " + id
			}
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		if ids[c.ID] {
			return nil, fmt.Errorf("claim %s: a second claim of that id", c.ID)
		}
		ids[c.ID] = true
		st.Claims = append(st.Claims, c)
	}
	return st, nil
}

// besideFile makes the files a form names (file:PATH topologies, ns2:PATH
// mobility) relative to the study file's directory, as a reader of the
// file expects, wherever elect runs from.
func (f *fileForm) besideFile(study string) {
	dir := filepath.Dir(study)
	fix := func(spec, prefix string) string {
		if path, ok := strings.CutPrefix(spec, prefix); ok && path != "" && !filepath.IsAbs(path) {
			return prefix + filepath.Join(dir, path)
		}
		return spec
	}
	for i, t := range f.Topologies {
		f.Topologies[i] = fix(t, "file:")
	}
	for i, m := range f.Mobility {
		f.Mobility[i] = fix(m, "ns2:")
	}
}

// over is f with the fields that small gives replacing f's.
func (f fileForm) over(small *fileForm) fileForm {
	if small.Experiments != nil {
		f.Experiments = small.Experiments
	}
	if small.Algorithms != nil {
		f.Algorithms = small.Algorithms
	}
	if small.Topologies != nil {
		f.Topologies = small.Topologies
	}
	if small.Mobility != nil {
		f.Mobility = small.Mobility
	}
	if small.Speeds != nil {
		f.Speeds = small.Speeds
	}
	if small.Seeds != 0 {
		f.Seeds = small.Seeds
	}
	if small.Delay != "" {
		f.Delay = small.Delay
	}
	if small.Values != "" {
		f.Values = small.Values
	}
	if small.Params != nil {
		p := map[string]string{}
		for k, v := range f.Params {
			p[k] = v
		}
		for k, v := range small.Params {
			p[k] = v
		}
		f.Params = p
	}
	if small.Duration != "" {
		f.Duration = small.Duration
	}
	if small.OutsideModel != nil {
		f.OutsideModel = small.OutsideModel
	}
	if small.Density != 0 {
		f.Density = small.Density
	}
	return f
}

// sweep checks the form as bench's flags are checked, and builds the
// sweep; its runs are listed once, so that a sweep that lists none (every
// experiment outside its algorithms' models) is refused here.
func (f fileForm) sweep() (*bench.Sweep, error) {
	sw := &bench.Sweep{Params: map[string]string{}, Experiments: f.Experiments, Algorithms: f.Algorithms}
	if f.OutsideModel != nil {
		sw.OutsideModel = *f.OutsideModel
	}
	if len(sw.Experiments) == 0 {
		return nil, errors.New("experiments: name at least one (start, crash, mobile, ...)")
	}
	// A value given twice would run the same seeds twice, and a point
	// pooling them would claim twice the runs it has.
	for _, l := range []struct {
		name string
		vs   []string
	}{{"experiments", f.Experiments}, {"algorithms", f.Algorithms}, {"topologies", f.Topologies}, {"mobility", f.Mobility}} {
		if d := repeated(l.vs); d != "" {
			return nil, fmt.Errorf("%s: %s is given twice", l.name, d)
		}
	}
	var speeds []string
	for _, v := range f.Speeds {
		speeds = append(speeds, ftoa(v))
	}
	if d := repeated(speeds); d != "" {
		return nil, fmt.Errorf("speeds: %s is given twice", d)
	}
	if len(sw.Algorithms) == 0 {
		return nil, errors.New("algorithms: name at least one (a variant is NAME:PARAM=VALUE)")
	}
	for _, a := range sw.Algorithms {
		if _, _, err := bench.Variant(a); err != nil {
			return nil, fmt.Errorf("algorithms: %w", err)
		}
	}
	if len(f.Topologies) == 0 {
		return nil, errors.New("topologies: name at least one, with its sizes after @ (geometric:{n}:d10@16..256*2)")
	}
	for _, t := range f.Topologies {
		tp, err := bench.ParseTopology(t, nil)
		if err != nil {
			return nil, fmt.Errorf("topologies: %w", err)
		}
		var sizes []string
		for _, n := range tp.Sizes {
			sizes = append(sizes, strconv.Itoa(n))
		}
		if d := repeated(sizes); d != "" {
			return nil, fmt.Errorf("topologies: %q gives size %s twice", t, d)
		}
		if i := slices.IndexFunc(sw.Topologies, func(o bench.Topology) bool { return o.Template == tp.Template }); i >= 0 {
			return nil, fmt.Errorf("topologies: %s is given twice (give its sizes together after one @)", tp.Template)
		}
		sw.Topologies = append(sw.Topologies, tp)
	}
	seeds := f.Seeds
	if seeds == 0 {
		seeds = defaultSeeds
	}
	if seeds < 1 || seeds > bench.MaxRuns {
		return nil, fmt.Errorf("seeds: %d, want 1 to %d", seeds, bench.MaxRuns)
	}
	for s := 1; s <= seeds; s++ {
		sw.Seeds = append(sw.Seeds, uint64(s))
	}
	delay := f.Delay
	if delay == "" {
		delay = defaultDelay
	}
	var err error
	if sw.Delay, err = sim.ParseDelay(delay); err != nil {
		return nil, fmt.Errorf("delay: %w", err)
	}
	values := f.Values
	if values == "" {
		values = defaultValues
	}
	mode, err := sim.ParseValueMode(values)
	if err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	sw.Values = sim.Values{Mode: mode}
	for k, v := range f.Params {
		if err := sw.CheckParam(k, v); err != nil {
			return nil, fmt.Errorf("params: %s: %w", k, err)
		}
		sw.Params[k] = v
	}
	for _, v := range f.Speeds {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("speeds: %v is not a speed in m/s", v)
		}
	}
	sw.Speeds = f.Speeds
	for _, m := range f.Mobility {
		if _, err := mobility.Parse(bench.MobilityAt(m, 1)); err != nil {
			return nil, fmt.Errorf("mobility %q: %w", m, err)
		}
	}
	sw.Mobility = f.Mobility
	if f.Duration != "" {
		if sw.Duration, err = algo.ParseDuration(f.Duration); err != nil {
			return nil, fmt.Errorf("duration: %w", err)
		}
		if sw.Duration <= 0 {
			return nil, fmt.Errorf("duration: %s, want a positive length of virtual time", f.Duration)
		}
	}
	if f.Density < 0 || math.IsNaN(f.Density) || math.IsInf(f.Density, 0) {
		return nil, fmt.Errorf("density: %v is not a number of nodes a square kilometre", f.Density)
	}
	sw.Density = f.Density
	runs, err := sw.Runs()
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no run: every experiment is outside its algorithms' models (%s); set outside-model: true to run them anyway", strings.Join(sw.Skipped, "; "))
	}
	return sw, nil
}

// repeated is the first value found twice in vs, "" when none is.
func repeated(vs []string) string {
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v] {
			return v
		}
		seen[v] = true
	}
	return ""
}

// durationText writes d as a study file would (90s, 2m0s).
func durationText(d time.Duration) string {
	if d == 0 {
		return "the experiment's own"
	}
	return d.String()
}

// ftoa writes a number as short as it reads.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// dirOf is the directory of a sweep's files in a study's output.
func dirOf(out string, sw *Sweep) string { return filepath.Join(out, sw.Name) }
