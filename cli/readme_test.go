package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The README's command lines are a promise to a new user: each one, typed
// as shown, works. TestReadmeCommands runs every one of them through Run,
// in README order, in a scratch directory holding a copy of scenarios/ (so
// that the README's relative paths resolve and what the commands write,
// run.jsonl, bench-out/, fuzz-failures/, lands there). A command that would
// take long, or never end on its own, is shortened or only has its flags
// parsed, by the table below; every other one runs exactly as written and
// must exit 0.

// readmeShortForm says how the test runs one README command.
type readmeShortForm struct {
	// set gives flags a value: the README's value is replaced, or the flag
	// added when the README does not give it. A value of "" drops the
	// flag (and its value) instead.
	set map[string]string
	// help runs the command with --help added: cobra parses every flag
	// (an unknown flag or a malformed value still fails) and prints the
	// help instead of running it.
	help bool
	// judge, when set, decides whether the run went as the README says,
	// instead of exit status 0 alone.
	judge func(code int, stdout string) error
	why   string
}

// readmeShortForms is keyed by the command as README.md writes it, after
// the program ("go run ./cmd/elect", "elect" or "./elect", with or without
// sudo) and without its comment. Every key must still be in README.md.
var readmeShortForms = map[string]readmeShortForm{
	"sim --mobility waypoint:1:20:2s --duration 10m": {
		set: map[string]string{"duration": "1m"}, why: "10 virtual minutes of moving nodes; one shows the same"},
	"sim --algo extinction --topology geometric:5000:25 --values random --json": {
		set: map[string]string{"topology": "geometric:500:80"}, why: "5,000 nodes; 500 at the same mean degree"},
	"bench": {
		set: map[string]string{"topology": "layered:{n}@2..3", "seeds": "1", "quiet": "true"},
		why: "the default sweep is 90 runs up to 2,048 nodes"},
	"bench --algos ring,chang-roberts --topology ring:{n}@8..128*2 --experiments start": {
		set: map[string]string{"topology": "ring:{n}@8..16*2", "seeds": "1", "quiet": "true"},
		why: "three seeds up to 128 nodes"},
	"bench --experiments mobile --algos vkt,park --topology geometric:50:250:1000x1000 --topology geometric:50:250:1500x1500 --speeds 0,1,2,5,10,20": {
		set: map[string]string{"speeds": "0,10", "seeds": "1", "duration": "40s", "quiet": "true"},
		why: "72 runs of 10 virtual minutes"},
	"fuzz --algo vkt --runs 10000 --seed 1": {
		set: map[string]string{"runs": "20"}, why: "10,000 runs take about 20 s"},
	"fuzz --algo vkt -p medium=broadcast --runs 10000": {
		set: map[string]string{"runs": "20"}, why: "10,000 runs take about 15 s"},
	"bench --algos vkt,vkt:medium=broadcast --experiments start,crash --topology geometric:{n}:d10@50..800*2": {
		set: map[string]string{"topology": "geometric:{n}:d10@50,100", "seeds": "1", "quiet": "true"},
		why: "three seeds up to 800 nodes"},
	"fuzz --algo all --runs 1000 --json": {
		set: map[string]string{"runs": "3"}, judge: everyAlgorithmFuzzed,
		why: "1,000 runs of every algorithm take minutes"},
	"fuzz --algo echo --outside --runs 2000": {
		set: map[string]string{"runs": "10", "shrink-budget": "20"}, why: "2,000 runs, and shrinking each failure"},
	"node --id 0 --listen 127.0.0.1:7000 --peers 1=127.0.0.1:7001,2=127.0.0.1:7002 --http 127.0.0.1:8000": {
		help: true, why: "a node runs until it is stopped"},
	"cluster --nodes 8 --hello 50ms -p heartbeat=100ms -p timeout=500ms": {
		set: map[string]string{"duration": "1s"}, why: "it runs until q or Ctrl-C"},
	"cluster --script scenarios/cluster-scripts/failover.yaml": {
		help: true, why: "5 s of real processes; TestClusterScript runs it whole"},
	"cluster --script scenarios/cluster-scripts/line-split.yaml --json": {
		help: true, why: "3 s of real processes; TestClusterLineSplit runs it whole"},
	"emulate scenarios/emulate-grid.yaml --compare": {
		help: true, why: "needs root, ip and nft, and lasts 24 s of real time"},
	"cluster --script scenarios/cluster-scripts/ring-dead-at-gathering.yaml": {
		help: true, why: "real processes; TestRingControlScenarios runs it whole"},
	"cluster --algo capture-sync --topology complete --nodes 6 --elect none --faults loss=0.2": {
		help: true, why: "seconds of real processes at 20% loss; TestEveryAlgorithmOnProcesses runs its kind"},
	"explore --algo chang-roberts --topology ring:3 --reorder --out cx/": {
		judge: boundBroken, why: "outside its FIFO model, chang-roberts breaks its message bound: exit 2"},
	"sim cx/counterexample.yaml": {
		judge: boundBroken, why: "the counterexample replayed: the same violation, exit 2"},
	"soak --runs 200": {
		help: true, why: "needs root, ip and nft, and lasts 50 minutes of real time"},
	"emulate --topology geometric:30:300 --mobility waypoint:1:10:2s --duration 60s": {
		help: true, why: "needs root, ip and nft, and lasts 60 s of real time"},
	"emulate --cleanup": {
		help: true, why: "needs root, and would remove what other emulations on this machine left"},
	"emulate scenarios/emulate-grid.yaml --serve 127.0.0.1:8080": {
		help: true, why: "needs root, and serves the page until Ctrl-C"},
	"viz grid.jsonl": {
		help: true, why: "serves the page until Ctrl-C"},
	"sim --serve 127.0.0.1:8080 --speed 2": {
		help: true, why: "paced to real time (50 s), then serves the page until Ctrl-C"},
}

// readmeOtherCommands are the lines of the README's sh blocks that are not
// elect's: they are not run.
var readmeOtherCommands = []string{
	"go vet ./... && go test -short ./...",
	"go build -o elect ./cmd/elect",
}

// readmeRootCommands are the commands that need root: the README runs them
// with sudo, and no other.
var readmeRootCommands = []string{"emulate", "soak"}

// readmeCommand is a command line of README.md.
type readmeCommand struct {
	line int    // where it starts in README.md
	text string // as written, without its comment
	args []string
}

func TestReadmeCommands(t *testing.T) {
	_, cmds := readREADMECommands(t)
	if len(cmds) < 20 {
		t.Fatalf("found %d commands in README.md; the extraction is broken", len(cmds))
	}
	used := map[string]bool{}
	for _, c := range cmds {
		used[strings.Join(c.args, " ")] = true
	}
	for key := range readmeShortForms {
		if !used[key] {
			t.Errorf("readmeShortForms has %q, which README.md no longer shows", key)
		}
	}

	scratch := t.TempDir()
	if err := os.CopyFS(filepath.Join(scratch, "scenarios"), os.DirFS("../scenarios")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(scratch)

	hashes := map[string]string{} // trace file -> the trace hash of the run that wrote it
	for _, c := range cmds {
		key := strings.Join(c.args, " ")
		args := slices.Clone(c.args)
		form, short := readmeShortForms[key]
		for flag, value := range form.set {
			args = setFlag(args, flag, value)
		}
		if form.help {
			args = append(args, "--help")
		}
		start := time.Now()
		code, out, errOut := cli(t, args...)
		took := time.Since(start).Round(time.Millisecond)
		judged := error(nil)
		if form.judge != nil {
			judged = form.judge(code, out)
		} else if code != ExitOK {
			judged = fmt.Errorf("exit %d", code)
		}
		switch {
		case judged != nil:
			t.Errorf("README.md:%d: %s\n  ran as: elect %s\n  %v; stderr:\n%s", c.line, c.text, strings.Join(args, " "), judged, errOut)
			continue
		case strings.Contains(errOut, "has been deprecated"):
			t.Errorf("README.md:%d: %s uses a deprecated flag:\n%s", c.line, c.text, errOut)
		case form.help && !strings.Contains(out, "Usage:"):
			t.Errorf("README.md:%d: elect %s printed no help:\n%s", c.line, strings.Join(args, " "), out)
		case short:
			t.Logf("README.md:%d: elect %s: %v (%s)", c.line, strings.Join(args, " "), took, form.why)
		default:
			t.Logf("README.md:%d: elect %s: %v", c.line, key, took)
		}
		if strings.Contains(errOut, "elect: note:") {
			// About a file the command reads, not about the README.
			t.Logf("README.md:%d: elect %s:\n%s", c.line, key, errOut)
		}
		// "elect check run.jsonl: re-verify the run offline, same trace
		// hash".
		hash := regexp.MustCompile(`trace hash ([0-9a-f]{16})`).FindStringSubmatch(out)
		if hash == nil || form.help {
			continue
		}
		if i := slices.Index(args, "--trace"); args[0] == "sim" && i >= 0 && i+1 < len(args) {
			hashes[args[i+1]] = hash[1]
		}
		if args[0] == "check" && len(args) > 1 && hashes[args[1]] != "" && hashes[args[1]] != hash[1] {
			t.Errorf("README.md:%d: elect %s: trace hash %s, the run had %s", c.line, key, hash[1], hashes[args[1]])
		}
	}
}

// everyAlgorithmFuzzed judges elect fuzz --algo all --json: "all" is every
// algorithm registered but the test doubles (test-*), which are meant to
// fail; each of the ten built-in ones must be fuzzed and pass.
func everyAlgorithmFuzzed(code int, stdout string) error {
	if code != ExitOK {
		return fmt.Errorf("exit %d", code)
	}
	if seen := strings.Count(stdout, `"algorithm":`); seen < 10 {
		return fmt.Errorf("%d algorithms fuzzed, want every one", seen)
	}
	return nil
}

// boundBroken judges the README's counterexample and its replay: both
// break Chang and Roberts' message bound, and say so.
func boundBroken(code int, stdout string) error {
	if code != ExitViolation {
		return fmt.Errorf("exit %d, want %d (a violation)", code, ExitViolation)
	}
	if !strings.Contains(stdout, "more than one election may send: at most 9") {
		return fmt.Errorf("no broken message bound in the output:\n%s", stdout)
	}
	return nil
}

// TestReadmeFiles checks the files the README shows: the scenario file runs
// and the cluster script loads.
func TestReadmeFiles(t *testing.T) {
	readme := readREADME(t)
	blocks := codeBlocks(string(readme), "yaml")
	if len(blocks) != 2 {
		t.Fatalf("README.md has %d yaml blocks, want 2 (a scenario, a cluster script)", len(blocks))
	}
	dir := t.TempDir()
	scen := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(scen, []byte(blocks[0].text), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := cli(t, "sim", scen); code != ExitOK || errOut != "" {
		t.Errorf("README.md:%d: the scenario file: elect sim exits %d: %s", blocks[0].line, code, errOut)
	}
	script := filepath.Join(dir, "script.yaml")
	s, err := parseClusterScript(script, []byte(blocks[1].text))
	if err == nil {
		err = s.checkNodes(s.Nodes)
	}
	if err != nil {
		t.Errorf("README.md:%d: the cluster script: %v", blocks[1].line, err)
	}
}

// codeBlock is a fenced block of README.md.
type codeBlock struct {
	line int // of its first line of text
	text string
}

// codeBlocks returns the fenced blocks of md whose info string is lang.
func codeBlocks(md, lang string) []codeBlock {
	var blocks []codeBlock
	var cur *codeBlock
	for i, l := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &codeBlock{line: i + 2}
			if strings.TrimSpace(strings.TrimPrefix(l, "```")) != lang {
				cur.line = -1
			}
		case cur != nil && strings.HasPrefix(l, "```"):
			if cur.line > 0 {
				blocks = append(blocks, *cur)
			}
			cur = nil
		case cur != nil:
			cur.text += l + "\n"
		}
	}
	return blocks
}

// readmeCommands returns the elect command lines of md's sh blocks. Every
// line of an sh block must be one, or one of readmeOtherCommands: a
// command the test cannot read is an error, not a command left out.
func readmeCommands(md string) ([]readmeCommand, error) {
	var cmds []readmeCommand
	for _, b := range codeBlocks(md, "sh") {
		lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			at := b.line + i
			text := lines[i]
			for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
				i++
				text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(lines[i])
			}
			words, shell, err := shellWords(text)
			if err != nil {
				return nil, fmt.Errorf("README.md:%d: %v", at, err)
			}
			if len(words) == 0 {
				continue
			}
			text = strings.Join(words, " ")
			args, ok := electArgs(words)
			switch {
			case slices.Contains(readmeOtherCommands, text):
			case ok && shell != 0:
				return nil, fmt.Errorf("README.md:%d: %q: the test runs one program, not shell syntax (%q)", at, text, shell)
			case ok:
				cmds = append(cmds, readmeCommand{line: at, text: text, args: args})
			default:
				return nil, fmt.Errorf("README.md:%d: %q is not an elect command the test can run (add it to readmeOtherCommands if it is meant to be another program's)", at, text)
			}
		}
	}
	return cmds, nil
}

// electArgs returns the arguments of an elect command line: what follows
// "go run ./cmd/elect", "elect" or "./elect" (the binary built), with or
// without sudo.
func electArgs(words []string) ([]string, bool) {
	words = slices.Clone(words)
	if words[0] == "sudo" {
		words = words[1:]
	}
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/elect":
		return words[3:], true
	case len(words) >= 1 && (words[0] == "elect" || words[0] == "./elect"):
		return words[1:], true
	}
	return nil, false
}

// The README runs with sudo exactly the commands that need root, and
// those as the binary built beforehand: sudo go run finds no go where
// root's PATH lacks it, and builds in root's cache.
func TestReadmeSudo(t *testing.T) {
	readme, cmds := readREADMECommands(t)
	before, _, found := strings.Cut(string(readme), "\ngo build -o elect ./cmd/elect")
	built := strings.Count(before, "\n") + 2 // the line of the build
	for _, c := range cmds {
		sudo, root := strings.HasPrefix(c.text, "sudo "), slices.Contains(readmeRootCommands, c.args[0])
		switch {
		case sudo != root:
			t.Errorf("README.md:%d: %s: sudo %v, but elect %s needs root: %v", c.line, c.text, sudo, c.args[0], root)
		case sudo && !strings.HasPrefix(c.text, "sudo ./elect "):
			t.Errorf("README.md:%d: %s: run the binary built beforehand as root (sudo ./elect ...)", c.line, c.text)
		case sudo && (!found || built > c.line):
			t.Errorf("README.md:%d: %s: no go build -o elect ./cmd/elect before it", c.line, c.text)
		}
	}
}

// The README's layout lists every command elect --help shows, but cobra's
// own (completion, help).
func TestReadmeCommandList(t *testing.T) {
	readme := readREADME(t)
	m := regexp.MustCompile(`run every command\s+\(([^)]*)\)`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md lists no commands after \"run every command\"")
	}
	var listed []string
	for _, w := range strings.Split(string(m[1]), ",") {
		listed = append(listed, strings.TrimSpace(w))
	}
	var want []string
	for _, c := range newRoot().Commands() {
		if !c.Hidden && c.Name() != "help" && c.Name() != "completion" {
			want = append(want, c.Name())
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("README.md lists the commands %v; elect --help shows %v", listed, want)
	}
}

// The README's set-up names every package .ci/run installs for the tests
// that need it.
func TestReadmeSetUp(t *testing.T) {
	readme := readREADME(t)
	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	setUp, _, _ := strings.Cut(string(readme), "\n## ")
	installs := regexp.MustCompile(`apt-get install -y -qq ([a-z0-9.+-]+)`).FindAllStringSubmatch(string(ci), -1)
	if len(installs) < 4 {
		t.Fatalf(".ci/run installs %d packages; the test reads it wrong", len(installs))
	}
	for _, p := range installs {
		if !strings.Contains(setUp, "`"+p[1]+"`") {
			t.Errorf(".ci/run installs %s, which the README's set-up does not name", p[1])
		}
	}
}

// The README shows the end of ring-dead-at-gathering.yaml's summary, the
// control process's lines, as the script's run prints them, but for the
// times.
func TestReadmeControlProcess(t *testing.T) {
	readme := readREADME(t)
	var shown []string
	for _, b := range codeBlocks(string(readme), "") {
		if strings.HasPrefix(b.text, "control process (") {
			shown = untimed(b.text)
		}
	}
	if shown == nil {
		t.Fatal("README.md shows no control process")
	}
	code, out, errOut := cli(t, "cluster", "--script", "../scenarios/cluster-scripts/ring-dead-at-gathering.yaml")
	_, ran, _ := strings.Cut(out, "\ncontrol process (")
	ran, _, _ = strings.Cut("control process ("+ran, "\nscript ")
	if got := untimed(ran); code != ExitOK || !slices.Equal(got, shown) {
		t.Errorf("exit %d; the script's control process says\n%s\nthe README shows\n%s\nstderr:\n%s",
			code, strings.Join(got, "\n"), strings.Join(shown, "\n"), clusterTail(errOut, 20))
	}
}

// untimed returns the lines of text without the time that starts some.
func untimed(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		out = append(out, regexp.MustCompile(`^\s*[0-9.]+s\s+`).ReplaceAllString(l, ""))
	}
	return out
}

// shellWords splits a command line as sh would, for the little of sh the
// README uses: words, single and double quotes, a comment from a word that
// starts with #. It returns the first character outside quotes that would
// make sh do more than run one program with these words (pipes, lists,
// redirections, expansions, globs), or 0.
func shellWords(line string) (words []string, shell byte, err error) {
	var w strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			i = len(line)
		default:
			if shell == 0 && strings.IndexByte("|;<>$`()&*?[{~\\", c) >= 0 {
				shell = c
			}
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, 0, fmt.Errorf("%q: unterminated quote", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, shell, nil
}

// setFlag gives flag the value in args: it replaces the value given, or
// adds the flag; an empty value removes it.
func setFlag(args []string, flag, value string) []string {
	name := "--" + flag
	for i := 0; i < len(args); i++ {
		switch {
		case strings.HasPrefix(args[i], name+"="):
			if value == "" {
				return slices.Delete(args, i, i+1)
			}
			args[i] = name + "=" + value
			return args
		case args[i] == name && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			if value == "" {
				return slices.Delete(args, i, i+2)
			}
			args[i+1] = value
			return args
		case args[i] == name:
			if value == "" {
				return slices.Delete(args, i, i+1)
			}
			args[i] = name + "=" + value
			return args
		}
	}
	if value == "" {
		return args
	}
	return append(args, name+"="+value)
}

// readREADME is the repository's README.md.
func readREADME(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readREADMECommands is README.md and the commands its shell blocks run.
func readREADMECommands(t *testing.T) ([]byte, []readmeCommand) {
	t.Helper()
	readme := readREADME(t)
	cmds, err := readmeCommands(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	return readme, cmds
}
