// Package metrics turns a run into the figures the source documents measure
// (message overhead, election time, time without a leader) and writes them as
// a readable summary or as the JSON object that scripts rely on.
//
// It imports check and trace, never sim or a driver (docs/architecture.md).
package metrics

import (
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Summary is the result of one run. Its JSON form is a stable interface: fields
// are added, never renamed.
type Summary struct {
	Algorithm string            `json:"algorithm"`
	Params    map[string]string `json:"params,omitempty"`
	// Initiators counts the nodes the driver asked to elect at time 0.
	Initiators int    `json:"initiators"`
	Seed       uint64 `json:"seed"`
	Topology   string `json:"topology,omitempty"`
	Nodes      int    `json:"nodes"`
	Edges      int    `json:"edges"`

	Messages  Messages  `json:"messages"`
	Elections Elections `json:"elections"`
	// Faults are the scenario's events as they struck, in words and in
	// time order: with Elections.List, the run's story.
	Faults []Moment `json:"faults,omitempty"`

	LeaderlessFraction float64 `json:"leaderless_fraction"`
	// Settled says the run went quiet (Quiescent) with every live node
	// following a leader, for good (but those of components not expected
	// to elect, NotExpected): a wave's run that ends with its election. LeaderlessFraction is then the share of node-time the
	// nodes waited for their leader until EndMS, not of a service's time.
	Settled bool `json:"settled"`
	// Mobility and RangeM say how the nodes moved and their radio range,
	// for mobile runs.
	Mobility string  `json:"mobility,omitempty"`
	RangeM   float64 `json:"range_m,omitempty"`
	// LinkChanges counts the links that movement brought up or down (a
	// pair coming into or going out of range while no partition cut it).
	LinkChanges uint64 `json:"link_changes"`
	// Values is what a run whose values changed as it went (a value model:
	// a battery, a position) measured; nil for others.
	Values *ValueSummary `json:"values,omitempty"`
	// ReachableLeaderFraction is, for mobile runs, the share of live
	// node-time (sampled every runner.ReachPeriod) in which a node followed a live
	// leader of its own component: stricter than 1 - LeaderlessFraction,
	// which counts a node as led until it notices its leader is gone.
	ReachableLeaderFraction float64 `json:"reachable_leader_fraction,omitempty"`
	// ElectionsStarted counts the election computations nodes started
	// (concurrent ones that merge count each); LeaderChanges the times a
	// node went from following one leader to following another.
	ElectionsStarted uint64 `json:"elections_started"`
	LeaderChanges    uint64 `json:"leader_changes"`
	Rates            Rates  `json:"rates"`
	// EndMS is the virtual time at which the run stopped; Quiescent says it
	// stopped because no event was left.
	EndMS     float64 `json:"end_ms"`
	Quiescent bool    `json:"quiescent"`
	// WallMS is the real time the run took (not part of the trace).
	WallMS float64 `json:"wall_ms"`
	// Events counts the events of the run's stream: the lines of its trace
	// after the header.
	Events    uint64 `json:"events"`
	TraceHash string `json:"trace_hash"`

	Violations     []Violation `json:"violations"`
	ViolationCount int         `json:"violation_count"`
	// Unchecked counts components whose liveness bound was not reached
	// before the run stopped; Unreached those no election reached (for
	// algorithms that elect only from initiators).
	Unchecked int `json:"unchecked_components"`
	Unreached int `json:"unreached_components"`
	// NotExpected, when set, are the components that were not expected to
	// elect, and were not judged: no election reached them and they hold no
	// initiator of an algorithm that elects only from one (unless the run
	// expected every component to elect, when they are violations).
	NotExpected *NotExpected `json:"not_expected,omitempty"`

	Final      []NodeFinal     `json:"final"`
	Components [][]algo.NodeID `json:"components"`
	// Reports are what the machines reported (failures they detected),
	// the first MaxReports of them; ReportCount counts them all.
	Reports     []Report `json:"reports"`
	ReportCount int      `json:"report_count"`

	// Notes are warnings about the run's input that did not stop it (a
	// deprecated parameter).
	Notes []string `json:"notes,omitempty"`

	// Emulation is set for runs of real nodes (elect emulate).
	Emulation *Emulation `json:"emulation,omitempty"`
}

// Emulation is what a run of real nodes adds to a summary: how they found
// each other, what running them took, and how well the emulator kept up.
type Emulation struct {
	// HelloMS and HelloLoss are the nodes' discovery: a hello beacon every
	// HelloMS, a neighbour lost after HelloLoss beacons unheard.
	HelloMS   float64 `json:"hello_ms"`
	HelloLoss int     `json:"hello_loss"`
	// Lives counts the node processes started (first starts, restarts and
	// recoveries); UnplannedExits those that ended on their own.
	Lives          int `json:"lives"`
	UnplannedExits int `json:"unplanned_exits"`
	// SetupMS is the time to create the namespaces, bridge and rules;
	// StartMS the time from the first node's launch until every node
	// answered.
	SetupMS float64 `json:"setup_ms"`
	StartMS float64 `json:"start_ms"`
	// RuleUpdates counts the nftables transactions that changed links
	// after the start, and how long they took.
	RuleUpdates      int     `json:"rule_updates"`
	RuleUpdateMeanMS float64 `json:"rule_update_mean_ms"`
	RuleUpdateMaxMS  float64 `json:"rule_update_max_ms"`
	// LateEvents counts status changes read after the emulator's reorder
	// window had passed their time (placed at the time reached instead).
	LateEvents int `json:"late_events"`
	// HellosSent and HellosReceived add up the nodes' beacons; Rejected
	// the datagrams they refused, by reason.
	HellosSent     uint64            `json:"hellos_sent"`
	HellosReceived uint64            `json:"hellos_received"`
	Rejected       map[string]uint64 `json:"rejected,omitempty"`
	// Replayed and Forged count the datagrams the run's attacks sent
	// (elect soak's spy): captured ones sent again unchanged, and
	// forgeries. Their refusals are in Rejected (replay, range, unsigned).
	Replayed int `json:"replayed,omitempty"`
	Forged   int `json:"forged,omitempty"`
	// NodeCPUSeconds is the CPU time (user and system) of every node
	// process; CPUCores that over the run's wall time: the cores they kept
	// busy on average. NodeRSSMeanMB and NodeRSSMaxMB are the nodes' peak
	// resident memory, averaged over nodes and the largest.
	NodeCPUSeconds float64 `json:"node_cpu_seconds"`
	CPUCores       float64 `json:"cpu_cores"`
	NodeRSSMeanMB  float64 `json:"node_rss_mean_mb"`
	NodeRSSMaxMB   float64 `json:"node_rss_max_mb"`
	// EmulatorCPUSeconds and EmulatorRSSMB are the emulator's own.
	EmulatorCPUSeconds float64 `json:"emulator_cpu_seconds"`
	EmulatorRSSMB      float64 `json:"emulator_rss_mb"`
}

// Rates are a run's counts per node and per unit of its virtual length.
type Rates struct {
	ElectionsPerNodeMinute     float64 `json:"elections_per_node_minute"`
	LeaderChangesPerNodeMinute float64 `json:"leader_changes_per_node_minute"`
	MessagesPerNodeSecond      float64 `json:"messages_per_node_second"`
	// LinkChangesPerNodeMinute counts each link change at both its ends.
	LinkChangesPerNodeMinute float64 `json:"link_changes_per_node_minute"`
	// Extrapolated says the run measured was shorter than MinRateSpan:
	// the rates stretch it to a minute, and the text summary leaves them
	// out (the counts are Summary.ElectionsStarted, LeaderChanges,
	// LinkChanges and Messages.Total).
	Extrapolated bool `json:"extrapolated,omitempty"`
}

// MinRateSpan is the shortest run whose rates the text summary gives: a
// rate a minute means something over a minute of a run, while a wave's
// 150-ms election, stretched to one, reads as hundreds of elections a
// minute.
const MinRateSpan = time.Minute

// Report is one thing a machine reported.
type Report struct {
	AtMS float64     `json:"at_ms"`
	Node algo.NodeID `json:"node"`
	Text string      `json:"text"`
}

// MaxReports bounds the reports a summary lists.
const MaxReports = 100

// Messages counts traffic by the documents' type names. Total and ByType
// count transmissions: a unicast message is one, and so is a broadcast
// (Broadcasts of them), which every node in range hears; Delivered and
// DeliveredByType count receptions.
type Messages struct {
	Total           uint64            `json:"total"`
	ByType          map[string]uint64 `json:"by_type"`
	Delivered       uint64            `json:"delivered"`
	DeliveredByType map[string]uint64 `json:"delivered_by_type"`
	Dropped         uint64            `json:"dropped"`
	Broadcasts      uint64            `json:"broadcasts"`
	// Bytes are the bytes on the air: every transmission as the runtime
	// sends it, one unsigned datagram (a signed one has 32 bytes more).
	Bytes uint64 `json:"bytes"`
	// DropReasons counts the dropped messages by why; always present ({}
	// when none was dropped), so that scripts can read it.
	DropReasons map[string]uint64 `json:"drop_reasons"`
	// Bound, when set, is what one election may send (a fault-free run of
	// an algorithm that declares its message complexity, algo.Bound),
	// which Total is held to.
	Bound *trace.MessageBound `json:"bound,omitempty"`
}

// Moment is something that happened in a run, in words: a fault of the
// scenario as it struck ("the leader, node 34, crashes").
type Moment struct {
	AtMS float64 `json:"at_ms"`
	What string  `json:"what"`
}

// Elections summarises completed election episodes.
type Elections struct {
	Completed  int        `json:"completed"`
	MeanTimeMS float64    `json:"mean_time_ms"`
	MaxTimeMS  float64    `json:"max_time_ms"`
	Open       int        `json:"open"`
	List       []Election `json:"list"`
}

// Election is one completed election: from the first node of a component to
// leave Norm until all of its nodes follow one leader.
type Election struct {
	StartMS float64     `json:"start_ms"`
	EndMS   float64     `json:"end_ms"`
	Nodes   int         `json:"nodes"`
	Leader  algo.NodeID `json:"leader"`
}

// Violation is a checker violation in JSON form.
type Violation struct {
	AtMS     float64       `json:"at_ms"`
	Property string        `json:"property"`
	Nodes    []algo.NodeID `json:"nodes"`
	Reason   string        `json:"reason"`
}

// NodeFinal is one node's state at the end.
type NodeFinal struct {
	ID     algo.NodeID `json:"id"`
	Value  int64       `json:"value"`
	Alive  bool        `json:"alive"`
	Leader algo.NodeID `json:"leader"`
	State  string      `json:"state"`
}

// End is the virtual time at which the run stopped.
func (s *Summary) End() time.Duration { return time.Duration(s.EndMS * float64(time.Millisecond)) }

// MS converts a duration to milliseconds.
func MS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FromCheck fills the parts of a summary that come from the checker: elections,
// leaderless time, violations, final states and components.
func (s *Summary) FromCheck(mon *check.Monitor, rep check.Report) {
	s.Notes = append(s.Notes, rep.Notes...)
	s.Elections = Elections{Completed: len(rep.Elections), MeanTimeMS: MS(rep.MeanElection()), Open: rep.OpenElections,
		List: make([]Election, len(rep.Elections))}
	for i, e := range rep.Elections {
		if d := MS(e.End - e.Start); d > s.Elections.MaxTimeMS {
			s.Elections.MaxTimeMS = d
		}
		s.Elections.List[i] = Election{StartMS: MS(e.Start), EndMS: MS(e.End), Nodes: e.Nodes, Leader: e.Leader}
	}
	s.LeaderlessFraction = rep.LeaderlessFraction
	s.EndMS = MS(rep.End)
	s.Quiescent = rep.Quiescent
	s.Settled = rep.Quiescent
	s.Violations = make([]Violation, len(rep.Violations))
	for i, v := range rep.Violations {
		s.Violations[i] = Violation{AtMS: MS(v.At), Property: v.Property, Nodes: v.Nodes, Reason: v.Reason}
	}
	s.ViolationCount = rep.ViolationCount
	s.Unchecked = rep.Unchecked
	s.Unreached = rep.Unreached
	s.Messages.Bound = rep.MessageBound
	if rep.Unreached > 0 && rep.Expect != check.ExpectEveryComponent {
		s.NotExpected = &NotExpected{Components: rep.Unreached, Nodes: rep.UnreachedNodes, Why: NoInitiator}
	}
	s.Components = rep.Components
	if s.Components == nil {
		s.Components = [][]algo.NodeID{}
	}
	n := mon.Nodes()
	unexpected := make([]bool, n) // in a component not expected to elect
	for _, i := range rep.UnreachedIn {
		for _, v := range rep.Components[i] {
			unexpected[v] = true
		}
	}
	s.Final = make([]NodeFinal, n)
	for v := 0; v < n; v++ {
		st := mon.Node(algo.NodeID(v))
		s.Final[v] = NodeFinal{ID: algo.NodeID(v), Value: st.Value, Alive: st.Alive, Leader: st.Status.Leader, State: st.Status.State.String()}
		if st.Alive && !st.Status.HasLeader() && !unexpected[v] {
			s.Settled = false
		}
	}
}

// NotExpected counts the components that were not expected to elect, their
// nodes, and why.
type NotExpected struct {
	Components int    `json:"components"`
	Nodes      int    `json:"nodes"`
	Why        string `json:"why"`
}

// NoInitiator is why a component of an algorithm that elects only from an
// initiator is not expected to elect.
const NoInitiator = "it holds no initiator, and the algorithm elects only from one"

// ValueSummary is what a run with a value model (sim.ValueModel) measured.
type ValueSummary struct {
	// Model is the value model's spec in full.
	Model string `json:"model"`
	// HandOvers counts the times a live leader gave up its leadership to
	// follow a node then more valued; HandOversPerMinute over the run.
	HandOvers          int     `json:"hand_overs"`
	HandOversPerMinute float64 `json:"hand_overs_per_minute"`
	// FirstEmptyMS is when the first node's battery ran out (the network's
	// lifetime), -1 if none did; Empty how many ran out.
	FirstEmptyMS float64 `json:"first_empty_ms"`
	Empty        int     `json:"empty"`
	// LeaderPerSecond and OtherPerSecond are the energy a node spent a
	// second while leading and while not (a battery).
	LeaderPerSecond float64 `json:"leader_energy_per_second"`
	OtherPerSecond  float64 `json:"other_energy_per_second"`
}
