package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// Point is the mean of the runs of one experiment, algorithm, topology and
// size: one point of a plot.
type Point struct {
	Experiment, Algorithm, Template string
	Size                            int
	Runs                            int
	Nodes                           float64            // mean node count
	ElectionMS                      float64            // mean election time, over the runs that elected
	ElectionSD                      float64            // its standard deviation
	PerElection                     float64            // mean messages per election
	PerNode                         float64            // mean messages per node
	Leaderless                      float64            // mean fraction of node-time without a leader
	ByType                          map[string]float64 // mean messages per node, by type
	Violations                      int                // over all runs
	Unchecked                       int
}

// Aggregate averages results by experiment, algorithm, topology and size, in
// the order they first appear (the sweep's order).
func Aggregate(results []*Result) []Point {
	type key struct {
		e, a, t string
		n       int
	}
	var order []key
	groups := map[key][]*Result{}
	for _, r := range results {
		k := key{r.Experiment, r.Algorithm, r.Template, r.Size}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	points := make([]Point, 0, len(order))
	for _, k := range order {
		rs := groups[k]
		p := Point{Experiment: k.e, Algorithm: k.a, Template: k.t, Size: k.n, Runs: len(rs), ByType: map[string]float64{}}
		var times []float64
		elected := 0
		for _, r := range rs {
			p.Nodes += float64(r.Nodes)
			p.PerNode += r.PerNode()
			p.Leaderless += r.Leaderless
			for t, c := range r.ByType {
				p.ByType[t] += float64(c) / float64(max(r.Nodes, 1)) / float64(len(rs))
			}
			p.Violations += r.Violations
			p.Unchecked += r.Unchecked
			if r.Elections > 0 {
				times = append(times, r.ElectionMS)
				p.PerElection += r.PerElection()
				elected++
			}
		}
		p.Nodes /= float64(len(rs))
		p.PerNode /= float64(len(rs))
		p.Leaderless /= float64(len(rs))
		if elected > 0 {
			p.PerElection /= float64(elected)
			p.ElectionMS, p.ElectionSD = meanSD(times)
		}
		points = append(points, p)
	}
	return points
}

func meanSD(xs []float64) (float64, float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var sq float64
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sq / float64(len(xs)))
}

// WriteTable writes the points as a readable table.
func WriteTable(w io.Writer, points []Point) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\talgorithm\ttopology\tsize\truns\tnodes\telection ms\t± sd\tmsgs/election\tmsgs/node\tby type, per node\tleaderless %\tviolations\t")
	for _, p := range points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.0f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\t%.3f\t%d\t\n",
			p.Experiment, p.Algorithm, p.Template, p.Size, p.Runs, p.Nodes, p.ElectionMS, p.ElectionSD, p.PerElection, p.PerNode,
			byTypeText(p.ByType), 100*p.Leaderless, p.Violations)
	}
	return tw.Flush()
}

// series groups points of one experiment by algorithm and topology: the
// lines of one plot.
func series(points []Point, experiment string) (names []string, lines map[string][]Point) {
	lines = map[string][]Point{}
	for _, p := range points {
		if p.Experiment != experiment {
			continue
		}
		name := p.Algorithm + " " + p.Template
		if _, ok := lines[name]; !ok {
			names = append(names, name)
		}
		lines[name] = append(lines[name], p)
	}
	for _, ps := range lines {
		slices.SortFunc(ps, func(a, b Point) int { return int(a.Nodes - b.Nodes) })
	}
	return names, lines
}

// byTypeText writes per-node counts by type, heartbeats apart, in name
// order: "ack 12.3 election 9.1".
func byTypeText(m map[string]float64) string {
	names := make([]string, 0, len(m))
	for k := range m {
		if k != "heartbeat" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %.1f", k, m[k])
	}
	return strings.Join(parts, " ")
}
