package emulate

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/metrics"
)

// Comparison sets an emulated run beside the simulated run of the same
// scenario and seed.
type Comparison struct {
	Emulated  *metrics.Summary `json:"emulated"`
	Simulated *metrics.Summary `json:"simulated"`
	// SameFinalLeaders says every node ended alive or crashed alike and,
	// when alive, following the same leader in both runs; Differences
	// lists the nodes where they did not.
	SameFinalLeaders bool         `json:"same_final_leaders"`
	Differences      []Difference `json:"differences"`
}

// Difference is one node that ended differently in the two runs.
type Difference struct {
	ID        algo.NodeID       `json:"id"`
	Emulated  metrics.NodeFinal `json:"emulated"`
	Simulated metrics.NodeFinal `json:"simulated"`
}

// Compare compares the final states of two runs of one scenario.
func Compare(emulated, simulated *metrics.Summary) *Comparison {
	c := &Comparison{Emulated: emulated, Simulated: simulated, Differences: []Difference{}}
	sims := map[algo.NodeID]metrics.NodeFinal{}
	for _, f := range simulated.Final {
		sims[f.ID] = f
	}
	for _, f := range emulated.Final {
		s, ok := sims[f.ID]
		if !ok || f.Alive != s.Alive || f.Alive && (f.Leader != s.Leader || f.State != s.State) {
			c.Differences = append(c.Differences, Difference{ID: f.ID, Emulated: f, Simulated: s})
		}
		delete(sims, f.ID)
	}
	for id, s := range sims {
		c.Differences = append(c.Differences, Difference{ID: id, Simulated: s})
	}
	sort.Slice(c.Differences, func(i, j int) bool { return c.Differences[i].ID < c.Differences[j].ID })
	c.SameFinalLeaders = len(c.Differences) == 0
	return c
}

// WriteText writes the two runs side by side.
func (c *Comparison) WriteText(w io.Writer) error {
	e, s := c.Emulated, c.Simulated
	var b strings.Builder
	// Names to the left, figures to the right: the message types stay
	// indented under "messages sent".
	row := func(name string, ev, sv any) { fmt.Fprintf(&b, "%-24s%12v%12v\n", name, ev, sv) }
	row("", "emulated", "simulated")
	row("messages sent", e.Messages.Total, s.Messages.Total)
	types := map[string]bool{}
	for k := range e.Messages.ByType {
		types[k] = true
	}
	for k := range s.Messages.ByType {
		types[k] = true
	}
	names := make([]string, 0, len(types))
	for k := range types {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		row("  "+k, e.Messages.ByType[k], s.Messages.ByType[k])
	}
	row("elections completed", e.Elections.Completed, s.Elections.Completed)
	row("mean election (ms)", fmt.Sprintf("%.1f", e.Elections.MeanTimeMS), fmt.Sprintf("%.1f", s.Elections.MeanTimeMS))
	row("longest election (ms)", fmt.Sprintf("%.1f", e.Elections.MaxTimeMS), fmt.Sprintf("%.1f", s.Elections.MaxTimeMS))
	row("without a leader", fmt.Sprintf("%.2f%%", 100*e.LeaderlessFraction), fmt.Sprintf("%.2f%%", 100*s.LeaderlessFraction))
	row("elections started", e.ElectionsStarted, s.ElectionsStarted)
	row("leader changes", e.LeaderChanges, s.LeaderChanges)
	row("violations", e.ViolationCount, s.ViolationCount)
	row("components at the end", len(e.Components), len(s.Components))
	if c.SameFinalLeaders {
		fmt.Fprintf(&b, "final leaders: the same on all %d nodes\n", len(e.Final))
	} else {
		fmt.Fprintf(&b, "final leaders: %d of %d nodes differ\n", len(c.Differences), max(len(e.Final), len(s.Final)))
		for i, d := range c.Differences {
			if i == 10 {
				fmt.Fprintf(&b, "  ... %d more (see --json)\n", len(c.Differences)-10)
				break
			}
			fmt.Fprintf(&b, "  node %d: emulated %s, simulated %s\n", d.ID, ended(d.Emulated), ended(d.Simulated))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ended says how a node ended.
func ended(f metrics.NodeFinal) string {
	switch {
	case !f.Alive:
		return "crashed"
	case f.Leader == algo.None:
		return f.State + " without a leader"
	}
	return fmt.Sprintf("%s following %d", f.State, f.Leader)
}
