package topo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// parseEdgeListRef is the edge-list reader as it was before it was made
// fast: one string and one slice of fields a line. FuzzEdgeListSame holds
// the fast one to its results, error messages included.
func parseEdgeListRef(name string, f io.Reader) (*Graph, error) {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var (
		edges     []Edge
		declared  = 0 // K of the "nodes K" line, 0 if none yet
		declLine  = 0
		maxID     = -1
		maxLine   = 0 // line and text of the first edge naming maxID
		maxText   = ""
		lineNo    = 0
		lineError = func(text, format string, args ...any) error {
			return fmt.Errorf("%s:%d: %q: %s", name, lineNo, text, fmt.Sprintf(format, args...))
		}
	)
	for sc.Scan() {
		lineNo++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "nodes" {
			if len(fields) != 2 {
				return nil, lineError(text, `expected "nodes K"`)
			}
			if declared != 0 {
				return nil, lineError(text, "a second nodes line (the first is line %d)", declLine)
			}
			k, err := parsePosInt("node count", fields[1])
			if err != nil {
				return nil, lineError(text, "%v", err)
			}
			declared, declLine = k, lineNo
			continue
		}
		if len(fields) != 2 {
			return nil, lineError(text, `expected an edge "a b" or a line "nodes K"`)
		}
		a, err := parseNodeID(fields[0])
		if err != nil {
			return nil, lineError(text, "%v", err)
		}
		b, err := parseNodeID(fields[1])
		if err != nil {
			return nil, lineError(text, "%v", err)
		}
		if a == b {
			return nil, lineError(text, "self-loop on node %d", a)
		}
		if len(edges) == MaxEdges {
			return nil, lineError(text, "more than the limit of %d edges", MaxEdges)
		}
		if m := max(a, b); m > maxID {
			maxID, maxLine, maxText = m, lineNo, text
		}
		edges = append(edges, Edge{id(a), id(b)})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long", name, lineNo+1)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n := maxID + 1
	if declared != 0 {
		if maxID >= declared {
			return nil, fmt.Errorf("%s:%d: %q: node id %d is not below the node count %d declared at line %d",
				name, maxLine, maxText, maxID, declared, declLine)
		}
		n = declared
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no edges and no \"nodes K\" line", name)
	}
	return New(n, edges), nil
}

// FuzzEdgeListSame holds the fast edge-list reader to the results of the
// one before it: the same graph, or the same error, for any input, and
// for any way of cutting the input among workers.
func FuzzEdgeListSame(f *testing.F) {
	for _, s := range []string{
		"0 1\n1 2\n", "nodes 5\n0 1\n", "# comment\n0 1 # edge\n\n", "nodes 3\nnodes 3\n", "0 0\n",
		"0\n", "a b\n", "0 1 2\n", "nodes 2\n0 5\n", "", "nodes 0\n", "nodes -1\n", "nodes 1\n",
		"0 16777216\n", "\xff\xfe 1\n", "0\t1\r\n1 2", "0\u00a01\n", "1 2\u2028\n", " nodes  4 \r\n\v3\f2\n",
		"0 1\r\r\n", "\r\n", "nodes 3 # x\n2 0\n2 1\n", "5 1\n9 2\n3 9\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want, werr := parseEdgeListRef("net.txt", strings.NewReader(text))
		got, gerr := parseEdgeList("net.txt", strings.NewReader(text))
		switch {
		case (werr == nil) != (gerr == nil):
			t.Fatalf("%q: error %v, before %v", text, gerr, werr)
		case werr != nil && werr.Error() != gerr.Error():
			t.Fatalf("%q: error\n%v\nbefore\n%v", text, gerr, werr)
		case werr == nil && (got.N() != want.N() || !slices.Equal(got.Edges(), want.Edges())):
			t.Fatalf("%q: %d nodes %v, before %d nodes %v", text, got.N(), got.Edges(), want.N(), want.Edges())
		}
		// Cut in stretches of a few bytes, read side by side, and read as
		// a stream, in blocks of a few bytes: not for a large graph ("0
		// 1000000"), whose building, ten times over, would only slow the
		// fuzzing down.
		if werr == nil && want.N() > 1000 {
			return
		}
		for _, plan := range readPlans {
			sameAs(t, text, want, werr, plan, false)
			sameAs(t, text, want, werr, plan, true)
		}
	})
}
