package topo

import (
	"bufio"
	"bytes"
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

// parseEdgeList parses an edge list; name labels errors. A million-node
// file has five million lines: each is parsed in place in the reader's
// buffer, with no allocation, and only a line with a byte outside ASCII
// takes the general path (strings.Fields, for Unicode spaces).
func parseEdgeList(name string, r io.Reader) (*Graph, error) {
	br := bufio.NewReaderSize(r, maxLine)
	var (
		chunks    [][]Edge // of edgeChunk edges each, the last one filling
		edges     int
		declared  = 0 // K of the "nodes K" line, 0 if none yet
		declLine  = 0
		maxID     = -1
		maxLineNo = 0    // line and text of the first edge naming maxID
		maxText   []byte // (kept in one buffer: ids rise line after line in a sorted file)
		lineNo    = 0
		fields    [3][]byte // a line's first fields; n counts them all
		lineError = func(text []byte, format string, args ...any) error {
			return fmt.Errorf("%s:%d: %q: %s", name, lineNo, text, fmt.Sprintf(format, args...))
		}
	)
	for {
		line, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%s:%d: line too long", name, lineNo+1)
		}
		if rerr != nil && rerr != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, rerr)
		}
		if len(line) == 0 && rerr == io.EOF {
			break
		}
		lineNo++
		text := trimLine(line)
		n, ascii := splitFields(text, &fields)
		if !ascii {
			// Unicode spaces: the general rule of strings.Fields.
			f := strings.Fields(string(text))
			n = len(f)
			for i := range min(n, len(fields)) {
				fields[i] = []byte(f[i])
			}
		}
		switch {
		case n == 0:
		case string(fields[0]) == "nodes":
			if n != 2 {
				return nil, lineError(text, `expected "nodes K"`)
			}
			if declared != 0 {
				return nil, lineError(text, "a second nodes line (the first is line %d)", declLine)
			}
			k, err := parsePosInt("node count", string(fields[1]))
			if err != nil {
				return nil, lineError(text, "%v", err)
			}
			declared, declLine = k, lineNo
		case n != 2:
			return nil, lineError(text, `expected an edge "a b" or a line "nodes K"`)
		default:
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
			if edges == MaxEdges {
				return nil, lineError(text, "more than the limit of %d edges", MaxEdges)
			}
			if m := max(a, b); m > maxID {
				maxID, maxLineNo, maxText = m, lineNo, append(maxText[:0], text...)
			}
			if len(chunks) == 0 || len(chunks[len(chunks)-1]) == edgeChunk {
				chunks = append(chunks, make([]Edge, 0, edgeChunk))
			}
			last := &chunks[len(chunks)-1]
			*last = append(*last, Edge{id(a), id(b)})
			edges++
		}
		if rerr == io.EOF {
			break
		}
	}
	n := maxID + 1
	if declared != 0 {
		if maxID >= declared {
			return nil, fmt.Errorf("%s:%d: %q: node id %d is not below the node count %d declared at line %d",
				name, maxLineNo, maxText, maxID, declared, declLine)
		}
		n = declared
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no edges and no \"nodes K\" line", name)
	}
	return fromChunks(n, chunks), nil
}

// edgeChunk is how many edges the reader keeps in one chunk: 512 KiB.
const edgeChunk = 1 << 16

// maxLine is the longest line an edge list may have, its end included.
const maxLine = 1 << 20

// trimLine is a line as a reader of lines gives it (without its "\n" and a
// "\r" before it), without a comment and without the spaces around it.
func trimLine(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return bytes.TrimSpace(line)
}

// splitFields puts the first fields of an ASCII line, split at ASCII white
// space, in fields and returns how many there are in all; ascii is false,
// and the count meaningless, when the line holds a byte outside ASCII.
func splitFields(line []byte, fields *[3][]byte) (n int, ascii bool) {
	i := 0
	for i < len(line) {
		for i < len(line) && asciiSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		for i < len(line) && !asciiSpace(line[i]) {
			if line[i] >= 0x80 {
				return 0, false
			}
			i++
		}
		if n < len(fields) {
			fields[n] = line[start:i]
		}
		n++
	}
	return n, true
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseNodeID parses a node id of an edge-list file: decimal digits, below
// MaxNodes.
func parseNodeID[T string | []byte](s T) (int, error) {
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
