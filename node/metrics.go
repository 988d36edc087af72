package node

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// counters are the node's running totals, read by /metrics from another
// goroutine.
type counters struct {
	sent, received  []atomic.Uint64 // by message type
	rejected        [runtime.NumReasons]atomic.Uint64
	hellosSent      atomic.Uint64
	hellosReceived  atomic.Uint64
	unroutable      atomic.Uint64 // messages to non-neighbours, or too large
	withheld        atomic.Uint64 // datagrams not sent while saves fail (fence.go's silence)
	cutFrom, cutTo  atomic.Uint64 // datagrams dropped by a gray cut, as they arrived or at send (gray.go)
	retransmits     atomic.Uint64 // frames of reliable links sent again
	acks            atomic.Uint64 // bare acknowledgements of reliable links
	linkFailures    atomic.Uint64 // reliable links that went unacknowledged
	syncSent        atomic.Uint64 // the synchronizer's safe messages (pulses.go)
	broadcasts      atomic.Uint64 // messages sent as one datagram to the broadcast address
	messageBytes    atomic.Uint64 // bytes of the datagrams that carried algorithm messages (not frames)
	httpRefused     atomic.Uint64 // state-changing HTTP requests refused (no credential, or the reading-only address)
	pulses          atomic.Int64  // the synchronizer's current pulse
	sendErrors      atomic.Uint64
	saveErrors      atomic.Uint64
	reports         atomic.Uint64
	elections       atomic.Uint64
	leaderChanges   atomic.Uint64
	mu              sync.Mutex
	leaderless      time.Duration // closed spans without a leader
	leaderlessSince time.Time     // zero while led
	firstElection   time.Time     // when the node first left Norm (zero: never)
}

func (c *counters) init(types int) {
	c.sent = make([]atomic.Uint64, types)
	c.received = make([]atomic.Uint64, types)
	c.leaderlessSince = time.Now() // a node boots without a leader
}

// observe accounts the time without a leader across a status change.
func (c *counters) observe(prev, next Status, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if next.State != algo.Norm && c.firstElection.IsZero() {
		c.firstElection = now
	}
	switch {
	case prev.HasLeader() && !next.HasLeader():
		c.leaderlessSince = now
	case !prev.HasLeader() && next.HasLeader() && !c.leaderlessSince.IsZero():
		c.leaderless += now.Sub(c.leaderlessSince)
		c.leaderlessSince = time.Time{}
	}
}

// firstElectionNS is when the node first left Norm, in Unix nanoseconds
// (0: never).
func (c *counters) firstElectionNS() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.firstElection.IsZero() {
		return 0
	}
	return c.firstElection.UnixNano()
}

// leaderlessTotal is the time spent without a leader up to now.
func (c *counters) leaderlessTotal(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.leaderless
	if !c.leaderlessSince.IsZero() {
		d += now.Sub(c.leaderlessSince)
	}
	return d
}

// WritePrometheus writes the node's metrics, what GET /metrics serves, in
// the Prometheus text exposition format (version 0.0.4). A program that
// registers its own metrics with client_golang takes them through
// nodemetrics.Collector instead.
func (n *Node) WritePrometheus(w io.Writer) error {
	c := &n.metrics
	st := n.Status()
	p := promWriter{w: w}
	p.family("elect_messages_sent_total", "counter", "Algorithm messages sent, by the source document's type name.")
	for i := range c.sent {
		p.sample("elect_messages_sent_total", "type", n.names[i], c.sent[i].Load())
	}
	p.family("elect_messages_received_total", "counter", "Algorithm messages received and accepted, by type.")
	for i := range c.received {
		p.sample("elect_messages_received_total", "type", n.names[i], c.received[i].Load())
	}
	p.family("elect_datagrams_rejected_total", "counter", "Datagrams refused, by reason (checksum, bad_mac, replay, ...).")
	for r := range runtime.NumReasons {
		p.sample("elect_datagrams_rejected_total", "reason", runtime.Reason(r).String(), c.rejected[r].Load())
	}
	p.family("elect_datagrams_cut_total", "counter", "Datagrams dropped by a one-way cut (gray failures): from a peer of cut_from as they arrived, before anything read them, or to a peer of cut_to at send.")
	p.sample("elect_datagrams_cut_total", "direction", "from", c.cutFrom.Load())
	p.sample("elect_datagrams_cut_total", "direction", "to", c.cutTo.Load())
	for _, m := range []struct {
		name, kind, help string
		v                float64
	}{
		{"elect_broadcasts_total", "counter", "Algorithm messages sent as one datagram to the broadcast address (counted in elect_messages_sent_total too).", float64(c.broadcasts.Load())},
		{"elect_message_bytes_total", "counter", "Bytes of the datagrams that carried algorithm messages (reliable links' frames apart).", float64(c.messageBytes.Load())},
		{"elect_hellos_sent_total", "counter", "Hello beacons sent.", float64(c.hellosSent.Load())},
		{"elect_hellos_received_total", "counter", "Hello beacons received and accepted.", float64(c.hellosReceived.Load())},
		{"elect_messages_unroutable_total", "counter", "Messages the algorithm sent to a node that is not a neighbour (lost by contract), or too large for a datagram.", float64(c.unroutable.Load())},
		{"elect_send_errors_total", "counter", "Datagrams the socket refused to send.", float64(c.sendErrors.Load())},
		{"elect_datagrams_withheld_total", "counter", "Datagrams not sent while the node could not save its state: it is silent then, a crashed node to the others (counted in the sent totals too).", float64(c.withheld.Load())},
		{"elect_kernel_receive_drops_total", "counter", "Datagrams for this node the kernel dropped for want of room in the socket's receive buffer (Linux's SO_RXQ_OVFL; 0 where not told).", float64(n.kernelDrops())},
		{"elect_link_retransmits_total", "counter", "Frames of reliable links sent again for want of an acknowledgement (not counted as messages).", float64(c.retransmits.Load())},
		{"elect_link_acks_total", "counter", "Bare acknowledgements of reliable links sent (not counted as messages).", float64(c.acks.Load())},
		{"elect_link_failures_total", "counter", "Reliable links that went unacknowledged past their bound, taking their neighbour down.", float64(c.linkFailures.Load())},
		{"elect_sync_messages_total", "counter", "Safe messages of the synchronizer that runs a synchronous algorithm in pulses (not counted as messages).", float64(c.syncSent.Load())},
		{"elect_sync_pulse", "gauge", "The synchronizer's current pulse (0 for an asynchronous algorithm).", float64(c.pulses.Load())},
		{"elect_http_unauthorized_total", "counter", "State-changing HTTP requests refused: without the credential derived from the key, or on the reading-only address.", float64(c.httpRefused.Load())},
		{"elect_state_save_errors_total", "counter", "Failed writes of the state directory.", float64(c.saveErrors.Load())},
		{"elect_reports_total", "counter", "Failures the algorithm detected and reported.", float64(c.reports.Load())},
		{"elect_elections_total", "counter", "Elections this node started as their source.", float64(c.elections.Load())},
		{"elect_leader_changes_total", "counter", "Times this node went from following one leader to following another.", float64(c.leaderChanges.Load())},
		{"elect_leaderless_seconds_total", "counter", "Time this node spent without a leader (not in Norm, or no leader).", c.leaderlessTotal(time.Now()).Seconds()},
		{"elect_leader", "gauge", "The id of the leader this node follows (-1: none).", float64(st.Leader)},
		{"elect_is_leader", "gauge", "1 while this node is the leader.", boolGauge(st.Leading())},
		{"elect_election_index", "gauge", "The election index: the newest election this node took part in.", float64(st.ElectionIndex)},
		{"elect_fencing_token", "gauge", "The fencing token: the leader's own, or the highest a follower knows of.", float64(st.FencingToken)},
		{"elect_neighbors", "gauge", "Neighbours currently heard.", float64(len(st.Neighbors))},
		{"elect_value", "gauge", "This node's value (desirability).", float64(st.Value)},
	} {
		p.family(m.name, m.kind, m.help)
		p.line(m.name, "", m.v)
	}
	return p.err
}

// kernelDrops is what the transport knows of datagrams the kernel dropped
// before the node read them (runtime.DropCounter), 0 if it knows nothing.
func (n *Node) kernelDrops() uint64 {
	if d, ok := n.cfg.Transport.(runtime.DropCounter); ok {
		return d.KernelDrops()
	}
	return 0
}

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// promWriter writes the text format, keeping the first error.
type promWriter struct {
	w   io.Writer
	err error
}

func (p *promWriter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *promWriter) family(name, kind, help string) {
	p.printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, kind)
}

func (p *promWriter) sample(name, label, value string, v uint64) {
	p.printf("%s{%s=%s} %d\n", name, label, strconv.Quote(value), v)
}

func (p *promWriter) line(name, labels string, v float64) {
	p.printf("%s%s %s\n", name, labels, strconv.FormatFloat(v, 'g', -1, 64))
}
