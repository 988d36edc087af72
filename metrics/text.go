package metrics

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/electgo/elect/algo"
)

// maxListed bounds how many components and violations the text summary lists.
const maxListed = 10

// WriteText writes the readable summary of a run.
func WriteText(w io.Writer, s *Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s: %s nodes, %s edges, seed %d\n", s.Algorithm, s.Topology, group(uint64(s.Nodes)), group(uint64(s.Edges)), s.Seed)
	if len(s.Params) > 0 {
		keys := make([]string, 0, len(s.Params))
		for k := range s.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var ps []string
		for _, k := range keys {
			if s.Params[k] != "" {
				ps = append(ps, k+"="+s.Params[k])
			}
		}
		fmt.Fprintf(&b, "params: %s\n", strings.Join(ps, " "))
	}
	if s.Mobility != "" {
		fmt.Fprintf(&b, "mobility: %s, radio range %g m\n", s.Mobility, s.RangeM)
	}
	stop := "stopped at the duration limit"
	if s.Quiescent {
		stop = "no event left"
	}
	if em := s.Emulation; em != nil {
		fmt.Fprintf(&b, "emulated %.3f ms on %s real nodes (%s events, trace hash %s)\n", s.EndMS, group(uint64(s.Nodes)), group(s.Events), s.TraceHash)
		fmt.Fprintf(&b, "  hello every %g ms, neighbour lost after %d unheard; %d processes started, %d ended on their own\n",
			em.HelloMS, em.HelloLoss, em.Lives, em.UnplannedExits)
		fmt.Fprintf(&b, "  set-up %.0f ms, all nodes up in %.0f ms; %d rule updates (mean %.1f ms, longest %.1f ms); %d late status events\n",
			em.SetupMS, em.StartMS, em.RuleUpdates, em.RuleUpdateMeanMS, em.RuleUpdateMaxMS, em.LateEvents)
		fmt.Fprintf(&b, "  nodes: %.1f CPU s (%.2f cores on average), peak memory %.1f MB each on average, %.1f MB the most; emulator: %.1f CPU s, %.1f MB\n",
			em.NodeCPUSeconds, em.CPUCores, em.NodeRSSMeanMB, em.NodeRSSMaxMB, em.EmulatorCPUSeconds, em.EmulatorRSSMB)
		fmt.Fprintf(&b, "  hellos: %s sent, %s received", group(em.HellosSent), group(em.HellosReceived))
		for _, k := range sortedKeys(em.Rejected) {
			fmt.Fprintf(&b, ", %s rejected (%s)", group(em.Rejected[k]), k)
		}
		b.WriteString("\n\n")
	} else {
		fmt.Fprintf(&b, "ran %s of virtual time (%s): %s events in %s, trace hash %s\n\n",
			natural(s.EndMS), stop, group(s.Events), natural(s.WallMS), s.TraceHash)
	}

	bcast := ""
	if s.Messages.Broadcasts > 0 {
		bcast = fmt.Sprintf(" (%s of them broadcasts)", group(s.Messages.Broadcasts))
	}
	fmt.Fprintf(&b, "messages: %s sent%s, %s delivered, %s dropped; %s bytes on the air\n", group(s.Messages.Total), bcast,
		group(s.Messages.Delivered), group(s.Messages.Dropped), group(s.Messages.Bytes))
	if bd := s.Messages.Bound; bd != nil {
		limit := fmt.Sprintf("%s to %s", group(uint64(bd.Lo)), group(uint64(bd.Hi)))
		if bd.Lo == bd.Hi {
			limit = "exactly " + group(uint64(bd.Hi))
		}
		fmt.Fprintf(&b, "  bound: %s (%s; one election in each piece of the network that holds an initiator)\n", limit, bd.Formula)
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, k := range sortedKeys(s.Messages.ByType) {
		fmt.Fprintf(tw, "  %s\t%s\t\n", k, group(s.Messages.ByType[k]))
	}
	for _, k := range sortedKeys(s.Messages.DropReasons) {
		fmt.Fprintf(tw, "  dropped (%s)\t%s\t\n", k, group(s.Messages.DropReasons[k]))
	}
	tw.Flush()

	e := s.Elections
	writeStory(&b, s)
	fmt.Fprintf(&b, "\nelections: %d completed", e.Completed)
	if e.Completed > 0 {
		fmt.Fprintf(&b, ", mean %s, longest %s", natural(e.MeanTimeMS), natural(e.MaxTimeMS))
	}
	if e.Open > 0 {
		fmt.Fprintf(&b, ", %d still open", e.Open)
	}
	b.WriteString("\n")
	writeLeaderless(&b, s)
	// A rate over a run shorter than MinRateSpan would stretch a few
	// milliseconds of one election into a minute of elections.
	r := s.Rates
	if !r.Extrapolated {
		fmt.Fprintf(&b, "per node: %.3f elections started and %.3f leader changes a minute, %.1f messages a second\n",
			r.ElectionsPerNodeMinute, r.LeaderChangesPerNodeMinute, r.MessagesPerNodeSecond)
	}
	if v := s.Values; v != nil {
		fmt.Fprintf(&b, "values: %s: %s (%.2f a minute)", v.Model, plural(v.HandOvers, "hand-over"), v.HandOversPerMinute)
		if strings.HasPrefix(v.Model, "battery") {
			fmt.Fprintf(&b, "; energy a second %.1f leading, %.1f not", v.LeaderPerSecond, v.OtherPerSecond)
			if v.FirstEmptyMS >= 0 {
				fmt.Fprintf(&b, "; the first battery ran out at %.3f s (%s in all)", v.FirstEmptyMS/1000, plural(v.Empty, "node"))
			} else {
				b.WriteString("; no battery ran out")
			}
		}
		b.WriteString("\n")
	}
	if s.Mobility != "" || s.LinkChanges > 0 {
		fmt.Fprintf(&b, "movement: %s link changes", group(s.LinkChanges))
		if !r.Extrapolated {
			fmt.Fprintf(&b, " (%.2f per node a minute)", r.LinkChangesPerNodeMinute)
		}
		fmt.Fprintf(&b, "; a reachable leader %.2f%% of node-time\n", 100*s.ReachableLeaderFraction)
	}

	fmt.Fprintf(&b, "\ncomponents: %d", len(s.Components))
	if ne := s.NotExpected; ne != nil {
		fmt.Fprintf(&b, " (%s of %s not expected to elect: %s)", plural(ne.Components, "component"), plural(ne.Nodes, "node"), ne.Why)
	} else if s.Unreached > 0 {
		fmt.Fprintf(&b, " (%s that no election reached)", plural(s.Unreached, "component"))
	}
	b.WriteString("\n")
	for i, c := range s.Components {
		if i == maxListed {
			fmt.Fprintf(&b, "  ... %d more\n", len(s.Components)-maxListed)
			break
		}
		noun := "nodes"
		if len(c) == 1 {
			noun = "node"
		}
		fmt.Fprintf(&b, "  %s %s (%s): %s\n", group(uint64(len(c))), noun, span(c), s.leaders(c))
	}

	if s.ReportCount > 0 {
		fmt.Fprintf(&b, "\nreported by the nodes: %d\n", s.ReportCount)
		for i, r := range s.Reports {
			if i == maxListed {
				fmt.Fprintf(&b, "  ... %d more (see --json)\n", s.ReportCount-maxListed)
				break
			}
			fmt.Fprintf(&b, "  at %.3f ms, node %d: %s\n", r.AtMS, r.Node, r.Text)
		}
	}

	b.WriteString("\ncheck: ")
	switch {
	case s.ViolationCount == 0 && s.Unchecked == 0:
		b.WriteString("OK, safety and liveness hold\n")
	case s.ViolationCount == 0:
		fmt.Fprintf(&b, "no violation; liveness of %d component(s) not judged (the run stopped before their bound)\n", s.Unchecked)
	default:
		fmt.Fprintf(&b, "%d VIOLATION(S)\n", s.ViolationCount)
		for i, v := range s.Violations {
			if i == maxListed {
				fmt.Fprintf(&b, "  ... %d more (see --json)\n", s.ViolationCount-maxListed)
				break
			}
			fmt.Fprintf(&b, "  at %.3f ms, %s: %s\n", v.AtMS, v.Property, v.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLeaderless says how long the nodes went without a leader, and over
// what time: a run that went quiet ends with its last event, so the share
// is of the time until then; one that went quiet with every live node led
// (a wave's one election) ends with its election, and the share is the
// nodes' wait for their leader, not a service's time without one.
func writeLeaderless(b *strings.Builder, s *Summary) {
	fmt.Fprintf(b, "without a leader: %.2f%% of node-time", 100*s.LeaderlessFraction)
	switch {
	case s.Settled:
		every := "every node"
		for _, f := range s.Final {
			if !f.Alive {
				every = "every live node"
				break
			}
		}
		if s.NotExpected != nil {
			every += " expected to elect"
		}
		fmt.Fprintf(b, ", until %s had its leader and the run went quiet at %s", every, natural(s.EndMS))
	case s.Quiescent:
		fmt.Fprintf(b, ", until the run went quiet at %s", natural(s.EndMS))
	}
	b.WriteString("\n")
}

// leaders describes who the nodes of a component follow.
func (s *Summary) leaders(comp []algo.NodeID) string {
	count := map[algo.NodeID]int{}
	for _, v := range comp {
		f := s.Final[v]
		if f.State == algo.Norm.String() && f.Leader != algo.None {
			count[f.Leader]++
		} else {
			count[algo.None]++
		}
	}
	ids := make([]algo.NodeID, 0, len(count))
	for id := range count {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		return count[ids[i]] > count[ids[j]] || count[ids[i]] == count[ids[j]] && ids[i] < ids[j]
	})
	var parts []string
	for _, id := range ids {
		if id == algo.None {
			parts = append(parts, fmt.Sprintf("%d without a leader", count[id]))
		} else if count[id] == len(comp) {
			parts = append(parts, fmt.Sprintf("leader %d", id))
		} else {
			parts = append(parts, fmt.Sprintf("%d follow %d", count[id], id))
		}
	}
	return strings.Join(parts, ", ")
}

// span writes sorted ids as runs of consecutive ids, the way a scenario
// names nodes: "0-9, 11, 14-49". Past maxRuns runs it says how many ids it
// left out and the last of them, "0-1, 4, 7-9 and 9 more, up to 39", so
// that a component of 15 nodes between 0 and 39 cannot read as all 40.
func span(c []algo.NodeID) string {
	var runs []string
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		if len(runs) == maxRuns-1 && j+1 < len(c) {
			return fmt.Sprintf("%s and %s more, up to %d", strings.Join(runs, ", "), group(uint64(len(c)-i)), c[len(c)-1])
		}
		run := strconv.Itoa(int(c[i]))
		if j > i {
			run += "-" + strconv.Itoa(int(c[j]))
		}
		runs = append(runs, run)
		i = j + 1
	}
	return strings.Join(runs, ", ")
}

// maxRuns bounds the runs of ids that span writes.
const maxRuns = 4

func sortedKeys(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// group writes n with thousands separators.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeStory tells the run as it went: each fault as it struck, and each
// election, whom it elected and how long it took.
func writeStory(b *strings.Builder, s *Summary) {
	type line struct {
		at   float64
		text string
	}
	var lines []line
	for _, f := range s.Faults {
		lines = append(lines, line{f.AtMS, f.What})
	}
	for _, el := range s.Elections.List {
		noun := "nodes elect"
		if el.Nodes == 1 {
			noun = "node elects"
		}
		lines = append(lines, line{el.StartMS, fmt.Sprintf("%s %s node %d in %s", group(uint64(el.Nodes)), noun, el.Leader, natural(el.EndMS-el.StartMS))})
	}
	if len(lines) == 0 {
		return
	}
	slices.SortStableFunc(lines, func(x, y line) int { return cmp.Compare(x.at, y.at) })
	b.WriteString("\nthe run:\n")
	for i, l := range lines {
		if i == 2*maxListed {
			fmt.Fprintf(b, "  ... %d more (see --json: faults, elections.list)\n", len(lines)-i)
			break
		}
		fmt.Fprintf(b, "  %9s  %s\n", natural(l.at), l.text)
	}
}

// natural writes a time in milliseconds in the unit that reads best:
// "850 µs", "77.9 ms", "12.064 s", "100 s".
func natural(ms float64) string {
	switch {
	case ms == 0:
		return "0 s"
	case ms < 1:
		return strconv.FormatFloat(ms*1000, 'f', 0, 64) + " µs"
	case ms < 1000:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	}
	sec := strings.TrimRight(strings.TrimRight(strconv.FormatFloat(ms/1000, 'f', 3, 64), "0"), ".")
	return sec + " s"
}

// plural says "1 node", "2 nodes", with thousands separators.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return group(uint64(n)) + " " + noun + "s"
}
