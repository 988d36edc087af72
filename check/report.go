package check

import (
	"cmp"
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// Report is the checker's verdict and measurements for a run.
type Report struct {
	// Violations holds the first MaxViolations violations in detail;
	// ViolationCount counts them all.
	Violations     []Violation
	ViolationCount int
	// Elections are the completed election episodes, in order of completion;
	// OpenElections counts components still electing at the end.
	Elections     []Election
	OpenElections int
	// LeaderlessFraction is the share of live node-time spent without a
	// leader (not in Norm, or in Norm with none).
	LeaderlessFraction float64
	// Components are the final connected components of live nodes, each in
	// ascending order, ordered by their smallest node.
	Components [][]algo.NodeID
	// Unchecked counts components whose liveness could not be judged: the run
	// stopped, with events still pending, before their liveness bound.
	Unchecked int
	// Unreached counts the components that no election reached and that
	// hold no initiator, of an algorithm that elects only from an
	// initiator, and UnreachedNodes their nodes: they were not expected to
	// elect, and are not failed unless Config.Expect is
	// ExpectEveryComponent.
	Unreached      int
	UnreachedNodes int
	// UnreachedIn lists those of Components that Unreached counts, by
	// their index there.
	UnreachedIn []int
	// Expect is the run's Config.Expect.
	Expect Expect
	// Notes say how the checker judged the run where that is not plain
	// from its verdict: under Config.ValueAtElection, that the components
	// were held to their nodes' values at their last change, not to the
	// value changes that came after it (none when the run had none).
	Notes []string
	// MessageBound is the bound the run's messages were held to, and Sent
	// their count (Monitor.Messages); nil when none applied.
	MessageBound *trace.MessageBound
	Sent         uint64
	End          time.Duration
	Quiescent    bool
}

// NodeState is what the checker knows of one node.
type NodeState struct {
	// Value is the node's value: its last, as the events told it.
	Value  int64
	Alive  bool
	Status algo.Status
	// Held is the value its component is held to: Value, unless the node's
	// new value waits for its component's next change
	// (Config.ValueAtElection).
	Held int64
}

// Component returns the number of v's connected component now: two live
// nodes have the same one exactly when live nodes connect them; a dead node
// has -1. The components are first brought up to date with every event
// observed, as the next event of a later time would bring them; called
// between two events of one instant it would split the instant's changes.
func (m *Monitor) Component(v algo.NodeID) int32 {
	m.finishBuilding()
	if m.dirty {
		m.recompute()
	}
	return m.rec(v).comp
}

// Node returns the checker's view of node v.
func (m *Monitor) Node(v algo.NodeID) NodeState {
	n := m.rec(v)
	st := NodeState{Value: n.value, Alive: n.alive, Status: n.status, Held: n.value}
	if n.waiting {
		st.Value = m.next[m.at(v)]
	}
	return st
}

// Nodes is the number of nodes seen.
func (m *Monitor) Nodes() int { return len(m.nodes) }

// Report summarises the run. Call it after the End event.
func (m *Monitor) Report() Report {
	r := Report{
		Violations:     m.violations,
		ViolationCount: m.nViolation,
		Elections:      m.elections,
		Unchecked:      m.unchecked,
		Expect:         m.cfg.Expect,
		MessageBound:   m.bounded,
		Sent:           m.sent,
		End:            m.endAt,
		Quiescent:      m.quiescent,
	}
	if m.aliveTime > 0 {
		r.LeaderlessFraction = float64(m.leaderless) / float64(m.aliveTime)
	}
	if note := m.valueNote(); note != "" {
		r.Notes = append(r.Notes, note)
	}
	index := make([]int32, len(m.comps)) // component -> its place in r.Components, plus one
	for v := range algo.NodeID(len(m.nodes)) {
		c := m.rec(v).comp
		if c < 0 {
			continue
		}
		i := int(index[c]) - 1
		if i < 0 {
			i = len(r.Components)
			index[c] = int32(i + 1)
			r.Components = append(r.Components, nil)
			cs := &m.comps[c]
			if cs.electOpen {
				r.OpenElections++
			}
			if !m.inScope(c) {
				r.Unreached++
				r.UnreachedNodes += int(cs.size)
				r.UnreachedIn = append(r.UnreachedIn, i)
			}
		}
		r.Components[i] = append(r.Components[i], algo.NodeID(v))
	}
	return r
}

// MeanElection returns the mean duration of the completed elections.
func (r *Report) MeanElection() time.Duration {
	if len(r.Elections) == 0 {
		return 0
	}
	var sum time.Duration
	for _, e := range r.Elections {
		sum += e.End - e.Start
	}
	return sum / time.Duration(len(r.Elections))
}

// Neighbors lists the nodes linked to v now, as the checker knows the links
// (ascending; live or not). The list is the Monitor's own: read it, do not
// keep or change it.
func (m *Monitor) Neighbors(v algo.NodeID) []algo.NodeID {
	m.finishBuilding()
	return m.linksOf(v)
}

// valueNote says, when the run's value changes were held back
// (Config.ValueAtElection), that the components were held to their nodes'
// values at their last change: "echo does not follow value changes (its
// model): ...".
func (m *Monitor) valueNote() string {
	if !m.cfg.ValueAtElection || m.heldBack == 0 {
		return ""
	}
	changes := "the value change"
	if m.heldBack > 1 {
		changes = fmt.Sprintf("the %d value changes", m.heldBack)
	}
	note := fmt.Sprintf("%s does not follow value changes (its model): components are held to their nodes' values at their last change, not to %s after it; a new value counts from the next change of its node's component (a link, a crash or restart, an elect call)",
		cmp.Or(m.cfg.Algorithm, "the algorithm"), changes)
	waiting := 0
	for i := range m.nodes {
		if m.nodes[i].waiting {
			waiting++
		}
	}
	if waiting > 0 {
		note += fmt.Sprintf("; at the end, %s still waited with a new value", nodesOf(waiting))
	}
	return note
}
