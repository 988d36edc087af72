package torture

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
)

// WriteText writes r as elect fuzz reports it without --json: a line that
// says the campaign and how many of its runs failed, the failures by
// property, and the first ten failures with their smallest scenarios'
// files (and how many more there are).
func (r *Result) WriteText(w io.Writer) {
	model := "in its model"
	if r.Outside {
		model = "outside its model"
	}
	fmt.Fprintf(w, "%s, %s (faults: %s), seed %d, runs %d-%d: %d failed of %d (%d events, %.0f ms)\n",
		r.Algorithm, model, r.Faults, r.Seed, r.First, r.First+r.Runs-1, r.Failed, r.Runs, r.Events, r.WallMS)
	props := make([]string, 0, len(r.ByProperty))
	for p := range r.ByProperty {
		props = append(props, p)
	}
	sort.Strings(props)
	for _, p := range props {
		fmt.Fprintf(w, "  %s: %d\n", p, r.ByProperty[p])
	}
	for i, f := range r.Failures {
		if i == 10 {
			fmt.Fprintf(w, "  ... %d more in %s\n", len(r.Failures)-10, filepath.Dir(f.File))
			break
		}
		fmt.Fprintf(w, "  run %d: %s (shrunk to %d nodes, %d events: %s)\n", f.Run, f.Reason, f.Nodes, f.Events, f.File)
	}
}
