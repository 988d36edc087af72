package topo

import (
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that whatever it accepts is valid
// for Build and survives the round trip through String, and that its errors
// name the spec.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"line:5", "ring:3", "star:1", "complete:20000", "tree:16777216", "grid:3x4", "grid:1X1",
		"geometric:100:1.8", "geometric:100:2.5:500x200.5", "geometric:10:1e-3:1e3x.5", "gnp:100:0.25",
		"gnp:100:-0", "gnp:5:1e-300", "ba:100:3", "layered:4", "layered:22", "file:edges.txt", "file:a:b:c",
		"ring", "ring:", "gnp::0.5", "geometric::20", "", " ", ":", "::", "line:0", "line:-1", "ring:2",
		"grid:3xq", "grid:x", "grid:0x0", "geometric:100:NaN", "geometric:100:5:0x1p3x4", "gnp:10:2",
		"ba:5:5", "layered:23", "complete:100000", "hypercube:4", "GEOMETRIC:1:1:1x1", "line:1e3",
		"geometric:16777216:1e-300:1e300x1e300", "geometric:3:1e300", "gnp:16777216:1e-10",
	} {
		f.Add(s, 0)
		f.Add(s, 10)
	}
	f.Add("ring:5", -3)
	f.Add("grid:3x4", 12)
	f.Fuzz(func(t *testing.T, spec string, nodes int) {
		s, err := Parse(spec, nodes)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "topology ") {
				t.Fatalf("Parse(%q, %d): error %q does not name the spec", spec, nodes, err)
			}
			if s != (Spec{}) {
				t.Fatalf("Parse(%q, %d): error with a non-zero Spec %+v", spec, nodes, s)
			}
			return
		}
		if err := s.check(); err != nil {
			t.Fatalf("Parse(%q, %d) = %+v, which check refuses: %v", spec, nodes, s, err)
		}
		canon := s.String()
		back, err := Parse(canon, 0)
		if err != nil {
			t.Fatalf("Parse(%q, %d) = %+v, but Parse(%q, 0): %v", spec, nodes, s, canon, err)
		}
		if back != s {
			t.Fatalf("Parse(%q, %d) = %+v, Parse(%q, 0) = %+v", spec, nodes, s, canon, back)
		}
		if again := back.String(); again != canon {
			t.Fatalf("String not canonical: %q then %q", canon, again)
		}
		if nodes > 0 && s.Kind != KindFile && s.Kind != KindGrid && s.Kind != KindLayered && s.N != nodes {
			t.Fatalf("Parse(%q, %d): N = %d, not the nodes override", spec, nodes, s.N)
		}
		// Build small graphs, to check that what Parse accepts builds.
		if s.Kind != KindFile && s.N <= 200 && (s.Kind != KindComplete || s.N <= 50) {
			g, err := s.Build(newRand(1), "")
			if err != nil {
				t.Fatalf("Build(%q): %v", canon, err)
			}
			if g.N() != s.N {
				t.Fatalf("Build(%q): %d nodes, Spec.N %d", canon, g.N(), s.N)
			}
		}
	})
}

// FuzzEdgeList checks that the edge-list reader of file:PATH topologies
// never panics, that what it accepts is a graph whose edges join distinct
// nodes of it, and that its errors name the file.
func FuzzEdgeList(f *testing.F) {
	for _, s := range []string{
		"0 1\n1 2\n", "nodes 5\n0 1\n", "# comment\n0 1 # edge\n\n", "nodes 3\nnodes 3\n", "0 0\n",
		"0\n", "a b\n", "0 1 2\n", "nodes 2\n0 5\n", "", "nodes 0\n", "nodes -1\n", "nodes 1\n",
		"0 16777216\n", "\xff\xfe 1\n", "0\t1\r\n1 2", strings.Repeat("0 1\n", 100),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := parseEdgeList("net.txt", strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "net.txt") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if g.N() < 1 {
			t.Fatalf("accepted a graph of %d nodes", g.N())
		}
		for _, e := range g.Edges() {
			if e.A == e.B || int(e.A) >= g.N() || int(e.B) >= g.N() || e.A < 0 || e.B < 0 {
				t.Fatalf("edge %v in a graph of %d nodes", e, g.N())
			}
		}
	})
}
