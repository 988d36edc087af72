package scenario

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/sim"
)

// FuzzParse checks that Parse never panics, that every error is an *Error
// naming the file, and that every accepted scenario keeps the invariants the
// simulator relies on.
func FuzzParse(f *testing.F) {
	// Node sets of millions of ids are valid but take algo.ParseNodeSet a
	// second; a lower bound keeps the fuzzer fast and exercises the check.
	defer func(old int64) { maxNodeWork = old }(maxNodeWork)
	maxNodeWork = 1 << 16
	if data, err := os.ReadFile("example.yaml"); err == nil {
		f.Add(data)
	}
	for _, tc := range validCases {
		f.Add([]byte(tc.doc))
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.doc))
	}
	for _, doc := range []string{
		"events:\n- &e {at: 1s, partition: {a: &n [1, 2], b: 3-4}}\n- *e\n- {at: 2s, partition: {c: *n}}\n",
		"seed: &x 5\nnodes: *x\n",
		"&a [*a]\n",
		"events: &a [*a]\n",
		"values: &v {1: 2, *v : 3}\n",
		"!!map {seed: !!str 3}\n",
		"events:\n- {at: !!int 1s, crash: !!float 3}\n",
		"%YAML 1.2\n---\nseed: 3\n",
		"seed: 3\n...\n---\n",
		"\xef\xbb\xbfseed: 3\n",
		"seed: \xff\n",
		"events:\n  - at: 10s\n    crash: 0-99,200-299\n",
		"? |\n  seed\n: 3\n",
		"{seed: 1, seed: 2}",
		"[",
		"{",
		"'",
		"*",
		"- - - -",
		"events:\n- {at: 1s, link_down: [2147483647, 0]}\n",
		"loss: 0.9999999999999999\n",
		"loss: 0x1p-2\n",
		"schedule:\n  timed: true\n  reorder: true\n  steps:\n    - {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}\n" +
			"    - {at: 2ms, fire: {node: 3, timer: 1}}\n    - {at: 3ms, lose: {from: 1, to: 2, seq: 1}}\n    - {at: 4ms, crash: 2}\n" +
			"    - {at: 5ms, restart: 2}\n    - {at: 6ms, recover: 2}\n    - {at: 7ms, link-down: [2, 1]}\n    - {at: 8ms, link-up: [1, 2]}\n",
		"schedule: {steps: [&s {at: 1ms, crash: 0}, *s, {at: 0, restart: 0}]}\n",
		"schedule: {steps: []}\nevents: [{at: 1s, crash: 1}]\n",
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base := Default()
		s, err := Parse("fuzz.yaml", data, base)
		if !reflect.DeepEqual(base, Default()) {
			t.Fatalf("Parse modified base")
		}
		if err != nil {
			if s != nil {
				t.Fatalf("Parse returned a scenario and an error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T (%v) is not an *Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if s == nil {
			t.Fatal("Parse returned neither a scenario nor an error")
		}
		if s.File != "fuzz.yaml" || s.Algorithm == "" || s.Topology == "" {
			t.Fatalf("bad scenario %+v", s)
		}
		if !(s.Loss >= 0 && s.Loss < 1) || s.Duration < 0 || s.Check.Stabilization < 0 || s.Check.Liveness < 0 || s.Nodes < 0 {
			t.Fatalf("out of range field in %+v", s)
		}
		if !slices.IsSortedFunc(s.Events, func(a, b sim.Action) int { return int(a.At - b.At) }) {
			t.Fatalf("events not sorted: %+v", s.Events)
		}
		for _, a := range s.Events {
			if a.At < 0 || !strings.HasPrefix(a.Where, "fuzz.yaml:") {
				t.Fatalf("bad event %+v", a)
			}
			switch a.Kind {
			case sim.Crash, sim.Restart, sim.Recover, sim.ElectAt, sim.CrashOn, sim.Corrupt:
				if (a.Kind == sim.CrashOn) != (a.Message != "") {
					t.Fatalf("a message type only and always on crash_on: %+v", a)
				}
				if len(a.Nodes) == 0 || !slices.IsSorted(a.Nodes) || len(slices.Compact(slices.Clone(a.Nodes))) != len(a.Nodes) || a.Nodes[0] < 0 {
					t.Fatalf("bad node list %+v", a)
				}
			case sim.Partition:
				if len(a.Groups) == 0 {
					t.Fatalf("partition without groups %+v", a)
				}
				seen := map[int32]bool{}
				for _, g := range a.Groups {
					if g.Name == "" || len(g.Nodes) == 0 {
						t.Fatalf("bad group %+v", a)
					}
					for _, n := range g.Nodes {
						if seen[int32(n)] || n < 0 {
							t.Fatalf("node %d twice or negative in %+v", n, a)
						}
						seen[int32(n)] = true
					}
				}
			case sim.LinkDown, sim.LinkUp:
				if a.Link.A < 0 || a.Link.A >= a.Link.B {
					t.Fatalf("bad link %+v", a)
				}
			case sim.Heal:
			case sim.SetValue:
				if a.Leader == (len(a.Nodes) > 0) || !slices.IsSorted(a.Nodes) {
					t.Fatalf("a value event names the leader or nodes, one of them: %+v", a)
				}
			default:
				t.Fatalf("unknown action kind %v", a.Kind)
			}
		}
		if sch := s.Schedule; sch != nil {
			if len(s.Events) > 0 || s.Loss > 0 || s.Mobility != "" || len(sch.Where) != len(sch.Steps) {
				t.Fatalf("bad scenario with a schedule %+v", s)
			}
			for i, st := range sch.Steps {
				if st.At < 0 || i > 0 && st.At < sch.Steps[i-1].At || !strings.HasPrefix(sch.Where[i], "fuzz.yaml:") || st.Node < 0 {
					t.Fatalf("bad step %d %+v at %s", i, st, sch.Where[i])
				}
				switch st.Kind {
				case explore.Deliver, explore.Lose:
					if st.Peer < 0 || st.Peer == st.Node {
						t.Fatalf("bad message step %+v", st)
					}
				case explore.Fire, explore.Crash, explore.Restart, explore.Recover:
					if st.Peer != algo.None || st.Kind != explore.Fire && st.Timer != 0 || st.Seq != 0 {
						t.Fatalf("bad step %+v", st)
					}
				case explore.LinkDown, explore.LinkUp:
					if st.Node >= st.Peer {
						t.Fatalf("bad link step %+v", st)
					}
				default:
					t.Fatalf("unknown step kind %v", st.Kind)
				}
			}
		}
		for id := range s.Values.Explicit {
			if id < 0 {
				t.Fatalf("negative node in values %+v", s.Values)
			}
		}
	})
}
