package torture

import (
	"fmt"
	"slices"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// Value changes are drawn in the model of the algorithms that follow the
// value (vkt, park), in the value range of the run, of a node or of the
// leader; never in the model of one that elects once (bully), only
// outside it. They are drawn last: a campaign's scenarios are otherwise
// what they were before, every event but the value changes the same.
func TestValuesDrawn(t *testing.T) {
	for _, name := range []string{"vkt", "park", "bully"} {
		a, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		in, out := Tolerated(a.Model), Untolerated(a.Model)
		if in.Values != a.Model.FollowsValue || out.Values == in.Values {
			t.Errorf("%s: values in its model %v, outside %v", name, in.Values, out.Values)
		}
		f := in
		if !a.Model.FollowsValue {
			f = out
		}
		sets, leaders := 0, 0
		for i := range 200 {
			s := Scenario(a, f, Limits{MaxNodes: 24}, 1, i)
			n := size(s)
			for _, e := range s.Events {
				if e.Kind != sim.SetValue {
					continue
				}
				sets++
				if e.Leader {
					leaders++
				} else if len(e.Nodes) != 1 || int(e.Nodes[0]) >= n {
					t.Fatalf("%s run %d: value event %+v on %d nodes", name, i, e, n)
				}
				if top := int64(sim.RandomValueRange); s.Values.Mode == sim.ValueID {
					if e.Value < 0 || e.Value >= int64(n) {
						t.Fatalf("%s run %d: value %d outside the ids of %d nodes", name, i, e.Value, n)
					}
				} else if e.Value < 0 || e.Value >= top {
					t.Fatalf("%s run %d: value %d outside [0, %d)", name, i, e.Value, top)
				}
			}
			// Without value changes, the same scenario: the earlier draws stay.
			g := f
			g.Values = false
			plain := Scenario(a, g, Limits{MaxNodes: 24}, 1, i)
			kept := slices.DeleteFunc(slices.Clone(s.Events), func(e sim.Action) bool { return e.Kind == sim.SetValue })
			if fmt.Sprint(kept) != fmt.Sprint(plain.Events) || s.Topology != plain.Topology || s.Seed != plain.Seed {
				t.Fatalf("%s run %d: value changes moved the other draws:\n%v\n%v", name, i, kept, plain.Events)
			}
		}
		if sets == 0 || leaders == 0 {
			t.Errorf("%s: %d value changes drawn in 200 runs, %d of the leader", name, sets, leaders)
		}
		if !a.Model.FollowsValue {
			for i := range 50 {
				for _, e := range Scenario(a, in, Limits{MaxNodes: 24}, 1, i).Events {
					if e.Kind == sim.SetValue {
						t.Fatalf("%s run %d: a value change in the model of an algorithm that elects once", name, i)
					}
				}
			}
		}
	}
}

// Shrinking renumbers a value change's node with the others', keeps a
// change of the leader's value, and drops a change of a node gone.
func TestShrinkValues(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte(`algorithm: vkt
topology: ring:8
duration: 30s
events:
  - {at: 1s, value: {node: 6, to: 120}}
  - {at: 2s, value: {node: leader, to: 3}}
  - {at: 3s, crash: 4}
`), scenario.Default())
	if err != nil {
		t.Fatal(err)
	}
	r, ok := relabel(s)
	if !ok {
		t.Fatal("relabel changed nothing")
	}
	// Named nodes 4, 6 come first: 4 -> 0, 6 -> 1.
	var got []string
	for _, a := range r.Events {
		got = append(got, fmt.Sprintf("%v %v %v %v %d", a.Kind, a.At, a.Nodes, a.Leader, a.Value))
	}
	if want := "[value 1s [1] false 120 value 2s [] true 3 crash 3s [0] false 0]"; fmt.Sprint(got) != want {
		t.Errorf("relabelled: %v\nwant %s", got, want)
	}
	small, ok := withNodes(s, 5, "") // nodes 0..4: node 6's change goes, the leader's stays
	if !ok {
		t.Fatal("withNodes refused 5 nodes")
	}
	if len(small.Events) != 2 || !small.Events[0].Leader || small.Events[0].Kind != sim.SetValue || small.Events[1].Kind != sim.Crash {
		t.Errorf("on 5 nodes the events are %+v, want the leader's value change and the crash", small.Events)
	}
	body, err := scenario.Format(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse("back.yaml", body, scenario.Default())
	if err != nil || len(back.Events) != 3 || back.Events[1].Value != 3 || !back.Events[1].Leader {
		t.Errorf("the shrunk scenario's file reads back as %+v (%v):\n%s", back, err, body)
	}
}
