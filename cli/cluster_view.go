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

	"github.com/electgo/elect/cluster"
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

// liveLines is the live table: two header lines, then the nodes.
func liveLines(cfg cluster.Config, s cluster.Snapshot) []string {
	head := fmt.Sprintf("elect cluster: %d nodes, %s on %s, %.1fs   keys: k N kill, r N restart, c N recover, s N stop, q quit",
		len(s.Rows), cfg.Algorithm, cfg.Topology, s.Elapsed.Seconds())
	return append([]string{head, describeAgreement(s.Agreement, s.Rows)}, cluster.TableLines(s.Rows)...)
}

// describeAgreement says who follows whom, per component.
func describeAgreement(a cluster.Agreement, rows []cluster.NodeRow) string {
	if len(a.Components) == 0 {
		return "no node is running"
	}
	var parts []string
	for i, comp := range a.Components {
		var p string
		switch {
		case a.Leaders[i] >= 0 && a.Leaders[i] == a.Best[i]:
			p = fmt.Sprintf("leader %d, agreed by all %d live nodes", a.Leaders[i], len(comp))
		case a.Leaders[i] >= 0 && !rows[a.Leaders[i]].Alive:
			p = fmt.Sprintf("all %d live nodes still follow %d, which is down", len(comp), a.Leaders[i])
		case a.Leaders[i] >= 0:
			p = fmt.Sprintf("all %d live nodes follow %d, but %d is more valued", len(comp), a.Leaders[i], a.Best[i])
		default:
			p = "no agreement: " + breakdown(comp, rows)
		}
		if len(a.Components) > 1 {
			p = fmt.Sprintf("{%s}: %s", cluster.IDRanges(comp), p)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " | ")
}

// breakdown counts the nodes of comp by what they do: "2 Elect, 5 follow 6".
func breakdown(comp []int, rows []cluster.NodeRow) string {
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
