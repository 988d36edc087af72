package runner_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
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
	"weak-transmitters.yaml":       nil,
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
			if !reflect.DeepEqual(back.Events, s.Events) || back.Topology != s.Topology || !reflect.DeepEqual(back.Ranges, s.Ranges) {
				t.Errorf("formatted and read back, its events are\n%v\nwant\n%v", back.Events, s.Events)
			}
		})
	}
}

// Ranges of their own are radios' ranges: without moving nodes, a run
// refuses them, naming the field.
func TestRangesNeedMobility(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte("topology: ring:5\nranges: {1: 100}\n"), scenario.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(s, runner.Options{}); err == nil || !strings.Contains(err.Error(), "t.yaml:2:9: ranges: a radio range applies to nodes with a mobility") {
		t.Errorf("ranges without mobility: %v", err)
	}
	s, err = scenario.Parse("t.yaml", []byte("topology: geometric:10:d4\nmobility: static\nranges: {12: 100}\nduration: 1s\n"), scenario.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(s, runner.Options{}); err == nil || !strings.Contains(err.Error(), "node 12 has a range of its own, but the network has nodes 0..9") {
		t.Errorf("a range for a node that does not exist: %v", err)
	}
}
