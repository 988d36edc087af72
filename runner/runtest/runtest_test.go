package runtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/echo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
)

// recorder is a testing.TB whose Fatalf stops the helper and remembers why.
type recorder struct {
	testing.TB
	failed string
}

type stop struct{}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	panic(stop{})
}

func runRecorded(s *scenario.Scenario) (failed string) {
	r := &recorder{TB: nil}
	defer func() {
		if v := recover(); v != nil && v != (stop{}) {
			panic(v)
		}
		failed = r.failed
	}()
	Run(r, s)
	return ""
}

// OneInitiator's scenarios name node 0 as their initiators, the one knob,
// and not with the deprecated parameter initiators of vkt and park, which
// they wrote before.
func TestOneInitiatorNamesInitiators(t *testing.T) {
	cases := 0
	OneInitiator(t, "vkt", func(t *testing.T, s *scenario.Scenario) {
		cases++
		if s.Initiators != "0" || len(s.Params) > 0 {
			t.Errorf("initiators %q, params %v; want initiators 0 and no parameter", s.Initiators, s.Params)
		}
	})
	if cases == 0 {
		t.Error("no case run")
	}
}

// Run fails a run that breaks the specification (echo whose initiator
// crashes mid-wave never elects) and lets a good one pass.
func TestRunFails(t *testing.T) {
	s := scenario.Default()
	s.Algorithm, s.Params, s.Topology, s.Duration = "echo", nil, "line:6", 0
	s.Delay = sim.DefaultDelay
	if got := runRecorded(s.Clone()); got != "" {
		t.Fatalf("a good run failed: %s", got)
	}
	s.Events = []sim.Action{{At: 2 * time.Millisecond, Kind: sim.Crash, Nodes: []algo.NodeID{0}}}
	if got := runRecorded(s); !strings.Contains(got, "violations") {
		t.Errorf("a run that never elects passed (%q)", got)
	}
}
