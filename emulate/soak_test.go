package emulate

import (
	"testing"

	"github.com/electgo/elect/runner"
)

// Every schedule a soak draws is a scenario the simulator runs (the
// emulator's plan comes from it) and that meets the specification there at
// the loss its links get, and the same seed draws the same one.
func TestSchedules(t *testing.T) {
	for seed := range uint64(300) {
		s, pauses, faults, words := Schedule("vkt", quick["vkt"], 5, seed)
		s.Loss = faults.Loss // the simulator draws loss per message, as the nodes' impairment does
		if _, err := runner.Run(s, runner.Options{}); err != nil {
			t.Fatalf("schedule %d (%s): %v", seed, words, err)
		}
		again, pauses2, faults2, words2 := Schedule("vkt", quick["vkt"], 5, seed)
		if len(again.Events) != len(s.Events) || len(pauses2) != len(pauses) || faults2 != faults || words2 != words {
			t.Fatalf("schedule %d drawn twice differs: %q / %q", seed, words, words2)
		}
		for _, p := range pauses {
			if p.At+p.For > faultSpan || p.For <= 0 {
				t.Errorf("schedule %d: pause %+v ends after the faults' span", seed, p)
			}
		}
	}
}
