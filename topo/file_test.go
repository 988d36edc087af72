package topo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFileGood(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		text  string
		n     int
		edges []Edge
	}{
		{"0 1\n1 2\n", 3, []Edge{{0, 1}, {1, 2}}},
		{"# a triangle\n\n0 1   # first\n1\t2\r\n  2 0  \n#end", 3, []Edge{{0, 1}, {0, 2}, {1, 2}}},
		{"3 1\n1 3\n3 1\n", 4, []Edge{{1, 3}}}, // duplicates kept once; 0 and 2 isolated
		{"nodes 10\n0 1\n", 10, []Edge{{0, 1}}},
		{"0 1\nnodes 2 # after the edges\n", 2, []Edge{{0, 1}}},
		{"nodes 5\n", 5, nil},
		{"007 0010\n", 11, []Edge{{7, 10}}},
		{"0 1000000\n", 1000001, []Edge{{0, 1000000}}},
	}
	for i, c := range cases {
		writeFile(t, dir, "g.txt", c.text)
		// Relative to baseDir, and absolute with any baseDir.
		for _, s := range []struct{ path, base string }{{"g.txt", dir}, {filepath.Join(dir, "g.txt"), "/nonexistent"}} {
			spec, err := Parse("file:"+s.path, 0)
			if err != nil {
				t.Fatal(err)
			}
			g, err := spec.Build(nil, s.base)
			if err != nil {
				t.Errorf("case %d: %v", i, err)
				continue
			}
			if g.N() != c.n || !slices.Equal(g.Edges(), sortedOrNil(c.edges)) {
				t.Errorf("case %d (%q): %d nodes %v, want %d %v", i, c.text, g.N(), g.Edges(), c.n, c.edges)
			}
		}
	}
	// "" is the working directory.
	t.Chdir(dir)
	writeFile(t, dir, "w.txt", "0 1\n")
	g, err := Spec{Kind: KindFile, Path: "w.txt"}.Build(nil, "")
	if err != nil || g.M() != 1 {
		t.Errorf("file relative to the working directory: %v", err)
	}
}

func sortedOrNil(e []Edge) []Edge {
	if len(e) == 0 {
		return []Edge{}
	}
	return sortedEdges(e)
}

func TestFileBad(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		text string
		want []string
	}{
		{"0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n3 x\n", []string{`edges.txt:7: "3 x": node id "x" is not a non-negative integer`}},
		{"0 1\n-1 2\n", []string{`edges.txt:2: "-1 2": node id "-1"`}},
		{"0 1.5\n", []string{`:1: "0 1.5": node id "1.5"`}},
		{"\n\n4 4 # loop\n", []string{`edges.txt:3: "4 4": self-loop on node 4`}},
		{"0 1 2\n", []string{`:1: "0 1 2": expected an edge`}},
		{"7\n", []string{`:1: "7": expected an edge`}},
		{"nodes\n", []string{`:1: "nodes": expected "nodes K"`}},
		{"nodes 3 4\n", []string{`"nodes 3 4": expected "nodes K"`}},
		{"nodes 0\n", []string{`:1: "nodes 0": node count "0" is not a positive integer`}},
		{"nodes x\n", []string{`node count "x"`}},
		{"nodes 3\nnodes 4\n", []string{`:2: "nodes 4": a second nodes line (the first is line 1)`}},
		{"nodes 4\n0 1\n2 5\n1 2\n", []string{`edges.txt:3: "2 5": node id 5 is not below the node count 4 declared at line 1`}},
		{"0 9\n1 2\nnodes 9\n", []string{`edges.txt:1: "0 9": node id 9 is not below the node count 9 declared at line 3`}},
		{"0 2147483647\n", []string{`node id "2147483647" exceeds the largest allowed id 2147483646`}},
		{"0 99999999999999999999999999\n", []string{`exceeds the largest allowed id`}},
		{"", []string{`edges.txt: no edges and no "nodes K" line`}},
		{"# only a comment\n\n", []string{"no edges"}},
		{"0 1\n" + strings.Repeat("9", 2<<20) + "\n", []string{"edges.txt:2: line too long"}},
	}
	for _, c := range cases {
		writeFile(t, dir, "edges.txt", c.text)
		_, err := Spec{Kind: KindFile, Path: "edges.txt"}.Build(nil, dir)
		if err == nil {
			t.Errorf("%q: no error", c.text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%.40q: error %q does not mention %q", c.text, err, w)
			}
		}
	}
	_, err := Spec{Kind: KindFile, Path: "missing.txt"}.Build(nil, dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing.txt")) {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseNodeIDLimit(t *testing.T) {
	if v, err := parseNodeID("2147483646"); err != nil || v != MaxNodes-1 {
		t.Errorf("parseNodeID(2147483646) = %d, %v", v, err)
	}
	if _, err := parseNodeID("2147483647"); err == nil {
		t.Error("parseNodeID(2147483647) accepted")
	}
}
