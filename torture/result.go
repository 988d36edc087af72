package torture

import (
	"fmt"
	"os"
	"path/filepath"
)

// Result is one algorithm's campaign as elect fuzz reports it: the object
// it prints per algorithm with --json, and what Result.WriteText writes.
type Result struct {
	// Algorithm is the algorithm's name, Faults the faults its runs drew
	// (Faults.String), and Outside whether they went outside its model.
	Algorithm string `json:"algorithm"`
	Faults    string `json:"faults"`
	Outside   bool   `json:"outside"`
	// Seed is the campaign's seed, First its first run's number, and Runs
	// how many it ran: runs First to First+Runs-1.
	Seed  uint64 `json:"seed"`
	First int    `json:"first"`
	Runs  int    `json:"runs"`
	// Failed counts the runs that broke the specification, and ByProperty
	// counts them by the property of their first violation.
	Failed     int            `json:"failed"`
	ByProperty map[string]int `json:"by_property"`
	// Events counts the events of every run, and WallMS the milliseconds
	// the campaign took.
	Events uint64  `json:"events"`
	WallMS float64 `json:"wall_ms"`
	// Failures are the failed runs, each with its smallest scenario's
	// file (never nil: [] in JSON when none failed).
	Failures []FailureResult `json:"failures"`
}

// FailureResult is a failed run as elect fuzz reports it: what it broke,
// and the size and file of its smallest scenario.
type FailureResult struct {
	// Run is the run's number in its campaign.
	Run int `json:"run"`
	// Property and Reason are those of the first violation of the smallest
	// scenario's run ("" when its summary holds a count alone).
	Property string `json:"property"`
	Reason   string `json:"reason"`
	// Nodes and Events are the smallest scenario's size.
	Nodes  int `json:"nodes"`
	Events int `json:"events"`
	// File is where the smallest scenario was written (WriteFailure).
	File string `json:"file"`
	// ShrinkRun counts the runs spent shrinking it.
	ShrinkRun int `json:"shrink_runs"`
}

// NewResult is the result of a campaign cfg that reported rep, with no
// failure in it yet: WriteFailure gives each of rep.Failures's.
func NewResult(cfg Config, rep *Report) Result {
	return Result{Algorithm: cfg.Algorithm, Faults: rep.Faults.String(), Outside: cfg.Outside, Seed: cfg.Seed, First: cfg.First,
		Runs: rep.Runs, Failed: len(rep.Failures), ByProperty: rep.ByProperty, Events: rep.Events,
		WallMS: float64(rep.Wall.Microseconds()) / 1000, Failures: []FailureResult{}}
}

// DirError is WriteFailure's error making the directory of failing
// scenarios or writing a scenario file into it, which a caller may say
// names a bad directory (elect fuzz prefixes "--out: ").
type DirError struct {
	// Err is the file system's error.
	Err error
}

// Error is the file system's error.
func (e *DirError) Error() string { return e.Err.Error() }

// Unwrap is the file system's error.
func (e *DirError) Unwrap() error { return e.Err }

// WriteFailure writes the scenario file of f (Failure.File), a failure of
// the campaign of algorithm name with seed, into dir, making dir when it is
// not there, as NAME-seedSEED-runRUN.yaml, and says what it wrote. An error
// of the file system is a *DirError.
func WriteFailure(dir, name string, seed uint64, f *Failure) (FailureResult, error) {
	s, sum := f.Smallest()
	b, err := f.File()
	if err != nil {
		return FailureResult{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return FailureResult{}, &DirError{err}
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-seed%d-run%d.yaml", name, seed, f.Run))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return FailureResult{}, &DirError{err}
	}
	ff := FailureResult{Run: f.Run, Nodes: sum.Nodes, Events: len(s.Events), File: path, ShrinkRun: f.ShrinkRuns}
	if len(sum.Violations) > 0 { // a count may come without details
		ff.Property, ff.Reason = sum.Violations[0].Property, sum.Violations[0].Reason
	}
	return ff, nil
}
