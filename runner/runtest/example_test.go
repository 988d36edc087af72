package runtest_test

import (
	"bytes"
	"os"
	"testing"

	_ "github.com/electgo/elect/algo/echo" // the algorithm under test: its init registers it
	"github.com/electgo/elect/runner/runtest"
	"github.com/electgo/elect/scenario"
)

// The test an algorithm's author writes first, as docs/algorithms.md shows
// it: a scenario in the file format, simulated and judged by the checker,
// then what the algorithm's document promises, read from the summary (here
// echo's message count, 2m + n - 1 on a connected network).
func TestEchoOnAGrid(t *testing.T) {
	s, err := scenario.Parse("grid.yaml", []byte(`
algorithm: echo
topology: grid:6x6
values: random
seed: 7
duration: 0   # a wave ends: run until no event is left
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := runtest.Connected(t, s) // the network; fails t unless it is connected
	sum := runtest.Run(t, s)     // fails t on any violation or component left unjudged
	runtest.FollowBest(t, sum)   // every live node in Norm, following the most valued
	if want := uint64(2*g.M() + g.N() - 1); sum.Messages.Total != want {
		t.Errorf("%d messages, want 2m+n-1 = %d", sum.Messages.Total, want)
	}
}

// docs/algorithms.md shows TestEchoOnAGrid as this file has it, so that
// the test an author copies is one that runs.
func TestDocsShowTheExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/algorithms.md")
	if err != nil {
		t.Fatal(err)
	}
	_, fn, ok := bytes.Cut(src, []byte("\nfunc TestEchoOnAGrid"))
	fn, _, ok2 := bytes.Cut(fn, []byte("\n}\n"))
	if !ok || !ok2 {
		t.Fatal("example_test.go has no TestEchoOnAGrid")
	}
	if !bytes.Contains(doc, append([]byte("func TestEchoOnAGrid"), fn...)) {
		t.Errorf("docs/algorithms.md does not show TestEchoOnAGrid as example_test.go has it")
	}
}
