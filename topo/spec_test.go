package topo

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		spec  string
		nodes int
		want  Spec
		canon string
	}{
		{"line:5", 0, Spec{Kind: KindLine, N: 5}, "line:5"},
		{" Ring:007 ", 0, Spec{Kind: KindRing, N: 7}, "ring:7"},
		{"star:1", 0, Spec{Kind: KindStar, N: 1}, "star:1"},
		{"complete:20000", 0, Spec{Kind: KindComplete, N: 20000}, "complete:20000"},
		{"tree:16777216", 0, Spec{Kind: KindTree, N: 16777216}, "tree:16777216"},
		{"grid:3x4", 0, Spec{Kind: KindGrid, W: 3, H: 4, N: 12}, "grid:3x4"},
		{"grid:3X4", 0, Spec{Kind: KindGrid, W: 3, H: 4, N: 12}, "grid:3x4"},
		{"grid: 3 x 4 ", 0, Spec{Kind: KindGrid, W: 3, H: 4, N: 12}, "grid:3x4"},
		{"geometric:100:50", 0, Spec{Kind: KindGeometric, N: 100, Range: 50, Width: 1000, Height: 1000}, "geometric:100:50"},
		{"geometric:100:1.8:1000x1000", 0, Spec{Kind: KindGeometric, N: 100, Range: 1.8, Width: 1000, Height: 1000}, "geometric:100:1.8"},
		{"geometric:100:2.50:500x200.5", 0, Spec{Kind: KindGeometric, N: 100, Range: 2.5, Width: 500, Height: 200.5}, "geometric:100:2.5:500x200.5"},
		{"geometric:10:1e2:1e4x.5", 0, Spec{Kind: KindGeometric, N: 10, Range: 100, Width: 10000, Height: 0.5}, "geometric:10:100:10000x0.5"},
		{"gnp:100:0.25", 0, Spec{Kind: KindGNP, N: 100, P: 0.25}, "gnp:100:0.25"},
		{"gnp:100:0", 0, Spec{Kind: KindGNP, N: 100}, "gnp:100:0"},
		{"gnp:100:-0", 0, Spec{Kind: KindGNP, N: 100}, "gnp:100:0"},
		{"gnp:100:1", 0, Spec{Kind: KindGNP, N: 100, P: 1}, "gnp:100:1"},
		{"gnp:100:1e-5", 0, Spec{Kind: KindGNP, N: 100, P: 1e-5}, "gnp:100:1e-05"},
		{"ba:100:3", 0, Spec{Kind: KindBA, N: 100, M: 3}, "ba:100:3"},
		{"layered:4", 0, Spec{Kind: KindLayered, L: 4, N: 45}, "layered:4"},
		{"layered:22", 0, Spec{Kind: KindLayered, L: 22, N: 3 * (1<<22 - 1)}, "layered:22"},
		{"file:edges.txt", 0, Spec{Kind: KindFile, Path: "edges.txt"}, "file:edges.txt"},
		{"file:C:\\nets\\a b.txt", 0, Spec{Kind: KindFile, Path: "C:\\nets\\a b.txt"}, "file:C:\\nets\\a b.txt"},
		// The nodes override.
		{"ring", 10, Spec{Kind: KindRing, N: 10}, "ring:10"},
		{"ring:", 10, Spec{Kind: KindRing, N: 10}, "ring:10"},
		{"ring:5", 10, Spec{Kind: KindRing, N: 10}, "ring:10"},
		{"line", 1, Spec{Kind: KindLine, N: 1}, "line:1"},
		{"tree:3", 7, Spec{Kind: KindTree, N: 7}, "tree:7"},
		{"complete", 4, Spec{Kind: KindComplete, N: 4}, "complete:4"},
		{"geometric::20", 50, Spec{Kind: KindGeometric, N: 50, Range: 20, Width: 1000, Height: 1000}, "geometric:50:20"},
		{"geometric:5:20:300x400", 50, Spec{Kind: KindGeometric, N: 50, Range: 20, Width: 300, Height: 400}, "geometric:50:20:300x400"},
		{"gnp::0.5", 8, Spec{Kind: KindGNP, N: 8, P: 0.5}, "gnp:8:0.5"},
		{"ba:3:2", 9, Spec{Kind: KindBA, N: 9, M: 2}, "ba:9:2"},
	}
	for _, c := range cases {
		got, err := Parse(c.spec, c.nodes)
		if err != nil {
			t.Errorf("Parse(%q, %d): %v", c.spec, c.nodes, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q, %d) = %+v, want %+v", c.spec, c.nodes, got, c.want)
		}
		if s := got.String(); s != c.canon {
			t.Errorf("Parse(%q, %d).String() = %q, want %q", c.spec, c.nodes, s, c.canon)
		}
		back, err := Parse(got.String(), 0)
		if err != nil || back != got {
			t.Errorf("round trip of %q: Parse(%q) = %+v, %v", c.spec, got.String(), back, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		spec  string
		nodes int
		want  []string // substrings of the error
	}{
		{"", 0, []string{"empty", "line:N", "file:PATH"}},
		{"   ", 0, []string{"empty"}},
		{"hypercube:4", 0, []string{`"hypercube:4"`, `unknown kind "hypercube"`, "geometric:N:RANGE[:WxH]", "layered:L", "ba:N:M"}},
		{":5", 0, []string{`unknown kind ""`}},
		{"line", 0, []string{`topology "line"`, "missing node count", "line:N"}},
		{"line:", 0, []string{"missing node count"}},
		{"line:0", 0, []string{`node count "0" is not a positive integer`}},
		{"line:-3", 0, []string{`node count "-3" is not a positive integer`}},
		{"line:+3", 0, []string{`"+3"`}},
		{"line:3.0", 0, []string{`"3.0"`}},
		{"line:1e3", 0, []string{`"1e3"`}},
		{"line:abc", 0, []string{`node count "abc" is not a positive integer`}},
		{"line:5:6", 0, []string{"too many", "line:N"}},
		{"line:2147483648", 0, []string{`"2147483648"`, "2147483647"}},
		{"line:99999999999999999999999", 0, []string{"limit"}},
		{"ring:2", 0, []string{"ring needs at least 3 nodes, got 2"}},
		{"ring:5", 2, []string{"nodes=2", "at least 3"}},
		{"ring:x", 10, []string{`node count "x"`}},
		{"line:4", -1, []string{"nodes=-1 is negative"}},
		{"complete:100000", 0, []string{`"complete:100000"`, "4999950000 edges", "1000000000"}},
		{"complete:44722", 0, []string{"limit of 1000000000"}},
		{"grid", 0, []string{"missing WxH", "grid:WxH"}},
		{"grid:3", 0, []string{`size "3" is not of the form WxH`}},
		{"grid:3xq", 0, []string{`topology "grid:3xq": height "q" is not a positive integer`}},
		{"grid:qx3", 0, []string{`width "q" is not a positive integer`}},
		{"grid:0x3", 0, []string{`width "0"`}},
		{"grid:3x", 0, []string{"height is empty"}},
		{"grid:3x4x5", 0, []string{`height "4x5"`}},
		{"grid:3x4:5", 0, []string{"too many", "grid:WxH"}},
		{"grid:50000x50000", 0, []string{"limit of 2147483647 nodes"}},
		{"grid:3x4", 12, []string{"nodes=12", "grid takes its node count from WxH"}},
		{"layered", 0, []string{"missing level count L", "layered:L"}},
		{"layered:0", 0, []string{`level count L "0"`}},
		{"layered:30", 0, []string{"L <= 29"}},
		{"layered:4", 45, []string{"nodes=45", "layered takes its node count from L"}},
		{"layered:2:3", 0, []string{"too many"}},
		{"file", 0, []string{"missing PATH", "file:PATH"}},
		{"file:  ", 0, []string{"missing PATH"}},
		{"file:x.txt", 3, []string{"nodes=3", "file takes its node count from the file"}},
		{"geometric", 0, []string{"missing RANGE", "geometric:N:RANGE[:WxH]"}},
		{"geometric:100", 0, []string{"missing RANGE"}},
		{"geometric:100:0", 0, []string{`range "0" is not a positive number`}},
		{"geometric:100:-5", 0, []string{`range "-5"`}},
		{"geometric:100:NaN", 0, []string{`range "NaN"`}},
		{"geometric:100:Inf", 0, []string{`range "Inf"`}},
		{"geometric:100:1e400", 0, []string{`range "1e400"`}},
		{"geometric:100:0x1p3", 0, []string{`range "0x1p3"`}},
		{"geometric:100:1_0", 0, []string{`range "1_0"`}},
		{"geometric:100:5:500", 0, []string{`area "500" is not of the form WxH`}},
		{"geometric:100:5:0x500", 0, []string{`area width "0" is not a positive number`}},
		{"geometric:100:5:500xinf", 0, []string{`area height "inf"`}},
		{"geometric:100:5:500x500:1", 0, []string{"too many", "geometric:N:RANGE[:WxH]"}},
		{"geometric::5", 0, []string{"missing node count"}},
		{"geometric:1000000:100", 0, []string{"expects about", "limit of 1000000000"}},
		{"geometric:5", 10, []string{"missing RANGE", "geometric::RANGE"}},
		{"gnp:100", 0, []string{"missing edge probability P", "gnp:N:P"}},
		{"gnp:0.5", 100, []string{"missing edge probability P", "gnp::P"}},
		{"gnp:100:1.5", 0, []string{`edge probability "1.5" is not a number between 0 and 1`}},
		{"gnp:100:-0.1", 0, []string{`"-0.1"`}},
		{"gnp:100:p", 0, []string{`"p"`}},
		{"gnp:100:0.5:1", 0, []string{"too many"}},
		{"gnp:16777216:0.5", 0, []string{"expects about", "limit"}},
		{"ba:100", 0, []string{"missing edges per node M", "ba:N:M"}},
		{"ba:100:0", 0, []string{`edges per node M "0"`}},
		{"ba:100:100", 0, []string{"1 <= M < N", "M=100", "N=100"}},
		{"ba:1:1", 0, []string{"1 <= M < N"}},
		{"ba:100:x", 0, []string{`edges per node M "x"`}},
		{"ba:30000000:50", 0, []string{"limit of 1000000000"}},
	}
	for _, c := range cases {
		s, err := Parse(c.spec, c.nodes)
		if err == nil {
			t.Errorf("Parse(%q, %d) = %+v, want an error", c.spec, c.nodes, s)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%q, %d) error %q does not mention %q", c.spec, c.nodes, err, w)
			}
		}
		if !strings.Contains(err.Error(), "topology "+strconv.Quote(c.spec)) {
			t.Errorf("Parse(%q, %d) error %q does not name the spec", c.spec, c.nodes, err)
		}
	}
}

// ParseNodes takes a count given on its own at its word, 0 included: it
// says what the family needs rather than "missing node count".
func TestParseNodes(t *testing.T) {
	for _, c := range []struct {
		spec  string
		nodes int
		want  string // in the error; "" for none
	}{
		{"ring", 0, `topology "ring" (nodes=0): ring needs at least 3 nodes, got 0`},
		{"ring:5", 0, "ring needs at least 3 nodes, got 0"},
		{"ring", 2, "ring needs at least 3 nodes, got 2"},
		{"line", 0, "line needs at least 1 node, got 0"},
		{"geometric::250", 0, "geometric needs at least 1 node, got 0"},
		{"ba::1", 1, "ba needs at least 2 nodes, got 1"},
		{"grid:3x4", 0, "nodes=0 given, but grid takes its node count from WxH"},
		{"layered:2", 0, "nodes=0 given, but layered takes its node count"},
		{"file:x.txt", 0, "nodes=0 given, but file takes its node count"},
		{"line", -2, "nodes=-2 is negative"},
		{"ring", 3, ""},
		{"line:9", 1, ""},
	} {
		s, err := ParseNodes(c.spec, c.nodes)
		switch {
		case c.want == "" && (err != nil || s.N != c.nodes):
			t.Errorf("ParseNodes(%q, %d) = %+v, %v; want %d nodes", c.spec, c.nodes, s, err, c.nodes)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("ParseNodes(%q, %d) error %v, want one holding %q", c.spec, c.nodes, err, c.want)
		}
	}
}

// geometric:N:dDEG picks the range that gives DEG neighbours on average; it
// round-trips in that form, follows the nodes override, and the graphs it
// builds have about that mean degree (a little less: border nodes have
// fewer neighbours).
func TestGeometricDegree(t *testing.T) {
	s, err := Parse("geometric:2000:d10", 0)
	if err != nil || s.Degree != 10 || s.String() != "geometric:2000:d10" {
		t.Fatalf("%+v %v %q", s, err, s.String())
	}
	if want := RangeForDegree(10, 2000, 1000, 1000); s.Range != want {
		t.Errorf("range %v, want %v", s.Range, want)
	}
	g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
	if err != nil {
		t.Fatal(err)
	}
	if mean := 2 * float64(g.M()) / float64(g.N()); mean < 8.5 || mean > 10.5 {
		t.Errorf("mean degree %.2f, want about 10", mean)
	}
	o, err := Parse("geometric:5:d10", 3000)
	if err != nil || o.N != 3000 || o.Range != RangeForDegree(10, 3000, 1000, 1000) {
		t.Errorf("override: %+v %v", o, err)
	}
	for _, bad := range []string{"geometric:10:d", "geometric:10:d-3", "geometric:10:dx"} {
		if _, err := Parse(bad, 0); err == nil || !strings.Contains(err.Error(), "mean degree") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
