package supervisor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogTail: the end of a life's part of a log, from a line's start, at
// most 2 KiB, under a header naming the file; nothing when it is empty.
func TestLogTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "node-0.log")
	earlier := "an earlier life\n"
	var lines []string
	for i := range 200 {
		lines = append(lines, strings.Repeat("x", 20)+" line "+string(rune('a'+i%26)))
	}
	os.WriteFile(path, []byte(earlier+strings.Join(lines, "\n")+"\n"), 0o644)
	got := logTail(path, int64(len(earlier)))
	head := "\n--- end of " + path + " ---\n"
	body, ok := strings.CutPrefix(got, head)
	if !ok || len(body) > 2048 || !strings.HasSuffix(body, lines[199]) || !strings.HasPrefix(body, strings.Repeat("x", 20)) {
		t.Errorf("logTail =\n%q", got)
	}
	if got := logTail(path, int64(len(earlier)+len(strings.Join(lines, "\n"))+1)); got != "" {
		t.Errorf("an empty life: %q, want nothing", got)
	}
	if got := logTail(path, 1<<40); got != "" {
		t.Errorf("an offset past the end: %q", got)
	}
	if got := logTail(filepath.Join(t.TempDir(), "none.log"), 0); got != "" {
		t.Errorf("no file: %q", got)
	}
	short := logTail(path, 0)
	if !strings.HasPrefix(short, head) || strings.Contains(short, earlier) {
		t.Errorf("a long log keeps only its end: %q", short[:80])
	}
}
