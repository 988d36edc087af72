package blame

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestSideOf(t *testing.T) {
	orig := modules
	defer func() { modules = orig }()
	modules = func() []string { return append(orig(), "example.com/outside") }
	for _, c := range []struct {
		fn   string
		want side
	}{
		{"runtime.gopanic", neutral},
		{"sort.Slice", neutral},
		{"internal/runtime/maps.(*Map).Put", neutral},
		{"github.com/electgo/elect/sim.(*Engine).deliver", elect},
		{"github.com/electgo/elect/check.(*Monitor).Observe", elect},
		{"github.com/electgo/elect/internal/behind.(*Pipe).run", elect},
		{"github.com/electgo/elect/conform.Run", elect},
		{"github.com/electgo/elect/algo/vkt.(*Node).Receive", theirs},
		{"github.com/electgo/elect/algo.Broadcast", neutral},
		{"github.com/electgo/elect/algo.(*Algorithm).Instantiate", neutral},
		{"github.com/electgo/elect/internal/broken.(*panicky).Receive", theirs},
		{"github.com/electgo/elect/examples/hs.(*machine).Timer", theirs},
		{"example.com/outside/mine.(*flood).Receive", theirs},
	} {
		if got := sideOf(c.fn); got != c.want {
			t.Errorf("sideOf(%q) = %d, want %d", c.fn, got, c.want)
		}
	}
}

// A panic that begins in this package (elect's own) is elect's; one that
// begins in a function the test names as an algorithm's is theirs. The test
// file's functions are in package blame, so the algorithm's side is
// simulated by a function value whose frames are classified by sideOf.
func TestRecoveredElect(t *testing.T) {
	p := catch(func() { var m map[int]int; m[1] = 2 })
	if p.Theirs {
		t.Errorf("a panic in package blame is blamed on an algorithm: %+v", p.Frames)
	}
	if p.Value == nil || !strings.Contains(string(p.Stack), "TestRecoveredElect") {
		t.Errorf("value %v, stack:\n%s", p.Value, p.Stack)
	}
}

func catch(f func()) (p *Panic) {
	defer func() { p = Recovered(recover()) }()
	f()
	return nil
}

// TestServants: the servants are exactly the modules elect's go.mod
// requires.
func TestServants(t *testing.T) {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var required []string
	for _, m := range regexp.MustCompile(`(?m)^\t(\S+) v\S+`).FindAllStringSubmatch(string(b), -1) {
		required = append(required, m[1])
	}
	slices.Sort(required)
	got := slices.Sorted(slices.Values(servants))
	if !slices.Equal(got, required) {
		t.Errorf("servants %v\ngo.mod requires %v", got, required)
	}
}

// A user's module need not have a dot in its path (go mod init peterson),
// nor its algorithm a package other than main: its frames are theirs. The
// test binary's build information lists this module as the main one.
func TestUserModuleWithoutDot(t *testing.T) {
	if mods := modules(); mods == nil {
		t.Skip("no build information")
	}
	orig := modules
	defer func() { modules = orig }()
	modules = func() []string { return []string{"peterson", "github.com/electgo/elect"} }
	for fn, want := range map[string]side{
		"peterson.(*node).Receive":                  theirs,
		"peterson/ring.(*node).Timer":               theirs,
		"main.(*boom).Elect":                        theirs,
		"fmt.Sprintf":                               neutral,
		"github.com/spf13/cobra.(*Command).execute": neutral,
	} {
		if got := sideOf(fn); got != want {
			t.Errorf("sideOf(%q) = %d, want %d", fn, got, want)
		}
	}
}

// Said writes what CallOf and Unframed read back, a value holding "; at "
// or ": " included.
func TestSaid(t *testing.T) {
	p := &Panic{Value: "x: y; at z", Frames: []string{"a.F (a.go:1)", "a.G (a.go:2)"}}
	said := p.Said("Receive of flood from 0")
	if said != "in Receive of flood from 0: x: y; at z; at a.F (a.go:1) < a.G (a.go:2)" {
		t.Errorf("said %q", said)
	}
	if c := CallOf(said); c != "in Receive of flood from 0" {
		t.Errorf("call %q", c)
	}
	if u := Unframed(said); u != "in Receive of flood from 0: x: y; at z" {
		t.Errorf("unframed %q", u)
	}
	if s := (&Panic{Value: 3}).Said(""); s != "3" || Unframed(s) != "3" {
		t.Errorf("no call, no frames: %q", s)
	}
}
