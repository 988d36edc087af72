package sim_test

import (
	"strings"
	"testing"

	"github.com/electgo/elect/sim"
)

// A delay written without its unit is refused with the same delay in
// milliseconds as what was likely meant; other mistakes get no guess.
func TestParseDelayErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"5", `invalid delay "5": a duration needs a unit: did you mean 5ms?`},
		{" 2.5 ", "did you mean 2.5ms?"},
		{"constant:5", "did you mean constant:5ms?"},
		{"uniform:1:5", "did you mean uniform:1ms:5ms?"},
		{"uniform:0:5", "did you mean uniform:0:5ms?"},
		{"exponential:3", "did you mean exponential:3ms?"},
		{"uniform:5ms:1", `invalid duration "1"`}, // 5ms:1ms would still be backwards
		{"fast", `unknown kind "fast"`},
		{"constant:-5ms", "negative duration"},
	} {
		_, err := sim.ParseDelay(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDelay(%q): %v, want an error holding %q", c.in, err, c.want)
		}
		if guess := strings.Contains(c.want, "did you mean"); guess != strings.Contains(err.Error(), "did you mean") {
			t.Errorf("ParseDelay(%q): %v: a guess where none fits, or none where one does", c.in, err)
		}
	}
	// A bare 0 needs no unit.
	if d, err := sim.ParseDelay("0"); err != nil || d != (sim.Delay{Kind: sim.Constant}) {
		t.Errorf("ParseDelay(0) = %v, %v", d, err)
	}
}
