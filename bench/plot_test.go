package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
)

// still is a point of experiment e on a still network: its size, node
// count, election time, messages per election and per node, and fraction of
// node-time without a leader.
func still(e string, size int, nodes, ms, perElection, perNode, leaderless float64) Point {
	return Point{Experiment: e, Algorithm: "vkt", Template: "ring:{n}", Size: size, Runs: 1, Nodes: nodes,
		ElectionMS: ms, PerElection: perElection, PerNode: perNode, Leaderless: leaderless}
}

// moving is a point of the mobile experiment at a speed.
func moving(speed, leaderless, rate float64) Point {
	return Point{Experiment: "mobile", Algorithm: "vkt", Template: "geometric:20:250", Motion: DefaultMobility, Speed: speed,
		Runs: 1, Nodes: 20, Leaderless: leaderless, Reachable: 1 - leaderless, ElectionRate: rate, LeaderChangeRate: rate,
		MessagesPerNodeSecond: 7}
}

// plotWithin runs Plot, failing the test on a panic, and stopping the test
// binary if Plot does not return: a log axis from 0 used to make ticks
// until memory ran out.
func plotWithin(t *testing.T, points []Point, dir string) (Plots, error) {
	t.Helper()
	type outcome struct {
		plots Plots
		err   error
		panic any
	}
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- outcome{panic: r}
			}
		}()
		p, err := Plot(points, dir, "png")
		ch <- outcome{plots: p, err: err}
	}()
	select {
	case o := <-ch:
		if o.panic != nil {
			t.Fatalf("Plot panicked: %v", o.panic)
		}
		return o.plots, o.err
	case <-time.After(time.Minute):
		panic(fmt.Sprintf("%s: Plot did not return within a minute", t.Name()))
	}
}

// Degenerate sweeps plot what can be plotted (a single point is a plot) and
// say why they skip a figure; they never panic or fail.
func TestPlotDegenerate(t *testing.T) {
	all := func(e string) []string {
		return []string{e + "-election-time.png", e + "-messages-per-election.png", e + "-messages-per-node.png", e + "-leaderless.png"}
	}
	mobile := []string{"mobile-leader-time.png", "mobile-reachable-leader-time.png", "mobile-election-rate.png", "mobile-leader-changes.png", "mobile-messages-per-node-second.png"}
	for _, c := range []struct {
		name    string
		points  []Point
		files   []string
		skipped []string // substrings, one per skipped figure, in order
		partial []string // substrings, one per partly drawn figure, in order
	}{
		{name: "no points"},
		{
			name:   "one size: a single point, under 1 on the axis",
			points: []Point{still("start", 8, 8, 40.1, 51.3, 6.4, 0.00435)},
			files:  all("start"),
		},
		{
			name:   "one size, values of exactly 1",
			points: []Point{still("start", 3, 3, 1, 1, 1, 0.01)},
			files:  all("start"),
		},
		{
			name:   "a flat line at 1",
			points: []Point{still("start", 5, 5, 20, 4, 1, 0.002), still("start", 6, 6, 24, 5, 1, 0.002)},
			files:  all("start"),
		},
		{
			name:   "one node alone: nothing to measure",
			points: []Point{still("start", 1, 1, 0, 0, 0, 0)},
			skipped: []string{
				"start-election-time.png: no point to plot: 0, which a log scale cannot show (no election began from the experiment's start and ended): vkt ring:{n} at 1 node",
				"start-messages-per-election.png: no point to plot: 0, which a log scale cannot show (no election began",
				"start-messages-per-node.png: no point to plot: 0, which a log scale cannot show (no message sent from the experiment's start): vkt ring:{n} at 1 node",
				"start-leaderless.png: no point to plot: 0, which a log scale cannot show (never without a leader): vkt ring:{n} at 1 node",
			},
		},
		{
			name:   "one node, then two",
			points: []Point{still("start", 1, 1, 0, 0, 0, 0), still("start", 2, 2, 8.7, 4, 2, 0.0008)},
			files:  all("start"),
			partial: []string{
				"start-election-time.png: 1 of 2 points left out, 0, which a log scale cannot show (no election began from the experiment's start and ended): vkt ring:{n} at 1 node",
				"start-messages-per-election.png: 1 of 2", "start-messages-per-node.png: 1 of 2", "start-leaderless.png: 1 of 2",
			},
		},
		{
			name:    "no election completed (echo after a crash)",
			points:  []Point{still("crash", 5, 5, 0, 0, 0, 0.00378), still("crash", 6, 6, 0, 0, 0, 0.004), still("crash", 7, 7, 0, 0, 0, 0.004)},
			files:   []string{"crash-leaderless.png"},
			skipped: []string{"crash-election-time.png: no point to plot", "crash-messages-per-election.png: no point to plot", "crash-messages-per-node.png: no point to plot"},
		},
		{
			name: "elections of no time (a delay of 0)",
			points: func() []Point {
				p := still("start", 5, 5, 0, 30, 6, 0)
				p.Elected = 1
				return []Point{p}
			}(),
			files: []string{"start-messages-per-election.png", "start-messages-per-node.png"},
			skipped: []string{"start-election-time.png: no point to plot: 0, which a log scale cannot show (the elections took no time): vkt ring:{n} at 5 nodes",
				"start-leaderless.png: no point to plot: 0, which a log scale cannot show (never without a leader)"},
		},
		{
			name: "many points left out are summed up",
			points: []Point{still("crash", 5, 5, 0, 0, 0, 0), still("crash", 6, 6, 0, 0, 0, 0), still("crash", 7, 7, 0, 0, 0, 0),
				still("crash", 8, 8, 0, 0, 0, 0), still("crash", 9, 9, 0, 0, 0, 0)},
			skipped: []string{"crash-election-time.png: no point to plot: 0, which a log scale cannot show (no election began from the experiment's start and ended): vkt ring:{n} at 5 nodes, vkt ring:{n} at 6 nodes, vkt ring:{n} at 7 nodes and 2 more", "and 2 more", "and 2 more", "and 2 more"},
		},
		{
			name:    "not a number (a results file can hold NaN and Inf)",
			points:  []Point{still("start", 5, 5, math.NaN(), 2, 2, 0.5), still("start", 6, 6, 3, math.Inf(1), 2, 0.5), still("start", 0, 0, 3, 2, 2, 0.5)},
			files:   all("start"),
			partial: []string{"start-election-time.png: 2 of 3 points left out, no nodes, which a log scale cannot show: vkt ring:{n} at 0 nodes; not a number: vkt ring:{n} at 5 nodes", "start-messages-per-election.png: 2 of 3", "start-messages-per-node.png: 1 of 3", "start-leaderless.png: 1 of 3"},
		},
		{
			name:   "one speed, 0",
			points: []Point{moving(0, 0.001, 0)},
			files:  mobile,
		},
		{
			name:    "a speed whose figures are not numbers",
			points:  []Point{moving(0, math.NaN(), 0), moving(5, 0.1, 2)},
			files:   mobile,
			partial: []string{"mobile-leader-time.png: 1 of 2 points left out, not a number: vkt geometric:20:250 at 0 m/s", "mobile-reachable-leader-time.png: 1 of 2"},
		},
		{
			name:    "every figure of a speed not a number",
			points:  []Point{moving(math.Inf(1), 0.1, 2)},
			skipped: []string{"mobile-leader-time.png: no point to plot: not a number: vkt geometric:20:250 at +Inf m/s", "mobile-reachable", "mobile-election-rate", "mobile-leader-changes", "mobile-messages"},
		},
		{
			name:    "an experiment elect does not know (a results file from elsewhere)",
			points:  []Point{still("fly", 5, 5, 1, 1, 1, 0.1), still("fly", 6, 6, 1, 1, 1, 0.1)},
			skipped: []string{`experiment "fly": not one elect knows (start, crash, partition, merge, mobile, battery)`},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			got, err := plotWithin(t, c.points, dir)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, f := range got.Files {
				if st, err := os.Stat(f); err != nil || st.Size() == 0 {
					t.Errorf("%s: %v, %v", f, st, err)
				}
				files = append(files, filepath.Base(f))
			}
			written, _ := filepath.Glob(filepath.Join(dir, "*"))
			if !slices.Equal(files, c.files) || len(written) != len(files) {
				t.Errorf("files %v (%d in the directory), want %v", files, len(written), c.files)
			}
			for _, w := range []struct {
				what      string
				got, want []string
			}{{"skipped", got.Skipped, c.skipped}, {"partial", got.Partial, c.partial}} {
				if len(w.got) != len(w.want) {
					t.Errorf("%s:\n%s\nwant %d holding %q", w.what, strings.Join(w.got, "\n"), len(w.want), w.want)
					continue
				}
				for i := range w.want {
					if !strings.Contains(w.got[i], w.want[i]) {
						t.Errorf("%s %d: %q, want it to hold %q", w.what, i, w.got[i], w.want[i])
					}
				}
			}
		})
	}
}

// The ticks of a log axis end, whatever its range; a range of a factor of
// ten or more has a label.
func TestLogTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 2}, {-1, 1}, {math.NaN(), 5}, {1, math.Inf(1)}, {0, 0}, {3, 2}} {
		if ticks := (logTicks{}).Ticks(r[0], r[1]); len(ticks) != 0 {
			t.Errorf("%v: ticks %v", r, ticks)
		}
	}
	for _, v := range []float64{1e-6, 0.00435, 0.5, 1, 3.1622776601683795, 8, 40.1, 12285} {
		a := struct{ min, max float64 }{v, v}
		ax := axisOf(a.min, a.max)
		logRange(&ax)
		labelled := 0
		for _, tk := range (logTicks{}).Ticks(ax.Min, ax.Max) {
			if tk.Label != "" {
				labelled++
			}
		}
		if !(ax.Min > 0 && ax.Min < v && ax.Max > v) || labelled == 0 {
			t.Errorf("a single value %g: axis %g..%g with %d labels", v, ax.Min, ax.Max, labelled)
		}
	}
}

func axisOf(min, max float64) plot.Axis {
	p := plot.New()
	p.Y.Min, p.Y.Max = min, max
	return p.Y
}

// Against speed, a topology run at several sizes is a line per size (one
// line through them all went up and down at each speed); one mobility is
// not named in the lines, even beside still points.
func TestSeriesMovingSizes(t *testing.T) {
	at := func(size int, speed float64) Point {
		p := moving(speed, 0.01, 1)
		p.Template, p.Size = "geometric:{n}:d10", size
		return p
	}
	pts := []Point{at(16, 0), at(32, 0), at(16, 5), at(32, 5), still("mobile", 8, 8, 1, 1, 1, 0.1)}
	names, lines := series(pts, "mobile", true)
	if want := []string{"vkt geometric:16:d10", "vkt geometric:32:d10"}; !slices.Equal(names, want) {
		t.Fatalf("lines %q, want %q", names, want)
	}
	if l := lines[names[1]]; len(l) != 2 || l[0].Speed != 0 || l[1].Speed != 5 || l[0].Size != 32 {
		t.Errorf("line %s: %+v", names[1], l)
	}
	names, _ = series(pts[:1], "mobile", true)
	if want := []string{"vkt geometric:{n}:d10"}; !slices.Equal(names, want) {
		t.Errorf("one size: lines %q, want %q", names, want)
	}
}

// Plot titles say what happens in words that fit any algorithm, not the
// test numbers of vkt's document.
func TestPlotTitles(t *testing.T) {
	dir := t.TempDir()
	points := []Point{still("start", 8, 8, 30, 50, 6, 0.01), still("crash", 8, 8, 40, 30, 4, 0.02), moving(1, 0.1, 2)}
	if _, err := Plot(points, dir, "svg"); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"start-election-time.svg":     "all nodes start at once: mean election time (ring)",
		"crash-messages-per-node.svg": "the leader crashes: message overhead per node (ring)",
		"mobile-leader-time.svg":      "the nodes move: time with a leader",
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), ">"+want) {
			t.Errorf("%s: title does not read %q", file, want)
		}
	}
	for _, x := range Experiments {
		if strings.Contains(strings.ToLower(x.Title), "test") {
			t.Errorf("experiment %s's title %q names a document's test", x.Name, x.Title)
		}
	}
}
