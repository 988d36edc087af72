package node

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

// SuitsRuntime names the first assumption of a model that an emulation's
// nodes cannot serve, whoever wrote the algorithm, and accepts the rest.
func TestSuitsRuntime(t *testing.T) {
	ok := algo.Model{Spontaneous: true, Loss: true, Crash: true, FIFO: true, Partition: true, Mobility: true}
	for _, c := range []struct {
		change func(*algo.Model)
		want   string // "" for accepted
	}{
		{func(*algo.Model) {}, ""},
		{func(m *algo.Model) { m.Topology = "ring" }, "assumes a fixed ring network (Model.Topology)"},
		{func(m *algo.Model) { m.Spontaneous = false }, "initiator starts an election (Model.Spontaneous is false)"},
		{func(m *algo.Model) { m.Loss = false }, ""},        // over reliable links
		{func(m *algo.Model) { m.Synchronous = true }, ""}, // over the synchronizer
		{func(m *algo.Model) { m.Crash = false }, "does not survive crashes (Model.Crash is false)"},
	} {
		m := ok
		c.change(&m)
		err := SuitsRuntime(&algo.Algorithm{Name: "mine", Model: m})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v refused: %v", m, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), "algorithm mine ") || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %v, want an error holding %q", m, err, c.want)
		}
	}
}
