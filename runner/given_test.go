package runner_test

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// TestGiven: parameters and node sets given outside a scenario's file are
// blamed on what gave them.
func TestGiven(t *testing.T) {
	if _, err := runner.ParseGiven("--param", []string{"a=1", "b"}); err == nil || err.Error() != `--param "b": want NAME=VALUE` {
		t.Errorf("ParseGiven b: %v", err)
	}
	a, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	line := func() *scenario.Scenario {
		s := scenario.Default()
		s.Algorithm, s.Params, s.Topology = "echo", nil, "line:3"
		return s
	}
	for _, c := range []struct {
		params                 []string
		initiators, unelected  string
		setInits, setUnelected string
		want                   string
	}{
		{params: []string{"nope=1"}, want: "--param nope=1: "},
		{params: []string{"initiator=7"}, want: "--param initiator=7: "},
		{setUnelected: "5", unelected: "--unelected", want: "--unelected: node 5 does not exist"},
		{setInits: "7", initiators: "--initiators", want: "--initiators: "},
		{params: []string{"initiator=1"}, want: ""},
	} {
		s := line()
		given, err := runner.ParseGiven("--param", c.params)
		if err == nil {
			err = runner.SetParams(s, a, given)
		}
		if err == nil {
			s.Initiators, s.Unelected = c.setInits, c.setUnelected
			err = runner.CheckNodeSets(s, a, given, c.initiators, c.unelected)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%+v: %v, want %s...", c, err, c.want)
		}
	}
}
