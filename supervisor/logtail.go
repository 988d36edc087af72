package supervisor

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// logTail is the end (2 KiB at most, from a line's start) of the log at
// path from offset off, set off for an error message; "" when there is
// none. An error that says a node failed is read with what the node said.
func logTail(path string, off int64) string {
	b, err := os.ReadFile(path)
	if err != nil || off > int64(len(b)) {
		return ""
	}
	b = b[off:]
	const most = 2048
	if len(b) > most {
		b = b[len(b)-most:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return ""
	}
	return fmt.Sprintf("\n--- end of %s ---\n%s", path, s)
}
