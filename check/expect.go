package check

import "fmt"

// Expect says which components of a run must elect (Config.Expect).
type Expect uint8

const (
	// ExpectInitiated, the default, holds liveness in every component that
	// holds an initiator or that an election reached, and in every
	// component for a spontaneous algorithm. A component with no path to
	// any initiator is reported (Report.Unreached), not failed.
	ExpectInitiated Expect = iota
	// ExpectEveryComponent holds liveness in every component: one that no
	// election reached fails at the end of the run.
	ExpectEveryComponent
)

// The names of the Expect values in flags, scenario files and trace
// headers.
var expectNames = [...]string{ExpectInitiated: "initiated", ExpectEveryComponent: "every-component"}

func (e Expect) String() string {
	if int(e) < len(expectNames) {
		return expectNames[e]
	}
	return fmt.Sprintf("Expect(%d)", uint8(e))
}

// ParseExpect reads an Expect by its name; the empty string is the
// default.
func ParseExpect(s string) (Expect, error) {
	if s == "" {
		return ExpectInitiated, nil
	}
	for e, name := range expectNames {
		if s == name {
			return Expect(e), nil
		}
	}
	return 0, fmt.Errorf("unknown expectation %q: want %s (the default: components with an initiator elect) or %s", s, expectNames[ExpectInitiated], expectNames[ExpectEveryComponent])
}

// nodesOf says "n nodes", or "1 node".
func nodesOf(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
