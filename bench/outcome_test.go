package bench

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestOutcome: a sweep whose runs all kept the specification ends well; one
// whose completed runs broke it says where; one where runs failed lists
// them by cause, with the first panic's stack.
func TestOutcome(t *testing.T) {
	run := func(i int) Run {
		return Run{Index: i, Experiment: "start", Algorithm: "vkt", Topology: "ring:1", Seed: 1}
	}
	good, bad := &Result{Run: run(0)}, &Result{Run: run(1), Violations: 3}
	var w strings.Builder
	if err := Outcome(&w, "out/results.csv", 1, []*Result{good}, nil); err != nil || w.Len() > 0 {
		t.Errorf("all well: %v, wrote %q", err, w.String())
	}
	err := Outcome(&w, "out/results.csv", 2, []*Result{good, bad}, nil)
	var e *SweepError
	if !errors.As(err, &e) || e.Failed != 0 || e.Violated != 1 || e.Violations != 3 ||
		err.Error() != "1 of 2 completed runs broke the specification (the violations column of out/results.csv)" {
		t.Errorf("violations: %#v", err)
	}
	failed := []*RunError{
		{Run: run(2), Err: fmt.Errorf("run 2 (start vkt ring:1 seed 1): a ring needs 3 nodes")},
		{Run: run(3), Err: fmt.Errorf("run 3 (start vkt ring:1 seed 1): a ring needs 3 nodes")},
		{Run: run(4), Err: fmt.Errorf("boom"), Stack: []byte("stack\n")},
	}
	err = Outcome(&w, "out/results.csv", 5, []*Result{good, bad}, failed)
	if !errors.As(err, &e) || e.Failed != 3 ||
		err.Error() != "3 of 5 runs failed (listed above) and are not in out/results.csv; 1 of 2 completed runs broke the specification (the violations column of out/results.csv)" {
		t.Errorf("failures: %v", err)
	}
	want := "3 runs failed:\n" +
		"  run 2 (start vkt ring:1 seed 1) and 1 more: a ring needs 3 nodes\n" +
		"  run 4 (start vkt ring:1 seed 1): boom\n" +
		"run 4 (start vkt ring:1 seed 1) panicked:\nstack\n"
	if w.String() != want {
		t.Errorf("listed:\n%s\nwant:\n%s", w.String(), want)
	}
}

func TestParseRunList(t *testing.T) {
	got, err := ParseRunList("3, 7-9,0")
	if err != nil || fmt.Sprint(got) != "[3 7 8 9 0]" {
		t.Errorf("3, 7-9,0: %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "-1", "5-3", "1-2-3"} {
		if _, err := ParseRunList(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
