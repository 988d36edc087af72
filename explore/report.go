package explore

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/electgo/elect/trace"
)

// Report is an exploration and its verdict, for a reader (WriteText) or as
// one JSON object.
type Report struct {
	Algorithm string  `json:"algorithm"`
	Topology  string  `json:"topology"`
	Nodes     int     `json:"nodes"`
	Mode      string  `json:"mode"` // timed or untimed
	Reorder   bool    `json:"reorder,omitempty"`
	Budget    Budget  `json:"budget"`
	States    int64   `json:"states"`
	Distinct  int64   `json:"distinct"`
	Ends      int64   `json:"ends"`
	Depth     int     `json:"depth"`
	Rate      float64 `json:"states_per_second"`
	WallMS    float64 `json:"wall_ms"`
	Complete  bool    `json:"complete"`
	Limit     string  `json:"limit,omitempty"`
	// Reductions name the reductions the search used: fingerprints,
	// sleep-sets, ring-rotations.
	Reductions []string `json:"reductions"`
	Pruned     int64    `json:"pruned"`
	StateBytes int      `json:"state_bytes"`
	Verdict    string   `json:"verdict"`
	Violations []string `json:"violations,omitempty"`
	Steps      []string `json:"counterexample,omitempty"`
	// Files are where the counterexample was written: its trace, then its
	// scenario (which replays it); set by the caller that wrote them.
	Files []string `json:"files,omitempty"`
	// Arrangements, for an exploration of every arrangement of the
	// values (AddArrangements).
	Arrangements *ArrangementsReport `json:"arrangements,omitempty"`

	res *Result
}

// ArrangementsReport is an exploration of every arrangement of the values:
// how many there are, were explored, and were skipped by symmetry; Values,
// the counterexample's arrangement (by node).
type ArrangementsReport struct {
	Total     int     `json:"total"`
	Explored  int     `json:"explored"`
	Skipped   int     `json:"skipped_by_symmetry"`
	Symmetric bool    `json:"symmetric"`
	Values    []int64 `json:"values,omitempty"`
}

// NewReport reports res, what exploring setup under opt found; topology
// names the network as the scenario gave it.
func NewReport(topology string, setup *Setup, res *Result, opt Options) *Report {
	r := &Report{
		Algorithm: setup.Algorithm.Name, Topology: topology, Nodes: setup.Graph.N(), Mode: "untimed",
		Reorder: setup.Reorder, Budget: setup.Budget, States: res.States, Distinct: res.Distinct, Ends: res.Ends,
		Depth: res.Depth, Rate: res.Rate(), WallMS: float64(res.Elapsed.Microseconds()) / 1000,
		Complete: res.Complete, Limit: res.Limit, Pruned: res.Pruned, StateBytes: res.StateBytes,
		res: res,
	}
	if !opt.NoFingerprints {
		r.Reductions = append(r.Reductions, "fingerprints")
	}
	if setup.Timed {
		r.Mode = "timed"
	}
	if !opt.NoSleepSets {
		r.Reductions = append(r.Reductions, "sleep-sets")
	}
	switch {
	case res.Counterexample != nil:
		r.Verdict = fmt.Sprintf("counterexample of %d steps", len(res.Counterexample.Steps))
		for _, v := range res.Counterexample.Report.Violations {
			r.Violations = append(r.Violations, v.String())
		}
		for _, st := range res.Counterexample.Steps {
			r.Steps = append(r.Steps, st.String())
		}
	case res.Complete:
		r.Verdict = fmt.Sprintf("every state explored: %d distinct, no violation", res.Distinct)
	default:
		r.Verdict = fmt.Sprintf("no violation up to depth %d, %d distinct states (stopped by --%s; not every state was explored)", res.Depth, res.Distinct, res.Limit)
	}
	return r
}

// AddArrangements adds to the report of a.Sum() the arrangements a explored.
func (r *Report) AddArrangements(a *ArrangeResult) {
	if a.Symmetric {
		r.Reductions = append(r.Reductions, "ring-rotations")
	}
	r.Arrangements = &ArrangementsReport{Total: a.Total, Explored: len(a.Explored), Skipped: a.Skipped, Symmetric: a.Symmetric}
	if cx := a.Counterexample(); cx != nil {
		r.Arrangements.Values = cx.Values
	}
}

// faults are the faults of the budget in words ("1 crashes"), in the
// order of its fields; "none" when it has none.
func (b Budget) faults() []string {
	var faults []string
	for _, f := range []struct {
		words string
		k     int
	}{{"crashes", b.Crashes}, {"restarts", b.Restarts}, {"losses", b.Losses}, {"link changes", b.LinkChanges}} {
		if f.k > 0 {
			faults = append(faults, fmt.Sprintf("%d %s", f.k, f.words))
		}
	}
	if len(faults) == 0 {
		faults = append(faults, "none")
	}
	return faults
}

// WriteText writes the report for a reader: the search, the verdict, and
// a counterexample's violations, schedule and files.
func (r *Report) WriteText(w io.Writer) {
	links := "FIFO links"
	if r.Reorder {
		links = "links that reorder"
	}
	fmt.Fprintf(w, "%s on %s (%d nodes), %s, %s, faults: %s\n", r.Algorithm, r.Topology, r.Nodes, r.Mode, links, strings.Join(r.Budget.faults(), ", "))
	if a := r.Arrangements; a != nil {
		sym := ""
		if a.Symmetric {
			sym = fmt.Sprintf(", %d skipped as rotations of those", a.Skipped)
		}
		fmt.Fprintf(w, "values:   %d arrangements explored of %d%s\n", a.Explored, a.Total, sym)
		if a.Values != nil {
			fmt.Fprintf(w, "          the counterexample's: %v (by node)\n", a.Values)
		}
	}
	reductions := strings.Join(r.Reductions, ", ")
	if reductions == "" {
		reductions = "no reduction"
	}
	fmt.Fprintf(w, "states:   %d distinct, %d steps taken, %d pruned (%s), %d where a run ends\n", r.Distinct, r.States, r.Pruned, reductions, r.Ends)
	var elapsed time.Duration
	var cx *Counterexample
	if r.res != nil { // a Report read back from JSON has no Result
		elapsed, cx = r.res.Elapsed, r.res.Counterexample
	}
	fmt.Fprintf(w, "search:   depth %d in %v, %.0f states/s; %d bytes a distinct state kept, and one depth's states whole\n", r.Depth, elapsed.Round(time.Millisecond), r.Rate, r.StateBytes)
	fmt.Fprintf(w, "verdict:  %s\n", r.Verdict)
	if cx != nil {
		for _, v := range cx.Report.Violations {
			fmt.Fprintf(w, "  VIOLATION %s\n", v)
		}
		fmt.Fprintf(w, "schedule:\n")
		for i, st := range cx.Steps {
			fmt.Fprintf(w, "  %3d. %s\n", i+1, st)
		}
		for _, f := range r.Files {
			fmt.Fprintf(w, "wrote %s\n", f)
		}
		if len(r.Files) > 1 { // the trace, then the scenario that replays it
			fmt.Fprintf(w, "replay: elect sim %s\n", r.Files[1])
		}
	}
}

// Sum adds up the explorations of the arrangements as one result: states
// and ends summed, the deepest depth, the counterexample of the last (the
// search stops at one), complete when every arrangement was.
func (a *ArrangeResult) Sum() *Result {
	sum := &Result{Complete: a.Complete()}
	for _, r := range a.Explored {
		sum.States += r.States
		sum.Distinct += r.Distinct
		sum.Ends += r.Ends
		sum.Pruned += r.Pruned
		sum.Depth = max(sum.Depth, r.Depth)
		sum.StateBytes, sum.Timed = r.StateBytes, r.Timed
		sum.Counterexample, sum.Limit = r.Counterexample, r.Limit
	}
	if !sum.Complete && sum.Counterexample == nil && sum.Limit == "" {
		sum.Limit = "time"
	}
	sum.Elapsed = a.Elapsed
	return sum
}

// WriteTrace writes the trace of steps, replayed on setup (Replay), to w
// under the header h: a trace that elect check judges and elect viz shows.
func WriteTrace(w io.Writer, h trace.Header, setup *Setup, steps []Step) error {
	tw, err := trace.NewWriter(w, h)
	if err != nil {
		return err
	}
	_, err = Replay(setup, steps, tw)
	if cerr := tw.Close(); err == nil {
		err = cerr
	}
	return err
}
