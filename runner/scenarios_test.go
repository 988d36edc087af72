package runner_test

import (
	"path/filepath"
	"testing"

	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// TestShippedScenarios runs every scenario under scenarios/: each must pass
// the checker and end with no event left, so that every component was
// judged.
func TestShippedScenarios(t *testing.T) {
	files, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios found (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := scenario.Load(f, scenario.Default())
			if err != nil {
				t.Fatal(err)
			}
			sum, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sum.ViolationCount > 0 || sum.Unchecked > 0 || !sum.Quiescent {
				t.Fatalf("violations %d (%v), unchecked %d, quiescent %v", sum.ViolationCount, sum.Violations, sum.Unchecked, sum.Quiescent)
			}
			if sum.Elections.Completed == 0 {
				t.Fatalf("no election completed")
			}
		})
	}
}
