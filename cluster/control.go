package cluster

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/electgo/elect/node"
	"github.com/electgo/elect/trace"
)

// The cluster plays the control process of 003_995b7edf0113a8b5.txt: it
// starts an election (Elect, an elect step, or the nodes' initiators),
// hears what the nodes report (the algorithm's reports, served in their
// /status) and which of them die, and tells the outcome as the document's
// control process does: the elected node, a failure naming its phase
// (gathering or confirmation) and the node that died, or a checksum failure
// naming the joker.

// Event is one thing the control process was told.
type Event struct {
	AtMS float64 `json:"at_ms"` // from time 0 of the run
	Node int     `json:"node"`  // the node asked, reporting, or dead
	Kind string  `json:"kind"`  // elect (asked to start one), report, died
	What string  `json:"what"`  // the report, or how the node died
	// crashedOn is the message type a node that died was set to die on
	// (its crash_on), "" otherwise.
	crashedOn string
	// panicked says a node died as its machine panicked.
	panicked bool
}

// Failure is a failure the outcome names, or (in an Expect) one the
// control process must have been told of.
type Failure struct {
	Phase  string  `json:"phase"`  // gathering, confirmation, checksum, or the message type of another algorithm's round
	Node   int     `json:"node"`   // the node that died in that phase, or the joker; -1 when no node is known (in an Expect: whichever)
	Report string  `json:"report"` // the report that told it
	AtMS   float64 `json:"at_ms"`  // when it was reported, from time 0 of the run
}

// Outcome is what the ring document's control process reports.
type Outcome struct {
	// Elected is the node every live node follows, when all follow the
	// most valued live node; -1 otherwise.
	Elected int `json:"elected"`
	// ElectionMS is, when a node is elected, the time from the first node
	// leaving normal operation (an election began) to the last status
	// change of a live node, by the nodes' own clocks; -1 otherwise.
	ElectionMS float64   `json:"election_ms"`
	Failures   []Failure `json:"failures"` // one per phase and node named
	Events     []Event   `json:"events"`   // everything it was told, in order
	// Lines are the outcome as the document's control process says it.
	Lines []string `json:"lines"`
}

// MachinePanics counts the nodes that died as their machine panicked: the
// algorithm broke the specification.
func (c *Cluster) MachinePanics() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.events {
		if e.panicked {
			n++
		}
	}
	return n
}

var (
	phaseFailure = regexp.MustCompile(`failure during (\w+)`)
	alteredBy    = regexp.MustCompile(`altered by node (\d+)`)
)

// phaseName is the document's name of the phase a round of type message
// is: the ring's gather and confirm rounds are its gathering and its
// confirmation.
func phaseName(message string) string {
	switch message {
	case "gather":
		return "gathering"
	case "confirm":
		return "confirmation"
	}
	return message
}

// failuresLocked reads the failures out of the events; c.mu is held. A
// round reported failed is pinned on the node that died on that round's
// message; a checksum mismatch on the node its report says altered it.
func (c *Cluster) failuresLocked() []Failure {
	out := []Failure{}
	seen := map[string]bool{}
	for _, e := range c.events {
		if e.Kind != "report" {
			continue
		}
		f := Failure{Node: -1, Report: e.What, AtMS: e.AtMS}
		switch {
		case alteredBy.MatchString(e.What):
			f.Phase = "checksum"
			fmt.Sscan(alteredBy.FindStringSubmatch(e.What)[1], &f.Node)
		case phaseFailure.MatchString(e.What):
			msg := phaseFailure.FindStringSubmatch(e.What)[1]
			f.Phase = phaseName(msg)
			for _, d := range c.events {
				if d.Kind == "died" && d.crashedOn == msg && d.AtMS <= e.AtMS {
					f.Node = d.Node
				}
			}
		default:
			continue
		}
		key := fmt.Sprintf("%s/%d", f.Phase, f.Node)
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out
}

// Outcome is what the control process reports now, as the last poll saw
// the nodes.
func (c *Cluster) Outcome() Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.outcomeLocked()
}

// outcomeLocked is the control process's outcome now; c.mu is held.
func (c *Cluster) outcomeLocked() Outcome {
	out := Outcome{Elected: -1, ElectionMS: -1, Failures: c.failuresLocked(), Events: append([]Event{}, c.events...)}
	for _, f := range out.Failures {
		switch {
		case f.Phase == "checksum":
			out.Lines = append(out.Lines, fmt.Sprintf("Payload checksum failed: altered by node %d", f.Node))
		case f.Node >= 0:
			out.Lines = append(out.Lines, fmt.Sprintf("Election failed in %s: node %d died", f.Phase, f.Node))
		default:
			out.Lines = append(out.Lines, fmt.Sprintf("Election failed in %s", f.Phase))
		}
	}
	for _, n := range c.nodes {
		if n.answered() && n.st.Counters.LinkFailures > 0 {
			out.Lines = append(out.Lines, fmt.Sprintf("Links failed at node %d: %d went unacknowledged past their bound", n.id, n.st.Counters.LinkFailures))
		}
	}
	a := c.agreementLocked()
	if a.All && len(a.Components) == 1 {
		out.Elected = a.Leaders[0]
		var began, ended int64
		for _, n := range c.nodes {
			if !n.answered() {
				continue
			}
			if b := n.st.FirstElectionUnixNS; b != 0 && (began == 0 || b < began) {
				began = b
			}
			ended = max(ended, n.st.ChangedUnixNS)
		}
		if began != 0 && ended >= began {
			out.ElectionMS = msOf(time.Duration(ended - began))
		}
		out.Lines = append(out.Lines, fmt.Sprintf("Election confirmed. Elected: node %d", out.Elected))
	} else {
		out.Lines = append(out.Lines, "No elected node agreed on by every live node")
	}
	return out
}

// heardLocked records the reports of node n that the last poll brought
// and returns a line for each; c.mu is held.
func (c *Cluster) heardLocked(n *clusterNode, at time.Time) []string {
	var out []string
	for _, r := range n.st.Reports {
		if r.Seq <= n.reportSeq {
			continue
		}
		n.reportSeq = r.Seq
		when := time.Unix(0, r.UnixNS)
		if when.Before(c.t0) || c.t0.IsZero() {
			when = at
		}
		c.events = append(c.events, Event{AtMS: msOf(when.Sub(c.t0)), Node: n.id, Kind: "report", What: r.What})
		out = append(out, fmt.Sprintf("node %d reports: %s", n.id, r.What))
	}
	return out
}

// died records that node n's life ended on its own with err.
func (c *Cluster) died(n *clusterNode, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := Event{Node: n.id, Kind: "died", What: fmt.Sprint(err)}
	p, panicked := node.PanicInLogFile(n.logPath)
	if panicked {
		e.What = "its machine panicked " + p.Text // the algorithm's bug
		e.panicked = true
	}
	if !c.t0.IsZero() {
		e.AtMS = msOf(time.Since(c.t0))
	}
	if msg, ok := c.cfg.CrashOn[n.id]; ok {
		e.crashedOn = msg
		e.What = fmt.Sprintf("crashed on a %s message (fault injected): %v", msg, err)
	}
	c.events = append(c.events, e)
	now := time.Now()
	if panicked {
		// Its machine panicked: a violation, as in the simulator.
		c.add(trace.Panicked, n.id, now, p.Text)
	}
	c.crashed(n.id, now, fmt.Sprintf("node %d died (%s)", n.id, e.What))
}

// elect asks nodes to start an election (POST /elect), as the control
// process does.
func (c *Cluster) elect(ctx context.Context, ids []int) (string, error) {
	var said []string
	for _, id := range ids {
		if id < 0 || id >= len(c.nodes) {
			return strings.Join(said, "; "), fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, len(c.nodes)-1)
		}
		asked := time.Now()
		if err := c.nodes[id].proc.Elect(ctx); err != nil {
			return strings.Join(said, "; "), fmt.Errorf("node %d: %w", id, err)
		}
		c.add(trace.ElectCalled, id, asked, "")
		c.mu.Lock()
		c.events = append(c.events, Event{AtMS: msOf(time.Since(c.t0)), Node: id, Kind: "elect", What: "asked to start an election"})
		c.mu.Unlock()
		said = append(said, fmt.Sprintf("elect %d: election message sent", id))
	}
	return strings.Join(said, "; "), nil
}

// checkFailureLocked says what keeps failure f from having been reported
// ("" when it was); c.mu is held.
func (c *Cluster) checkFailureLocked(f Failure) string {
	var got []string
	for _, g := range c.failuresLocked() {
		if g.Phase == f.Phase && (f.Node < 0 || g.Node == f.Node) {
			return ""
		}
		got = append(got, fmt.Sprintf("%s (node %d)", g.Phase, g.Node))
	}
	want := f.Phase
	if f.Node >= 0 {
		want += fmt.Sprintf(" naming node %d", f.Node)
	}
	if len(got) == 0 {
		return fmt.Sprintf("no failure reported, want one in %s", want)
	}
	return fmt.Sprintf("failures reported: %s; want one in %s", strings.Join(got, ", "), want)
}
