package bench

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Point is the mean of the runs of one experiment, algorithm, topology, size,
// mobility and speed: one point of a plot.
type Point struct {
	Experiment, Algorithm, Template string
	Size                            int
	Motion                          string  // the mobility as the sweep gave it
	Speed                           float64 // m/s
	Runs                            int
	Elected                         int                // runs that measured an election
	Nodes                           float64            // mean node count
	ElectionMS                      float64            // mean election time, over the runs that elected
	ElectionSD                      float64            // its standard deviation
	PerElection                     float64            // mean messages (transmissions) per election
	ReceptionsPerElection           float64            // mean receptions of them per election
	BytesPerElection                float64            // mean bytes on the air per election
	PerNode                         float64            // mean messages per node
	Leaderless                      float64            // mean fraction of node-time without a leader
	ByType                          map[string]float64 // mean messages per node, by type
	LinkChangeRate                  float64            // link changes per node a minute, counted at both ends
	ElectionRate                    float64            // elections started per node a minute
	LeaderChangeRate                float64            // leader changes per node a minute
	MessagesPerNodeSecond           float64            // heartbeats included
	Reachable                       float64            // share of node-time following a reachable leader
	Violations                      int                // over all runs
	Unchecked                       int
	// The battery experiment's: the drain (0 for runs without batteries),
	// and the means of hand-overs a minute, of the energy a second of a
	// leader and of the others, and of the batteries empty at the end
	// (the lifetime's mean is over the runs in which one ran out:
	// Result.Lifetime).
	Drain                     float64
	HandOverRate              float64
	LeaderEnergy, OtherEnergy float64
	Empty                     float64
	// Results are the runs the point is the mean of, for the figures'
	// intervals.
	Results []*Result `json:"-"`
}

// Aggregate averages results by experiment, algorithm, topology and size, in
// the order they first appear (the sweep's order).
func Aggregate(results []*Result) []Point {
	type key struct {
		e, a, t, m string
		n          int
		v, d       float64
	}
	var order []key
	groups := map[key][]*Result{}
	for _, r := range results {
		k := key{r.Experiment, r.Algorithm, r.Template, r.Motion, r.Size, r.Speed, r.Drain}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	points := make([]Point, 0, len(order))
	for _, k := range order {
		rs := groups[k]
		p := Point{Experiment: k.e, Algorithm: k.a, Template: k.t, Size: k.n, Motion: k.m, Speed: k.v, Drain: k.d, Runs: len(rs), ByType: map[string]float64{}, Results: rs}
		mean := 1 / float64(len(rs))
		var times []float64
		elected := 0
		for _, r := range rs {
			p.Nodes += float64(r.Nodes)
			p.PerNode += r.PerNode()
			p.Leaderless += r.Leaderless
			p.ElectionRate += r.ElectionRate * mean
			p.LeaderChangeRate += r.LeaderChangeRate * mean
			p.MessagesPerNodeSecond += r.MessagesPerNodeSecond * mean
			p.Reachable += r.Reachable * mean
			p.LinkChangeRate += r.LinkChangeRate * mean
			p.HandOverRate += r.HandOverRate * mean
			p.LeaderEnergy += r.LeaderEnergy * mean
			p.OtherEnergy += r.OtherEnergy * mean
			p.Empty += float64(r.Empty) * mean
			for t, c := range r.ByType {
				p.ByType[t] += float64(c) / float64(max(r.Nodes, 1)) / float64(len(rs))
			}
			p.Violations += r.Violations
			p.Unchecked += r.Unchecked
			if r.Elections > 0 {
				times = append(times, r.ElectionMS)
				p.PerElection += r.PerElection()
				p.ReceptionsPerElection += r.ReceptionsPerElection()
				p.BytesPerElection += r.BytesPerElection()
				elected++
			}
		}
		p.Nodes /= float64(len(rs))
		p.PerNode /= float64(len(rs))
		p.Leaderless /= float64(len(rs))
		p.Elected = elected
		if elected > 0 {
			p.PerElection /= float64(elected)
			p.ReceptionsPerElection /= float64(elected)
			p.BytesPerElection /= float64(elected)
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

// WriteTable writes the points as a readable table: those of still networks
// by size, those of moving ones by speed, with their own figures. With no
// points it says so.
func WriteTable(w io.Writer, points []Point) error {
	if len(points) == 0 {
		_, err := fmt.Fprintln(w, "no run completed: nothing to tabulate")
		return err
	}
	var still, moving, battery []Point
	for _, p := range points {
		switch {
		case p.Drain > 0:
			battery = append(battery, p)
		case p.Motion == "":
			still = append(still, p)
		default:
			moving = append(moving, p)
		}
	}
	if len(still) > 0 {
		if err := writeStill(w, still); err != nil {
			return err
		}
	}
	if len(moving) > 0 {
		if len(still) > 0 {
			fmt.Fprintln(w)
		}
		if err := writeMoving(w, moving); err != nil {
			return err
		}
	}
	if len(battery) > 0 {
		if len(still)+len(moving) > 0 {
			fmt.Fprintln(w)
		}
		return writeBattery(w, battery)
	}
	return nil
}

// The tables give each main measure's 95% interval (Student t over the
// point's runs) after it; summary.csv has every measure's.

func writeMoving(w io.Writer, points []Point) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\talgorithm\ttopology\tmobility\tspeed m/s\truns\tnodes\twith a leader %\t± 95%\treachable leader %\telections/node/min\tleader changes/node/min\tmsgs/node/s\t± 95%\tlink changes/node/min\tviolations\t")
	for _, p := range points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%g\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%.1f\t%.1f\t%.2f\t%d\t\n",
			p.Experiment, p.Algorithm, p.Template, p.Motion, p.Speed, p.Runs, p.Nodes, 100*(1-p.Leaderless), half("leader-time", p), 100*p.Reachable,
			p.ElectionRate, p.LeaderChangeRate, p.MessagesPerNodeSecond, half("messages-per-node-second", p), p.LinkChangeRate, p.Violations)
	}
	return tw.Flush()
}

func writeStill(w io.Writer, points []Point) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\talgorithm\ttopology\tsize\truns\tnodes\telection ms\t± 95%\tmsgs/election\t± 95%\treceptions/election\tbytes/election\tmsgs/node\tby type, per node\tleaderless %\t± 95%\tviolations\t")
	for _, p := range points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.0f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t%s\t%.3f\t%.3f\t%d\t\n",
			p.Experiment, p.Algorithm, p.Template, p.Size, p.Runs, p.Nodes, p.ElectionMS, half("election-time", p), p.PerElection, half("messages-per-election", p),
			p.ReceptionsPerElection, p.BytesPerElection, p.PerNode, byTypeText(p.ByType), 100*p.Leaderless, half("leaderless", p), p.Violations)
	}
	return tw.Flush()
}

// half is the half-width of the 95% interval of the figure named file at p.
func half(file string, p Point) float64 {
	for _, fig := range everyFigure {
		if fig.file == file {
			return fig.intervalOf(p).Half
		}
	}
	panic("bench: no figure " + file)
}

// series groups points of one experiment, of still or of moving networks,
// by algorithm, topology and (for several) mobility: the lines of one plot,
// ordered by size or by speed. Against speed, a topology run at several
// sizes makes a line of each, named with its size filled in.
func series(points []Point, experiment string, moving bool) (names []string, lines map[string][]Point) {
	lines = map[string][]Point{}
	motions := map[string]bool{}
	sizes := map[string]map[int]bool{} // by algorithm and template
	for _, p := range points {
		if p.Experiment != experiment || (p.Motion != "") != moving {
			continue
		}
		motions[p.Motion] = true
		k := p.Algorithm + " " + p.Template
		if sizes[k] == nil {
			sizes[k] = map[int]bool{}
		}
		sizes[k][p.Size] = true
	}
	for _, p := range points {
		if p.Experiment != experiment || (p.Motion != "") != moving {
			continue
		}
		name := p.Algorithm + " " + p.Template
		if moving && len(sizes[name]) > 1 {
			top := strings.ReplaceAll(p.Template, "{n}", strconv.Itoa(p.Size))
			if len(p.Results) > 0 {
				top = p.Results[0].Topology // every placeholder filled ({side})
			}
			name = p.Algorithm + " " + top
		}
		if moving && len(motions) > 1 {
			name += " " + p.Motion
		}
		if _, ok := lines[name]; !ok {
			names = append(names, name)
		}
		lines[name] = append(lines[name], p)
	}
	for _, ps := range lines {
		if moving {
			slices.SortStableFunc(ps, func(a, b Point) int { return cmp.Compare(a.Speed, b.Speed) })
		} else {
			slices.SortStableFunc(ps, func(a, b Point) int { return cmp.Compare(a.Nodes, b.Nodes) })
		}
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
