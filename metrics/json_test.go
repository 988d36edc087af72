package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/electgo/elect/algo"
)

// bigSummary is the summary of a run on n nodes in one component, the shape
// of the 1M-node election benchmark.
func bigSummary(n int) *Summary {
	s := &Summary{Algorithm: "vkt", Nodes: n, Final: make([]NodeFinal, n)}
	comp := make([]algo.NodeID, n)
	for v := range n {
		s.Final[v] = NodeFinal{ID: algo.NodeID(v), Value: int64(v*7919%n) - 3, Alive: v%5 != 0, Leader: algo.NodeID(n - 1), State: "Norm"}
		comp[v] = algo.NodeID(v)
	}
	s.Components = [][]algo.NodeID{comp}
	return s
}

// TestWriteJSONIsEncodingJSON: the hand-written lists change nothing of the
// bytes, whatever the summary holds.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	odd := bigSummary(7)
	odd.Final[2].State = `Wait<"&>`
	odd.Final[3].Leader = algo.None
	odd.Final[4].Value = -1 << 63
	odd.Components = append(odd.Components, nil, []algo.NodeID{}, []algo.NodeID{5, 6})
	odd.Params = map[string]string{"final": `"final":null,"components":null`}
	odd.Reports = []Report{{Text: `"final":null,"components":null`}}
	for name, s := range map[string]*Summary{
		"empty":       {},
		"empty lists": {Final: []NodeFinal{}, Components: [][]algo.NodeID{}},
		"run":         bigSummary(100),
		"odd":         odd,
		"chunks":      pieces(5000),
	} {
		t.Run(name, func(t *testing.T) {
			var want, got bytes.Buffer
			if err := json.NewEncoder(&want).Encode(s); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&got, s); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("WriteJSON:\n%s\nencoding/json:\n%s", got.Bytes(), want.Bytes())
			}
		})
	}
}

// pieces is a summary too long for one chunk, in many components.
func pieces(n int) *Summary {
	s := bigSummary(n)
	s.Components = nil
	for v := range n {
		s.Components = append(s.Components, []algo.NodeID{algo.NodeID(v)})
	}
	return s
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWriteJSONError: a failed write is reported.
func TestWriteJSONError(t *testing.T) {
	if err := WriteJSON(failing{}, pieces(5000)); err == nil || err.Error() != "disk full" {
		t.Errorf("WriteJSON to a failing writer: %v, want disk full", err)
	}
}

// BenchmarkSummaryJSON1M encodes the summary of a 1M-node run as elect sim
// --json does (encoding/json alone: 0.79 s and 89 MB an encoding).
func BenchmarkSummaryJSON1M(b *testing.B) {
	s := bigSummary(1_000_000)
	for b.Loop() {
		if err := WriteJSON(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}
