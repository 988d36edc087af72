// Package algodoc describes the registered algorithms in words, as elect
// algos lists them.
package algodoc

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/electgo/elect/algo"
)

// Write describes a on w: its summary, source, messages, model, message
// bound and parameters, followed by a blank line.
func Write(w io.Writer, a *algo.Algorithm) {
	fmt.Fprintf(w, "%s: %s\n  source: %s\n  messages: %s\n  %s\n", a.Name, a.Summary, a.Source, strings.Join(a.Messages, ", "), Model(a.Model))
	if b := a.MessageBound; b != nil {
		fmt.Fprintf(w, "  messages of one election: %s (n nodes, m links; fault-free runs are held to it)\n", b.Formula)
	}
	if len(a.Params) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  param\tdefault\tmeaning")
		for _, p := range a.Params {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", p.Name, p.Default, p.Doc)
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
}

// Model says in a line what network an algorithm needs and what it
// tolerates.
func Model(m algo.Model) string {
	net := "any connected network"
	switch m.Topology {
	case "complete":
		net = "a complete network"
	case "ring":
		net = "a ring"
	}
	var tol []string
	for _, f := range []struct {
		on   bool
		name string
	}{{m.Loss, "loss"}, {m.Crash, "crashes"}, {m.Partition, "partitions"}, {m.Mobility, "mobility"},
		{m.OneWay, "links cut one way"}, {m.Asynchronous, "any clock drift, clock jumps and slow nodes"},
		{!m.Asynchronous && m.Drift > 0, fmt.Sprintf("clock drift within %g%%", m.Drift*100)},
		{!m.Asynchronous && m.Jumps, "clock jumps"},
		{!m.Asynchronous && m.Slow > 0, fmt.Sprintf("nodes up to %v slow", m.Slow)}} {
		if f.on {
			tol = append(tol, f.name)
		}
	}
	tolerates := "nothing (a static, reliable network)"
	if len(tol) > 0 {
		tolerates = strings.Join(tol, ", ")
	}
	first := "node " + cmp.Or(m.Initiators, "0")
	if m.Initiators == "all" {
		first = "every node"
	}
	how := "elects where an initiator starts (by default " + first + "; --initiators names others)"
	if m.ElectsInitiator {
		how = "elects the most valued of its initiators, its candidates (by default " + first + "; --initiators names others)"
	}
	if m.Spontaneous {
		how = "elects on its own in every component"
	}
	if m.Synchronous {
		how += ", in synchronous pulses"
	}
	if m.BoundedDelay {
		how += ", with every message in time for its timeouts"
	}
	if m.FollowsValue {
		how += ", and hands leadership over as values change"
	}
	return fmt.Sprintf("needs %s; %s; tolerates %s", net, how, tolerates)
}
