package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/metrics"
)

// columns are the CSV file's columns, in order. Files are merged and read
// back by these names.
var columns = []string{
	"index", "experiment", "algorithm", "template", "size", "topology", "seed",
	"nodes", "edges", "elections", "election_ms", "messages", "messages_per_election",
	"messages_per_node", "heartbeats", "leaderless_fraction", "violations", "unchecked",
	"wall_ms", "trace_hash", "messages_by_type",
	// Added for moving networks; files written before them still read.
	"mobility", "speed", "link_changes", "link_changes_per_node_minute", "elections_per_node_minute",
	"leader_changes_per_node_minute", "messages_per_node_second", "reachable_leader_fraction",
	// Added with the broadcast medium: the receptions and bytes of the
	// messages counted in "messages".
	"receptions", "bytes",
	// Added with bounds that follow the network: each run's, and what they
	// were made of (Bounds).
	"hops", "hop_delay_ms", "timers_ms", "from_ms", "stabilization_ms", "liveness_ms", "duration_ms",
	// Added with batteries (the battery experiment): 0 and empty figures
	// for runs without them.
	"drain", "capacity", "hand_overs", "hand_overs_per_minute", "first_empty_ms", "empty",
	"leader_energy_per_second", "other_energy_per_second",
}

// firstColumns are the columns of files written before mobility,
// mobileColumns those written before the broadcast medium, mediumColumns
// those written before the bounds, and boundsColumns those written before
// batteries.
const (
	firstColumns  = 21
	mobileColumns = 29
	mediumColumns = 31
	boundsColumns = 38
)

// WriteCSV writes results, one row each, after a header.
func WriteCSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return err
	}
	for _, r := range results {
		if err := cw.Write(row(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVWriter writes results one by one as they come, each row flushed as
// it is written, so that a sweep cut short keeps the rows of the runs it
// did.
type CSVWriter struct{ cw *csv.Writer }

// NewCSVWriter writes the header, flushed.
func NewCSVWriter(w io.Writer) (*CSVWriter, error) {
	c := &CSVWriter{csv.NewWriter(w)}
	c.cw.Write(columns) // a failed write is Error's too, after Flush
	c.cw.Flush()
	return c, c.cw.Error()
}

// Write writes the row of r, flushed.
func (c *CSVWriter) Write(r *Result) error {
	c.cw.Write(row(r)) // a failed write is Error's too, after Flush
	c.cw.Flush()
	return c.cw.Error()
}

// row is the CSV row of r, in the order of columns.
func row(r *Result) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	ms := func(d time.Duration) string { return f(metrics.MS(d)) }
	return []string{
		strconv.Itoa(r.Index), r.Experiment, r.Algorithm, r.Template, strconv.Itoa(r.Size), r.Topology,
		strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Nodes), strconv.Itoa(r.Edges), strconv.Itoa(r.Elections),
		f(r.ElectionMS), strconv.FormatUint(r.Messages, 10), f(r.PerElection()), f(r.PerNode()),
		strconv.FormatUint(r.Heartbeats, 10), f(r.Leaderless), strconv.Itoa(r.Violations), strconv.Itoa(r.Unchecked),
		f(r.WallMS), r.TraceHash, formatByType(r.ByType),
		r.Motion, f(r.Speed), strconv.FormatUint(r.LinkChanges, 10), f(r.LinkChangeRate), f(r.ElectionRate),
		f(r.LeaderChangeRate), f(r.MessagesPerNodeSecond), f(r.Reachable),
		strconv.FormatUint(r.Receptions, 10), strconv.FormatUint(r.Bytes, 10),
		strconv.Itoa(r.Hops), ms(r.HopDelay), ms(r.Timers), ms(r.From), ms(r.Stabilization), ms(r.Liveness), ms(r.Duration),
		f(r.Drain), f(r.Capacity), strconv.Itoa(r.HandOvers), f(r.HandOverRate), f(r.FirstEmptyMS), strconv.Itoa(r.Empty),
		f(r.LeaderEnergy), f(r.OtherEnergy),
	}
}

// ReadCSV reads results written by WriteCSV; name is used in errors.
func ReadCSV(r io.Reader, name string) ([]*Result, error) {
	cr := csv.NewReader(r) // every row as long as the header, once it is ours
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !slices.ContainsFunc([]int{len(columns), boundsColumns, mediumColumns, mobileColumns, firstColumns}, func(n int) bool { return slices.Equal(header, columns[:n]) }) {
		return nil, fmt.Errorf("%s:1: not a results file of elect bench (the columns differ)", name)
	}
	var out []*Result
	for line := 2; ; line++ {
		row, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		res, err := parseRow(row)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, res)
	}
}

func parseRow(row []string) (*Result, error) {
	r := &Result{}
	var err error
	num := func(col int, dst *int) {
		if err == nil {
			if *dst, err = strconv.Atoi(row[col]); err != nil || *dst < 0 {
				err = fmt.Errorf("column %s: %q is not a count", columns[col], row[col])
			}
		}
	}
	u64 := func(col int, dst *uint64) {
		if err == nil {
			if *dst, err = strconv.ParseUint(row[col], 10, 64); err != nil {
				err = fmt.Errorf("column %s: %q is not a count", columns[col], row[col])
			}
		}
	}
	float := func(col int, dst *float64) {
		if err == nil {
			if *dst, err = strconv.ParseFloat(row[col], 64); err != nil {
				err = fmt.Errorf("column %s: %q is not a number", columns[col], row[col])
			}
		}
	}
	num(0, &r.Index)
	r.Experiment, r.Algorithm, r.Template = row[1], row[2], row[3]
	num(4, &r.Size)
	r.Topology = row[5]
	u64(6, &r.Seed)
	num(7, &r.Nodes)
	num(8, &r.Edges)
	num(9, &r.Elections)
	float(10, &r.ElectionMS)
	u64(11, &r.Messages)
	u64(14, &r.Heartbeats)
	float(15, &r.Leaderless)
	num(16, &r.Violations)
	num(17, &r.Unchecked)
	float(18, &r.WallMS)
	r.TraceHash = row[19]
	if err == nil {
		r.ByType, err = parseByType(row[20])
	}
	if len(row) > firstColumns {
		r.Motion = row[21]
		float(22, &r.Speed)
		u64(23, &r.LinkChanges)
		float(24, &r.LinkChangeRate)
		float(25, &r.ElectionRate)
		float(26, &r.LeaderChangeRate)
		float(27, &r.MessagesPerNodeSecond)
		float(28, &r.Reachable)
	}
	if len(row) > mobileColumns {
		u64(29, &r.Receptions)
		u64(30, &r.Bytes)
	}
	if len(row) > mediumColumns {
		num(31, &r.Hops)
		for i, d := range []*time.Duration{&r.HopDelay, &r.Timers, &r.From, &r.Stabilization, &r.Liveness, &r.Duration} {
			var v float64
			float(32+i, &v)
			*d = time.Duration(math.Round(v * float64(time.Millisecond)))
		}
	}
	r.FirstEmptyMS = -1
	if len(row) > boundsColumns {
		float(38, &r.Drain)
		float(39, &r.Capacity)
		num(40, &r.HandOvers)
		float(41, &r.HandOverRate)
		float(42, &r.FirstEmptyMS)
		num(43, &r.Empty)
		float(44, &r.LeaderEnergy)
		float(45, &r.OtherEnergy)
	}
	return r, err
}

// formatByType writes counts by type as "ack=3;election=5", in name order.
func formatByType(m map[string]uint64) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + strconv.FormatUint(m[k], 10)
	}
	return strings.Join(parts, ";")
}

func parseByType(s string) (map[string]uint64, error) {
	m := map[string]uint64{}
	if s == "" {
		return m, nil
	}
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(part, "=")
		n, err := strconv.ParseUint(v, 10, 64)
		if !ok || k == "" || err != nil {
			return nil, fmt.Errorf("column messages_by_type: %q is not NAME=COUNT", part)
		}
		m[k] = n
	}
	return m, nil
}

// Merge joins the results of several files (the shards of a sweep), one row
// per run index, in index order. A run found twice with different trace
// hashes means the files come from different sweeps.
func Merge(sets ...[]*Result) ([]*Result, error) {
	byIndex := map[int]*Result{}
	for _, set := range sets {
		for _, r := range set {
			if old, ok := byIndex[r.Index]; ok {
				if old.TraceHash != r.TraceHash || old.Topology != r.Topology || old.Seed != r.Seed || old.Algorithm != r.Algorithm || old.Mobility() != r.Mobility() || old.Drain != r.Drain {
					return nil, fmt.Errorf("run %d appears twice with different results (%s seed %d, %s seed %d): are these shards of one sweep?",
						r.Index, old.Topology, old.Seed, r.Topology, r.Seed)
				}
				continue
			}
			byIndex[r.Index] = r
		}
	}
	out := make([]*Result, 0, len(byIndex))
	for _, r := range byIndex {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Result) int { return a.Index - b.Index })
	return out, nil
}

// WriteSummaryCSV writes the points, one row each: what identifies them,
// the runs they hold, and for every figure's measure its mean, the
// half-width of its 95% confidence interval (Student t) and the runs it is
// taken over (the elections' measures count the runs that elected). A
// point of still networks leaves the moving networks' figures empty, and
// the other way round.
func WriteSummaryCSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	head := []string{"experiment", "algorithm", "template", "size", "mobility", "speed", "runs", "nodes"}
	for _, fig := range everyFigure {
		head = append(head, fig.file, fig.file+"_ci95", fig.file+"_runs")
	}
	head = append(head, "drain") // then the battery experiment's figures
	for _, fig := range batteryFigures {
		for _, part := range fig.parts {
			name := fig.file
			if part != "" {
				name += "-" + part
			}
			head = append(head, name, name+"_ci95", name+"_runs")
		}
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, p := range points {
		row := []string{p.Experiment, p.Algorithm, p.Template, strconv.Itoa(p.Size), p.Motion, f(p.Speed), strconv.Itoa(p.Runs), f(p.Nodes)}
		for i, fig := range everyFigure {
			if (i >= len(figures)) != (p.Motion != "") {
				row = append(row, "", "", "") // the figures of the other kind of network
				continue
			}
			iv := fig.intervalOf(p)
			row = append(row, f(iv.Mean), f(iv.Half), strconv.Itoa(iv.N))
		}
		row = append(row, f(p.Drain))
		for _, fig := range batteryFigures {
			for j := range fig.parts {
				if p.Drain == 0 {
					row = append(row, "", "", "")
					continue
				}
				iv := batteryInterval(fig.run[j], p)
				row = append(row, f(iv.Mean), f(iv.Half), strconv.Itoa(iv.N))
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
