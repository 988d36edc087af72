package cli

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// helpInGo are the commands whose long help is still a Go string (their
// files are not yet moved to help/); give a command's text a file there
// and take it off this list.
var helpInGo = map[string]bool{"fuzz": true, "study": true, "study-merge": true}

// helpName is the name of cmd's file in help/: its path less "elect",
// words joined by "-"; "elect" for elect itself.
func helpName(cmd *cobra.Command) string {
	words := strings.Fields(cmd.CommandPath())
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[1:], "-")
}

var helpPlaceholder = regexp.MustCompile(`\{\{[A-Za-z]+\}\}`)

// TestHelpTextsFromFiles: every command's long help is its file's text in
// help/ (the {{KEY}}s of the file filled in), not empty, and every file in
// help/ is some command's.
func TestHelpTextsFromFiles(t *testing.T) {
	files := map[string]bool{}
	entries, err := fs.ReadDir(helpFiles, "help")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files[strings.TrimSuffix(e.Name(), ".txt")] = true
	}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, c := range cmd.Commands() {
			walk(c)
		}
		name := helpName(cmd)
		if !files[name] {
			if cmd.Long != "" && !helpInGo[name] {
				t.Errorf("%q --help: its long text is in Go; want it in help/%s.txt", cmd.CommandPath(), name)
			}
			return
		}
		delete(files, name)
		b, err := helpFiles.ReadFile("help/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") {
			t.Errorf("help/%s.txt does not end in exactly one newline", name)
		}
		text = strings.TrimSuffix(text, "\n")
		if strings.TrimSpace(helpPlaceholder.ReplaceAllString(text, "")) == "" {
			t.Errorf("help/%s.txt is empty", name)
		}
		if strings.Contains(cmd.Long, "{{") {
			t.Errorf("%q --help keeps a {{...}}:\n%s", cmd.CommandPath(), cmd.Long)
		}
		// The fixed parts of the file, in order, make the command's Long.
		parts := helpPlaceholder.Split(text, -1)
		long := cmd.Long
		ok := long == text
		if len(parts) > 1 {
			last := parts[len(parts)-1]
			ok = strings.HasPrefix(long, parts[0]) && strings.HasSuffix(long[len(parts[0]):], last)
		}
		if len(parts) > 1 && ok {
			long = long[len(parts[0]) : len(long)-len(parts[len(parts)-1])]
			for _, p := range parts[1 : len(parts)-1] {
				i := strings.Index(long, p)
				if i < 0 {
					ok = false
					break
				}
				long = long[i+len(p):]
			}
		}
		if !ok {
			t.Errorf("%q --help is not help/%s.txt:\n%s", cmd.CommandPath(), name, cmd.Long)
		}
	}
	walk(newRoot())
	for name := range files {
		t.Errorf("help/%s.txt is no command's help", name)
	}
}

// TestHelpTextPanics: a missing file, a key the text lacks, a placeholder
// given no value and an odd list of vars each stop helpText.
func TestHelpTextPanics(t *testing.T) {
	for _, c := range []struct {
		what string
		name string
		vars []string
	}{
		{"missing file", "no-such-command", nil},
		{"key the text lacks", "sim", []string{"nothing", "x"}},
		{"placeholder left", "bench", nil},
		{"odd vars", "sim", []string{"nothing"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("helpText(%q, %q), %s: no panic", c.name, c.vars, c.what)
				}
			}()
			helpText(c.name, c.vars...)
		}()
	}
}
