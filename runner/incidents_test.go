package runner_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// incidents are the shapes of public leader-election incidents, rebuilt
// as scenarios (scenarios/incidents/, docs/runtime.md), each with the
// verdict elect gives: the properties violated, in order, none when it
// holds.
var incidents = map[string][]string{
	"oneway-leader-unheard.yaml":   nil,
	"oneway-follower-unheard.yaml": nil,
	"leader-clock-slow.yaml":       nil,
	"leader-clock-crawls.yaml":     {"liveness"},
	"clock-jump-hour.yaml":         nil,
	"slow-not-dead.yaml":           {"safety"},
	"bully-oneway.yaml":            {"safety", "liveness"},
}

// TestIncidents runs every incident and holds it to its verdict; each file
// is also written back by scenario.Format and read as the same scenario.
func TestIncidents(t *testing.T) {
	files, _ := filepath.Glob("../scenarios/incidents/*.yaml")
	if len(files) != len(incidents) {
		t.Errorf("%d incidents in scenarios/incidents, %d in the table", len(files), len(incidents))
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			want, ok := incidents[name]
			if !ok {
				t.Fatalf("no verdict in the table for %s", name)
			}
			s, err := scenario.Load(f, scenario.Default())
			if err != nil {
				t.Fatal(err)
			}
			sum, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range sum.Violations {
				got = append(got, v.Property)
			}
			if !slices.Equal(got, want) {
				t.Errorf("violations %v, want %v: %v", got, want, sum.Violations)
			}
			b, err := scenario.Format(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := scenario.Parse(name, b, scenario.Default())
			if err != nil {
				t.Fatalf("formatted, it does not parse: %v\n%s", err, b)
			}
			for i := range back.Events {
				back.Events[i].Where = s.Events[i].Where // where each was read from
			}
			if !reflect.DeepEqual(back.Events, s.Events) || back.Topology != s.Topology {
				t.Errorf("formatted and read back, its events are\n%v\nwant\n%v", back.Events, s.Events)
			}
		})
	}
}
