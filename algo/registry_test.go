package algo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all" // registers every algorithm: echo, which the test registers again, and those whose models TestFollowsValue reads
)

// A name registered twice panics naming both packages that registered it:
// here echo's own, from its init, and this test's.
func TestRegisterTwiceNamesBothPackages(t *testing.T) {
	defer func() {
		msg := fmt.Sprint(recover())
		for _, want := range []string{`"echo"`, "github.com/electgo/elect/algo/echo", "github.com/electgo/elect/algo_test"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the panic %q does not name %s", msg, want)
			}
		}
	}()
	algo.Register(&algo.Algorithm{Name: "echo"})
}

// An unknown name is most often an algorithm whose package the program
// never imported: the error says how to import it.
func TestLookupUnknownSaysImport(t *testing.T) {
	_, err := algo.Lookup("maxflood")
	if err == nil {
		t.Fatal("maxflood found")
	}
	for _, want := range []string{`unknown algorithm "maxflood"`, "echo", "imported", `import _ "example.com/you/yourpkg"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %s", err, want)
		}
	}
}

// Only the algorithms that hand leadership over as values change declare
// Model.FollowsValue: vkt and park (a follower worth more than its leader
// starts an election at the leader's next heartbeat). The others elect
// once, and the checker holds them to the values at their election.
func TestFollowsValue(t *testing.T) {
	follows := map[string]bool{"vkt": true, "park": true}
	for _, name := range algo.Names() {
		a, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Model.FollowsValue; got != follows[name] {
			t.Errorf("%s: Model.FollowsValue is %v, want %v", name, got, follows[name])
		}
	}
	for name := range follows {
		if _, err := algo.Lookup(name); err != nil {
			t.Errorf("%s is not registered: %v", name, err)
		}
	}
}
