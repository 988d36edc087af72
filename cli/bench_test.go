package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"bench", "--seeds", "0"}, "--seeds: 0, want at least 1"},
		{[]string{"bench", "--format", "gif"}, `--format: "gif", want png or svg`},
		{[]string{"bench", "plot", "/no/such.csv"}, "no such file"},
		{[]string{"bench", "--experiments", "mobile"}, "experiment mobile moves the nodes: give it speeds"},
		{[]string{"bench", "--speeds", "1,fast"}, `--speeds: invalid speed "fast"`},
		{[]string{"bench", "--speeds", "1", "--mobility", "hover:{v}"}, `--mobility "hover:{v}": `},
		{[]string{"bench", "--duration", "long"}, `--duration: invalid duration "long"`},
	} {
		code, out, errOut := cli(t, c.args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
}
