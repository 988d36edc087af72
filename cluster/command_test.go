package cluster

import (
	"errors"
	"fmt"
	"testing"
)

func TestParseCommand(t *testing.T) {
	good := map[string]string{
		"k 3":           "kill [3] false",
		"kill 1 2,3":    "kill [1 2 3] false",
		"  s 0 ":        "stop [0] false",
		"r 7":           "restart [7] false",
		"RECOVER 4":     "recover [4] false",
		"c leader":      "recover [] true",
		"e 0,1":         "elect [0 1] false",
		"restart 2,,5 ": "restart [2 5] false",
	}
	for line, want := range good {
		st, err := ParseCommand(line, 8)
		if got := fmt.Sprintf("%s %v %v", st.Action, st.Nodes, st.Leader); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", line, got, err, want)
			continue
		}
		// The form a summary writes reads back as the same step.
		back, err := ParseCommand(st.describe(), 8)
		if again := fmt.Sprintf("%s %v %v", back.Action, back.Nodes, back.Leader); err != nil || again != want {
			t.Errorf("%q written as %q reads back as %q, %v", line, st.describe(), again, err)
		}
	}
	bad := map[string]string{
		"x 1":        `unknown command "x"`,
		"":           "unknown command: the line is empty",
		"k":          "kill which node? (k N, N from 0 to 7, or k leader)",
		"k 8":        "node 8 is out of range: the cluster has nodes 0..7",
		"k -1":       `kill -1: "-1" is not a node id`,
		"k two":      `kill two: "two" is not a node id`,
		"k 1 leader": "kill: give node ids or leader, not both",
		"expect 1":   `unknown command "expect"`,
	}
	for line, want := range bad {
		if _, err := ParseCommand(line, 8); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", line, err, want)
		}
	}
	if _, err := ParseCommand("print", 8); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("print: %v, want ErrUnknownCommand", err)
	}
}

// The gray steps' one-line forms: each reads as its step, and the form a
// summary writes (describe) reads back as the same step.
func TestParseGrayCommand(t *testing.T) {
	show := func(st Step) string {
		return fmt.Sprintf("%s %v %v %+v", st.Action, st.Nodes, st.Leader, st.Gray)
	}
	good := map[string]string{
		"cut 4 0":                  "cut [] false {From:4 To:0 Rate:0 Jump:0s By:0s For:0s}",
		"UNCUT 4,0":                "uncut [] false {From:4 To:0 Rate:0 Jump:0s By:0s For:0s}",
		"clock 3 0.8":              "clock [3] false {From:0 To:0 Rate:0.8 Jump:0s By:0s For:0s}",
		"clock 1,2 1":              "clock [1 2] false {From:0 To:0 Rate:1 Jump:0s By:0s For:0s}",
		"jump 3 -1h":               "clock [3] false {From:0 To:0 Rate:0 Jump:-1h0m0s By:0s For:0s}",
		"clock leader 1.2 jump 5s": "clock [] true {From:0 To:0 Rate:1.2 Jump:5s By:0s For:0s}",
		"slow 3 200ms":             "slow [3] false {From:0 To:0 Rate:0 Jump:0s By:200ms For:0s}",
		"slow 3 0s":                "slow [3] false {From:0 To:0 Rate:0 Jump:0s By:0s For:0s}",
		"slow 2 3 50ms for 10s":    "slow [2 3] false {From:0 To:0 Rate:0 Jump:0s By:50ms For:10s}",
	}
	for line, want := range good {
		st, err := ParseCommand(line, 8)
		if got := show(st); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", line, got, err, want)
			continue
		}
		back, err := ParseCommand(st.describe(), 8)
		if again := show(back); err != nil || again != want {
			t.Errorf("%q written as %q reads back as %q, %v", line, st.describe(), again, err)
		}
	}
	bad := map[string]string{
		"cut 4":            "cut: want cut FROM TO: node TO no longer hears FROM",
		"cut 4 4":          "cut: from and to are both node 4: a direction joins two nodes",
		"cut 4 9":          "node 9 is out of range: the cluster has nodes 0..7",
		"uncut 1 2 3":      "uncut: want uncut FROM TO: node TO hears FROM again",
		"clock 3":          "clock: want clock N RATE (0.8: 20% slow; 1: true time), then jump D to jump it too",
		"clock 3 0":        `clock rate "0": want a number above 0 and at most 100, like 0.8 for 20% slow (1: true time)`,
		"clock 3 101":      `clock rate "101": want a number above 0 and at most 100, like 0.8 for 20% slow (1: true time)`,
		"clock 3 0.8 jump": "clock: want clock N RATE (0.8: 20% slow; 1: true time), then jump D to jump it too",
		"cut leader 2":     "cut: want cut FROM TO: node TO no longer hears FROM",
		"jump 3 0s":        `jump "0s": want a duration other than 0, like 1h or -500ms`,
		"slow 3 -1s":       `slow by "-1s": want a duration of 0 or more, like 200ms`,
		"slow 3 200":       `slow by "200": want a duration of 0 or more, like 200ms`,
		"slow x 200ms":     `slow x: "x" is not a node id`,
	}
	for line, want := range bad {
		if _, err := ParseCommand(line, 8); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", line, err, want)
		}
	}
}

// A value step's one-line form reads as its step, and the form a summary
// writes (describe) reads back as the same step.
func TestParseValueCommand(t *testing.T) {
	show := func(st Step) string { return fmt.Sprintf("%s %v %v %d", st.Action, st.Nodes, st.Leader, st.Value) }
	good := map[string]string{
		"value 7 120":       "value [7] false 120",
		"VALUE leader 1":    "value [] true 1",
		"value 1,2 3 -5":    "value [1 2 3] false -5",
		"value 0 +9":        "value [0] false 9",
		"value 4 922337203": "value [4] false 922337203",
	}
	for line, want := range good {
		st, err := ParseCommand(line, 8)
		if got := show(st); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", line, got, err, want)
			continue
		}
		back, err := ParseCommand(st.describe(), 8)
		if again := show(back); err != nil || again != want {
			t.Errorf("%q written as %q reads back as %q, %v", line, st.describe(), again, err)
		}
	}
	bad := map[string]string{
		"value":                        "value: want value N V: node N's value (its desirability as leader) becomes V, an integer",
		"value 7":                      "value: want value N V: node N's value (its desirability as leader) becomes V, an integer",
		"value 7 high":                 `value "high": want an integer, like 120 or -3`,
		"value 7 1.5":                  `value "1.5": want an integer, like 120 or -3`,
		"value 7 99999999999999999999": `value "99999999999999999999": want an integer from -9223372036854775808 to 9223372036854775807`,
		"value 9 1":                    "node 9 is out of range: the cluster has nodes 0..7",
		"value x 1":                    `value x: "x" is not a node id`,
		"value 1 leader 3":             "value: give node ids or leader, not both",
	}
	for line, want := range bad {
		if _, err := ParseCommand(line, 8); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", line, err, want)
		}
	}
}
