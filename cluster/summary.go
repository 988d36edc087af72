package cluster

import (
	"slices"
	"time"

	"github.com/electgo/elect/node"
)

// NodeRow is a node as the last poll saw it: a row of a live table and of
// the summary.
type NodeRow struct {
	ID            int    `json:"id"`             // 0..N-1
	Value         int64  `json:"value"`          // what elections compare, then the id
	Alive         bool   `json:"alive"`          // its current life runs
	Process       string `json:"process"`        // starting, running, killed, stopped, exited
	PID           int    `json:"pid"`            // of the current or last process
	Started       string `json:"started"`        // how the current life began: start, fresh (no state) or recover
	Lives         int    `json:"lives"`          // processes started so far
	Answered      bool   `json:"answered"`       // it answered the last poll; the fields below are its answer
	State         string `json:"state"`          // Norm, Elect or Wait
	Leader        int    `json:"leader"`         // -1: none
	Leading       bool   `json:"leading"`        // it leads now
	ElectionIndex uint64 `json:"election_index"` // of the election it last took part in
	Neighbors     int    `json:"neighbors"`      // it hears now
	Sent          uint64 `json:"sent"`           // algorithm messages sent by this life
	// The runtime's own datagrams of this life, apart from Sent: reliable
	// links' retransmissions and bare acknowledgements, synchronizer safe
	// messages.
	Retransmits  uint64 `json:"retransmits"`
	Acks         uint64 `json:"acks"`
	SyncMessages uint64 `json:"sync_messages"`
	// LinkFailures counts the reliable links of this life that went
	// unacknowledged past their bound, taking their neighbour down.
	LinkFailures uint64  `json:"link_failures"`
	Elections    uint64  `json:"elections"`       // elections this life took part in (entered Elect)
	LeaderlessMS float64 `json:"leaderless_ms"`   // time this life spent without a leader
	Log          string  `json:"log"`             // its log file, every life's
	Error        string  `json:"error,omitempty"` // why the last poll failed
	// Gray is the node's gray failures as its last answer gave them
	// (GET /gray), when it has any: what the gray steps set.
	Gray *node.Gray `json:"gray,omitempty"`
}

// Snapshot is the cluster as the last poll saw it.
type Snapshot struct {
	Elapsed   time.Duration // since time 0 of the run
	Rows      []NodeRow     // by node id
	Agreement Agreement     // who follows whom, per component
}

// Snapshot is the cluster as the last poll saw it.
func (c *Cluster) Snapshot() Snapshot {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Snapshot{Agreement: c.agreementLocked()}
	if !c.t0.IsZero() {
		s.Elapsed = now.Sub(c.t0)
	}
	for _, n := range c.nodes {
		in := n.proc.Info()
		r := NodeRow{ID: n.id, Value: n.value, Alive: in.State.Alive(), Process: in.State.String(), PID: in.PID,
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
			r.LinkFailures, r.Gray = st.Counters.LinkFailures, st.Gray
			for _, v := range st.Counters.Sent {
				r.Sent += v
			}
		}
		s.Rows = append(s.Rows, r)
	}
	return s
}

// Summary is the report of a run (elect cluster --json prints it as one
// object). Fields are added, never renamed.
type Summary struct {
	Algorithm  string            `json:"algorithm"`
	Params     map[string]string `json:"params"`   // as the nodes were started with them
	Topology   string            `json:"topology"` // its name: ring:4, complete:8...
	Nodes      int               `json:"nodes"`
	Dir        string            `json:"dir"`              // of the nodes' state and logs
	Kept       bool              `json:"kept"`             // the directory (state, logs) is kept
	Script     string            `json:"script,omitempty"` // the file of the script run
	DurationMS float64           `json:"duration_ms"`      // from time 0 of the run
	Agreed     bool              `json:"agreed"`           // every component follows its most valued live node
	Components [][]int           `json:"components"`       // of the live nodes, in the cluster's graph less links cut one way
	Leaders    []int             `json:"leaders"`          // per component, the leader all its nodes follow, or -1
	Final      []NodeRow         `json:"final"`            // every node at the end
	Failovers  []Failover        `json:"failovers"`        // every leading node killed or stopped
	Steps      []StepResult      `json:"steps"`            // of the script, and the steps Do ran
	// Control is what the ring document's control process reports: the
	// elected node, the failures and their phases, the jokers.
	Control Outcome `json:"control"`
	// Check is the checker's verdict on the run (see Config.Trace):
	// given once the run is finished, nil before.
	Check *Verdict `json:"check,omitempty"`
	OK    bool     `json:"ok"`              // no step failed, and the run did not
	Error string   `json:"error,omitempty"` // why the run failed
}

// Failover is a leading node killed (or stopped) and the time until every
// component of the survivors followed its most valued node again (at the
// end of the first poll round that showed it).
type Failover struct {
	Node    int     `json:"node"`    // the leading node
	How     string  `json:"how"`     // kill or stop
	AtMS    float64 `json:"at_ms"`   // when, from time 0 of the run
	Done    bool    `json:"done"`    // every component agreed again
	MS      float64 `json:"ms"`      // how long that took; -1 when it never ended
	Leaders []int   `json:"leaders"` // per component, the leader it agreed on
}

// StepResult is what became of a step of a script (or of a command).
type StepResult struct {
	Line    int     `json:"line,omitempty"`   // in the script's file
	Step    string  `json:"step"`             // as a keyboard command says it: kill 3, expect leader 2 within 3s
	StartMS float64 `json:"start_ms"`         // from time 0 of the run
	TookMS  float64 `json:"took_ms"`          // how long it ran
	OK      bool    `json:"ok"`               // it did what it says, or held in time
	Result  string  `json:"result,omitempty"` // what it did
	Error   string  `json:"error,omitempty"`  // why it failed
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Summary is the report of the run so far (Finish returns the final one).
func (c *Cluster) Summary() *Summary {
	c.mu.Lock()
	done := c.finished
	c.mu.Unlock()
	if done != nil {
		return done
	}
	s := c.summary(time.Now())
	c.mu.Lock()
	s.Kept = c.keptLocked()
	c.mu.Unlock()
	return s
}

// summary is the report at now.
func (c *Cluster) summary(now time.Time) *Summary {
	snap := c.Snapshot()
	cfg := c.cfg
	s := &Summary{
		Algorithm: cfg.Algorithm, Params: cfg.Params, Topology: cfg.Topology, Nodes: cfg.Nodes, Dir: cfg.Dir,
		Agreed:     snap.Agreement.All && len(snap.Agreement.Components) > 0,
		Components: snap.Agreement.Components, Leaders: snap.Agreement.Leaders, Final: snap.Rows,
		Failovers: []Failover{}, OK: true,
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.t0.IsZero() {
		s.DurationMS = msOf(now.Sub(c.t0))
	}
	s.Control = c.outcomeLocked()
	s.Script = c.script
	if s.Components == nil {
		s.Components, s.Leaders = [][]int{}, []int{}
	}
	for _, f := range c.failovers {
		j := Failover{Node: f.node, How: f.how, AtMS: msOf(f.at.Sub(c.t0)), MS: -1, Leaders: f.leaders}
		if !f.done.IsZero() {
			j.Done, j.MS = true, msOf(f.done.Sub(f.at))
		}
		if j.Leaders == nil {
			j.Leaders = []int{}
		}
		s.Failovers = append(s.Failovers, j)
	}
	s.Steps = slices.Clone(c.steps)
	if s.Steps == nil {
		s.Steps = []StepResult{}
	}
	for _, st := range s.Steps {
		// A step of a file, or of a script built in Go that Run ended
		// with (its steps have no line); a keyboard's action that found
		// nothing to do fails no run.
		if !st.OK && (st.Line > 0 || c.failed) {
			s.OK = false
		}
	}
	return s
}
