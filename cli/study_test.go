package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/electgo/elect/study"
)

// studyFile writes a study of vkt electing on the document's layered
// network of 2 levels (9 nodes, 3 seeds), with the claim given.
func studyFile(t *testing.T, claim string) string {
	return studyFileSeeds(t, claim, 3)
}

func studyFileSeeds(t *testing.T, claim string, seeds int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yaml")
	text := `name: exit-codes
sweeps:
  - name: still
    experiments: [start]
    algorithms: [vkt]
    topologies: ["layered:{n}@2"]
    seeds: ` + strconv.Itoa(seeds) + `
claims:
  - id: the-claim
    says: a claim for the test
    source: {document: the test}
    measure: election-time
    where: {sweep: still}
` + claim
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The exit status follows the claims: 0 when they hold, 2 when one fails
// (saying which, by how much, with its interval), 3 when one is undecided,
// which is never reported as holding.
func TestStudyExitStatus(t *testing.T) {
	cases := []struct {
		name, claim string
		seeds       int
		code        int
		out         []string
	}{
		{"holds", "    at-most: 10000\n", 3, ExitOK, []string{"holds      the-claim: election-time at most 10000"}},
		{"fails", "    at-most: 1\n", 3, ExitViolation, []string{"fails      the-claim: election-time at most 1", "fails at start vkt layered:2: mean", "past the bound"}},
		{"two claims in one", "    at-least: 1\n    at-most: 1e9\n", 3, ExitError, nil},
		// One seed gives no interval: however far from the bound, undecided.
		{"undecided", "    at-most: 10000\n", 1, ExitUndecided, []string{"undecided  the-claim"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := cli(t, "study", studyFileSeeds(t, c.claim, c.seeds), "--out", out, "--quiet")
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			for _, w := range c.out {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if c.code == ExitOK || c.code == ExitViolation || c.code == ExitUndecided {
				md, err := os.ReadFile(filepath.Join(out, "report.md"))
				if err != nil {
					t.Fatal(err)
				}
				verdict := map[int]string{ExitOK: "holds", ExitViolation: "fails", ExitUndecided: "undecided"}[c.code]
				if !strings.Contains(string(md), "### the-claim: "+verdict) {
					t.Errorf("report.md does not give the claim's verdict %q:\n%s", verdict, md)
				}
			}
		})
	}
}

func TestStudyBadInput(t *testing.T) {
	good := studyFile(t, "    at-most: 10000\n")
	for _, c := range []exitCase{
		{name: "no file", args: []string{"study", filepath.Join(t.TempDir(), "none.yaml")}, code: ExitError, err: []string{"no such file"}},
		{name: "bad runs", args: []string{"study", good, "--runs", "3-1"}, code: ExitError, err: []string{`--runs: "3-1": want run indices`}},
		{name: "bad shard", args: []string{"study", good, "--shard", "3/2"}, code: ExitError, err: []string{"--shard"}},
		{name: "unknown sweep", args: []string{"study", good, "--sweep", "moving", "--out", t.TempDir()}, code: ExitError, err: []string{"--sweep moving: the study has no sweep of that name"}},
		{name: "merge with no shard", args: []string{"study", "merge", good, "--out", t.TempDir()}, code: ExitError, err: []string{"no shard's results"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// Every study pack of studies/ runs in its small form, and its report
// gives every claim a verdict, with the exit status that its verdicts
// make. vkt-paper's small form, the one the issue names, holds.
func TestStudyPacks(t *testing.T) {
	packs, err := filepath.Glob("../studies/*.yaml")
	if err != nil || len(packs) < 4 {
		t.Fatalf("studies/: %v packs (%v); want at least 4", len(packs), err)
	}
	for _, pack := range packs {
		name := strings.TrimSuffix(filepath.Base(pack), ".yaml")
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := cli(t, "study", pack, "--small", "--out", out, "--quiet")
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatalf("exit %d, no report: %v\n%s", code, err, stderr)
			}
			st, err := study.Load(pack)
			if err != nil {
				t.Fatal(err)
			}
			worst := "holds"
			for _, c := range st.Claims {
				found := false
				for _, v := range []string{"holds", "undecided", "fails"} {
					if strings.Contains(string(md), "### "+c.ID+": "+v) {
						found = true
						if v == "fails" || v == "undecided" && worst == "holds" {
							worst = v
						}
					}
				}
				if !found {
					t.Errorf("report.md gives claim %s no verdict", c.ID)
				}
			}
			want := map[string]int{"holds": ExitOK, "undecided": ExitUndecided, "fails": ExitViolation}[worst]
			if code != want {
				t.Errorf("exit %d, want %d for a study whose worst claim %s\n%s%s", code, want, worst, stdout, stderr)
			}
			if name == "vkt-paper" && code != ExitOK {
				t.Errorf("vkt-paper --small: exit %d, want every claim to hold\n%s", code, stdout)
			}
		})
	}
}

// In a Kubernetes Indexed Job each task runs its shard of the study, the
// merge joins the shards, and the whole then only reports.
func TestStudyShardsFromTheScheduler(t *testing.T) {
	file := studyFile(t, "    at-most: 10000\n")
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("JOB_COMPLETIONS", "2")
	for _, idx := range []string{"0", "1"} {
		t.Setenv("JOB_COMPLETION_INDEX", idx)
		code, stdout, stderr := cli(t, "study", file, "--out", out, "--quiet")
		if code != ExitOK || !strings.Contains(stderr, "Kubernetes completion index "+idx) || !strings.Contains(stdout, "elect study merge") {
			t.Fatalf("task %s: exit %d\n%s%s", idx, code, stdout, stderr)
		}
	}
	os.Unsetenv("JOB_COMPLETION_INDEX")
	os.Unsetenv("JOB_COMPLETIONS")
	for _, name := range []string{"results-1-of-2.csv", "results-2-of-2.csv"} {
		if _, err := os.Stat(filepath.Join(out, "still", name)); err != nil {
			t.Fatal(err)
		}
	}
	if code, stdout, stderr := cli(t, "study", "merge", file, "--out", out); code != ExitOK || !strings.Contains(stdout, "merged: ") {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := cli(t, "study", file, "--out", out, "--quiet")
	if code != ExitOK || !strings.Contains(stdout, "0 runs run, 3 kept") {
		t.Fatalf("the whole after the merge: exit %d\n%s%s", code, stdout, stderr)
	}
}
