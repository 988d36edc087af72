package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ResultsFile is a sweep's results file, written row by row as the runs
// end, so that a sweep cut short keeps the runs it did, and rewritten in
// the sweep's order when it is done.
type ResultsFile struct {
	path string
	f    *os.File
	rows *CSVWriter
	err  error // the first write that failed: the rows after it are not tried
}

// CreateResults creates the results file at path, and its directory, with
// the rows of kept (runs done before, by a sweep resumed) first: the check,
// before any run, that the results can be written.
func CreateResults(path string, kept []*Result) (*ResultsFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("the results cannot be written: %w", err)
	}
	rows, err := NewCSVWriter(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the results cannot be written: %s: %w", path, err)
	}
	rf := &ResultsFile{path: path, f: f, rows: rows}
	for _, r := range kept {
		rf.Add(r)
	}
	if rf.err != nil {
		f.Close()
		return nil, fmt.Errorf("the results cannot be written: %s: %w", path, rf.err)
	}
	return rf, nil
}

// Path is where the file is.
func (rf *ResultsFile) Path() string { return rf.path }

// Add writes one run's row; a write that fails is reported by Finish.
func (rf *ResultsFile) Add(r *Result) {
	if rf.err == nil {
		rf.err = rf.rows.Write(r)
	}
}

// Finish closes the file, and replaces it by results in index order:
// written aside, then renamed over it, so that it is never lost
// half-written.
func (rf *ResultsFile) Finish(results []*Result) error {
	err := rf.f.Close()
	if rf.err != nil {
		err = rf.err
	}
	if err != nil {
		return fmt.Errorf("%s: %w", rf.path, err)
	}
	results = slices.Clone(results)
	slices.SortStableFunc(results, func(a, b *Result) int { return a.Index - b.Index })
	tmp, err := os.CreateTemp(filepath.Dir(rf.path), ".results-*.csv")
	if err != nil {
		return err
	}
	err = tmp.Chmod(0o644) // as os.Create's, not a temporary file's 0600
	if err == nil {
		err = WriteCSV(tmp, results)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), rf.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// ReadResults reads a results file (WriteCSV's) from path.
func ReadResults(path string) ([]*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCSV(f, path)
}
