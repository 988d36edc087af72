package study

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	"github.com/electgo/elect/bench"
	"github.com/electgo/elect/sim"
)

// sweepData is what the report knows of one sweep: its results in Out,
// their points, and the figures made of them.
type sweepData struct {
	sw      *Sweep
	form    *bench.Sweep
	results []*bench.Result
	points  []bench.Point
	missing int
	figures []figure
	notes   []string // figures not drawn, and why
}

// figure is a figure file of a sweep: its path relative to Out, and the
// algorithm it draws alone ("" for a figure of every algorithm).
type figure struct {
	path, alg string
}

// report judges the claims on every result Out holds and writes the
// report, the sweeps' summaries and figures.
func (s *Study) report(res *Result, opt Options) error {
	var data []*sweepData
	points := map[string][]bench.Point{}
	for _, sw := range s.Sweeps {
		d := &sweepData{sw: sw, form: sw.Form(opt.Small)}
		path := resultsPath(opt.Out, sw, bench.Shard{K: 1, N: 1})
		rs, err := readIfThere(path)
		if err != nil {
			return err
		}
		all, err := d.form.Runs()
		if err != nil {
			return fmt.Errorf("sweep %s: %w", sw.Name, err)
		}
		// Only the rows of this form's runs count (Run never keeps others;
		// a file edited by hand might hold some).
		rs = slices.DeleteFunc(rs, func(r *bench.Result) bool {
			return !ofForm(r, all)
		})
		have := map[int]bool{}
		for _, r := range rs {
			have[r.Index] = true
		}
		for _, r := range all {
			if !have[r.Index] {
				d.missing++
			}
		}
		res.Missing += d.missing
		d.results = rs
		d.points = bench.Aggregate(rs)
		points[sw.Name] = d.points
		if err := d.draw(opt); err != nil {
			return err
		}
		for _, f := range d.figures {
			res.Files = append(res.Files, f.path)
		}
		data = append(data, d)
	}
	for _, d := range data {
		res.Outcomes = append(res.Outcomes, specOutcome(d))
	}
	for _, c := range s.Claims {
		o, err := Evaluate(c, points)
		if err != nil {
			return err
		}
		res.Outcomes = append(res.Outcomes, o)
	}
	md := s.markdown(res, data, opt)
	res.Report = filepath.Join(opt.Out, "report.md")
	if err := os.WriteFile(res.Report, md, 0o644); err != nil {
		return err
	}
	page, err := html(s.Title, md)
	if err != nil {
		return err
	}
	htmlPath := filepath.Join(opt.Out, "report.html")
	if err := os.WriteFile(htmlPath, page, 0o644); err != nil {
		return err
	}
	res.Files = append(res.Files, res.Report, htmlPath)
	return nil
}

// draw writes the sweep's summary and figures into its directory.
func (d *sweepData) draw(opt Options) error {
	dir := dirOf(opt.Out, d.sw)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := bench.WriteSummaryCSV(&buf, d.points); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	if len(d.points) == 0 {
		return nil
	}
	for _, part := range d.plotGroups() {
		sub := filepath.Join(dir, part.dir)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		plots, err := bench.PlotStyled(part.points, sub, opt.Style)
		if err != nil {
			return err
		}
		for _, f := range plots.Files {
			d.figures = append(d.figures, figure{filepath.Join(d.sw.Name, part.dir, filepath.Base(f)), part.alg})
		}
		d.notes = append(d.notes, plots.Skipped...)
	}
	for _, h := range d.sw.Heatmaps {
		figs, notes, err := heatmaps(d, h, dir, opt.Style)
		if err != nil {
			return err
		}
		d.figures = append(d.figures, figs...)
		d.notes = append(d.notes, notes...)
	}
	return nil
}

// plotGroup is the points of one set of figures, drawn in dir (under
// the sweep's directory).
type plotGroup struct {
	dir, alg string // alg: the algorithm of a set per algorithm
	points   []bench.Point
}

// maxLines is the most lines a figure of moving networks carries before
// the sweep's figures are drawn one set per algorithm: against speed,
// every algorithm and size is a line, and 36 lines read as none.
const maxLines = 8

// plotGroups are the sets of figures of the sweep: one, or, when moving
// networks of several algorithms and sizes would make more than maxLines
// lines, one per algorithm in by-algorithm/ALGORITHM.
func (d *sweepData) plotGroups() []plotGroup {
	var algs []string
	lines := map[string]bool{}
	for _, p := range d.points {
		if !slices.Contains(algs, p.Algorithm) {
			algs = append(algs, p.Algorithm)
		}
		if p.Motion != "" {
			lines[p.Algorithm+" "+p.Template+" "+strconv.Itoa(p.Size)] = true
		}
	}
	if len(lines) <= maxLines || len(algs) < 2 {
		return []plotGroup{{dir: ".", points: d.points}}
	}
	var out []plotGroup
	for _, a := range algs {
		g := plotGroup{dir: filepath.Join("by-algorithm", fileSafe(a)), alg: a}
		for _, p := range d.points {
			if p.Algorithm == a {
				g.points = append(g.points, p)
			}
		}
		out = append(out, g)
	}
	return out
}

// specOutcome is the specification's verdict on a sweep: it fails when
// the checker found a violation in any run (one is enough: the checker
// does not guess), and holds otherwise.
func specOutcome(d *sweepData) Outcome {
	c := &Claim{
		ID:       "spec-" + d.sw.Name,
		Says:     "Safety: any two nodes in state Norm agree on the leader. Liveness: after changes stop, every node reaches Norm with the most valued node of its connected component as leader.",
		Source:   Source{Document: "seed 004 (Park's election for mobile ad hoc systems)", Where: "its specification, which elect's checker implements"},
		Relation: "at-most",
	}
	c.Measure, _ = bench.MeasureOf("violations")
	c.Bounds = []Bound{{Text: "0"}}
	c.Where = Selection{Sweep: d.sw}
	o := Outcome{Claim: c}
	for i := range d.points {
		p := &d.points[i]
		ch := Check{Label: pointLabel(p), Interval: c.Measure.Interval(*p), Low: math.Inf(-1), High: 0, Sweep: d.sw.Name, Runs: runsOf(p)}
		ch.decideEach(c.Measure, p)
		// Liveness is judged where a component stood still long enough;
		// where it did not, the checker says so, and so does the report.
		var unjudged []int
		for _, r := range p.Results {
			if r.Unchecked > 0 {
				unjudged = append(unjudged, r.Index)
			}
		}
		if len(unjudged) > 0 && ch.Verdict == Holds {
			ch.Why = fmt.Sprintf("liveness not judged in runs %s: a component never stood still for its bound (safety was)", runList(unjudged))
		}
		o.Checks = append(o.Checks, ch)
		o.Verdict = max(o.Verdict, ch.Verdict)
	}
	if len(o.Checks) == 0 {
		o.Verdict = Undecided
		o.Why = "no run of the sweep completed"
	}
	return o
}

// markdown writes the report.
func (s *Study) markdown(res *Result, data []*sweepData, opt Options) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	form := formName(opt.Small)
	runs := 0
	for _, d := range data {
		runs += len(d.results)
	}
	p("# %s\n\n", s.Title)
	p("Study `%s` (`%s`), its %s form: %s in %s, checked by elect %s.\n\n", s.Name, s.File, form, count(runs, "run"), count(len(data), "sweep"), version())
	if s.About != "" {
		p("%s\n\n", s.About)
	}
	p("## Verdicts\n\n")
	p("The study's verdict: **%s**", res.Verdict())
	switch res.Verdict() {
	case Holds:
		p(": every claim holds (each point's 95%% interval lies on the claimed side).\n\n")
	case Fails:
		p(": at least one claim fails (some point's 95%% interval lies wholly on the other side).\n\n")
	default:
		p(": no claim fails, but some are undecided (an interval straddles the bound, or runs are missing); more seeds may decide them. It is not a pass.\n\n")
	}
	if res.Missing > 0 {
		p("**%d runs of the study are missing** from `%s` (a shard or a part was run): the verdicts rest on the others.\n\n", res.Missing, opt.Out)
	}
	if len(res.Failed) > 0 {
		p("**%d runs failed** and are not counted:\n\n", len(res.Failed))
		for _, f := range res.Failed {
			p("- %s\n", cell(f.Error()))
		}
		p("\n")
	}
	p("| claim | what it claims | checked as | source | verdict |\n|---|---|---|---|---|\n")
	for _, o := range res.Outcomes {
		p("| [%s](#%s) | %s | `%s` | %s | **%s** |\n", o.Claim.ID, anchor(o), cell(o.Claim.Says), cell(o.Claim.Statement()), cell(o.Claim.Source.String()), o.Verdict)
	}
	p("\n## Claims\n\n")
	for _, o := range res.Outcomes {
		writeOutcome(&b, o, data, s, opt)
	}
	p("## Sweeps\n\n")
	for _, d := range data {
		writeSweep(&b, d, s, opt)
	}
	p("## Rerunning it\n\n")
	p("Every run is deterministic: the same command gives the same runs, down to each run's trace hash (the `trace_hash` column of each sweep's `results.csv`).\n\n")
	p("- The whole study: `%s`\n", command(s, opt))
	p("- One line of a table: `elect study %s%s --sweep SWEEP --runs LIST --out ANOTHER-DIR`, SWEEP and LIST as in the line's `rerun` cell: those runs alone, into a directory of their own (in this one they are done, and kept), with the trace hashes of this study's `results.csv`.\n", s.File, smallFlag(opt.Small))
	p("- On a cluster: each task of an array runs `%s --shard K/N` (or takes its shard from Slurm's or Kubernetes' array variables), then `elect study merge %s%s --out %s` joins the shards and `%s` writes this report.\n", command(s, opt), s.File, smallFlag(opt.Small), opt.Out, command(s, opt))
	p("- A study cut short resumes: the runs `--out` already holds are not run again (`--fresh` runs them again).\n")
	return b.Bytes()
}

func writeOutcome(b *bytes.Buffer, o Outcome, data []*sweepData, s *Study, opt Options) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	c := o.Claim
	p("### %s: %s\n\n", c.ID, o.Verdict)
	p("> %s\n\n", strings.ReplaceAll(c.Says, "\n", "\n> "))
	p("Source: %s.\n\n", c.Source)
	p("Checked as `%s`, over %s, with each point's 95%% confidence interval (Student t over its seeds).\n\n", c.Statement(), c.Where.String())
	if c.Chosen != "" {
		p("Settings chosen by this study, not by the source: %s\n\n", c.Chosen)
	}
	if o.Why != "" {
		p("Undecided: %s.\n\n", o.Why)
	}
	if len(o.Checks) > 0 {
		col := c.Measure.Name
		switch c.Relation {
		case "below", "above":
			col += ", this point's less the other's"
		case "grows", "falls":
			col += ", the next point's less this one's"
		}
		p("| point | runs counted | %s | 95%% interval | claimed | verdict | by how much, or a note | seeds that would decide | rerun |\n|---|---|---|---|---|---|---|---|---|\n", col)
		for _, ch := range o.Checks {
			iv := ch.Interval
			p("| %s | %d | %s | %s | %s | **%s** | %s | %s | `--sweep %s --runs %s` |\n",
				cell(ch.Label), iv.N, num(iv.Mean), intervalText(iv), region(ch), ch.Verdict, cell(byText(ch)), cell(seedsText(ch)), ch.Sweep, runList(ch.Runs))
		}
		p("\n")
	}
	// The figures of the claim's measure, from the sweeps it reads.
	var figs []string
	for _, d := range data {
		if d.sw != c.Where.Sweep && (c.Than == nil || d.sw != c.Than.Sweep) {
			continue
		}
		for _, f := range d.figures {
			if !shown(f.path, opt.Style) || !figureOf(f.path, c.Measure.Name, d.form.Experiments, c.Where.Experiments) {
				continue
			}
			// A figure of one algorithm shows only where the claim reads
			// that algorithm.
			if f.alg != "" && len(c.Where.Algorithms) > 0 && !slices.Contains(c.Where.Algorithms, f.alg) {
				continue
			}
			figs = append(figs, f.path)
		}
	}
	for _, f := range figs {
		p("![%s](%s)\n\n", filepath.Base(f), filepath.ToSlash(f))
	}
}

// anchor is the id of a claim's heading, "ID: VERDICT", as goldmark and
// GitHub both make it: lower case, the colon dropped, the space a dash.
func anchor(o Outcome) string { return o.Claim.ID + "-" + o.Verdict.String() }

func writeSweep(b *bytes.Buffer, d *sweepData, s *Study, opt Options) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	f := d.form
	p("### Sweep %s\n\n", d.sw.Name)
	if d.sw.About != "" {
		p("%s\n\n", d.sw.About)
	}
	var tops []string
	for _, t := range f.Topologies {
		var sizes []string
		for _, n := range t.Sizes {
			sizes = append(sizes, strconv.Itoa(n))
		}
		tops = append(tops, fmt.Sprintf("`%s` at %s", t.Template, strings.Join(sizes, ", ")))
	}
	p("| field | value |\n|---|---|\n")
	p("| experiments | %s |\n", strings.Join(f.Experiments, ", "))
	p("| algorithms | %s |\n", cell(strings.Join(f.Algorithms, ", ")))
	p("| topologies | %s |\n", strings.Join(tops, "; "))
	if len(f.Speeds) > 0 {
		var speeds []string
		for _, v := range f.Speeds {
			speeds = append(speeds, ftoa(v))
		}
		mob := f.Mobility
		if len(mob) == 0 {
			mob = []string{bench.DefaultMobility}
		}
		p("| mobility | `%s` at %s m/s |\n", strings.Join(mob, "`, `"), strings.Join(speeds, ", "))
	}
	if f.Density > 0 {
		p("| density | %s nodes a square kilometre ({side}: the side in metres of a square holding the size's nodes) |\n", ftoa(f.Density))
	}
	p("| seeds | 1 to %d |\n", len(f.Seeds))
	p("| delay | %s |\n| values | %s |\n", f.Delay, valuesText(f))
	if len(f.Params) > 0 {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(f.Params)) {
			ps = append(ps, k+"="+f.Params[k])
		}
		p("| parameters | %s |\n", strings.Join(ps, ", "))
	}
	p("| length of a run | %s |\n", durationText(f.Duration))
	p("| runs | %d in `%s` (%d missing) |\n\n", len(d.results), filepath.ToSlash(filepath.Join(d.sw.Name, "results.csv")), d.missing)
	for _, note := range f.Skipped {
		p("Left out: %s.\n\n", note)
	}
	if len(d.points) > 0 {
		var t bytes.Buffer
		bench.WriteTable(&t, d.points)
		p("```\n%s```\n\n", t.String())
	}
	for _, fig := range d.figures {
		if shown(fig.path, opt.Style) {
			p("- [%s](%s)\n", filepath.Base(fig.path), filepath.ToSlash(fig.path))
		}
	}
	for _, n := range d.notes {
		p("- not drawn: %s\n", cell(n))
	}
	p("\n")
}

// figureOf says whether a figure file draws measure for one of the
// experiments (all of the sweep's, when the claim names none):
// EXPERIMENT-MEASURE, EXPERIMENT-MEASURE-moving, or a heat map,
// heatmap-EXPERIMENT-MEASURE-ALGORITHM.
func figureOf(path, measure string, sweep, claimed []string) bool {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	rest, heat := strings.CutPrefix(base, "heatmap-")
	exps := claimed
	if len(exps) == 0 {
		exps = sweep
	}
	for _, e := range exps {
		if !heat && (base == e+"-"+measure || base == e+"-"+measure+"-moving") {
			return true
		}
		if after, ok := strings.CutPrefix(rest, e+"-"); heat && ok && measureOf(after) == measure {
			return true
		}
	}
	return false
}

// measureOf is the measure a heat map's name (after its experiment) draws:
// the longest measure name it starts with, then a dash
// (messages-per-node-second-vkt is not of messages-per-node).
func measureOf(name string) string {
	best := ""
	for _, m := range bench.Measures() {
		if strings.HasPrefix(name, m+"-") && len(m) > len(best) {
			best = m
		}
	}
	return best
}

// shown says whether a figure file is the one of its figure the report
// shows: the first of the style's formats.
func shown(path string, st bench.Style) bool {
	if len(st.Formats) == 0 {
		return strings.HasSuffix(path, ".png")
	}
	return strings.HasSuffix(path, "."+st.Formats[0])
}

func valuesText(f *bench.Sweep) string {
	if f.Values.Mode == sim.ValueID {
		return "id"
	}
	return "random"
}

func command(s *Study, opt Options) string {
	return "elect study " + s.File + smallFlag(opt.Small) + " --out " + opt.Out
}

func smallFlag(small bool) string {
	if small {
		return " --small"
	}
	return ""
}

// num writes a measure: two decimals, none from 1,000 on, and in
// scientific notation past a trillion or under a hundredth.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 1e12 || a < 0.01:
		return strconv.FormatFloat(v, 'g', 4, 64)
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func intervalText(iv bench.Interval) string {
	if iv.N < 2 {
		return "none (one run)"
	}
	return fmt.Sprintf("%s to %s", num(iv.Mean-iv.Half), num(iv.Mean+iv.Half))
}

func region(ch Check) string {
	lo, hi := !math.IsInf(ch.Low, -1), !math.IsInf(ch.High, 1)
	gt, lt := "≥", "≤"
	if ch.Strict {
		gt, lt = ">", "<"
	}
	switch {
	case lo && hi:
		return fmt.Sprintf("%s to %s", num(ch.Low), num(ch.High))
	case lo:
		return gt + " " + num(ch.Low)
	default:
		return lt + " " + num(ch.High)
	}
}

func byText(ch Check) string {
	if ch.Verdict == Holds {
		return ch.Why // a note, such as liveness not judged
	}
	if ch.Verdict != Fails {
		return ""
	}
	if ch.Why != "" {
		return ch.Why
	}
	return num(ch.By) + " past the bound"
}

func seedsText(ch Check) string {
	if ch.Verdict != Undecided {
		return ""
	}
	switch {
	case ch.Why != "":
		return fmt.Sprintf("at least %d (%s)", ch.Seeds, ch.Why)
	case ch.Seeds == 0:
		return "none: the mean lies on the bound"
	case ch.Seeds < 0:
		return fmt.Sprintf("more than %d", maxSeeds)
	}
	return fmt.Sprintf("about %d", ch.Seeds)
}

// runList writes run indices with ranges: "3-5,9".
func runList(idx []int) string {
	idx = slices.Clone(idx)
	slices.Sort(idx)
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		} else {
			parts = append(parts, strconv.Itoa(idx[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// count writes n things: "1 sweep", "3 sweeps".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// Commit names the commit elect was built from where the build did not
// record it (go build with -buildvcs=false, as GOFLAGS may set):
// go build -ldflags "-X github.com/electgo/elect/study.Commit=$(git rev-parse HEAD)".
var Commit string

// version is elect's version as the build recorded it: the module's
// version, or the commit it was built from (and whether the tree held
// changes then).
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	v := bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", with uncommitted changes"
			}
		}
	}
	if rev == "" {
		rev = Commit
	}
	if rev != "" {
		v += " (commit " + rev[:min(12, len(rev))] + modified + ")"
	} else if v == "(devel)" {
		v += " (built without its commit: go build -buildvcs=true, or -ldflags \"-X github.com/electgo/elect/study.Commit=COMMIT\", records it)"
	}
	return v + ", " + bi.GoVersion
}

// html renders the report's Markdown as a page of its own.
func html(title string, md []byte) ([]byte, error) {
	var body bytes.Buffer
	// Raw HTML stays out (a study's own text cannot put any in the page);
	// headings get ids, which the table of verdicts links to.
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
	if err := gm.Convert(md, &body); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { overflow-x: auto; background: #f7f7f7; padding: 0.75rem; }
blockquote { margin: 0; padding-left: 1rem; border-left: 4px solid #ccc; color: #444; }
img { max-width: 100%%; }
</style>
</head>
<body>
`, htmlEscape(title))
	b.Write(body.Bytes())
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}

func htmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
