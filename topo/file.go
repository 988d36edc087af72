package topo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// readEdgeFile reads the edge list of file:path (format in Spec.Build), path
// resolved against baseDir when relative.
func readEdgeFile(path, baseDir string) (*Graph, error) {
	name := path
	if baseDir != "" && !filepath.IsAbs(path) {
		name = filepath.Join(baseDir, path)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseEdgeList(name, f)
}

// parseEdgeList parses an edge list; name labels errors.
func parseEdgeList(name string, f io.Reader) (*Graph, error) {
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

// parseNodeID parses a node id of an edge-list file: decimal digits, below
// MaxNodes.
func parseNodeID(s string) (int, error) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("node id %q is not a non-negative integer", s)
		}
		v = v*10 + int(c-'0')
		if v >= MaxNodes {
			return 0, fmt.Errorf("node id %q exceeds the largest allowed id %d", s, MaxNodes-1)
		}
	}
	return v, nil
}
