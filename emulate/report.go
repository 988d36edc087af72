package emulate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// TraceHeader is the header that a trace or a page of the emulation of s
// opens with: the simulator's, less what concerns messages, of which real
// nodes' traces hold no events.
func TraceHeader(s *scenario.Scenario) (trace.Header, error) {
	h, err := runner.Header(s)
	if err != nil {
		return h, err
	}
	return journal.Header(h), nil
}

// DifferentError is what a comparison with the simulator fails with when
// the emulated run's final leaders are not the simulated run's.
type DifferentError struct {
	// Nodes is how many nodes ended with a leader apart.
	Nodes int
}

func (e DifferentError) Error() string {
	return fmt.Sprintf("the final leaders differ from the simulator's on %d node(s)", e.Nodes)
}

// WriteReport writes what a run (Result.Emulated, sum) came to on w. With
// asJSON it is one JSON object: cmp when cmp is not nil ({emulated,
// simulated, same_final_leaders, differences}), else the summary. Without,
// it is the summary as text, followed, when cmp is not nil, by the run
// beside the simulator's of the same scenario and seed.
func WriteReport(w io.Writer, sum *metrics.Summary, cmp *Comparison, seed uint64, asJSON bool) error {
	switch {
	case asJSON && cmp != nil:
		return json.NewEncoder(w).Encode(cmp)
	case asJSON:
		return metrics.WriteJSON(w, sum)
	}
	if err := metrics.WriteText(w, sum); err != nil {
		return err
	}
	if cmp != nil {
		fmt.Fprintf(w, "\nbeside the simulator (same scenario, seed %d):\n", seed)
		return cmp.WriteText(w)
	}
	return nil
}

// Line says in one line how a schedule of a soak ended: its seed, faults,
// elections, attacks and verdict (ok, VIOLATED or ERROR), without a
// newline.
func (r SoakRun) Line() string {
	verdict := "ok"
	switch {
	case r.Err != "":
		verdict = "ERROR " + r.Err
	case r.Violations > 0:
		verdict = fmt.Sprintf("VIOLATED (%d): %s", r.Violations, r.First)
	}
	links := r.Faults
	if links == "" {
		links = "clean"
	}
	return fmt.Sprintf("seed %d: %s; links %s; %d elections, %.1f%% leaderless%s; %s (%.1fs)",
		r.Seed, r.Schedule, links, r.Elections, 100*r.Leaderless, r.attacked(), verdict, r.WallMS/1000)
}

// attacked says what a schedule's attacks sent and what the nodes refused
// of the kinds they could be refused for ("" without attacks).
func (r SoakRun) attacked() string {
	if r.Replayed == 0 && r.Forged == 0 {
		return ""
	}
	var refused []string
	for _, why := range []string{"replay", "range", "unsigned"} {
		if n := r.Rejected[why]; n > 0 {
			refused = append(refused, fmt.Sprintf("%d as %s", n, why))
		}
	}
	if len(refused) == 0 {
		refused = append(refused, "none")
	}
	return fmt.Sprintf("; spy replayed %d, forged %d, refused %s", r.Replayed, r.Forged, strings.Join(refused, ", "))
}

// SoakReport is what a soak came to: every schedule's run, and the seeds
// of those that broke the specification and of those that failed to run.
type SoakReport struct {
	Runs     []SoakRun `json:"runs"`
	Violated []uint64  `json:"violated"`
	Failed   []uint64  `json:"failed"`
	WallMS   float64   `json:"wall_ms"` // the whole soak's, in whole milliseconds
}

// NewSoakReport sorts runs, of a soak that took wall, into a report.
func NewSoakReport(runs []SoakRun, wall time.Duration) *SoakReport {
	rep := &SoakReport{Runs: runs, Violated: []uint64{}, Failed: []uint64{}, WallMS: float64(wall.Milliseconds())}
	for _, r := range runs {
		if r.Err != "" {
			rep.Failed = append(rep.Failed, r.Seed)
		} else if r.Violations > 0 {
			rep.Violated = append(rep.Violated, r.Seed)
		}
	}
	return rep
}

// WriteJSON writes the report on w as one JSON object on a line.
func (rep *SoakReport) WriteJSON(w io.Writer) error {
	b, _ := json.Marshal(rep) // as elect soak has always printed it, even empty
	_, err := fmt.Fprintf(w, "%s\n", b)
	return err
}

// WriteText writes the report on w as one line, prefixed "soak: ", for a
// soak of schedules on the given number of nodes.
func (rep *SoakReport) WriteText(w io.Writer, nodes int) error {
	wall := (time.Duration(rep.WallMS) * time.Millisecond).Round(time.Second)
	_, err := fmt.Fprintf(w, "soak: %d schedules on %d nodes in %v: %d broke the specification %v, %d failed to run %v\n",
		len(rep.Runs), nodes, wall, len(rep.Violated), rep.Violated, len(rep.Failed), rep.Failed)
	return err
}
