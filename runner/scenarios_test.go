package runner_test

import (
	"path/filepath"
	"testing"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// TestShippedScenarios runs every scenario under scenarios/: each must pass
// the checker and every component must have been judged (the run lasts past
// the liveness bound, or ends with no event left).
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
			if sum.ViolationCount > 0 || sum.Unchecked > 0 {
				t.Fatalf("violations %d (%v), unchecked %d", sum.ViolationCount, sum.Violations, sum.Unchecked)
			}
			if sum.Elections.Completed == 0 {
				t.Fatalf("no election completed")
			}
		})
	}
}
