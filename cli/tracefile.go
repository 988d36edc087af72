package cli

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// traceFile is the file of --trace: JSON lines, compressed with gzip as
// they are written when its name ends in .gz (a tenth of the size or less;
// check and viz read either as it is).
type traceFile struct {
	io.Writer
	f      *os.File
	gz     *gzip.Writer
	closed bool
}

// createTrace creates the file of --trace at path.
func createTrace(path string) (*traceFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	t := &traceFile{Writer: f, f: f}
	if strings.HasSuffix(path, ".gz") {
		t.gz, _ = gzip.NewWriterLevel(f, gzip.BestSpeed) // a valid level
		t.Writer = t.gz
	}
	return t, nil
}

// Close ends the compression and closes the file: the last of the trace
// reaches the disk here, and a full disk or a quota shows up. A second
// call (deferred for the error paths) does nothing.
func (t *traceFile) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.gz != nil {
		if err := t.gz.Close(); err != nil {
			t.f.Close()
			return fmt.Errorf("--trace: %w", err)
		}
	}
	if err := t.f.Close(); err != nil {
		return fmt.Errorf("--trace: %w", err)
	}
	return nil
}
