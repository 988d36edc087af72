package sim

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
)

// specGraph builds a topology spec, with the random draws of seed 1.
func specGraph(t testing.TB, spec string) *topo.Graph {
	t.Helper()
	s, err := topo.Parse(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Build(rand.New(rand.NewPCG(1, 2)), "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// An algorithm that needs a complete network or a ring refuses others, with
// a message that names what it needs.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		need, spec, err string
	}{
		{"complete", "complete:6", ""},
		{"complete", "ring:6", "needs a complete network (complete:N); this one has 6 of the 15 links"},
		{"ring", "ring:6", ""},
		{"ring", "line:6", "needs a ring (ring:N)"},
		{"ring", "complete:3", ""}, // a triangle is a ring
		{"", "grid:3x3", ""},
	} {
		a := &algo.Algorithm{Name: "a", Model: algo.Model{Topology: c.need}}
		err := Fits(a, specGraph(t, c.spec))
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s on %s: %v, want %q", c.need, c.spec, err, c.err)
		}
	}
}
