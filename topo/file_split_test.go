package topo

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

// stream hides a reader's ReadAt and Size: read as a pipe is, by one
// worker.
type stream struct{ io.Reader }

// readPlans are the ways the split-reading tests read a text: in stretches
// of a few bytes, with blocks of a few bytes, from a sized reader and from
// a stream.
var readPlans = []readPlan{
	{workers: 1, block: 1, minStretch: 1, maxEdges: MaxEdges},
	{workers: 2, block: 3, minStretch: 1, maxEdges: MaxEdges},
	{workers: 3, block: 7, minStretch: 2, maxEdges: MaxEdges},
	{workers: 4, block: 64, minStretch: 1, maxEdges: MaxEdges},
	{workers: 2, block: 4096, minStretch: 16, maxEdges: MaxEdges},
}

// sameAsRef fails t unless reading text with plan, from a sized reader or
// a stream, gives what the reference reader gives: the same error, or the
// same graph, to its arrays.
func sameAsRef(t *testing.T, text string, plan readPlan, asStream bool) {
	t.Helper()
	want, werr := parseEdgeListRef("net.txt", strings.NewReader(text))
	sameAs(t, text, want, werr, plan, asStream)
}

// sameAs is sameAsRef given what the reference reader read.
func sameAs(t *testing.T, text string, want *Graph, werr error, plan readPlan, asStream bool) {
	t.Helper()
	var r io.Reader = strings.NewReader(text)
	if asStream {
		r = stream{r}
	}
	got, gerr := readEdges("net.txt", r, plan)
	what := fmt.Sprintf("%.80q (%d bytes) with %d workers, blocks of %d, from %v, stream %v",
		text, len(text), plan.workers, plan.block, plan.starts, asStream)
	switch {
	case (werr == nil) != (gerr == nil):
		t.Fatalf("%s: error %v, reference %v", what, gerr, werr)
	case werr != nil && werr.Error() != gerr.Error():
		t.Fatalf("%s: error\n%v\nreference\n%v", what, gerr, werr)
	case werr == nil && !sameGraph(got, want):
		t.Fatalf("%s: %d nodes %v, reference %d nodes %v", what, got.N(), got.Edges(), want.N(), want.Edges())
	}
}

// sameGraph is whether two graphs have the same arrays.
func sameGraph(a, b *Graph) bool {
	return slices.Equal(a.off, b.off) && slices.Equal(a.adj, b.adj)
}

// splitTexts are files whose reading depends on the lines before a cut:
// errors on either side of it, nodes lines on both, the largest id before
// a nodes line, comments and CRLF and a last line without "\n" where the
// cut may fall.
var splitTexts = []string{
	"0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n",
	"# a comment running across the middle of the file\n0 1\n1 2 # why\n\n2 3\n3 0",
	"0 1\r\n1 2\r\n2 3\r\n3 4\r\n4 5\r\n",
	"nodes 10\n0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n",
	"0 1\n1 2\n2 3\n3 4\n4 5\nnodes 10\n",
	"0 1\n1 2\nnodes 10\n3 4\n4 5\nnodes 11\n6 7\n",
	"nodes 10\n0 1\n1 2\n2 3\n3 4\nnodes 10\n",
	"0 9\n1 2\n2 3\n3 9\n4 5\nnodes 9\n",
	"0 1\n1 2\n2 3\n3 x\n4 5\n5 y\n",
	"0 1\n1 1\n2 3\n3 4\n4 4\n",
	"0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 6\n7 8\n",
	"0 1\n1 2\n\n\n  \n#\n2 3\n\t3 \t 4 \r\n",
	"3 1\n1 3\n3 1\n1 3\n2 0\n0 2\n",
	"0\u00a01\n1 2\n2\u20283\n",
	"nodes 3\n",
	"# nothing\n# at all\n\n",
	"",
	"\n",
	"0 1",
	"0 1\n1 2\n2 3 4\n",
	"00000000000000000000007 8\n8 2147483646\n1 2147483647\n",
}

// Every cut of every text into two stretches, and into three, reads as
// the reference does.
func TestEdgeListEveryCut(t *testing.T) {
	for _, text := range splitTexts {
		for c := range len(text) + 1 {
			for _, block := range []int{1, 5, 64} {
				plan := readPlan{block: block, maxEdges: MaxEdges, minStretch: 1, starts: []int64{0, int64(c)}}
				sameAsRef(t, text, plan, false)
				d := c + (len(text)-c)/2
				plan.starts = []int64{0, int64(c), int64(d)}
				sameAsRef(t, text, plan, false)
			}
		}
		for _, plan := range readPlans {
			sameAsRef(t, text, plan, false)
			sameAsRef(t, text, plan, true)
		}
	}
}

// A large file read in two: an error in the second half is numbered in
// the file; with errors in both, the first half's is the one.
func TestEdgeListErrorInSecondHalf(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	plan := readPlan{workers: 2, block: 4096, minStretch: 1024, maxEdges: MaxEdges}
	read := func(lines []string) error {
		_, err := readEdges("g.txt", strings.NewReader(strings.Join(lines, "")), plan)
		return err
	}
	second := slices.Clone(lines)
	second[15000] = "15000 x\n"
	err := read(second)
	if want := `g.txt:15001: "15000 x": node id "x" is not a non-negative integer`; err == nil || err.Error() != want {
		t.Errorf("error in the second half: %v, want %s", err, want)
	}
	both := slices.Clone(second)
	both[3000] = "3000 3000\n"
	err = read(both)
	if want := `g.txt:3001: "3000 3000": self-loop on node 3000`; err == nil || err.Error() != want {
		t.Errorf("errors in both halves: %v, want %s", err, want)
	}
	// A nodes line in each half: the second is the error, naming the
	// first by its line in the file.
	nodes := slices.Clone(lines)
	nodes[100], nodes[19000] = "nodes 30000\n", "nodes 30000\n"
	err = read(nodes)
	if want := `g.txt:19001: "nodes 30000": a second nodes line (the first is line 101)`; err == nil || err.Error() != want {
		t.Errorf("two nodes lines: %v, want %s", err, want)
	}
	// A nodes line late in the file bounds the ids of the first half.
	late := slices.Clone(lines)
	late[19999] = "nodes 20000\n" // the largest id is now 19999
	if err := read(late); err != nil {
		t.Errorf("a late nodes line: %v", err)
	}
	late[10] = "10 25000\n"
	err = read(late)
	if want := `g.txt:11: "10 25000": node id 25000 is not below the node count 20000 declared at line 20000`; err == nil || err.Error() != want {
		t.Errorf("largest id before a late nodes line: %v, want %s", err, want)
	}
}

// A file of a few hundred kilobytes is read by two workers, from the file
// itself, as the reference reads it, errors and all.
func TestEdgeListFileInStretches(t *testing.T) {
	if workers() < 2 {
		t.Skip("one processor: one worker")
	}
	var b strings.Builder
	b.WriteString("# a ring\n")
	for i := range 40000 {
		fmt.Fprintf(&b, "%d %d\r\n", i, (i+1)%40000)
	}
	good := b.String()
	dir := t.TempDir()
	for _, text := range []string{
		good,
		good + "nodes 40000",
		good[:len(good)/2] + "nodes 39999\n" + good[len(good)/2:],
		good[:len(good)/2] + "\n7 7\n" + good[len(good)/2:],
		strings.Replace(good, "30000 30001", "30000 3x001", 1),
		strings.Replace(strings.Replace(good, "30000 30001", "30000 3x001", 1), "200 201", "200 -201", 1),
	} {
		writeFile(t, dir, "ring.txt", text)
		path := dir + "/ring.txt"
		want, werr := parseEdgeListRef(path, strings.NewReader(text))
		got, gerr := readEdgeFile(path, "")
		switch {
		case (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error():
			t.Errorf("error %v, reference %v", gerr, werr)
		case werr == nil && !sameGraph(got, want):
			t.Errorf("%d nodes %d edges, reference %d nodes %d edges", got.N(), got.M(), want.N(), want.M())
		}
	}
}

// The edge limit counts the edges of every stretch before: the error is
// at the first edge past it, wherever the cut.
func TestEdgeListLimitAcrossStretches(t *testing.T) {
	text := "0 1\n1 2\n# a comment\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n"
	one, err := readEdges("g.txt", strings.NewReader(text), readPlan{workers: 1, block: 64, minStretch: 1, maxEdges: 5})
	want := `g.txt:7: "5 6": more than the limit of 5 edges`
	if one != nil || err == nil || err.Error() != want {
		t.Fatalf("one stretch: %v, want %s", err, want)
	}
	for c := range len(text) + 1 {
		for d := c; d <= len(text); d += 3 {
			plan := readPlan{block: 4, minStretch: 1, maxEdges: 5, starts: []int64{0, int64(c), int64(d)}}
			if _, err := readEdges("g.txt", strings.NewReader(text), plan); err == nil || err.Error() != want {
				t.Fatalf("cut at %d and %d: %v, want %s", c, d, err, want)
			}
		}
	}
	plan := readPlan{block: 4, minStretch: 1, maxEdges: 8, starts: []int64{0, 20, 30}}
	if g, err := readEdges("g.txt", strings.NewReader(text), plan); err != nil || g.M() != 8 {
		t.Errorf("exactly the limit: %v", err)
	}
}

// Lines at the length limit, in any stretch: a line of maxLine-1 bytes
// before its "\n" is read, one of maxLine is too long, as before.
func TestEdgeListLongLines(t *testing.T) {
	pad := func(n int) string { return "0 1" + strings.Repeat(" ", n-3) }
	for _, n := range []int{maxLine - 2, maxLine - 1, maxLine, maxLine + 1} {
		for _, text := range []string{
			"1 2\n" + pad(n) + "\n2 3\n",
			"1 2\n" + pad(n),
			"1 2\n" + pad(n-1) + "\r\n",
			pad(n) + "\n" + strings.Repeat("3 4\n", 1000),
		} {
			for _, plan := range []readPlan{
				{workers: 1, block: readBlock, minStretch: minStretch, maxEdges: MaxEdges},
				{workers: 2, block: 1000, minStretch: 1, maxEdges: MaxEdges},
				{block: readBlock, minStretch: 1, maxEdges: MaxEdges, starts: []int64{0, 2, 10, int64(len(text) - 5)}},
			} {
				sameAsRef(t, text, plan, false)
			}
			sameAsRef(t, text, readPlan{workers: 1, block: 1000, minStretch: 1, maxEdges: MaxEdges}, true)
		}
	}
}

// failing gives its text, then an error.
type failing struct{ text string }

func (f *failing) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, f.text)
	f.text = f.text[n:]
	return n, nil
}

// A read error is the error, after the errors of the whole lines read
// before it.
func TestEdgeListReadError(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0 1\n1 2\n2", "g.txt: disk on fire"},
		{"0 1\n1 x\n2", `g.txt:2: "1 x": node id "x"`},
	} {
		_, err := parseEdgeList("g.txt", &failing{c.text})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.text, err, c.want)
		}
	}
}

// A graph is built the same, to its arrays, from any cut of its edges
// into chunks, in any order, by any number of workers; self-loops and
// duplicates go.
func TestBuildAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 3000
	var edges []Edge
	for range 40000 {
		a, b := id(rng.IntN(n)), id(rng.IntN(n))
		edges = append(edges, Edge{a, b})
	}
	for range 200 { // a hub, whose list is sorted the general way
		edges = append(edges, Edge{7, id(rng.IntN(n))})
	}
	want := buildCSR[int](n, [][][]Edge{{edges}})
	for k := 1; k <= 5; k++ {
		shuffled := slices.Clone(edges)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		var chunks [][]Edge
		for rest := shuffled; len(rest) > 0; {
			m := min(len(rest), 1+rng.IntN(5000))
			chunks, rest = append(chunks, rest[:m]), rest[m:]
		}
		got := buildCSR[int32](n, splitEdges(chunks, len(edges), k))
		if !sameGraph(got, want) {
			t.Fatalf("%d workers: a different graph", k)
		}
	}
	for v := range n {
		list := want.Neighbors(id(v))
		if !slices.IsSorted(list) || len(slices.Compact(slices.Clone(list))) != len(list) || slices.Contains(list, id(v)) {
			t.Fatalf("node %d: list %v", v, list)
		}
	}
	if !sameGraph(New(n, edges), want) {
		t.Error("New differs")
	}
}

// splitEdges deals every edge, in order, into groups of about equal size.
func TestSplitEdges(t *testing.T) {
	chunks := [][]Edge{make([]Edge, 5), make([]Edge, 0), make([]Edge, 7), make([]Edge, 1)}
	for k := 1; k <= 15; k++ {
		groups := splitEdges(chunks, 13, k)
		if len(groups) != k {
			t.Fatalf("%d groups for k = %d", len(groups), k)
		}
		total := 0
		for g, group := range groups {
			size := 0
			for _, c := range group {
				size += len(c)
			}
			if size != (g+1)*13/k-g*13/k {
				t.Errorf("k = %d: group %d has %d edges", k, g, size)
			}
			total += size
		}
		if total != 13 {
			t.Errorf("k = %d: %d edges in all", k, total)
		}
	}
}

// sortShort sorts as slices.Sort does, duplicates and all.
func TestSortShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range maxShortList + 8 {
		for range 300 {
			list := make([]algo.NodeID, n)
			for i := range list {
				list[i] = id(rng.IntN(2 + n/2))
			}
			got := slices.Clone(list)
			sortShort(got)
			slices.Sort(list)
			if !slices.Equal(got, list) {
				t.Fatalf("sortShort: %v, want %v", got, list)
			}
		}
	}
}

// A panic in a build worker, such as New's on an endpoint out of range,
// reaches New's caller.
func TestNewPanicsOnCaller(t *testing.T) {
	edges := make([]Edge, 4*minBuildShare)
	for i := range edges {
		edges[i] = Edge{0, 1}
	}
	edges[len(edges)-1] = Edge{0, 5}
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	New(2, edges)
}
