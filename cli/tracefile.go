package cli

import (
	"fmt"

	"github.com/electgo/elect/trace"
)

// traceFile is the file of --trace (trace.File), whose errors name the
// flag.
type traceFile struct{ *trace.File }

// createTrace creates the file of --trace at path.
func createTrace(path string) (*traceFile, error) {
	f, err := trace.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return &traceFile{f}, nil
}

// Close closes the file of --trace; a second call does nothing.
func (t *traceFile) Close() error {
	if err := t.File.Close(); err != nil {
		return fmt.Errorf("--trace: %w", err)
	}
	return nil
}
