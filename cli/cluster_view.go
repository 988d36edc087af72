package cli

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/electgo/elect/algo"
)

// clusterView is where elect cluster writes as it runs. On a terminal the
// table of nodes stays at the top, redrawn in place, and the lines of
// events and commands scroll below it (a scroll region); elsewhere every
// change is a line of its own.
type clusterView struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	fd     int
	top    int // rows the table takes on the terminal; 0 before the first draw
	rows   int
	closed bool
}

func newClusterView(w io.Writer) *clusterView {
	v := &clusterView{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		v.tty, v.fd = true, int(f.Fd())
	}
	return v
}

// logf writes one line, stamped with the time since the cluster started.
func (v *clusterView) logf(at time.Duration, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintf(v.w, "%8.3fs  %s\n", at.Seconds(), msg)
}

// printf writes text as it is.
func (v *clusterView) printf(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintf(v.w, format, args...)
}

// draw redraws the table at the top of the terminal.
func (v *clusterView) draw(lines []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.tty || v.closed {
		return
	}
	cols, rows, err := term.GetSize(v.fd)
	if err != nil || rows < 8 || cols < 20 {
		cols, rows = 80, 24
	}
	if maxTop := rows - 5; len(lines) > maxTop {
		more := len(lines) - maxTop + 1
		lines = append(lines[:maxTop-1:maxTop-1], fmt.Sprintf("... and %d more rows (a taller terminal shows them)", more))
	}
	top := len(lines) + 1 // and a rule under the table
	var b bytes.Buffer
	if top != v.top || rows != v.rows {
		// Lay the screen out again: clear it, keep rows top+1.. for the
		// lines that scroll, and put the cursor at their bottom.
		fmt.Fprintf(&b, "\x1b[2J\x1b[%d;%dr\x1b[%d;1H", top+1, rows, rows)
		v.top, v.rows = top, rows
	}
	b.WriteString("\x1b7") // save the cursor
	for i, l := range lines {
		fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[K", i+1, clip(l, cols))
	}
	fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[K", top, strings.Repeat("-", min(cols, 96)))
	b.WriteString("\x1b8") // restore it
	v.w.Write(b.Bytes())
}

// close gives the terminal its whole screen back.
func (v *clusterView) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.tty && v.top > 0 && !v.closed {
		fmt.Fprintf(v.w, "\x1b[r\x1b[%d;1H\n", v.rows)
	}
	v.closed = true
}

func clip(s string, cols int) string {
	if len(s) > cols {
		return s[:cols]
	}
	return s
}

// nodeRow is a node in the table and in the summary.
type nodeRow struct {
	ID            int    `json:"id"`
	Value         int64  `json:"value"`
	Alive         bool   `json:"alive"`
	Process       string `json:"process"` // starting, running, killed, stopped, exited
	PID           int    `json:"pid"`     // of the current or last process
	Started       string `json:"started"` // how the current life began: start, fresh (no state) or recover
	Lives         int    `json:"lives"`
	Answered      bool   `json:"answered"` // it answered the last poll; the fields below are its answer
	State         string `json:"state"`
	Leader        int    `json:"leader"` // -1: none
	Leading       bool   `json:"leading"`
	ElectionIndex uint64 `json:"election_index"`
	Neighbors     int    `json:"neighbors"`
	Sent          uint64 `json:"sent"` // algorithm messages sent by this life
	// The runtime's own datagrams of this life, apart from Sent: reliable
	// links' retransmissions and bare acknowledgements, synchronizer safe
	// messages.
	Retransmits  uint64 `json:"retransmits"`
	Acks         uint64 `json:"acks"`
	SyncMessages uint64 `json:"sync_messages"`
	// LinkFailures counts the reliable links of this life that went
	// unacknowledged past their bound, taking their neighbour down.
	LinkFailures uint64  `json:"link_failures"`
	Elections    uint64  `json:"elections"` // elections this life took part in (entered Elect)
	LeaderlessMS float64 `json:"leaderless_ms"`
	Log          string  `json:"log"`
	Error        string  `json:"error,omitempty"` // why the last poll failed
}

// snapshot is the cluster as the last poll saw it.
type clusterSnapshot struct {
	elapsed time.Duration
	rows    []nodeRow
	agree   agreement
}

func (c *cluster) snapshot(now time.Time) clusterSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := clusterSnapshot{agree: c.agreementLocked()}
	if !c.t0.IsZero() {
		s.elapsed = now.Sub(c.t0)
	}
	for _, n := range c.nodes {
		in := n.proc.Info()
		r := nodeRow{ID: n.id, Value: n.value, Alive: in.State.Alive(), Process: in.State.String(), PID: in.PID,
			Started: in.Mode.String(), Lives: in.Life, Leader: -1, Log: n.logPath}
		if n.pollErr != nil && r.Alive {
			r.Error = n.pollErr.Error()
		}
		if n.answered() {
			st := n.st
			r.Answered, r.State, r.Leader, r.Leading = true, st.State, int(st.Leader), st.Leading
			r.ElectionIndex, r.Neighbors, r.LeaderlessMS = st.ElectionIndex, len(st.Neighbors), st.LeaderlessMS
			r.Elections = st.Counters.Elections
			r.Retransmits, r.Acks, r.SyncMessages = st.Counters.LinkRetransmits, st.Counters.LinkAcks, st.Counters.SyncMessages
			r.LinkFailures = st.Counters.LinkFailures
			for _, v := range st.Counters.Sent {
				r.Sent += v
			}
		}
		s.rows = append(s.rows, r)
	}
	return s
}

// tableLines renders the rows as a table, a header line first.
func tableLines(rows []nodeRow) []string {
	out := []string{fmt.Sprintf("%4s %7s %8s %-8s %-7s %-5s %6s %6s %4s %8s %5s", "id", "value", "pid", "process", "started", "state", "leader", "index", "nbrs", "sent", "elect")}
	for _, r := range rows {
		state, leader, index, nbrs, sent, elect := "-", "-", "-", "-", "-", "-"
		if r.Answered {
			state, leader = r.State, leaderText(r.Leader)
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

// liveLines is the live table: two header lines, then the nodes.
func (c *cluster) liveLines(s clusterSnapshot) []string {
	cfg := c.cfg
	head := fmt.Sprintf("elect cluster: %d nodes, %s on %s, %.1fs   keys: k N kill, r N restart, c N recover, s N stop, q quit",
		len(s.rows), cfg.algo, cfg.topoName, s.elapsed.Seconds())
	return append([]string{head, describeAgreement(s.agree, s.rows)}, tableLines(s.rows)...)
}

func leaderText(l int) string {
	if l < 0 {
		return "-"
	}
	return strconv.Itoa(l)
}

// agreedText names the leader of each component, when all agree.
func agreedText(a agreement) string {
	if len(a.comps) == 1 {
		return fmt.Sprintf("leader %d (%d live nodes)", a.leaders[0], len(a.comps[0]))
	}
	parts := make([]string, len(a.comps))
	for i, comp := range a.comps {
		parts[i] = fmt.Sprintf("{%s} leader %d", idRanges(comp), a.leaders[i])
	}
	return strings.Join(parts, ", ")
}

// describeAgreement says who follows whom, per component.
func describeAgreement(a agreement, rows []nodeRow) string {
	if len(a.comps) == 0 {
		return "no node is running"
	}
	var parts []string
	for i, comp := range a.comps {
		var p string
		switch {
		case a.leaders[i] >= 0 && a.leaders[i] == a.best[i]:
			p = fmt.Sprintf("leader %d, agreed by all %d live nodes", a.leaders[i], len(comp))
		case a.leaders[i] >= 0 && !rows[a.leaders[i]].Alive:
			p = fmt.Sprintf("all %d live nodes still follow %d, which is down", len(comp), a.leaders[i])
		case a.leaders[i] >= 0:
			p = fmt.Sprintf("all %d live nodes follow %d, but %d is more valued", len(comp), a.leaders[i], a.best[i])
		default:
			p = "no agreement: " + breakdown(comp, rows)
		}
		if len(a.comps) > 1 {
			p = fmt.Sprintf("{%s}: %s", idRanges(comp), p)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " | ")
}

// breakdown counts the nodes of comp by what they do: "2 Elect, 5 follow 6".
func breakdown(comp []int, rows []nodeRow) string {
	count := map[string]int{}
	var keys []string
	for _, id := range comp {
		r := rows[id]
		var k string
		switch {
		case !r.Answered:
			k = "?"
		case r.State != "Norm":
			k = r.State
		case r.Leader < 0:
			k = "Norm without a leader"
		default:
			k = "follow " + strconv.Itoa(r.Leader)
		}
		if count[k] == 0 {
			keys = append(keys, k)
		}
		count[k]++
	}
	slices.SortFunc(keys, func(a, b string) int { // those not answering last
		return cmp.Or(cmp.Compare(strings.Count(a, "?"), strings.Count(b, "?")), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		if k == "?" {
			parts[i] = fmt.Sprintf("%d not answering", count[k])
		} else {
			parts[i] = fmt.Sprintf("%d %s", count[k], k)
		}
	}
	return strings.Join(parts, ", ")
}

// idRanges writes sorted ids compactly: 0-3,5,7-9.
func idRanges(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == i {
			fmt.Fprint(&b, ids[i])
		} else {
			fmt.Fprintf(&b, "%d-%d", ids[i], ids[j])
		}
		i = j + 1
	}
	return b.String()
}

func topoID(i int) algo.NodeID { return algo.NodeID(i) }

// clusterSummary is what elect cluster prints when it ends; --json prints
// it as one object. Fields are added, never renamed.
type clusterSummary struct {
	Algorithm  string            `json:"algorithm"`
	Params     map[string]string `json:"params"`
	Topology   string            `json:"topology"`
	Nodes      int               `json:"nodes"`
	Dir        string            `json:"dir"`
	Kept       bool              `json:"kept"` // the directory (state, logs) is still there
	Script     string            `json:"script,omitempty"`
	DurationMS float64           `json:"duration_ms"`
	Agreed     bool              `json:"agreed"`     // every component follows its most valued live node
	Components [][]int           `json:"components"` // of the live nodes, in the cluster's graph
	Leaders    []int             `json:"leaders"`    // per component, the leader all its nodes follow, or -1
	Final      []nodeRow         `json:"final"`
	Failovers  []failoverJSON    `json:"failovers"`
	Steps      []stepResult      `json:"steps"`
	// Control is what the ring document's control process reports: the
	// elected node, the failures and their phases, the jokers.
	Control controlJSON `json:"control"`
	OK      bool        `json:"ok"`
	Error   string      `json:"error,omitempty"`
}

// failoverJSON is a failover: a leading node killed (or stopped) and the
// time until every component of the survivors followed its most valued
// node again (at the end of the first poll round that showed it).
type failoverJSON struct {
	Node    int     `json:"node"`
	How     string  `json:"how"` // kill or stop
	AtMS    float64 `json:"at_ms"`
	Done    bool    `json:"done"`
	MS      float64 `json:"ms"` // -1 when it never ended
	Leaders []int   `json:"leaders"`
}

// stepResult is what became of a step of the script (or a command).
type stepResult struct {
	Line    int     `json:"line,omitempty"`
	Step    string  `json:"step"`
	StartMS float64 `json:"start_ms"`
	TookMS  float64 `json:"took_ms"`
	OK      bool    `json:"ok"`
	Result  string  `json:"result,omitempty"`
	Error   string  `json:"error,omitempty"`
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeSummaryText prints the summary for people.
func writeSummaryText(w io.Writer, s *clusterSummary) {
	fmt.Fprintf(w, "\nelect cluster: %d nodes, %s on %s, ran %.1fs\n", s.Nodes, s.Algorithm, s.Topology, s.DurationMS/1000)
	for _, l := range tableLines(s.Final) {
		fmt.Fprintln(w, "  "+l)
	}
	a := agreement{comps: s.Components, leaders: s.Leaders}
	switch {
	case len(s.Components) == 0:
		fmt.Fprintln(w, "no node was running at the end")
	case s.Agreed:
		fmt.Fprintln(w, "agreed:", agreedText(a))
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
