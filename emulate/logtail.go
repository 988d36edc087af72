package emulate

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// LogTail is the end (2 KiB at most, from a line's start) of the log at
// path from offset off, set off for an error message; "" when there is
// none. elect cluster's errors use it too.
func LogTail(path string, off int64) string {
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
