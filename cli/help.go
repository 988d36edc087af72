package cli

import (
	"embed"
	"strings"
)

// The commands' long help texts are documentation, kept as plain text in
// help/NAME.txt: NAME is the command's path less "elect", its words joined
// by "-" (bench.txt, bench-plot.txt), and elect.txt for elect itself.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText returns the text of help/NAME.txt less its final newline, each
// {{KEY}} in it replaced by its value; vars are pairs KEY, VALUE, for what
// the text takes from the code (bench's figure names, say). A missing file,
// a KEY the text lacks or a {{...}} left unreplaced panics: every command is
// built as elect starts, so a broken text stops it at once, and the tests.
func helpText(name string, vars ...string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("cli: no help text: " + err.Error())
	}
	if len(vars)%2 != 0 {
		panic("cli: helpText " + name + ": vars must come in pairs KEY, VALUE")
	}
	text := strings.TrimSuffix(string(b), "\n")
	for i := 0; i < len(vars); i += 2 {
		key := "{{" + vars[i] + "}}"
		if !strings.Contains(text, key) {
			panic("cli: help/" + name + ".txt has no " + key)
		}
		text = strings.ReplaceAll(text, key, vars[i+1])
	}
	if i := strings.Index(text, "{{"); i >= 0 {
		rest, _, _ := strings.Cut(text[i:], "}}")
		panic("cli: help/" + name + ".txt: " + rest + "}} is given no value")
	}
	return text
}
