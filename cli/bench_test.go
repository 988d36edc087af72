package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/bench"
	"github.com/electgo/elect/torture"
)

// A sweep split in two shards and merged gives the table of the whole sweep,
// and the plots are written.
func TestBenchShardsMerge(t *testing.T) {
	dir := t.TempDir()
	sweep := []string{"bench", "--quiet", "--topology", "layered:{n}@2..3", "--topology", "geometric:{n}:d6@20,40", "--seeds", "2"}
	code, _, errOut := cli(t, append(sweep, "--out", filepath.Join(dir, "whole"))...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for k := 1; k <= 2; k++ {
		args := append(sweep, "--out", filepath.Join(dir, "shards"), "--shard", []string{"1/2", "2/2"}[k-1])
		if code, _, errOut := cli(t, args...); code != ExitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, errOut)
		}
	}
	shards, _ := filepath.Glob(filepath.Join(dir, "shards", "results-*-of-2.csv"))
	code, merged, errOut := cli(t, append([]string{"bench", "plot", "--out", filepath.Join(dir, "merged")}, shards...)...)
	if code != ExitOK || len(shards) != 2 {
		t.Fatalf("plot: exit %d, %d shards: %s", code, len(shards), errOut)
	}
	read := func(sub string) string {
		b, err := os.ReadFile(filepath.Join(dir, sub, "summary.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if whole, got := read("whole"), read("merged"); got != whole || !strings.Contains(merged, "experiment") || strings.Count(whole, "\n") != 9 {
		t.Errorf("merged shards:\n%s\nwhole sweep:\n%s", got, whole)
	}
	for _, name := range []string{"results.csv", "summary.txt", "start-election-time.png", "crash-messages-per-node.png"} {
		if _, err := os.Stat(filepath.Join(dir, "merged", name)); err != nil {
			t.Error(err)
		}
	}
}

// A sweep over speeds on moving networks: the table by speed and the plots
// against it.
func TestBenchSpeeds(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := cli(t, "bench", "--quiet", "--experiments", "mobile", "--algos", "vkt,park", "--topology", "geometric:20:250:600x600",
		"--speeds", "0,10", "--seeds", "2", "--duration", "60s", "--out", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"with a leader %", "elections/node/min", "waypoint:{v}:{v}:2s"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"mobile-leader-time.png", "mobile-election-rate.png", "mobile-leader-changes.png", "mobile-messages-per-node-second.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

func TestBenchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--experiments", "fly"}, `unknown experiment "fly"`},
		{[]string{"bench", "--algos", "nope"}, `--algos: unknown algorithm "nope"`},
		{[]string{"bench", "--topology", "ring:5@2..3"}, `--topology: topology "ring:5@2..3" has no {n}`},
		{[]string{"bench", "--sizes", "5..1"}, `--sizes: invalid size range "5..1"`},
		{[]string{"bench", "--shard", "3/2"}, `--shard: invalid shard "3/2"`},
		{[]string{"bench", "--seeds", "0"}, "--seeds: 0, want 1 to 1000000"},
		{[]string{"bench", "--seeds", "2000000000"}, "--seeds: 2000000000, want 1 to 1000000"},
		{[]string{"bench", "--sizes", "1..400000", "--topology", "ring:{n}"}, "the sweep holds more than the 1000000 runs elect lists at once: split it into several"},
		{[]string{"bench", "--format", "gif"}, `--format: invalid plot format "gif" (want png, svg or pdf`},
		{[]string{"bench", "--plot-size", "7x4"}, `--plot-size: invalid plot size "7x4"`},
		{[]string{"bench", "--plot-size", "0x4in"}, `--plot-size: invalid plot size "0x4in"`},
		{[]string{"bench", "plot", "/no/such.csv"}, "no such file"},
		{[]string{"bench", "--experiments", "mobile"}, "experiment mobile moves the nodes: give it speeds"},
		{[]string{"bench", "--speeds", "1,fast"}, `--speeds: invalid speed "fast"`},
		{[]string{"bench", "--speeds", "1", "--mobility", "hover:{v}"}, `--mobility "hover:{v}": `},
		{[]string{"bench", "--duration", "long"}, `--duration: invalid duration "long"`},
		{[]string{"bench", "--topology", "@5"}, `--topology: topology "@5": no template before its sizes`},
		{[]string{"bench", "--topology", "ring:{n}"}, `--topology: topology "ring:{n}" has no sizes for its {n}`},
		{[]string{"bench", "--duration", "4s"}, "experiment crash measures from 5s on: a run of 4s ends before"},
		{[]string{"bench", "--experiments", "mobile", "--speeds", "0", "--duration", "10s", "--topology", "geometric:{n}:d10@16"}, "experiment mobile measures from 30s on: a run of 10s ends before"},
		// Speeds on networks whose nodes have no positions: refused at
		// once (the runs on them failed one by one).
		{[]string{"bench", "--experiments", "start", "--speeds", "0,5", "--topology", "ring:{n}@8", "--topology", "geometric:{n}:d10@16"},
			"speeds move the nodes, and the nodes of ring:{n} have no positions to move from: give speeds with geometric topologies only (experiments start and crash run on still networks without speeds"},
		{[]string{"bench", "--experiments", "mobile", "--speeds", "0"}, "the nodes of layered:{n} have no positions"},
		{[]string{"bench", "--algos", "vkt", "-p", "colour=red"}, `--param colour=red: vkt has no parameter "colour" (it has: `},
	} {
		code, out, errOut := cli(t, c.args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
}

// Degenerate sweeps: every one writes its CSV and table, plots what it can
// (a single point is a plot), says why it skips a figure, and never panics.
func TestBenchDegenerate(t *testing.T) {
	start := []string{"start-election-time.png", "start-messages-per-election.png", "start-messages-per-node.png", "start-leaderless.png"}
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		rows  int      // in results.csv
		files []string // plots written, in order
		out   []string // in stdout
		err   []string // in stderr
	}{
		{
			name: "one size", args: []string{"--algos", "vkt", "--topology", "ring:{n}@8", "--seeds", "2"},
			code: ExitOK, rows: 4,
			files: append(start, "crash-election-time.png", "crash-messages-per-election.png", "crash-messages-per-node.png", "crash-leaderless.png"),
		},
		{
			name: "one experiment, algorithm, size and seed", args: []string{"--experiments", "start", "--topology", "ring:{n}@5", "--seeds", "1"},
			code: ExitOK, rows: 1, files: start,
		},
		{
			name: "a size of one node: nothing to plot", args: []string{"--experiments", "start", "--topology", "complete:{n}@1", "--seeds", "1"},
			code: ExitOK, rows: 1,
			out: []string{"plots: none", "not plotted: start-election-time.png: no point to plot: 0, which a log scale cannot show (no election began from the experiment's start and ended): vkt complete:{n} at 1 node",
				"not plotted: start-leaderless.png: no point to plot: 0, which a log scale cannot show (never without a leader)"},
		},
		{
			name: "one node, then two", args: []string{"--experiments", "start", "--topology", "complete:{n}@1..2", "--seeds", "1"},
			code: ExitOK, rows: 2, files: start,
			out: []string{"plotted in part: start-election-time.png: 1 of 2 points left out, 0, which a log scale cannot show"},
		},
		{
			name: "every run fails", args: []string{"--experiments", "start", "--topology", "ring:{n}@1,2", "--seeds", "2"},
			code: ExitError, rows: 0,
			out: []string{"0 of 4 runs written to", "no run completed: nothing to tabulate", "plots: none"},
			err: []string{"4 runs failed:\n", `run 0 (start vkt ring:1 seed 1) and 1 more: topology "ring:1": ring needs at least 3 nodes`,
				`run 2 (start vkt ring:2 seed 1) and 1 more: topology "ring:2": ring needs at least 3 nodes`, "elect: 4 of 4 runs failed (listed above) and are not in "},
		},
		{
			name: "one size fails", args: []string{"--experiments", "start", "--topology", "ring:{n}@1,5", "--seeds", "1"},
			code: ExitError, rows: 1, files: start,
			out: []string{"1 of 2 runs written to", "(1 failed)"},
			err: []string{"1 run failed:\n  run 0 (start vkt ring:1 seed 1): topology \"ring:1\"", "elect: 1 of 2 runs failed"},
		},
		{
			name: "no election completed", args: []string{"--experiments", "crash", "--outside-model", "--algos", "echo", "--topology", "ring:{n}@5,6", "--seeds", "1"},
			code: ExitViolation, rows: 2, files: []string{"crash-leaderless.png"},
			out: []string{"not plotted: crash-election-time.png: no point to plot", "not plotted: crash-messages-per-election.png", "not plotted: crash-messages-per-node.png"},
			err: []string{"elect: 2 of 2 completed runs broke the specification (the violations column of "},
		},
		{
			name: "one speed, 0", args: []string{"--experiments", "mobile", "--speeds", "0", "--topology", "geometric:{n}:d10@16", "--seeds", "1", "--duration", "40s"},
			code: ExitOK, rows: 1,
			files: []string{"mobile-leader-time.png", "mobile-reachable-leader-time.png", "mobile-election-rate.png", "mobile-leader-changes.png", "mobile-messages-per-node-second.png"},
		},
		{
			name: "a shard with no runs", args: []string{"--experiments", "start", "--topology", "ring:{n}@5", "--seeds", "1", "--shard", "2/3"},
			code: ExitOK, rows: 0,
			out: []string{"0 runs written to"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, errOut := exitCase{args: append([]string{"bench", "--quiet", "--out", dir}, c.args...),
				code: c.code, out: c.out, err: c.err}.run(t)
			csvs, _ := filepath.Glob(filepath.Join(dir, "results*.csv"))
			if len(csvs) != 1 {
				t.Fatalf("results files %v", csvs)
			}
			b, err := os.ReadFile(csvs[0])
			if err != nil {
				t.Fatal(err)
			}
			if rows := strings.Count(string(b), "\n") - 1; rows != c.rows {
				t.Errorf("%d rows in %s, want %d", rows, csvs[0], c.rows)
			}
			plots, _ := filepath.Glob(filepath.Join(dir, "*.png"))
			if len(plots) != len(c.files) {
				t.Errorf("plots %v, want %v", plots, c.files)
			}
			if !strings.Contains(csvs[0], "-of-") {
				sum, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
				if err != nil || !strings.Contains(out, string(sum)) {
					t.Errorf("summary.txt %q (%v), not in stdout", sum, err)
				}
				var want []string
				for _, f := range c.files {
					want = append(want, filepath.Join(dir, f))
				}
				if len(want) > 0 && !strings.Contains(out, "plots: "+strings.Join(want, " ")+"\n") {
					t.Errorf("stdout does not list the plots %v:\n%s", c.files, out)
				}
			}
			if len(c.err) == 0 && errOut != "" {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// bench plot of a results file with no rows: the table and the plots say
// there is nothing.
func TestBenchPlotEmpty(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := cli(t, "bench", "--quiet", "--out", dir, "--experiments", "start", "--topology", "ring:{n}@5", "--seeds", "1", "--shard", "2/2"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := cli(t, "bench", "plot", "--out", dir, filepath.Join(dir, "results-2-of-2.csv"))
	if code != ExitOK || errOut != "elect: note: shards 1/2 are missing: the table and plots hold the others' runs only\n" || out != "no run completed: nothing to tabulate\nplots: none\n" {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// An experiment outside an algorithm's model (a crash for one that does not
// survive crashes) is left out with a note, so that a sweep of a user's
// algorithm measures it where it claims to work; --outside-model runs it.
func TestBenchOutsideModel(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := cli(t, "bench", "--quiet", "--out", dir, "--experiments", "start,crash", "--algos", "vkt,echo", "--topology", "grid:{n}x{n}@3", "--seeds", "1")
	if code != ExitOK || !strings.Contains(errOut, "elect: note: experiment crash skipped for echo: it crashes the leader, and the model does not survive crashes (Model.Crash)") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.csv"))
	if rows := strings.Count(string(b), "\n") - 1; err != nil || rows != 3 {
		t.Errorf("%d rows (%v), want 3: start for both, crash for vkt only", rows, err)
	}
	code, _, errOut = cli(t, "bench", "--quiet", "--out", dir, "--experiments", "crash", "--algos", "echo", "--topology", "ring:{n}@5")
	if code != ExitError || !strings.Contains(errOut, "no run left: every experiment is outside the models") {
		t.Errorf("nothing left to run: exit %d, stderr %q", code, errOut)
	}
}

// In an array job each task runs its own shard with the same command line:
// fuzz takes its block of runs from Slurm's variables, bench its share of
// the sweep from Kubernetes', and bench plot says which shards it lacks.
func TestShardsFromTheScheduler(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "0")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "2")
	var out, errOut bytes.Buffer
	if code := Run([]string{"fuzz", "--algo", "vkt", "--runs", "10", "--json", "--out", dir}, &out, &errOut); code != ExitOK {
		t.Fatalf("fuzz: exit %d: %s", code, errOut.String())
	}
	var r torture.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.First != 4 || r.Runs != 4 || !strings.Contains(errOut.String(), "Slurm array task 1 (shard 2 of 3)") {
		t.Errorf("fuzz in Slurm task 1 of 0-2: first %d, runs %d (%v); stderr %q; want runs 4-7", r.First, r.Runs, err, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"fuzz", "--algo", "vkt", "--runs", "10", "--json", "--shard", "1/1", "--out", dir}, &out, &errOut); code != ExitOK || json.Unmarshal(out.Bytes(), &r) != nil || r.Runs != 10 {
		t.Errorf("--shard 1/1 over the scheduler's: exit %d, %d runs", code, r.Runs)
	}

	for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX"} {
		os.Unsetenv(k)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	t.Setenv("JOB_COMPLETIONS", "2")
	out.Reset()
	errOut.Reset()
	args := []string{"bench", "--algos", "vkt", "--experiments", "start", "--topology", "ring:{n}@4,5", "--seeds", "1", "--out", dir, "--quiet"}
	if code := Run(args, &out, &errOut); code != ExitOK || !strings.Contains(out.String(), "results-1-of-2.csv") {
		t.Fatalf("bench in completion index 0 of 2: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"bench", "plot", filepath.Join(dir, "results-1-of-2.csv"), "--out", dir}, &out, &errOut); code != ExitOK || !strings.Contains(errOut.String(), "shards 2/2 are missing") {
		t.Errorf("plot of one shard of two: exit %d, stderr %q", code, errOut.String())
	}
}

func init() {
	// This test binary runs as elect bench for TestBenchKeepsRowsWhenCut.
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// On a line of 2,048 nodes a correct flood takes longer than the document's
// fixed bound (6s) to reach the far end: it is measured, not failed. The
// bounds that grow with the network hide no bug: each broken copy of the
// flood still breaks the specification there.
func TestBenchLongNetworks(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := cli(t, "bench", "--quiet", "--out", dir, "--experiments", "start", "--topology", "line:{n}@2048", "--seeds", "1",
		"--algos", "test-flood,test-broken-least,test-broken-noindex,test-broken-stuck,test-broken-two-leaders")
	if code != ExitViolation || !strings.Contains(errOut, "4 of 5 completed runs broke the specification") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	results := readResults(t, filepath.Join(dir, "results.csv"))
	for _, r := range results {
		if broken := r.Algorithm != "test-flood"; broken != (r.Violations > 0) {
			t.Errorf("%s: %d violations", r.Label(), r.Violations)
		}
	}
	// The flood has no timer: its bound is 8 crossings of 2,047 hops at 5ms.
	if flood := results[0]; flood.Liveness != bench.Crossings*2047*5*time.Millisecond {
		t.Errorf("the flood's liveness bound %v, want 8 crossings of 2,047 hops at 5ms", flood.Liveness)
	}
}

func readResults(t *testing.T, path string) []*bench.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := bench.ReadCSV(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// An output directory where the results cannot be written is refused
// before the first run (the whole sweep ran, then failed to write).
func TestBenchOutUnwritable(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(taken, "results.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		taken:                        "elect: --out: the results cannot be written: open " + filepath.Join(taken, "results.csv") + ": is a directory\n",
		filepath.Join(file, "under"): "elect: --out: mkdir " + file + ": not a directory\n",
	}
	if os.Geteuid() != 0 { // root writes anywhere
		locked := filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o555); err != nil {
			t.Fatal(err)
		}
		cases[locked] = "elect: --out: the results cannot be written: open " + filepath.Join(locked, "results.csv") + ": permission denied\n"
	}
	for out, want := range cases {
		// A run that fails would be listed had the sweep run.
		code, stdout, errOut := cli(t, "bench", "--quiet", "--out", out, "--experiments", "start", "--topology", "ring:{n}@2,5", "--seeds", "1")
		if code != ExitError || stdout != "" || errOut != want {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q, want %q", out, code, stdout, errOut, want)
		}
	}
}

// A sweep cut short keeps the rows of the runs it did: each is written as
// its run ends. This one is killed during its third run, which would take
// a minute; at its end the rows are in the sweep's order.
func TestBenchKeepsRowsWhenCut(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.csv")
	cmd := electCommand(t, "bench", "--quiet", "--jobs", "1", "--out", dir, "--algos", "vkt", "--experiments", "start",
		"--topology", "line:{n}@8,16,4096", "--seeds", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(time.Minute)
	for {
		b, _ := os.ReadFile(path)
		if strings.Count(string(b), "\n") >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no two rows in a minute: %q", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	rs := readResults(t, path)
	if len(rs) != 2 || rs[0].Topology != "line:8" || rs[1].Topology != "line:16" || rs[0].Elections == 0 {
		t.Fatalf("rows of the cut sweep: %+v", rs)
	}
	if code, _, errOut := cli(t, "bench", "plot", "--out", filepath.Join(dir, "plots"), path); code != ExitOK {
		t.Errorf("bench plot of the cut sweep's rows: exit %d: %s", code, errOut)
	}

	// On several cores the runs end in any order; the file ends in the
	// sweep's.
	code, _, errOut := cli(t, "bench", "--quiet", "--jobs", "3", "--out", dir, "--algos", "vkt", "--experiments", "start",
		"--topology", "ring:{n}@40,4,3", "--seeds", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for i, r := range readResults(t, path) {
		if r.Index != i {
			t.Fatalf("row %d holds run %d", i, r.Index)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".results-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// The help names exactly the files a sweep writes: the results, the
// summaries and every figure, of still and of moving networks.
func TestBenchHelpListsItsFiles(t *testing.T) {
	code, help, _ := cli(t, "bench", "--help")
	if code != ExitOK {
		t.Fatalf("help: exit %d", code)
	}
	files := map[string]bool{}
	for _, sweep := range [][]string{
		{"--experiments", "start,crash", "--algos", "vkt,vkt:medium=broadcast", "--topology", "ring:{n}@5,6"},
		{"--experiments", "mobile,start", "--speeds", "0,5", "--topology", "geometric:{n}:d10@16", "--duration", "40s"},
		{"--experiments", "start", "--topology", "ring:{n}@5", "--shard", "1/2"},
	} {
		dir := t.TempDir()
		if code, _, errOut := cli(t, append([]string{"bench", "--quiet", "--seeds", "1", "--out", dir}, sweep...)...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", sweep, code, errOut)
		}
		written, _ := os.ReadDir(dir)
		for _, f := range written {
			files[f.Name()] = true
		}
	}
	still, moving := bench.FigureNames()
	figures := map[string]bool{}
	for name := range files {
		switch name {
		case "results.csv", "summary.txt", "summary.csv", "results-1-of-2.csv":
			if !strings.Contains(help, strings.Replace(name, "1-of-2", "K-of-N", 1)) {
				t.Errorf("%s is written, not in the help", name)
			}
			continue
		}
		experiment, figure, ok := strings.Cut(strings.TrimSuffix(name, ".png"), "-")
		figure, moved := strings.CutSuffix(figure, "-moving")
		if !ok || !strings.HasSuffix(name, ".png") || !slices.Contains([]string{"start", "crash", "mobile"}, experiment) || moved && experiment == "mobile" ||
			!slices.Contains(append(slices.Clone(still), moving...), figure) {
			t.Errorf("%s is written, not in the help", name)
		}
		figures[figure] = true
	}
	for _, f := range append(still, moving...) {
		if !figures[f] {
			t.Errorf("the help lists %s, which no sweep wrote", f)
		}
		if !strings.Contains(help, f) {
			t.Errorf("the help lacks %s", f)
		}
	}
	for _, want := range []string{"summary.csv", "leaderless", "add -moving to the name", "results-K-of-N.csv"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q", want)
		}
	}
}
