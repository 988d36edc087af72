package scenario

import (
	"testing"
	"time"

	"github.com/electgo/elect/sim"
)

// The demo (scenarios/demo.yaml, embedded) is the document's tests on
// Default's network.
func TestDemo(t *testing.T) {
	s := Demo()
	d := Default()
	if s.Algorithm != d.Algorithm || s.Topology != d.Topology || s.Seed != 1 || s.Duration != 100*time.Second ||
		s.Check != (Check{Stabilization: 5 * time.Second, Liveness: 20 * time.Second}) {
		t.Errorf("demo %+v", s)
	}
	kinds := []sim.ActionKind{sim.Crash, sim.Partition, sim.Heal}
	if len(s.Events) != 3 {
		t.Fatalf("%d events, want a crash, a partition and a heal", len(s.Events))
	}
	for i, k := range kinds {
		if s.Events[i].Kind != k {
			t.Errorf("event %d is a %s, want a %s", i, s.Events[i].Kind, k)
		}
	}
	if !s.Events[0].Leader || s.Events[1].Groups[0].Area == nil {
		t.Errorf("the crash must strike the leader and the partition an area: %+v", s.Events[:2])
	}
}
