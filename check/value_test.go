package check

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// line3 is the start of the value cases: nodes 0 - 1 - 2 in a line, node 2
// (value 10) the most valued, then 1 (5), then 0 (3), all following 2 from
// 1ms.
const line3 = `
0 node 0 value=3
0 node 1 value=5
0 node 2 value=10
0 link 0 1
0 link 1 2
1ms status 0 leader=2 Norm index=1,2
1ms status 1 leader=2 Norm index=1,2
1ms status 2 leader=2 Norm index=1,2
`

// TestValueAtElection: under Config.ValueAtElection a value change waits
// for the next change of its node's component, whatever the change (a link
// up inside it, a split, a merge, a crash in it, a restart, a gray event, an
// elect call), and whatever way the Monitor applies it (every case also runs
// with every change rebuilt, and against the reference checker). Then the
// component must follow its most valued node with the new value; until then
// it is held to the old one. Without ValueAtElection, a value change is a
// change at once (value_leader_falls.txt).
func TestValueAtElection(t *testing.T) {
	const held = "value_at_election=true"
	cases := []struct {
		name string
		cfg  string
		body string
	}{
		{"held back: the old leader stands", held, line3 + `
40s value 2 1
100s end quiescent
---
violations: none
note: not to the value change after it`},
		{"followed at once without it: the old leader fails", "", line3 + `
40s value 2 1
100s end quiescent
---
violation liveness at 70s nodes 0 1 2 ~ but node 1 is the most valued`},
		{"a link up inside the component (relink, no merge)", held, line3 + `
40s value 2 1
60s link 0 2
120s end quiescent
---
violation liveness at 90s nodes 0 1 2 ~ but node 1 is the most valued
note: not to the value change after it`},
		{"a link flap (two changes at one instant, members unchanged: reborn)", held, line3 + `
40s value 2 1
60s link_down 0 1
60s link 0 1
120s end quiescent
---
violation liveness at 90s nodes 0 1 2 ~ but node 1 is the most valued
note: not to the value change after it`},
		{"the same link change at the value's instant counts it", held, line3 + `
40s link 0 2
40s value 2 1
120s end quiescent
---
violation liveness at 70s nodes 0 1 2 ~ but node 1 is the most valued
note: not to the value change after it`},
		{"a split: the side with the new value follows it, the other keeps its own", held, line3 + `
40s value 0 20
60s link_down 1 2
61s status 0 leader=1 Norm index=2,1
61s status 1 leader=1 Norm index=2,1
120s end quiescent
---
violation liveness at 90s nodes 0 1 ~ but node 0 is the most valued
note: not to the value change after it`},
		{"a merge: the joined component counts the waiting values of both sides", held, `
0 node 0 value=3
0 node 1 value=5
0 node 2 value=10
0 link 0 1
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
1ms status 2 leader=2 Norm index=1,2
40s value 2 1
41s value 0 7
60s link 1 2
61s status 1 leader=0 Norm index=2,0
61s status 2 leader=0 Norm index=2,0
61s status 0 leader=0 Norm index=2,0
120s end quiescent
---
violations: none
note: not to the 2 value changes after it`},
		{"a crash in the component counts the waiting values of the rest", held, `
0 node 0 value=3
0 node 1 value=5
0 node 2 value=10
0 node 3 value=0
0 link 0 1
0 link 1 2
0 link 2 3
1ms status 0 leader=2 Norm index=1,2
1ms status 1 leader=2 Norm index=1,2
1ms status 2 leader=2 Norm index=1,2
1ms status 3 leader=2 Norm index=1,2
40s value 2 1
50s crash 3
120s end quiescent
---
violation liveness at 80s nodes 0 1 2 ~ but node 1 is the most valued
note: not to the value change after it`},
		{"a crashed node's new value counts once it restarts", held, line3 + `
40s crash 0
41s value 0 20
50s restart 0
51s status 0 leader=2 Norm index=1,2
120s end quiescent
---
violation liveness at 80s nodes 0 1 2 ~ but node 0 is the most valued
note: not to the value change after it`},
		{"a gray event at a node counts its component's waiting values", held, line3 + `
40s value 2 1
60s clock 0 1000
120s end quiescent
---
violation liveness at 90s nodes 0 1 2 ~ but node 1 is the most valued
note: not to the value change after it`},
		{"an elect call, and the nodes hand over in time", held, line3 + `
40s value 2 1
60s elect 1
61s status 0 leader=1 Norm index=2,1
61s status 1 leader=1 Norm index=2,1
61s status 2 leader=1 Norm index=2,1
120s end quiescent
---
violations: none
note: not to the value change after it`},
		{"a change of another component counts nothing", held, `
0 node 0 value=3
0 node 1 value=5
0 node 2 value=10
0 node 3 value=0
0 node 4 value=0
0 link 0 1
0 link 1 2
0 link 3 4
1ms status 0 leader=2 Norm index=1,2
1ms status 1 leader=2 Norm index=1,2
1ms status 2 leader=2 Norm index=1,2
1ms status 3 leader=4 Norm index=1,4
1ms status 4 leader=4 Norm index=1,4
40s value 2 1
60s link_down 3 4
60s link 3 4
120s end quiescent
---
violations: none
note: at the end, 1 node still waited with a new value
components: [0 1 2] [3 4]`},
		{"a value that comes back waits for nothing", held, line3 + `
40s value 2 1
41s value 2 10
60s link 0 2
120s end quiescent
---
violations: none
note: not to the 2 value changes after it`},
		{"values move and are followed: a run ending mid-change is unchecked", "values_move=true", line3 + `
40s value 2 1
45s end
---
violations: none
unchecked: 1`},
		{"values move but are held back: the components stay judged", "values_move=true " + held, line3 + `
40s value 2 1
45s end
---
violations: none
unchecked: 0
note: not to the value change after it`},
		{"values move but are held back: a link change is no more open-ended than without", "values_move=true " + held, line3 + `
40s value 2 1
44s link 0 2
45s end
---
violation liveness at 45s nodes 0 1 2 ~ before its liveness bound
unchecked: 1
note: not to the value change after it`},
		{"among initiators, a waiting initiator's value counts at the change", "among=true spontaneous=false " + held, `
0 node 0 value=3
0 node 1 value=5
0 node 2 value=10
0 link 0 1
0 link 1 2
0 elect 0
0 elect 1
1ms status 0 leader=1 Norm index=1,1
1ms status 1 leader=1 Norm index=1,1
1ms status 2 leader=1 Norm index=1,1
40s value 0 9
60s link 0 2
120s end quiescent
---
violation liveness at 90s nodes 0 1 2 ~ but node 0 is the most valued initiator
note: not to the value change after it`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.body
			if c.cfg != "" {
				text = "config " + c.cfg + "\n" + text
			}
			s := mustScript(t, text)
			r := runBothWays(t, s.cfg, s.events)
			if bad := checkExpectations(s, r); len(bad) > 0 {
				t.Errorf("\n  %s\nreport:\n%s", strings.Join(bad, "\n  "), describe(r))
			}
			if d := differ(s.cfg, s.events, true); d != "" {
				t.Errorf("the ways of applying changes differ: %s", d)
			}
		})
	}
}

// TestValueNote: the note names the algorithm (Config.Algorithm), counts
// the value changes held back and the nodes still waiting at the end, and
// is there only when changes were held back.
func TestValueNote(t *testing.T) {
	s := mustScript(t, line3+`
40s value 2 1
41s value 0 4
60s link 0 1
100s end quiescent
---
violations: none`)
	cfg := s.cfg
	cfg.ValueAtElection, cfg.Algorithm = true, "echo"
	r := feed(cfg, s.events).Report()
	want := "echo does not follow value changes (its model): components are held to their nodes' values at their last change, not to the 2 value changes after it; a new value counts from the next change of its node's component (a link, a crash or restart, an elect call)"
	if len(r.Notes) != 1 || r.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", r.Notes, want)
	}
	cfg.ValueAtElection = false
	if r := feed(cfg, s.events).Report(); len(r.Notes) != 0 {
		t.Errorf("notes %q without ValueAtElection", r.Notes)
	}
	cfg.ValueAtElection = true
	var unchanged []trace.Event
	for _, e := range s.events {
		if e.Kind != trace.ValueChanged {
			unchanged = append(unchanged, e)
		}
	}
	if r := feed(cfg, unchanged).Report(); len(r.Notes) != 0 {
		t.Errorf("notes %q with no value change", r.Notes)
	}
}

// TestValueView: Monitor.Node tells a node's last value (Value) and the one
// its component is held to (Held), which differ while a new value waits.
func TestValueView(t *testing.T) {
	m := New(Config{Stabilization: DefaultStabilization, Liveness: DefaultLiveness, ValueAtElection: true})
	for _, e := range []trace.Event{
		{Kind: trace.NodeAdded, Node: 0, Value: 3},
		{Kind: trace.NodeAdded, Node: 1, Value: 5},
		{Kind: trace.LinkUp, Node: 0, Peer: 1},
		{At: 1, Kind: trace.ValueChanged, Node: 0, Value: 9},
	} {
		m.Observe(&e)
	}
	if got, want := m.Node(0), (NodeState{Value: 9, Alive: true, Status: algo.Status{Leader: algo.None}, Held: 3}); got != want {
		t.Errorf("waiting: %+v, want %+v", got, want)
	}
	for _, e := range []trace.Event{
		{At: 2, Kind: trace.LinkDown, Node: 0, Peer: 1},
		{At: 3, Kind: trace.End},
	} {
		m.Observe(&e)
	}
	if got := m.Node(0); got.Value != 9 || got.Held != 9 {
		t.Errorf("after its component changed: %+v, want value and held 9", got)
	}
}
