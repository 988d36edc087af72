package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Write writes the summary on w: as one JSON object on a line (asJSON),
// or for people (WriteText).
func (s *Summary) Write(w io.Writer, asJSON bool) error {
	if !asJSON {
		s.WriteText(w)
		return nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// TableLines renders rows as a table, a header line first: the live
// table of elect cluster, and the summary's.
func TableLines(rows []NodeRow) []string {
	out := []string{fmt.Sprintf("%4s %7s %8s %-8s %-7s %-5s %6s %6s %4s %8s %5s", "id", "value", "pid", "process", "started", "state", "leader", "index", "nbrs", "sent", "elect")}
	for _, r := range rows {
		state, leader, index, nbrs, sent, elect := "-", "-", "-", "-", "-", "-"
		if r.Answered {
			state, leader = r.State, strconv.Itoa(r.Leader)
			if r.Leader < 0 {
				leader = "-"
			}
			index, nbrs = strconv.FormatUint(r.ElectionIndex, 10), strconv.Itoa(r.Neighbors)
			sent, elect = strconv.FormatUint(r.Sent, 10), strconv.FormatUint(r.Elections, 10)
		} else if r.Alive {
			state = "?"
		}
		line := fmt.Sprintf("%4d %7d %8d %-8s %-7s %-5s %6s %6s %4s %8s %5s", r.ID, r.Value, r.PID, r.Process, r.Started, state, leader, index, nbrs, sent, elect)
		if r.Leading {
			line += "  <- leader"
		}
		out = append(out, line)
	}
	return out
}

// WriteText writes the summary for people, as elect cluster prints it.
func (s *Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "\nelect cluster: %d nodes, %s on %s, ran %.1fs\n", s.Nodes, s.Algorithm, s.Topology, s.DurationMS/1000)
	for _, l := range TableLines(s.Final) {
		fmt.Fprintln(w, "  "+l)
	}
	a := Agreement{Components: s.Components, Leaders: s.Leaders}
	switch {
	case len(s.Components) == 0:
		fmt.Fprintln(w, "no node was running at the end")
	case s.Agreed:
		fmt.Fprintln(w, "agreed:", a.Agreed())
	default:
		fmt.Fprintln(w, "no agreement at the end")
	}
	if len(s.Failovers) > 0 {
		fmt.Fprintln(w, "failovers (a leader killed or stopped, until every live node follows the most valued survivor):")
		for _, f := range s.Failovers {
			if f.Done {
				fmt.Fprintf(w, "  %8.3fs  %s %d -> leader %s after %.0f ms\n", f.AtMS/1000, f.How, f.Node, joinInts(f.Leaders), f.MS)
			} else {
				fmt.Fprintf(w, "  %8.3fs  %s %d -> no agreement before the end\n", f.AtMS/1000, f.How, f.Node)
			}
		}
	}
	if len(s.Control.Events) > 0 {
		fmt.Fprintln(w, "control process (elections asked, reports heard, nodes dead):")
		for _, e := range s.Control.Events {
			fmt.Fprintf(w, "  %8.3fs  node %d %s: %s\n", e.AtMS/1000, e.Node, e.Kind, e.What)
		}
		for _, l := range s.Control.Lines {
			fmt.Fprintf(w, "Control process says: %q\n", l)
		}
	}
	if s.Script != "" {
		failed := 0
		for _, st := range s.Steps {
			if !st.OK {
				failed++
			}
		}
		fmt.Fprintf(w, "script %s: %d steps run, %d failed\n", s.Script, len(s.Steps), failed)
	}
	if s.Check != nil {
		s.Check.writeText(w)
	}
	if s.Kept {
		fmt.Fprintf(w, "state and logs: %s (node-N.log)\n", s.Dir)
	}
	if s.Error != "" {
		fmt.Fprintln(w, "error:", s.Error)
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
