package topo

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/electgo/elect/internal/hugemem"
)

// readState is what the lines of an edge list read so far leave to the
// lines after them: all that reading needs to go on from a point in the
// file, and all that the checks at its end need.
type readState struct {
	lineNo    int // lines read
	edges     int // edges read
	declared  int // K of the "nodes K" line, 0 if none yet
	declLine  int
	maxID     int    // the largest id of an edge, -1 if none yet
	maxLineNo int    // line and text of the first edge naming maxID
	maxText   []byte // (kept in one buffer: ids rise line after line in a sorted file)
}

// fresh is the state at the start of a file.
func (s *readState) fresh() {
	*s = readState{maxID: -1, maxText: s.maxText[:0]}
}

// lineReader parses whole lines of an edge list into edges, going on from
// its state. A million-node file has five million lines: each is parsed in
// place, with no allocation; a line of two ids and nothing else but ASCII
// spaces takes a path of its own (scanEdge), any other the general one, and
// only a line with a byte outside ASCII falls back to strings.Fields, for
// Unicode spaces.
type lineReader struct {
	name     string
	maxEdges int // MaxEdges, but for tests
	st       readState
	chunks   [][]Edge // of chunkSize(i) edges each, the last one filling
}

// chunkSize is how many edges the reader keeps in its i-th chunk: 512 KiB
// at first, enough for a small file, then 4, 8 and from then on 16 MiB.
// hugemem backs the 2 MiB-aligned inside of a chunk of 4 MiB or more with
// huge pages, most of a large one: each first touch of a fresh page costs
// a fault, and more in a virtual machine. The last chunk is partly unused,
// at most 16 MiB a worker, untouched.
func chunkSize(i int) int {
	if i == 0 {
		return 1 << 16
	}
	return 1 << (18 + min(i, 3))
}

// maxLine is the longest line an edge list may have, its end included.
const maxLine = 1 << 20

// lineError is the error of the line just read, whose text (trimmed) is
// text.
func (lr *lineReader) lineError(text []byte, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %q: %s", lr.name, lr.st.lineNo, text, fmt.Sprintf(format, args...))
}

// read parses text, whole lines but for the last line of a file, which may
// lack its "\n". It stops at the first error, as reading the file from its
// start to there would.
func (lr *lineReader) read(text []byte) error {
	for len(text) > 0 {
		if a, b, n := scanEdge(text); n > 0 {
			lr.st.lineNo++
			if err := lr.edge(a, b, text[:n]); err != nil {
				return err
			}
			text = text[n:]
			continue
		}
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if len(line) >= maxLine {
			return fmt.Errorf("%s:%d: line too long", lr.name, lr.st.lineNo+1)
		}
		lr.st.lineNo++
		if err := lr.line(line); err != nil {
			return err
		}
	}
	return nil
}

// scanEdge reads the line at the start of s if it is an edge in its
// plainest form: two ids in decimal below MaxNodes, ' ' and '\t' around
// them (and '\r' after them) and nothing else before the "\n" it must end
// with. It returns the ids and the length of the line with its "\n", or
// n = 0 for any other line, which the general path then reads, errors
// included.
func scanEdge(s []byte) (a, b, n int) {
	i := skipBlanks(s, 0)
	a, j := scanID(s, i)
	if j == i || j == len(s) || (s[j] != ' ' && s[j] != '\t') {
		return 0, 0, 0
	}
	i = skipBlanks(s, j)
	b, j = scanID(s, i)
	if j == i {
		return 0, 0, 0
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j == len(s) || s[j] != '\n' || j >= maxLine {
		return 0, 0, 0
	}
	return a, b, j + 1
}

func skipBlanks(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// scanID reads the decimal digits of s from i on; j is where they end, i
// if there are none or if they reach MaxNodes.
func scanID(s []byte, i int) (v, j int) {
	for j = i; j < len(s); j++ {
		d := s[j] - '0'
		if d > 9 {
			break
		}
		if v = v*10 + int(d); v >= MaxNodes {
			return 0, i
		}
	}
	return v, j
}

// line parses one line by the general rule, errors included.
func (lr *lineReader) line(line []byte) error {
	var fields [3][]byte // a line's first fields; n counts them all
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
		return nil
	case string(fields[0]) == "nodes":
		if n != 2 {
			return lr.lineError(text, `expected "nodes K"`)
		}
		if lr.st.declared != 0 {
			return lr.lineError(text, "a second nodes line (the first is line %d)", lr.st.declLine)
		}
		k, err := parsePosInt("node count", string(fields[1]))
		if err != nil {
			return lr.lineError(text, "%v", err)
		}
		lr.st.declared, lr.st.declLine = k, lr.st.lineNo
		return nil
	case n != 2:
		return lr.lineError(text, `expected an edge "a b" or a line "nodes K"`)
	}
	a, err := parseNodeID(fields[0])
	if err != nil {
		return lr.lineError(text, "%v", err)
	}
	b, err := parseNodeID(fields[1])
	if err != nil {
		return lr.lineError(text, "%v", err)
	}
	return lr.edge(a, b, line)
}

// edge takes the edge a-b of the line just read, line.
func (lr *lineReader) edge(a, b int, line []byte) error {
	st := &lr.st
	if a == b {
		return lr.lineError(trimLine(line), "self-loop on node %d", a)
	}
	if st.edges == lr.maxEdges {
		return lr.lineError(trimLine(line), "more than the limit of %d edges", lr.maxEdges)
	}
	if m := max(a, b); m > st.maxID {
		st.maxID, st.maxLineNo, st.maxText = m, st.lineNo, append(st.maxText[:0], trimLine(line)...)
	}
	if len(lr.chunks) == 0 || len(lr.chunks[len(lr.chunks)-1]) == cap(lr.chunks[len(lr.chunks)-1]) {
		lr.chunks = append(lr.chunks, hugemem.Make[Edge](chunkSize(len(lr.chunks)))[:0])
	}
	last := &lr.chunks[len(lr.chunks)-1]
	*last = append(*last, Edge{id(a), id(b)})
	st.edges++
	return nil
}

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
