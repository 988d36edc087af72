// Package failover measures how long a cluster of real processes on one
// machine takes to agree on a new leader after its leader is killed, for
// elect's `elect node` (vkt over UDP) and for hashicorp/raft (cmd/raftnode
// over TCP), under the same heartbeat interval and failure-detection
// timeout. See README.md.
package failover

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Setting is one timing configuration, given to both systems.
type Setting struct {
	Heartbeat time.Duration // how often the leader (and, for elect, every neighbour) beacons
	Timeout   time.Duration // how long without a beacon before a node acts on the loss
}

func (s Setting) String() string { return fmt.Sprintf("%v/%v", s.Heartbeat, s.Timeout) }

// ParseSetting reads HEARTBEAT/TIMEOUT, such as 100ms/1s.
func ParseSetting(v string) (Setting, error) {
	h, t, ok := strings.Cut(v, "/")
	if !ok {
		return Setting{}, fmt.Errorf("setting %q: want HEARTBEAT/TIMEOUT, such as 100ms/1s", v)
	}
	hb, err := time.ParseDuration(h)
	if err != nil {
		return Setting{}, fmt.Errorf("setting %q: heartbeat: %w", v, err)
	}
	to, err := time.ParseDuration(t)
	if err != nil {
		return Setting{}, fmt.Errorf("setting %q: timeout: %w", v, err)
	}
	s := Setting{Heartbeat: hb, Timeout: to}
	if hb <= 0 || to < hb {
		return Setting{}, fmt.Errorf("setting %q: want 0 < heartbeat <= timeout", v)
	}
	if to%hb != 0 {
		return Setting{}, fmt.Errorf("setting %q: the timeout must be a whole number of heartbeats (elect's neighbour loss is counted in missed hellos)", v)
	}
	return s, nil
}

// Status is what a node's /status says, in the terms both systems share.
type Status struct {
	ID     int
	Value  int    // elect: the node's value; raft: its id
	Leader int    // -1: none known
	State  string // elect: Norm, Elect, Wait; raft: Leader, Follower, Candidate
}

// Ports are the two ports of one node: its protocol's and its /status.
type Ports struct {
	Peer int // elect: UDP; raft: TCP
	HTTP int
}

// System is one of the two implementations under test.
type System interface {
	Name() string
	// Args is node i's command line in a cluster whose nodes use ports.
	Args(i int, ports []Ports, s Setting) []string
	// Describe states the system's own settings for s.
	Describe(s Setting) string
	// Parse reads a /status body.
	Parse(body []byte) (Status, error)
	// Agreed tells whether the live nodes' statuses show the agreement
	// the benchmark waits for, and on which leader.
	Agreed(live []Status) (leader int, ok bool)
	// Follows tells whether a node still follows the leader old as
	// before the failure (the failure is not detected there yet).
	Follows(st Status, old int) bool
}

// sameLeader: every live node names one leader, and it is one of them.
func sameLeader(live []Status) (int, *Status, bool) {
	if len(live) == 0 {
		return -1, nil, false
	}
	l := live[0].Leader
	if l < 0 {
		return -1, nil, false
	}
	var leader *Status
	for i := range live {
		if live[i].Leader != l {
			return -1, nil, false
		}
		if live[i].ID == l {
			leader = &live[i]
		}
	}
	if leader == nil {
		return -1, nil, false
	}
	return l, leader, true
}

// Elect runs `elect node` with vkt.
type Elect struct{}

func (Elect) Name() string { return "elect" }

// Args: value = id, --peers lists the other nodes, so the most valued node is the highest id; the
// neighbour detector's hello interval is the heartbeat and its loss is after
// Timeout/Heartbeat missed hellos, the same detection timeout as vkt's.
func (Elect) Args(i int, ports []Ports, s Setting) []string {
	var peers []string // the other nodes
	for j, p := range ports {
		if j != i {
			peers = append(peers, fmt.Sprintf("%d=127.0.0.1:%d", j, p.Peer))
		}
	}
	return []string{
		"node",
		"--id", strconv.Itoa(i),
		"--value", strconv.Itoa(i),
		"--listen", fmt.Sprintf("127.0.0.1:%d", ports[i].Peer),
		"--peers", strings.Join(peers, ","),
		"--http", fmt.Sprintf("127.0.0.1:%d", ports[i].HTTP),
		"--algo", "vkt",
		"--param", "heartbeat=" + s.Heartbeat.String(),
		"--param", "timeout=" + s.Timeout.String(),
		"--hello", s.Heartbeat.String(),
		"--hello-loss", strconv.Itoa(int(s.Timeout / s.Heartbeat)),
		"--log-level", "warn", // as raftnode's default
	}
}

func (Elect) Describe(s Setting) string {
	return fmt.Sprintf("vkt heartbeat=%v timeout=%v, hello every %v, neighbour lost after %d missed hellos (%v)",
		s.Heartbeat, s.Timeout, s.Heartbeat, s.Timeout/s.Heartbeat, s.Timeout)
}

func (Elect) Parse(body []byte) (Status, error) {
	var v struct {
		ID     *int   `json:"id"`
		Value  *int   `json:"value"`
		Leader *int   `json:"leader"`
		State  string `json:"state"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return Status{}, err
	}
	if v.ID == nil || v.Leader == nil || v.State == "" {
		return Status{}, fmt.Errorf("status %s lacks id, leader or state", strings.TrimSpace(string(body)))
	}
	st := Status{ID: *v.ID, Value: *v.ID, Leader: *v.Leader, State: v.State}
	if v.Value != nil {
		st.Value = *v.Value
	}
	if st.Leader < 0 {
		st.Leader = -1
	}
	return st, nil
}

// Agreed: every live node in Norm with the same leader, and that leader is
// the most valued live node (highest value, then id), as the specification
// of elect asks.
func (Elect) Agreed(live []Status) (int, bool) {
	l, _, ok := sameLeader(live)
	if !ok {
		return -1, false
	}
	best := live[0]
	for _, st := range live {
		if st.State != "Norm" {
			return -1, false
		}
		if st.Value > best.Value || st.Value == best.Value && st.ID > best.ID {
			best = st
		}
	}
	if best.ID != l {
		return -1, false
	}
	return l, true
}

func (Elect) Follows(st Status, old int) bool { return st.State == "Norm" && st.Leader == old }

// Raft runs cmd/raftnode: HeartbeatTimeout = ElectionTimeout = Timeout,
// LeaderLeaseTimeout = Timeout/2. hashicorp/raft's leader then heartbeats
// every Timeout/10 to Timeout/5, which is the Heartbeat of the settings
// benchmarked (Timeout/10).
type Raft struct{}

func (Raft) Name() string { return "raft" }

func (Raft) Args(i int, ports []Ports, s Setting) []string {
	peers := make([]string, len(ports))
	for j, p := range ports {
		peers[j] = fmt.Sprintf("%d=127.0.0.1:%d", j, p.Peer)
	}
	return []string{
		"--id", strconv.Itoa(i),
		"--listen", fmt.Sprintf("127.0.0.1:%d", ports[i].Peer),
		"--peers", strings.Join(peers, ","),
		"--http", fmt.Sprintf("127.0.0.1:%d", ports[i].HTTP),
		"--heartbeat-timeout", s.Timeout.String(),
		"--election-timeout", s.Timeout.String(),
		"--lease", (s.Timeout / 2).String(),
	}
}

func (Raft) Describe(s Setting) string {
	return fmt.Sprintf("HeartbeatTimeout=%v ElectionTimeout=%v LeaderLeaseTimeout=%v CommitTimeout=default (heartbeats every %v-%v)",
		s.Timeout, s.Timeout, s.Timeout/2, s.Timeout/10, s.Timeout/5)
}

func (Raft) Parse(body []byte) (Status, error) {
	var v struct {
		ID     string `json:"id"`
		Leader string `json:"leader"`
		State  string `json:"state"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return Status{}, err
	}
	id, err := strconv.Atoi(v.ID)
	if err != nil {
		return Status{}, fmt.Errorf("status id %q: %w", v.ID, err)
	}
	st := Status{ID: id, Value: id, Leader: -1, State: v.State}
	if v.Leader != "" {
		if st.Leader, err = strconv.Atoi(v.Leader); err != nil {
			return Status{}, fmt.Errorf("status leader %q: %w", v.Leader, err)
		}
	}
	return st, nil
}

// Agreed: every live node names the same leader, which is live and in
// state Leader.
func (Raft) Agreed(live []Status) (int, bool) {
	l, leader, ok := sameLeader(live)
	if !ok || leader.State != "Leader" {
		return -1, false
	}
	return l, true
}

func (Raft) Follows(st Status, old int) bool { return st.Leader == old }
