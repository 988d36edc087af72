package trace_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestGolden pins the file format on a real run: an echo wave on a ring of
// five. Any change to what the writer emits shows up as a diff of
// testdata/echo-ring5.jsonl in review; regenerate it with
//
//	go test ./trace -run Golden -update
func TestGolden(t *testing.T) {
	s := scenario.Default()
	s.Values = sim.Values{Mode: sim.ValueID}
	s.Algorithm = "echo"
	s.Params = nil
	s.Topology = "ring:5"
	var buf bytes.Buffer
	sum, err := runner.Run(s, runner.Options{Trace: &buf})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ViolationCount != 0 || sum.Elections.Completed != 1 {
		t.Fatalf("the run itself went wrong: %+v", sum)
	}
	golden := filepath.Join("testdata", "echo-ring5.jsonl")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := buf.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("the trace differs from %s (run with -update if the change is meant):\n%s", golden, lineDiff(want, got))
	}

	// The golden file reads back, hashes as the run did and re-encodes to
	// the same bytes.
	tr, err := trace.NewReader(bytes.NewReader(want), golden)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	tw, err := trace.NewWriter(&out, tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	h := trace.NewHasher()
	kinds := map[trace.Kind]int{}
	for {
		var e trace.Event
		err := tr.Next(&e)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds[e.Kind]++
		h.Add(&e)
		tw.Observe(&e)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%016x", h.Sum()); got != sum.TraceHash {
		t.Errorf("%s hashes to %s, the run to %s", golden, got, sum.TraceHash)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("reading and writing %s again changes it:\n%s", golden, lineDiff(want, out.Bytes()))
	}
	if kinds[trace.NodeAdded] != 5 || kinds[trace.LinkUp] != 5 || kinds[trace.End] != 1 ||
		uint64(kinds[trace.Sent]) != sum.Messages.Total || uint64(kinds[trace.Delivered]) != sum.Messages.Delivered {
		t.Errorf("unexpected event counts %v for %+v", kinds, sum.Messages)
	}
}

// lineDiff shows the first lines where two files differ.
func lineDiff(want, got []byte) string {
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 5; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n   got %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}
