package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
)

// everyStep is a schedule with a step of each kind.
const everyStep = `algorithm: chang-roberts
topology: ring:3
values: id
schedule:
  reorder: true
  steps:
    - {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}
    - {at: 2ms, fire: {node: 0, timer: 1}}
    - {at: 3ms, lose: {from: 1, to: 2, seq: 1}}
    - {at: 4ms, crash: 2}
    - {at: 5ms, restart: 2}
    - {at: 5ms, recover: 2}
    - {at: 7ms, link-down: [2, 1]}
    - {at: 8ms, link-up: [1, 2]}
`

func TestParseSchedule(t *testing.T) {
	s, err := Parse("cx.yaml", []byte(everyStep), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	want := &Schedule{Reorder: true, Steps: []explore.Step{
		{At: 1 * ms, Kind: explore.Deliver, Node: 2, Peer: 1, Seq: 0},
		{At: 2 * ms, Kind: explore.Fire, Node: 0, Peer: algo.None, Timer: 1},
		{At: 3 * ms, Kind: explore.Lose, Node: 2, Peer: 1, Seq: 1},
		{At: 4 * ms, Kind: explore.Crash, Node: 2, Peer: algo.None},
		{At: 5 * ms, Kind: explore.Restart, Node: 2, Peer: algo.None},
		{At: 5 * ms, Kind: explore.Recover, Node: 2, Peer: algo.None},
		{At: 7 * ms, Kind: explore.LinkDown, Node: 1, Peer: 2}, // lower id first
		{At: 8 * ms, Kind: explore.LinkUp, Node: 1, Peer: 2},
	}, Where: []string{"cx.yaml:7", "cx.yaml:8", "cx.yaml:9", "cx.yaml:10", "cx.yaml:11", "cx.yaml:12", "cx.yaml:13", "cx.yaml:14"}}
	if !reflect.DeepEqual(s.Schedule, want) {
		t.Errorf("schedule\n%+v\nwant\n%+v", s.Schedule, want)
	}
	if !s.Sets("schedule") {
		t.Error("Sets(schedule) = false")
	}
	c := s.Clone()
	c.Schedule.Steps[0].Seq, c.Schedule.Where[0] = 7, "x"
	if s.Schedule.Steps[0].Seq != 0 || s.Schedule.Where[0] != "cx.yaml:7" {
		t.Error("Clone shares the schedule")
	}

	for doc, want := range map[string]*Schedule{
		"schedule: {steps: []}\n":                            {Steps: []explore.Step{}, Where: []string{}},
		"schedule: {timed: true, reorder: false, steps: []}": {Timed: true, Steps: []explore.Step{}, Where: []string{}},
		"schedule:\n  timed: True\n  steps:\n  - {at: 0, crash: 0}\n": {Timed: true,
			Steps: []explore.Step{{Kind: explore.Crash, Peer: algo.None}}, Where: []string{"t.yaml:4"}},
	} {
		s, err := Parse("t.yaml", []byte(doc), nil)
		if err != nil {
			t.Errorf("%q: %v", doc, err)
		} else if !reflect.DeepEqual(s.Schedule, want) {
			t.Errorf("%q: schedule %+v, want %+v", doc, s.Schedule, want)
		}
	}
}

// TestScheduleErrors: every mistake names the file, the line, the column
// and the field.
func TestScheduleErrors(t *testing.T) {
	const head = "algorithm: chang-roberts\nschedule:\n  steps:\n"
	for _, tc := range []struct{ name, doc, want, msg string }{
		{"bad kind", head + "    - {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}\n    - {at: 2ms, explode: 3}\n",
			`t.yaml:5:17: schedule.steps[1]: unknown field "explode"`, "(known: at, deliver, fire, lose, crash, restart, recover, link-down, link-up)"},
		{"event spelling", head + "    - {at: 2ms, link_down: [1, 2]}\n", `t.yaml:4:17: schedule.steps[0]: unknown field "link_down"`, "link-down"},
		{"two kinds", head + "    - {at: 1ms, crash: 1, restart: 1}\n", "t.yaml:4:7: schedule.steps[0]: ", "exactly one of deliver, fire, lose, crash, restart, recover, link-down or link-up besides \"at\" (got crash, restart)"},
		{"no kind", head + "    - {at: 1ms}\n", "t.yaml:4:7: schedule.steps[0]: ", "(got none)"},
		{"missing at", head + "    - {crash: 1}\n", "t.yaml:4:7: schedule.steps[0]: ", `missing "at"`},
		{"bad at", head + "    - {at: soon, crash: 1}\n", "t.yaml:4:12: schedule.steps[0].at: ", `invalid duration "soon"`},
		{"decreasing at", head + "    - {at: 2ms, crash: 1}\n    - {at: 3ms, restart: 1}\n    - {at: 1ms, crash: 0}\n",
			"t.yaml:6:12: schedule.steps[2].at: ", "1ms comes before the step before it (t.yaml:5, at 3ms)"},
		{"negative node", head + "    - {at: 1ms, crash: -1}\n", "t.yaml:4:24: schedule.steps[0].crash: ", `invalid node id "-1"`},
		{"negative sender", head + "    - {at: 1ms, deliver: {from: -2, to: 1, seq: 0}}\n", "t.yaml:4:33: schedule.steps[0].deliver.from: ", `invalid node id "-2"`},
		{"node list", head + "    - {at: 1ms, crash: [1, 2]}\n", "t.yaml:4:24: schedule.steps[0].crash: ", "want a node id, got a list"},
		{"unknown message field", head + "    - {at: 1ms, lose: {from: 1, to: 2, seq: 0, type: x}}\n", `t.yaml:4:48: schedule.steps[0].lose: unknown field "type"`, "(known: from, to, seq)"},
		{"message incomplete", head + "    - {at: 1ms, deliver: {from: 1, to: 2}}\n", "t.yaml:4:26: schedule.steps[0].deliver: ", "want {from: NODE, to: NODE, seq: N}"},
		{"message to itself", head + "    - {at: 1ms, deliver: {from: 1, to: 1, seq: 0}}\n", "t.yaml:4:26: schedule.steps[0].deliver: ", "got node 1 twice"},
		{"seq too large", head + "    - {at: 1ms, deliver: {from: 1, to: 2, seq: 4294967296}}\n", "t.yaml:4:48: schedule.steps[0].deliver.seq: ", "want an integer from 0 to 4294967295"},
		{"seq negative", head + "    - {at: 1ms, deliver: {from: 1, to: 2, seq: -1}}\n", "t.yaml:4:48: schedule.steps[0].deliver.seq: ", `invalid seq "-1"`},
		{"timer too large", head + "    - {at: 1ms, fire: {node: 1, timer: 256}}\n", "t.yaml:4:40: schedule.steps[0].fire.timer: ", "want an integer from 0 to 255"},
		{"fire without timer", head + "    - {at: 1ms, fire: {node: 1}}\n", "t.yaml:4:23: schedule.steps[0].fire: ", "want {node: NODE, timer: T}"},
		{"link of one node", head + "    - {at: 1ms, link-up: [1, 1]}\n", "t.yaml:4:26: schedule.steps[0].link-up: ", "got 1 twice"},
		{"step not a mapping", head + "    - crash\n", "t.yaml:4:7: schedule.steps[0]: ", `want a step, a mapping like`},
		{"steps not a list", head + "    x: 1\n", "t.yaml:4:5: schedule.steps: ", "want a list of steps"},
		{"unknown schedule field", "schedule:\n  ordered: true\n  steps: []\n", `t.yaml:2:3: schedule: unknown field "ordered"`, "(known: timed, reorder, steps)"},
		{"no steps", "schedule:\n  timed: true\n", "t.yaml:2:3: schedule: ", `missing "steps"`},
		{"schedule null", "schedule:\n", "t.yaml:1:10: schedule: ", "want a schedule"},
		{"timed quoted", "schedule: {timed: 'yes', steps: []}\n", "t.yaml:1:19: schedule.timed: ", `want true or false, got "yes"`},
		{"with events", "schedule: {steps: []}\nevents:\n  - {at: 1s, crash: 1}\n", "t.yaml:3:3: events: ", "runs its steps and nothing else"},
		{"with loss", "loss: 0.1\nschedule: {steps: []}\n", "t.yaml:1:7: loss: ", "loses only the messages its steps lose"},
		{"with mobility", "topology: geometric:5:100\nmobility: static\nschedule: {steps: []}\n", "t.yaml:2:11: mobility: ", "still network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(tc.doc), nil)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tc.doc, s.Schedule)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.want) || !strings.Contains(msg, tc.msg) {
				t.Errorf("Parse(%q):\n got error %s\nwant one starting %q, containing %q", tc.doc, msg, tc.want, tc.msg)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not a *scenario.Error", err)
			}
		})
	}
}

// TestScheduleAfterFlags: events, loss or mobility that come from outside
// the file (a base scenario, flags) are refused too, blamed on the
// schedule.
func TestScheduleAfterFlags(t *testing.T) {
	base := Default()
	base.Loss = 0.2
	_, err := Parse("t.yaml", []byte("algorithm: chang-roberts\nschedule:\n  steps: []\n"), base)
	if err == nil || !strings.HasPrefix(err.Error(), "t.yaml:3:3: schedule: loss is set elsewhere") {
		t.Errorf("Parse over a lossy base = %v", err)
	}
	s, err := Parse("t.yaml", []byte("schedule:\n  steps: []\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSchedule(); err != nil {
		t.Errorf("CheckSchedule = %v", err)
	}
	s.Mobility = "static" // --mobility
	if err := s.CheckSchedule(); err == nil || !strings.HasPrefix(err.Error(), "t.yaml:2:3: schedule: mobility is set elsewhere") {
		t.Errorf("CheckSchedule with a mobility = %v", err)
	}
}

// TestFormatSchedule: a schedule of every kind of step, written by Format
// and read back, is the schedule it was, one step a line.
func TestFormatSchedule(t *testing.T) {
	s, err := Parse("cx.yaml", []byte(everyStep), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, timed := range []bool{false, true} {
		s.Schedule.Timed = timed
		b, err := Format(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "\n    - {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}\n    - {at: 2ms, fire: {node: 0, timer: 1}}\n") {
			t.Errorf("formatted:\n%s", b)
		}
		back, err := Parse("back.yaml", b, nil)
		if err != nil {
			t.Fatalf("formatted, it does not parse: %v\n%s", err, b)
		}
		if len(back.Schedule.Where) != len(s.Schedule.Steps) || back.Schedule.Where[0] != "back.yaml:17" {
			t.Errorf("where %v\n%s", back.Schedule.Where, b)
		}
		if !reflect.DeepEqual(normalSchedule(s), normalSchedule(back)) {
			t.Errorf("formatted and read back it is\n%+v\nwant\n%+v\n%s", normalSchedule(back).Schedule, normalSchedule(s).Schedule, b)
		}
	}
	// An empty schedule is the boot alone.
	s.Schedule = &Schedule{}
	b, err := Format(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("back.yaml", b, nil)
	if err != nil || back.Schedule == nil || len(back.Schedule.Steps) != 0 {
		t.Errorf("empty schedule read back as %+v, %v\n%s", back, err, b)
	}
	s.Schedule.Steps = []explore.Step{{Kind: 99}}
	if _, err := Format(s); err == nil || !strings.Contains(err.Error(), "schedule.steps[0]") {
		t.Errorf("Format of an unknown step = %v", err)
	}
}

func normalSchedule(s *Scenario) *Scenario {
	c := normal(s)
	c.Schedule.Where = nil
	return c
}
