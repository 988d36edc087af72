package runner

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/scenario"
)

// WriteCounterexample writes cx, found exploring s as setup says, to the
// directory dir, creating it: counterexample.jsonl, its trace (the header
// of s, with the schedule's events, as elect check and elect viz read
// it), and counterexample.yaml, the scenario s with the schedule
// (ReplayScenario), which elect sim replays. It returns the two paths.
// Errors of the directory's files are blamed on dirName (a command line:
// its flag).
func WriteCounterexample(dir, dirName string, s *scenario.Scenario, setup *explore.Setup, cx *explore.Counterexample) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", dirName, err)
	}
	replay := ReplayScenario(s, setup, cx)
	tracePath, yamlPath := filepath.Join(dir, "counterexample.jsonl"), filepath.Join(dir, "counterexample.yaml")
	h, err := Header(replay)
	if err != nil {
		return nil, err
	}
	tf, err := os.Create(tracePath)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dirName, err)
	}
	err = explore.WriteTrace(tf, h, setup, cx.Steps)
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", tracePath, err)
	}
	b, err := scenario.Format(replay)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(yamlPath, b, 0o644); err != nil {
		return nil, fmt.Errorf("%s: %w", dirName, err)
	}
	return []string{tracePath, yamlPath}, nil
}
