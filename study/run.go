package study

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/electgo/elect/bench"
)

// Options say how a study is run.
type Options struct {
	// Out is the directory of the results, figures and report.
	Out string
	// Small runs the small form of every sweep (the form CI runs).
	Small bool
	// Jobs is how many runs go at once.
	Jobs int
	// Shard runs part K of N of every sweep (bench.Shard); the zero value
	// runs all of it. A shard writes its results and no report: Merge
	// joins the shards, and a run of the whole then only reports.
	Shard bench.Shard
	// Sweeps runs only the sweeps of these names; Runs only the runs of
	// these indices in each (to rerun one line of a report).
	Sweeps []string
	Runs   []int
	// Fresh runs again the runs whose results Out already holds; by
	// default they are kept, so that a study cut short resumes.
	Fresh bool
	// Style is the figures' formats and size.
	Style bench.Style
	// Progress, when set, is told of each run that ends (from one
	// goroutine at a time), and of how many the study runs now.
	Progress func(done, total int)
	// Log, when set, receives notes: experiments left out for an
	// algorithm's model, runs kept from an earlier try.
	Log io.Writer
}

// Result is what running a study did and found.
type Result struct {
	Study *Study
	Small bool
	// Ran counts the runs run now, Kept those found done in Out.
	Ran, Kept int
	// Failed are the runs that did not complete (their network could not
	// be built, or they panicked).
	Failed []*bench.RunError
	// Missing counts the runs of the study that Out does not hold (a shard
	// ran, or only some runs): the claims are then judged on part of it.
	Missing int
	// Outcomes are the claims' verdicts, the specification's of each sweep
	// first; none for a shard.
	Outcomes []Outcome
	// Report is the report's path (report.md; report.html beside it);
	// "" for a shard.
	Report string
	// Files are every file written, the results files first.
	Files []string
}

// Verdict is the study's: Fails when a claim fails, else Undecided when one
// is undecided or runs are missing, else Holds.
func (r *Result) Verdict() Verdict {
	v := Holds
	if r.Missing > 0 {
		v = Undecided
	}
	for _, o := range r.Outcomes {
		v = max(v, o.Verdict)
	}
	return v
}

// manifest is OUT/study.json: which study and form the results in OUT
// come from, so that a resumed study never mixes in runs of another.
type manifest struct {
	Study   string            `json:"study"`
	Form    string            `json:"form"`
	Sweeps  map[string]string `json:"sweeps"` // name: fingerprint of the sweep's form
	Version string            `json:"elect"`  // the elect that wrote it last
}

func formName(small bool) string {
	if small {
		return "small"
	}
	return "full"
}

// fingerprint identifies a sweep's form: every field that makes its runs,
// those at their zero value left out, so that a field bench gains later
// (at a zero value that changes no run) leaves results resumable.
func fingerprint(sw *bench.Sweep) string {
	b, err := json.Marshal(sw)
	var fields map[string]any
	if err == nil {
		err = json.Unmarshal(b, &fields)
	}
	if err != nil {
		panic("study: a sweep that JSON cannot write: " + err.Error())
	}
	delete(fields, "Skipped") // bench's notes, in words that may change
	for k, v := range fields {
		switch x := v.(type) {
		case nil:
			delete(fields, k)
		case bool, float64, string:
			if x == reflect.Zero(reflect.TypeOf(x)).Interface() {
				delete(fields, k)
			}
		case []any:
			if len(x) == 0 {
				delete(fields, k)
			}
		case map[string]any:
			if len(x) == 0 {
				delete(fields, k)
			}
		}
	}
	b, _ = json.Marshal(fields) // map keys in order
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Run runs the study's sweeps (those runs Out does not already hold) and,
// unless it ran a shard, judges the claims and writes the report. The error
// is for what stops the study: a results file that cannot be written, Out
// holding another study's results; runs that fail are in Result.Failed.
func (s *Study) Run(opt Options) (*Result, error) {
	res := &Result{Study: s, Small: opt.Small}
	if len(opt.Style.Formats) == 0 {
		opt.Style = bench.DefaultStyle
	}
	sweeps, err := s.selected(opt.Sweeps)
	if err != nil {
		return nil, err
	}
	stale, err := s.claimManifest(opt, sweeps)
	if err != nil {
		return nil, err
	}
	shard := opt.Shard
	if shard.N == 0 {
		shard = bench.Shard{K: 1, N: 1}
	}
	type plan struct {
		sw   *Sweep
		form *bench.Sweep
		todo []bench.Run
		kept []*bench.Result
		path string
	}
	var plans []plan
	total := 0
	for _, sw := range sweeps {
		form := sw.Form(opt.Small)
		runs, err := form.Runs()
		if err != nil {
			return nil, fmt.Errorf("sweep %s: %w", sw.Name, err)
		}
		for _, note := range form.Skipped {
			logf(opt.Log, "sweep %s: %s", sw.Name, note)
		}
		runs = shard.Of(runs)
		if len(opt.Runs) > 0 {
			runs = slices.DeleteFunc(runs, func(r bench.Run) bool { return !slices.Contains(opt.Runs, r.Index) })
		}
		p := plan{sw: sw, form: form, path: resultsPath(opt.Out, sw, shard)}
		// The runs found done are kept: all of them, but those that
		// --fresh runs again; a row that is not the sweep's run of its
		// index is another sweep's, refused (or, with --fresh, dropped).
		done := map[int]*bench.Result{}
		old, err := readIfThere(p.path)
		switch {
		case err != nil && !opt.Fresh:
			return nil, fmt.Errorf("%w (--fresh runs the sweep again, over it)", err)
		case err != nil || stale[sw.Name]:
			old = nil // run again whole: unreadable, or of an earlier statement
		}
		all, _ := form.Runs()
		for _, r := range old {
			switch {
			case !ofForm(r, all):
				if !opt.Fresh {
					return nil, fmt.Errorf("%s: %s is not the sweep's run %d: the file holds another sweep's results; give another --out, or --fresh", p.path, r.Label(), r.Index)
				}
			case opt.Fresh && slices.ContainsFunc(runs, func(x bench.Run) bool { return x.Index == r.Index }):
			default:
				done[r.Index] = r
				p.kept = append(p.kept, r)
			}
		}
		for _, r := range runs {
			if done[r.Index] == nil {
				p.todo = append(p.todo, r)
			}
		}
		if n := len(runs) - len(p.todo); n > 0 {
			logf(opt.Log, "sweep %s: %d of its %d runs are done already (%s): not run again (--fresh runs them)", sw.Name, n, len(runs), p.path)
		}
		res.Kept += len(runs) - len(p.todo)
		total += len(p.todo)
		plans = append(plans, p)
	}
	ended := 0
	for _, p := range plans {
		rf, err := bench.CreateResults(p.path, p.kept)
		if err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		results, failed := p.form.RunAll(p.todo, opt.Jobs, func(r *bench.Result, _ error) {
			if r != nil {
				rf.Add(r)
			}
			ended++
			if opt.Progress != nil {
				opt.Progress(ended, total)
			}
		})
		if err := rf.Finish(append(p.kept, results...)); err != nil {
			return nil, err
		}
		res.Ran += len(results)
		res.Failed = append(res.Failed, failed...)
		res.Files = append(res.Files, p.path)
	}
	if shard.N > 1 {
		return res, nil
	}
	return res, s.report(res, opt)
}

// selected are the sweeps named, all of them when none is.
func (s *Study) selected(names []string) ([]*Sweep, error) {
	if len(names) == 0 {
		return s.Sweeps, nil
	}
	var out []*Sweep
	for _, n := range names {
		i := slices.IndexFunc(s.Sweeps, func(sw *Sweep) bool { return sw.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("--sweep %s: the study has no sweep of that name", n)
		}
		out = append(out, s.Sweeps[i])
	}
	return out, nil
}

// claimManifest checks that Out holds nothing of another study or of
// another form, writes the study's manifest, and returns the sweeps whose
// results in Out come from an earlier statement of them in the file: with
// Fresh, those sweeps are run again whole (their old rows would pass for
// the new sweep's: a run's row does not hold its length or parameters);
// without it, they are refused. A change of elect is noted, not refused.
func (s *Study) claimManifest(opt Options, selected []*Sweep) (map[string]bool, error) {
	path := filepath.Join(opt.Out, "study.json")
	m := manifest{Study: s.Name, Form: formName(opt.Small), Sweeps: map[string]string{}, Version: version()}
	for _, sw := range s.Sweeps {
		m.Sweeps[sw.Name] = fingerprint(sw.Form(opt.Small))
	}
	stale := map[string]bool{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		var old manifest
		if err := json.Unmarshal(b, &old); err != nil {
			return nil, fmt.Errorf("%s: %w (not a study's manifest: give another --out)", path, err)
		}
		if (old.Study != m.Study || old.Form != m.Form) && !opt.Fresh {
			return nil, fmt.Errorf("--out %s holds the %s form of study %s, not the %s form of %s: give another --out, or --fresh to run it all again there", opt.Out, old.Form, old.Study, m.Form, m.Study)
		}
		for _, sw := range s.Sweeps {
			fp, had := old.Sweeps[sw.Name]
			if _, err := os.Stat(dirOf(opt.Out, sw)); err != nil {
				continue // nothing of it in Out
			}
			if old.Study == m.Study && old.Form == m.Form && had && fp == m.Sweeps[sw.Name] {
				continue
			}
			if !opt.Fresh {
				return nil, fmt.Errorf("--out %s holds results of sweep %s as the study file stated it before (it has changed since): give another --out, or --fresh to run it again", opt.Out, sw.Name)
			}
			if !slices.Contains(selected, sw) {
				return nil, fmt.Errorf("--out %s holds results of sweep %s as the study file stated it before: --fresh runs it again only with it (add --sweep %s), or give another --out", opt.Out, sw.Name, sw.Name)
			}
			stale[sw.Name] = true
		}
		if old.Version != "" && old.Version != m.Version {
			logf(opt.Log, "%s was written by elect %s; this is elect %s: the runs it holds are kept (--fresh runs them again)", path, old.Version, m.Version)
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	b, _ = json.MarshalIndent(m, "", "  ")
	return stale, os.WriteFile(path, append(b, '\n'), 0o644)
}

// ofForm says whether r is a run of the form whose runs are all: the run
// of its index, not one of another sweep or another statement of this one.
func ofForm(r *bench.Result, all []bench.Run) bool {
	return r.Index >= 0 && r.Index < len(all) && r.Run == all[r.Index]
}

func resultsPath(out string, sw *Sweep, shard bench.Shard) string {
	name := "results.csv"
	if shard.N > 1 {
		name = fmt.Sprintf("results-%d-of-%d.csv", shard.K, shard.N)
	}
	return filepath.Join(dirOf(out, sw), name)
}

func readIfThere(path string) ([]*bench.Result, error) {
	rs, err := bench.ReadResults(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return rs, err
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "elect: note: "+format+"\n", args...)
	}
}

// Merge joins the shards' results files of every sweep in out
// (SWEEP/results-K-of-N.csv) into SWEEP/results.csv, refusing when a shard
// is missing; a run of the whole study in out then only reports.
func (s *Study) Merge(out string, small bool) ([]string, error) {
	var written []string
	for _, sw := range s.Sweeps {
		dir := dirOf(out, sw)
		names, err := filepath.Glob(filepath.Join(dir, "results-*-of-*.csv"))
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("sweep %s: no shard's results in %s (results-K-of-N.csv)", sw.Name, dir)
		}
		merged, miss, err := bench.MergeFiles(names...)
		if err != nil {
			return nil, fmt.Errorf("sweep %s: %w", sw.Name, err)
		}
		if len(miss) > 0 {
			return nil, fmt.Errorf("sweep %s: shards %v are missing from %s", sw.Name, miss, dir)
		}
		all, err := sw.Form(small).Runs()
		if err != nil {
			return nil, err
		}
		for _, r := range merged {
			if !ofForm(r, all) {
				return nil, fmt.Errorf("sweep %s: run %d of the shards (%s) is not the %s form's: are these shards of this study's %s form?", sw.Name, r.Index, r.Label(), formName(small), formName(small))
			}
		}
		path := filepath.Join(dir, "results.csv")
		rf, err := bench.CreateResults(path, nil)
		if err != nil {
			return nil, err
		}
		if err := rf.Finish(merged); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}
