package metrics

import (
	"github.com/electgo/elect/internal/hugemem"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/wiresize"
	"github.com/electgo/elect/trace"
)

// Counter counts a run's messages from its event stream, by type and by drop
// reason, and the changes that mobile runs are judged by. It is a
// trace.Observer, so the same counts come out of a live run and out of a
// trace read back from a file.
type Counter struct {
	Events    uint64   // every event of the stream
	Reports   []Report // the first MaxReports reports
	Reported  int      // all of them
	Sent      []uint64 // transmissions, by message type
	Delivered []uint64 // receptions, by message type
	Dropped   [trace.NumDropReasons]uint64
	// Broadcasts counts the transmissions that were broadcasts (to
	// algo.Everyone).
	Broadcasts uint64
	// Bytes are the bytes of the transmissions, by message type, each
	// counted as the runtime would send it: one unsigned datagram
	// (internal/wiresize).
	Bytes []uint64
	// LinkChanges counts the links that movement brought up or down.
	LinkChanges uint64
	// ElectionsStarted counts the computations nodes started: a node taking
	// up an election index of its own (Index.ID its id) that it did not hold.
	ElectionsStarted uint64
	// LeaderChanges counts the times a node that followed a leader took up
	// another one (taking up a first leader, or losing one, is not a change).
	LeaderChanges uint64
	// From, when set, is when counting starts: earlier events keep the
	// counter's view of the nodes current but count nothing but Events and
	// Reports (a measurement that leaves out the start of a run).
	From time.Duration

	// split says the nodes are followed apart (Nodes): Observe passes over
	// the events that follow them.
	split bool
	nodes int
	// seen holds what the counter follows of each node: by id, or at
	// rank[id] once arranged (trace.Arranger).
	seen []seenNode
	rank []int32
}

// seenNode is what a Counter follows of one node.
type seenNode struct {
	index     algo.Index  // the last index it reported
	hadLeader algo.NodeID // the last leader it followed, or None
}

// NewCounter returns a Counter for an algorithm with the given number of
// message types.
func NewCounter(types int) *Counter {
	return &Counter{Sent: make([]uint64, types), Delivered: make([]uint64, types), Bytes: make([]uint64, types)}
}

// Observe counts one event.
func (c *Counter) Observe(e *trace.Event) {
	c.Events++
	if c.split && followsNodes(e.Kind) {
		return
	}
	if e.At < c.From {
		c.track(e)
		return
	}
	switch e.Kind {
	case trace.Sent:
		if int(e.Msg.Type) < len(c.Sent) {
			c.Sent[e.Msg.Type]++
		}
		if e.Peer == algo.Everyone {
			c.Broadcasts++
		}
		if int(e.Msg.Type) < len(c.Bytes) {
			c.Bytes[e.Msg.Type] += uint64(wiresize.Message(len(e.Msg.Peers), len(e.Msg.Data)))
		}
	case trace.Delivered:
		if int(e.Msg.Type) < len(c.Delivered) {
			c.Delivered[e.Msg.Type]++
		}
	case trace.Dropped:
		if e.Reason < trace.NumDropReasons {
			c.Dropped[e.Reason]++
		}
	case trace.NodeAdded, trace.StatusChanged, trace.Reported:
		c.track(e)
	case trace.LinkUp, trace.LinkDown:
		if e.Moved {
			c.LinkChanges++
		}
	}
}

// followsNodes says events of kind k are those by which the counter follows
// the nodes (track).
func followsNodes(k trace.Kind) bool {
	return k == trace.NodeAdded || k == trace.StatusChanged || k == trace.Reported
}

// Nodes returns the part of the counter that follows the nodes: an
// Observer of the node_added, status_changed and reported events (it passes
// over the rest), from which ElectionsStarted, LeaderChanges, Reported and
// Reports come. The counter's own Observe passes over those events from
// then on, and counts the rest: the two touch different fields, so the
// part may observe on another goroutine than the counter's (behind the
// engine, where its per-node records do not hold the engine up), as long as
// its results are read once both have seen every event. Events still counts
// every event, from the counter's own stream. Call it before the first
// event.
func (c *Counter) Nodes() trace.Observer {
	c.split = true
	return nodeFollower{c}
}

// nodeFollower is the part of a Counter that follows the nodes (Nodes).
type nodeFollower struct{ c *Counter }

func (f nodeFollower) Observe(e *trace.Event) {
	if followsNodes(e.Kind) {
		f.c.track(e)
	}
}

// track follows the nodes (their number, indices and leaders), counting
// elections started and leader changes from From on; reports are kept
// whenever they come.
func (c *Counter) track(e *trace.Event) {
	switch e.Kind {
	case trace.NodeAdded:
		c.grow(int(e.Node) + 1)
		c.nodes = max(c.nodes, int(e.Node)+1)
	case trace.StatusChanged:
		c.status(e.Node, e.Status, e.At >= c.From)
	case trace.Reported:
		c.Reported++
		if len(c.Reports) < MaxReports {
			c.Reports = append(c.Reports, Report{AtMS: MS(e.At), Node: e.Node, Text: e.Text})
		}
	}
}

// Arrange keeps the counter's per-node records in the emitter's layout
// (trace.Arranger): node v's is then at rank[v]. Called before the first
// event.
func (c *Counter) Arrange(rank []int32) {
	c.rank = rank
	c.seen = hugemem.Make[seenNode](len(rank))[:0]
	c.grow(len(rank))
}

// grow makes records for nodes up to n-1.
func (c *Counter) grow(n int) {
	for len(c.seen) < n {
		c.seen = append(c.seen, seenNode{hadLeader: algo.None})
	}
}

func (c *Counter) status(v algo.NodeID, s algo.Status, count bool) {
	if int(v) >= c.nodes {
		return // a node never announced: nothing to compare with
	}
	at := int(v)
	if c.rank != nil {
		at = int(c.rank[v])
	}
	n := &c.seen[at]
	if s.Index.ID == v && !s.Index.IsZero() && s.Index != n.index && count {
		c.ElectionsStarted++
	}
	n.index = s.Index
	if s.HasLeader() {
		if last := n.hadLeader; last != algo.None && last != s.Leader && count {
			c.LeaderChanges++
		}
		n.hadLeader = s.Leader
	}
}

// Rates are the counts per node over the time from From to end.
func (c *Counter) Rates(end time.Duration, messages uint64) Rates {
	length := end - c.From
	if c.nodes == 0 || length <= 0 {
		return Rates{Extrapolated: length < MinRateSpan}
	}
	perNode := 1 / float64(c.nodes)
	return Rates{
		ElectionsPerNodeMinute:     float64(c.ElectionsStarted) * perNode / length.Minutes(),
		LeaderChangesPerNodeMinute: float64(c.LeaderChanges) * perNode / length.Minutes(),
		MessagesPerNodeSecond:      float64(messages) * perNode / length.Seconds(),
		LinkChangesPerNodeMinute:   float64(c.LinkChanges) * 2 * perNode / length.Minutes(),
		Extrapolated:               length < MinRateSpan,
	}
}

// Messages renders the counts with the algorithm's type names.
func (c *Counter) Messages(names []string) Messages {
	m := Messages{ByType: map[string]uint64{}, DeliveredByType: map[string]uint64{}, DropReasons: map[string]uint64{},
		Broadcasts: c.Broadcasts, Total: c.Transmissions()}
	for t, n := range c.Sent {
		m.Delivered += c.Delivered[t]
		m.Bytes += c.Bytes[t]
		if t < len(names) {
			m.ByType[names[t]] += n
			m.DeliveredByType[names[t]] += c.Delivered[t]
		}
	}
	for r, n := range c.Dropped {
		if n > 0 {
			m.DropReasons[trace.DropReason(r).String()] = n
			m.Dropped += n
		}
	}
	return m
}

// Fill sets what a summary takes from the counts: messages by the
// algorithm's type names, events, the nodes' reports, and the changes and
// rates of the run, per node over its length (s.EndMS must be set).
func (c *Counter) Fill(s *Summary, names []string) {
	bound := s.Messages.Bound // the checker's (FromCheck), not counted here
	s.Messages = c.Messages(names)
	s.Messages.Bound = bound
	s.Events = c.Events
	s.Reports, s.ReportCount = c.Reports, c.Reported
	if s.Reports == nil {
		s.Reports = []Report{}
	}
	s.LinkChanges = c.LinkChanges
	s.ElectionsStarted = c.ElectionsStarted
	s.LeaderChanges = c.LeaderChanges
	s.Rates = c.Rates(s.End(), s.Messages.Total)
}

// Transmissions counts the messages sent, of every type.
func (c *Counter) Transmissions() uint64 {
	var n uint64
	for _, k := range c.Sent {
		n += k
	}
	return n
}
