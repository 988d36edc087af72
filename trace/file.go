package trace

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
)

// File is a trace file being written: JSON lines, compressed with gzip as
// they are written when its name ends in .gz (a tenth of the size or less;
// Reader and the tools that read traces take either as it is). Give it to
// NewWriter, and Close it once the Writer is closed.
type File struct {
	io.Writer
	f      *os.File
	gz     *gzip.Writer
	closed bool
}

// Create creates the trace file at path, compressed when path ends in .gz.
func Create(path string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	t := &File{Writer: f, f: f}
	if strings.HasSuffix(path, ".gz") {
		t.gz, _ = gzip.NewWriterLevel(f, gzip.BestSpeed) // a valid level
		t.Writer = t.gz
	}
	return t, nil
}

// Close ends the compression and closes the file: the last of the trace
// reaches the disk here, and a full disk or a quota shows up. A second
// call (deferred for the error paths) does nothing and returns nil.
func (t *File) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.gz != nil {
		if err := t.gz.Close(); err != nil {
			t.f.Close()
			return err
		}
	}
	return t.f.Close()
}
