package blame

import (
	"strings"
	"testing"
)

func TestSideOf(t *testing.T) {
	for _, c := range []struct {
		fn   string
		want side
	}{
		{"runtime.gopanic", neutral},
		{"sort.Slice", neutral},
		{"internal/runtime/maps.(*Map).Put", neutral},
		{"github.com/electgo/elect/sim.(*Engine).deliver", elect},
		{"github.com/electgo/elect/check.(*Monitor).Observe", elect},
		{"github.com/electgo/elect/internal/behind.(*Pipe).run", elect},
		{"github.com/electgo/elect/algo/conform.Run", elect},
		{"github.com/electgo/elect/algo/vkt.(*Node).Receive", theirs},
		{"github.com/electgo/elect/algo.Broadcast", neutral},
		{"github.com/electgo/elect/algo.(*Algorithm).Instantiate", neutral},
		{"github.com/electgo/elect/internal/broken.(*panicky).Receive", theirs},
		{"github.com/electgo/elect/examples/hs.(*machine).Timer", theirs},
		{"example.com/outside/mine.(*flood).Receive", theirs},
	} {
		if got := sideOf(c.fn); got != c.want {
			t.Errorf("sideOf(%q) = %d, want %d", c.fn, got, c.want)
		}
	}
}

// A panic that begins in this package (elect's own) is elect's; one that
// begins in a function the test names as an algorithm's is theirs. The test
// file's functions are in package blame, so the algorithm's side is
// simulated by a function value whose frames are classified by sideOf.
func TestRecoveredElect(t *testing.T) {
	p := catch(func() { var m map[int]int; m[1] = 2 })
	if p.Theirs {
		t.Errorf("a panic in package blame is blamed on an algorithm: %+v", p.Frames)
	}
	if p.Value == nil || !strings.Contains(string(p.Stack), "TestRecoveredElect") {
		t.Errorf("value %v, stack:\n%s", p.Value, p.Stack)
	}
}

func catch(f func()) (p *Panic) {
	defer func() { p = Recovered(recover()) }()
	f()
	return nil
}
