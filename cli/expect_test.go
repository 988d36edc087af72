package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A component with no initiator is not a violation by default: on this
// random geometric graph node 10 has no link, and the echo wave from node 0
// was never meant to reach it. The run exits 0 and says so; asked to expect
// every component to elect, it fails (exit 2). check on each run's trace
// gives the same verdict, from the trace's header.
func TestExpectUninitiatedComponent(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sim", "--algo", "echo", "--topology", "geometric:300:110", "--seed", "5150"}
	initiated := filepath.Join(dir, "initiated.jsonl")
	every := filepath.Join(dir, "every.jsonl")
	notExpected := "components: 2 (1 component of 1 node not expected to elect: it holds no initiator, and the algorithm elects only from one)"
	for _, c := range []exitCase{
		{name: "default", args: append(base, "--trace", initiated), code: ExitOK,
			out: []string{notExpected, "check: OK, safety and liveness hold"}},
		{name: "every component", args: append(base, "--expect", "every-component", "--trace", every), code: ExitViolation,
			out: []string{"liveness: no election reached this component of 1 node", "expect: every-component"}},
		{name: "check default", args: []string{"check", initiated}, code: ExitOK, out: []string{notExpected}},
		{name: "check every component", args: []string{"check", every}, code: ExitViolation,
			out: []string{"no election reached this component of 1 node"}},
		{name: "bad expectation", args: append(base, "--expect", "most"), code: ExitError,
			err: []string{`--expect: unknown expectation "most": want initiated`}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}

	_, s, m := runJSON(t, base...)
	if s.ViolationCount != 0 || s.NotExpected == nil || s.NotExpected.Components != 1 || s.NotExpected.Nodes != 1 {
		t.Errorf("JSON: %d violations, not_expected %+v; want none, and 1 component of 1 node", s.ViolationCount, s.NotExpected)
	}
	if _, ok := m["not_expected"]; !ok {
		t.Errorf("JSON lacks the key not_expected")
	}
	_, s, m = runJSON(t, append(base, "--expect", "every-component")...)
	if s.ViolationCount != 1 || s.NotExpected != nil {
		t.Errorf("every component: %d violations, not_expected %+v; want 1 and none", s.ViolationCount, s.NotExpected)
	}
	if _, ok := m["not_expected"]; ok {
		t.Errorf("every component: JSON holds not_expected")
	}
}

// The scenario file says the same as --expect, under check:, and a value it
// does not know is blamed on its line.
func TestExpectScenarioFile(t *testing.T) {
	dir := t.TempDir()
	net := "algorithm: echo\ntopology: geometric:300:110\nseed: 5150\n"
	for _, c := range []exitCase{
		{name: "every component", args: []string{"sim", writeFile(t, dir, "every.yaml", net+"check:\n  expect: every-component\n")},
			code: ExitViolation, out: []string{"no election reached this component of 1 node"}},
		{name: "initiated", args: []string{"sim", writeFile(t, dir, "initiated.yaml", net+"check:\n  expect: initiated\n")},
			code: ExitOK, out: []string{"1 component of 1 node not expected to elect"}},
		{name: "flag over file", args: []string{"sim", writeFile(t, dir, "over.yaml", net+"check:\n  expect: every-component\n"), "--expect", "initiated"},
			code: ExitOK},
		{name: "unknown", args: []string{"sim", writeFile(t, dir, "bad.yaml", net+"check:\n  expect: sometimes\n")},
			code: ExitError, err: []string{"bad.yaml:5:11: check.expect: unknown expectation \"sometimes\""}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// The capture algorithms elect the most valued of their candidates (the
// run's initiators), as their document says: a run with some candidates
// passes when their best leads, and check on its trace agrees; before,
// every such run was failed for not electing the most valued node.
func TestCandidatesElectTheirBest(t *testing.T) {
	for _, a := range []string{"capture-sync", "capture-async", "all-to-all"} {
		tr := filepath.Join(t.TempDir(), "run.jsonl")
		out := mustRun(t, "sim", "--algo", a, "--topology", "complete:5", "--values", "random", "--seed", "2", "--initiators", "0,1", "--trace", tr)
		if !strings.Contains(out, "check: OK") {
			t.Errorf("%s:\n%s", a, out)
		}
		mustRun(t, "check", tr)
	}
}
