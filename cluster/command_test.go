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
