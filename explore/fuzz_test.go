package explore_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/runner"
)

// FuzzReplay feeds Replay schedules made of arbitrary steps, as a scenario
// file written by hand may hold: every step is taken or refused with an
// error naming it, never a panic, and a schedule that replays is judged
// by the checker without one. Each 6 bytes are a step: kind, node, peer,
// seq, timer, and a time in ticks.
func FuzzReplay(f *testing.F) {
	setups := map[bool]*explore.Setup{}
	for _, timed := range []bool{false, true} {
		mode := runner.ModeUntimed
		if timed {
			mode = runner.ModeTimed
		}
		s := setupOf(f, "algorithm: vkt\ntopology: ring:3\nvalues: id\nduration: 2s\nparams: {heartbeat: 200ms, timeout: 600ms, probe: 200ms, election_timeout: 1s}\n",
			runner.Exploring{Mode: mode, Budget: explore.Budget{Crashes: 9, Restarts: 9, Losses: 9, LinkChanges: 9}})
		setups[timed] = s
	}
	f.Add(false, []byte{1, 1, 0, 0, 0, 1, 1, 2, 1, 0, 0, 2})
	f.Add(true, []byte{4, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 3, 7, 1, 2, 0, 0, 4})
	f.Add(false, []byte{2, 0, 255, 0, 3, 9, 3, 5, 2, 7, 0, 9})
	f.Fuzz(func(t *testing.T, timed bool, b []byte) {
		var steps []explore.Step
		at := time.Duration(0)
		for ; len(b) >= 6; b = b[6:] {
			at += time.Duration(b[5]) * time.Millisecond
			steps = append(steps, explore.Step{At: at, Kind: explore.StepKind(b[0] % 10), Node: algo.NodeID(int8(b[1])),
				Peer: algo.NodeID(int8(b[2])), Seq: uint32(b[3]), Timer: algo.Timer(b[4])})
		}
		_, r, err := explore.Judge(setups[timed], steps)
		if err != nil {
			if r == nil || r.Steps >= len(steps) || !strings.Contains(err.Error(), fmt.Sprintf("schedule step %d:", r.Steps+1)) {
				t.Fatalf("an error that does not name the step that failed: %v", err)
			}
			return
		}
		if r.Steps != len(steps) && r.Panic == nil {
			t.Fatalf("%d of %d steps ran, no error", r.Steps, len(steps))
		}
	})
}
