package failover

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Stats summarise one group of durations.
type Stats struct {
	Runs                  int
	Median, P90, Min, Max time.Duration
}

// Summarize computes the median (mean of the middle two for an even count),
// the 90th percentile (nearest rank), the minimum and the maximum.
func Summarize(ds []time.Duration) Stats {
	if len(ds) == 0 {
		return Stats{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	st := Stats{Runs: n, Min: s[0], Max: s[n-1]}
	if n%2 == 1 {
		st.Median = s[n/2]
	} else {
		st.Median = (s[n/2-1] + s[n/2]) / 2
	}
	st.P90 = s[int(math.Ceil(0.9*float64(n)))-1]
	return st
}

// Group is the results of one system, size and setting.
type Group struct {
	System   string
	N        int
	Setting  Setting
	Failover Stats
	Detect   Stats
}

// Groups gathers results in the order of the plan: setting, size, system.
func Groups(p Plan, rs []Result) []Group {
	var gs []Group
	for _, s := range p.Settings {
		for _, n := range p.Nodes {
			for _, sys := range p.Systems {
				var f, d []time.Duration
				for _, r := range rs {
					if r.System == sys.Name() && r.N == n && r.Setting == s {
						f = append(f, r.Failover)
						d = append(d, r.Detect)
					}
				}
				if len(f) > 0 {
					gs = append(gs, Group{System: sys.Name(), N: n, Setting: s, Failover: Summarize(f), Detect: Summarize(d)})
				}
			}
		}
	}
	return gs
}

// WriteTable writes the groups as a Markdown table, with the ratio of
// elect's median (and p90) to raft's where both were measured.
func WriteTable(w io.Writer, gs []Group) {
	fmt.Fprintln(w, "| nodes | heartbeat / timeout | system | runs | median | p90 | min | max | detected (median) | elect/raft median (p90) |")
	fmt.Fprintln(w, "|------:|:-------------------:|:-------|-----:|-------:|----:|----:|----:|------------------:|:------------------------|")
	for _, g := range gs {
		ratio := ""
		if g.System == "elect" {
			for _, o := range gs {
				if o.System == "raft" && o.N == g.N && o.Setting == g.Setting && o.Failover.Median > 0 && o.Failover.P90 > 0 {
					r := float64(g.Failover.Median) / float64(o.Failover.Median)
					verdict := "at most half: yes"
					if r > 0.5 {
						verdict = "at most half: no"
					}
					ratio = fmt.Sprintf("%.2f (%.2f), %s", r, float64(g.Failover.P90)/float64(o.Failover.P90), verdict)
				}
			}
		}
		f := g.Failover
		fmt.Fprintf(w, "| %d | %v / %v | %s | %d | %s | %s | %s | %s | %s | %s |\n",
			g.N, g.Setting.Heartbeat, g.Setting.Timeout, g.System, f.Runs,
			msStr(f.Median), msStr(f.P90), msStr(f.Min), msStr(f.Max), msStr(g.Detect.Median), ratio)
	}
}

func msStr(d time.Duration) string { return fmt.Sprintf("%.0f ms", ms(d)) }

// WriteSettings states what each system was given for each setting.
func WriteSettings(w io.Writer, systems []System, settings []Setting) {
	for _, s := range settings {
		fmt.Fprintf(w, "heartbeat %v, timeout %v:\n", s.Heartbeat, s.Timeout)
		for _, sys := range systems {
			fmt.Fprintf(w, "  %-5s %s\n", sys.Name(), sys.Describe(s))
		}
	}
}

// WriteCSV writes one row a run.
func WriteCSV(w io.Writer, rs []Result) {
	fmt.Fprintln(w, "system,nodes,heartbeat_ms,timeout_ms,run,old_leader,new_leader,detect_ms,failover_ms,poll_rounds,startup_ms")
	for _, r := range rs {
		fmt.Fprintln(w, strings.Join([]string{
			r.System, fmt.Sprint(r.N), fmt.Sprint(ms(r.Setting.Heartbeat)), fmt.Sprint(ms(r.Setting.Timeout)),
			fmt.Sprint(r.Run + 1), fmt.Sprint(r.Old), fmt.Sprint(r.New),
			fmt.Sprintf("%.2f", ms(r.Detect)), fmt.Sprintf("%.2f", ms(r.Failover)), fmt.Sprint(r.Rounds),
			fmt.Sprintf("%.1f", ms(r.StartedIn)),
		}, ","))
	}
}
