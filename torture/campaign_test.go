package torture

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A campaign over two algorithms reports each as a JSON line, writes every
// failure's scenario file, and totals what broke within the models; the
// same campaign outside the models totals nothing.
func TestCampaign(t *testing.T) {
	dir := t.TempDir()
	var out, log bytes.Buffer
	c := Campaign{Algorithms: []string{"test-broken-panic", "test-careful"}, Config: Config{Runs: 4, Seed: 1, ShrinkBudget: -1},
		Out: filepath.Join(dir, "f"), JSON: true, Log: &log}
	tot, err := c.Run(&out)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	var rs []Result
	for dec.More() {
		var r Result
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	if len(rs) != 2 || rs[0].Algorithm != "test-broken-panic" || rs[1].Algorithm != "test-careful" {
		t.Fatalf("results %+v: want one per algorithm, in turn", rs)
	}
	broken := rs[0]
	if broken.Failed == 0 || len(broken.Failures) != broken.Failed || broken.ByProperty["panic"] != broken.Failed || rs[1].Failed != 0 || rs[1].Failures == nil {
		t.Fatalf("results %+v: want test-broken-panic's runs failing with a panic, none of test-careful's", rs)
	}
	if tot.Runs != 8 || tot.Broke != broken.Failed || tot.Violations != broken.Failed {
		t.Errorf("totals %+v: want 8 runs, %d broken with a violation each", tot, broken.Failed)
	}
	for _, f := range broken.Failures {
		want := filepath.Join(dir, "f", "test-broken-panic-seed1-run"+itoa(f.Run)+".yaml")
		if f.File != want || f.Property != "panic" || f.Reason == "" {
			t.Errorf("failure %+v: want its file %s, its property and reason", f, want)
		}
		if b, err := os.ReadFile(f.File); err != nil || !strings.HasPrefix(string(b), "# fuzz:test-broken-panic:seed=1:run=") {
			t.Errorf("%s: %v\n%s", f.File, err, b)
		}
	}

	out.Reset()
	c.Config.Outside, c.JSON = true, false
	if tot, err := c.Run(&out); err != nil || tot != (Totals{}) {
		t.Errorf("outside the models: %+v, %v; want nothing counted", tot, err)
	}
	if !strings.HasPrefix(out.String(), "test-broken-panic, outside its model (faults: ") {
		t.Errorf("text report:\n%s", out.String())
	}
}

// A failure that cannot be written is a *DirError, the file system's error
// as it is.
func TestCampaignDirError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := Campaign{Algorithms: []string{"test-broken-panic"}, Config: Config{Runs: 5, Seed: 1, ShrinkBudget: -1}, Out: filepath.Join(file, "sub")}
	var out bytes.Buffer
	_, err := c.Run(&out)
	var de *DirError
	if !errors.As(err, &de) || err.Error() != de.Err.Error() || !strings.HasPrefix(err.Error(), "mkdir "+file) {
		t.Errorf("error %v (%T): want a *DirError of mkdir under %s", err, err, file)
	}
	if out.Len() != 0 {
		t.Errorf("reported %q before the failure was written", out.String())
	}
}

// WriteText: the campaign's line, the failures by property, and ten
// failures at most.
func TestResultWriteText(t *testing.T) {
	r := Result{Algorithm: "vkt", Faults: "loss,crash", Seed: 3, First: 10, Runs: 100, Failed: 12,
		ByProperty: map[string]int{"safety": 2, "liveness": 10}, Events: 4567, WallMS: 12.6}
	for i := range 12 {
		r.Failures = append(r.Failures, FailureResult{Run: 10 + i, Reason: "why", Nodes: 3, Events: 1, File: "d/f" + itoa(i) + ".yaml"})
	}
	var b bytes.Buffer
	r.WriteText(&b)
	want := "vkt, in its model (faults: loss,crash), seed 3, runs 10-109: 12 failed of 100 (4567 events, 13 ms)\n  liveness: 10\n  safety: 2\n"
	for i := range 10 {
		want += "  run " + itoa(10+i) + ": why (shrunk to 3 nodes, 1 events: d/f" + itoa(i) + ".yaml)\n"
	}
	want += "  ... 2 more in d\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
