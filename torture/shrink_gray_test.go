package torture

import (
	"fmt"
	"testing"
	"time"

	"github.com/electgo/elect/scenario"
)

// Shrinking keeps a gray failure what it was: renumbered nodes carry a cut
// direction's way and a clock's node along, and fewer nodes drop the
// failures of the nodes gone.
func TestShrinkGray(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte(`algorithm: vkt
topology: ring:8
duration: 30s
events:
  - {at: 1s, cut: {from: 5, to: 2}}
  - {at: 2s, clock: {node: 5, rate: 0.8}}
  - {at: 3s, slow: {node: 7, by: 100ms}}
  - {at: 4s, loss: {from: 2, to: 7, rate: 0.5}}
`), scenario.Default())
	if err != nil {
		t.Fatal(err)
	}
	r, ok := relabel(s)
	if !ok {
		t.Fatal("relabel changed nothing")
	}
	// Named nodes 2, 5, 7 come first: 2 -> 0, 5 -> 1, 7 -> 2.
	var got []string
	for _, a := range r.Events {
		got = append(got, fmt.Sprintf("%v %v %v->%v %v", a.Kind, a.At, a.Link.A, a.Link.B, a.Nodes))
	}
	want := "[cut 1s 1->0 [] clock 2s 0->0 [1] slow 3s 0->0 [2] loss 4s 0->2 []]"
	if fmt.Sprint(got) != want {
		t.Errorf("relabelled: %v\nwant %s", got, want)
	}
	small, ok := withNodes(s, 6, "") // nodes 0..5: 7's slow spell and the loss towards it go
	if !ok {
		t.Fatal("withNodes refused 6 nodes")
	}
	if len(small.Events) != 2 || small.Events[0].At != time.Second || small.Events[1].At != 2*time.Second {
		t.Errorf("on 2 nodes the events are %+v, want the cut and the clock", small.Events)
	}
}
