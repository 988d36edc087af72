package scenario

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a scenario file.
type Error struct {
	File   string // the name given to Parse or the path given to Load
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown (always for syntax errors)
	Path   string // the field, like "events[3].crash"; "" for the document itself
	Msg    string
}

// Error formats the error as FILE:LINE:COLUMN: PATH: MESSAGE, leaving out the
// parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(displayName(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func displayName(file string) string {
	if file == "" {
		return "<scenario>"
	}
	return file
}

// traceGiven refuses a trace of a run (what elect sim --trace writes: JSON
// lines that open with a header, gzipped or not) given where a scenario
// was expected, saying what reads one; nil for anything else. A trace is
// never a scenario, and the YAML error it would get instead says nothing
// of what went wrong.
func traceGiven(file string, data []byte) *Error {
	head := data
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil
		}
		head = make([]byte, 256)
		n, _ := io.ReadFull(zr, head)
		head = head[:n]
	}
	line, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	if !bytes.HasPrefix(line, []byte("{")) || !bytes.Contains(line, []byte(`"ev":"header"`)) {
		return nil
	}
	return &Error{File: file, Msg: fmt.Sprintf("this is the trace of a run, not a scenario: check it with elect check %s (or watch it with elect viz %s)", file, file)}
}

// syntaxError turns an error of the YAML library into an *Error, keeping the
// line the library reports ("yaml: line 3: could not find expected ':'").
func syntaxError(file string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{File: file, Msg: msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				e.Line, e.Msg = n, tail
			}
		}
	}
	e.Msg = "invalid YAML: " + e.Msg
	if e.Line > 0 {
		lines := bytes.Split(data, []byte("\n"))
		if e.Line <= len(lines) && bytes.HasPrefix(lines[e.Line-1], []byte("\t")) {
			e.Msg += " (YAML indents with spaces, not tabs)"
		}
	}
	return e
}

// decodeNode reads the next document of dec. The YAML library reports its
// errors by panicking internally and recovering; a panic it does not expect
// would escape, so it is caught here too: Parse must not panic on any input.
func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}
