package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/scenario"
)

// The cluster plays the control process of 003_995b7edf0113a8b5.txt: it
// starts an election (an elect step, --elect, or the nodes' initiators),
// hears what the nodes report (the algorithm's reports, served in their
// /status) and which of them die, and tells the outcome as the document's
// control process does: the elected node, a failure naming its phase
// (gathering or confirmation) and the node that died, or a checksum failure
// naming the joker.

// controlEvent is one thing the control process was told.
type controlEvent struct {
	AtMS float64 `json:"at_ms"`
	Node int     `json:"node"`
	Kind string  `json:"kind"` // elect (asked to start one), report, died
	What string  `json:"what"`
	// crashedOn is the message type a node that died was set to die on
	// (its crash_on), "" otherwise.
	crashedOn string
	// panicked says a node died as its machine panicked.
	panicked bool
}

// machinePanics counts the nodes that died as their machine panicked.
func (c *cluster) machinePanics() int {
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

// controlFailure is a failure the outcome names.
type controlFailure struct {
	Phase  string  `json:"phase"` // gathering, confirmation, checksum, or the message type of another algorithm's round
	Node   int     `json:"node"`  // the node that died in that phase, or the joker; -1 when no node is known
	Report string  `json:"report"`
	AtMS   float64 `json:"at_ms"`
}

// controlJSON is the control process's part of the summary.
type controlJSON struct {
	// Elected is the node every live node follows at the end, when all
	// follow the most valued live node; -1 otherwise.
	Elected int `json:"elected"`
	// ElectionMS is, when a node is elected, the time from the first node
	// leaving normal operation (an election began) to the last status
	// change of a live node, by the nodes' own clocks; -1 otherwise.
	ElectionMS float64          `json:"election_ms"`
	Failures   []controlFailure `json:"failures"`
	Events     []controlEvent   `json:"events"`
	// Lines are the outcome as the document's control process says it.
	Lines []string `json:"lines"`
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
func (c *cluster) failuresLocked() []controlFailure {
	out := []controlFailure{}
	seen := map[string]bool{}
	for _, e := range c.events {
		if e.Kind != "report" {
			continue
		}
		f := controlFailure{Node: -1, Report: e.What, AtMS: e.AtMS}
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

// controlLocked is the control process's outcome now; c.mu is held.
func (c *cluster) controlLocked() controlJSON {
	out := controlJSON{Elected: -1, ElectionMS: -1, Failures: c.failuresLocked(), Events: append([]controlEvent{}, c.events...)}
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
	if a.all && len(a.comps) == 1 {
		out.Elected = a.leaders[0]
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
func (c *cluster) heardLocked(n *clusterNode, at time.Time) []string {
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
		c.events = append(c.events, controlEvent{AtMS: msOf(when.Sub(c.t0)), Node: n.id, Kind: "report", What: r.What})
		out = append(out, fmt.Sprintf("node %d reports: %s", n.id, r.What))
	}
	return out
}

// died records that node n's life ended on its own with err.
func (c *cluster) died(n *clusterNode, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := controlEvent{Node: n.id, Kind: "died", What: fmt.Sprint(err)}
	if p, ok := node.PanicInLogFile(n.logPath); ok {
		e.What = "its machine panicked " + p.Text // the algorithm's bug
		e.panicked = true
	}
	if !c.t0.IsZero() {
		e.AtMS = msOf(time.Since(c.t0))
	}
	if msg, ok := c.cfg.crashOn[n.id]; ok {
		e.crashedOn = msg
		e.What = fmt.Sprintf("crashed on a %s message (fault injected): %v", msg, err)
	}
	c.events = append(c.events, e)
}

// elect asks nodes to start an election (POST /elect), as the control
// process does.
func (c *cluster) elect(ctx context.Context, ids []int) (string, error) {
	var said []string
	for _, id := range ids {
		if id < 0 || id >= len(c.nodes) {
			return strings.Join(said, "; "), fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, len(c.nodes)-1)
		}
		if err := c.nodes[id].proc.Elect(ctx); err != nil {
			return strings.Join(said, "; "), fmt.Errorf("node %d: %w", id, err)
		}
		c.mu.Lock()
		c.events = append(c.events, controlEvent{AtMS: msOf(time.Since(c.t0)), Node: id, Kind: "elect", What: "asked to start an election"})
		c.mu.Unlock()
		said = append(said, fmt.Sprintf("elect %d: election message sent", id))
	}
	return strings.Join(said, "; "), nil
}

// checkFailureLocked says what keeps failure f from having been reported
// ("" when it was); c.mu is held.
func (c *cluster) checkFailureLocked(f controlFailure) string {
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

// bootInitiators hands set, the initiators of a cluster of a spontaneous
// algorithm a, to its nodes as a simulated run does (runner.Params): they
// start their elections at boot themselves, in Start, where they read the
// set in a's boot parameter (algo.Param.Boot), with which every node is
// started; none is started with --initiator, which would ask it for a
// second. A value given for the parameter is a deprecated alias that must
// agree with set (algo.Algorithm.CheckBoot); note says so. implied marks
// the set that --elect implies (none: the control process starts the
// election), which gives way to that value, and to an algorithm whose
// every node elects at boot (bully).
func bootInitiators(a *algo.Algorithm, cfg *clusterConfig, set string, implied bool) (note string, err error) {
	if implied {
		boot := slices.IndexFunc(a.Params, func(p algo.Param) bool { return p.Boot })
		if boot < 0 {
			set = ""
		} else if _, given := cfg.params[a.Params[boot].Name]; given {
			set = ""
		}
	}
	if note, err = a.CheckBoot(set, cfg.params); err != nil {
		return note, err
	}
	params := a.WithBoot(cfg.params, set)
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if _, given := cfg.params[k]; !given {
			cfg.paramKeys = append(cfg.paramKeys, k)
		}
	}
	cfg.params = params
	return note, nil
}

// faultsAndInitiators resolves the initiators and the injected faults,
// flags over the script, into cfg, naming the flag or the script's field
// at fault.
func (f *clusterFlags) faultsAndInitiators(cmd *cobra.Command, cfg *clusterConfig, s *clusterScript) error {
	fl := cmd.Flags()
	a, err := algo.Lookup(cfg.algo)
	if err != nil {
		return nil // checkNodeConfig names the unknown algorithm
	}
	n := cfg.nodes
	set, field, implied := f.initiators, "--initiators", false
	switch {
	case fl.Changed("initiators"):
	case s != nil && s.Initiators != "":
		set, field = s.Initiators, "initiators"
	case f.elect != "" && f.elect != "none":
		set, implied = "none", true // the control process starts the election
	}
	ids, note, err := a.Initiators(set, cfg.params, n)
	if err == nil && a.Model.Spontaneous {
		ids = nil
		note, err = bootInitiators(a, cfg, set, implied)
	}
	if note != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: %s\n", note)
	}
	if err != nil {
		if field == "initiators" {
			return s.blame(err, "initiators")
		}
		return fmt.Errorf("--initiators %q: %w", set, err)
	}
	cfg.initiators = make([]bool, n)
	for _, id := range ids {
		cfg.initiators[id] = true
	}

	cfg.crashOn = map[int]string{}
	crashField := "--crash-on"
	if fl.Changed("crash-on") {
		for _, item := range f.crashOn {
			idText, msg, ok := strings.Cut(item, "=")
			id, err := strconv.Atoi(strings.TrimSpace(idText))
			if !ok || err != nil || id < 0 || strings.TrimSpace(msg) == "" {
				return fmt.Errorf("--crash-on %q: want NODE=TYPE, e.g. 2=gather", item)
			}
			if id >= n {
				return fmt.Errorf("--crash-on %q: node %d is out of range: the cluster has nodes 0..%d", item, id, n-1)
			}
			cfg.crashOn[id] = strings.TrimSpace(msg)
		}
	} else if s != nil {
		cfg.crashOn, crashField = s.CrashOn, "crash_on"
		if cfg.crashOn == nil {
			cfg.crashOn = map[int]string{}
		}
	}
	for id, msg := range cfg.crashOn {
		if !slices.Contains(a.Messages, msg) {
			err := fmt.Errorf("node %d: algorithm %s has no message %q (it has %s)", id, a.Name, msg, strings.Join(a.Messages, ", "))
			if crashField == "crash_on" {
				return s.blame(err, "crash_on")
			}
			return fmt.Errorf("--crash-on: %w", err)
		}
	}

	cfg.corrupt = make([]bool, n)
	var jokers []algo.NodeID
	switch {
	case fl.Changed("corrupt"):
		var all bool
		if jokers, all, err = algo.ParseNodeSet(f.corrupt); err != nil || all {
			return fmt.Errorf("--corrupt %q: want a node set like 3 or 1,4-5", f.corrupt)
		}
	case s != nil:
		for _, id := range s.Corrupt {
			jokers = append(jokers, algo.NodeID(id))
		}
	}
	for _, id := range jokers {
		if int(id) >= n {
			return fmt.Errorf("--corrupt: node %d is out of range: the cluster has nodes 0..%d", id, n-1)
		}
		cfg.corrupt[id] = true
	}

	if f.elect != "" {
		if cfg.script != nil {
			return errors.New("--elect and --script: give one (a script starts elections with its elect steps)")
		}
		if f.within <= 0 {
			return fmt.Errorf("--within %v: want a positive duration", f.within)
		}
		// The control process's run is a script of two steps, or of the
		// wait alone when the initiators start the election (none).
		var steps []clusterStep
		if f.elect != "none" {
			id, err := strconv.Atoi(f.elect)
			if err != nil || id < 0 || id >= n {
				return fmt.Errorf("--elect %q: want a node id from 0 to %d, or none", f.elect, n-1)
			}
			steps = append(steps, clusterStep{Path: "--elect", At: -1, Action: "elect", Nodes: []int{id}, Expect: clusterExpect{Leader: -1, Failure: controlFailure{Node: -1}}})
		}
		steps = append(steps, clusterStep{Path: "--within", At: -1, Action: "expect", Expect: clusterExpect{Leader: -1, Agree: true, Within: f.within, Failure: controlFailure{Node: -1}}})
		cfg.script = &clusterScript{File: "--elect", set: scenario.Positions{}, Steps: steps}
	}
	return nil
}
