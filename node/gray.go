package node

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
)

// Gray is a node's gray failures: faults that leave it running and
// reachable, but wrong in one way, as the simulator's gray actions make
// them (sim.Cut, sim.Clock, sim.Slow). The zero Gray is a healthy node.
//
//   - CutFrom are peers whose datagrams this node drops as they arrive:
//     read from the socket, then dropped before anything looks at them
//     (counted in elect_datagrams_cut_total{direction="from"}), so the
//     node behaves exactly as if they never came: no hello, heartbeat or
//     message of that peer is heard. CutTo are peers this node does not
//     send to: every datagram to a cut peer's address is dropped at send
//     (elect_datagrams_cut_total{direction="to"}). A datagram to the
//     broadcast address (Config.Broadcast) is one transmission to
//     everyone and is not cut by CutTo; cut it where it arrives, with
//     CutFrom. A link cut one way, "3 hears 7 but 7 does not hear 3", is
//     node 7 with CutFrom [3]: a direction is cut where it arrives, the
//     simulator's convention (trace.Cut). Both name listed peers
//     (Config.Peers), never the node itself.
//   - ClockRate is the rate of the machine's clock against true time (0
//     or 1: true time; 0.8 runs 20% slow, 1.2 20% fast; at most 100):
//     Env.Now advances at that rate, and a timer the machine sets for d
//     expires after d/ClockRate of true time, converted when it is set:
//     a timer already armed keeps its true expiry when the rate changes.
//     ClockJump moves Env.Now by that much, forward or back, once, when
//     given; timers already armed keep their expiries, as Go's monotonic
//     timers do when the wall clock jumps. The clock is piecewise linear:
//     local time is the local time at the last change plus the rate
//     times the true time since, so a change of rate never makes it jump.
//   - Slow makes the node handle every input to its machine that much
//     late: the node's loop sleeps Slow before each datagram received, each
//     live timer expiry and each API call (Elect, SetValue), as under a
//     long GC pause or on a swapping host. Inputs queue behind it in the
//     meantime, as in real life, and the node's own beacons and silence
//     checks wait behind the loop too. 0: none.
//
// What stays on true time is the node runtime's own: its hello beacons,
// the silence after which a neighbour is lost, the reliable links'
// retransmissions, sequence numbers and the replay windows' bounds, and
// the status's timestamps. They are the runtime's failure detector and
// wire, not the algorithm, and the simulator's beacon detector runs on
// true time as well, so a skewed clock skews the same things in both:
// the algorithm's heartbeats, timeouts and every time it reads. A
// synchronous algorithm (Model.Synchronous) runs on the pulses' virtual
// clock (pulses.go), which counts pulses and reads no clock: ClockRate
// and ClockJump leave it alone; Slow and the cuts do not.
type Gray struct {
	CutFrom   []algo.NodeID `json:"cut_from,omitempty"`
	CutTo     []algo.NodeID `json:"cut_to,omitempty"`
	ClockRate float64       `json:"clock_rate,omitempty"`    // 0 or 1: true time
	ClockJump time.Duration `json:"clock_jump_ns,omitempty"` // applied once, when set
	Slow      time.Duration `json:"slow_ns,omitempty"`
}

// maxClockRate bounds Gray.ClockRate.
const maxClockRate = 100

// SetGray replaces the node's gray failures (CutFrom, CutTo, ClockRate,
// Slow) with g's, and moves its clock by g.ClockJump once. It takes effect
// at once, from any goroutine, before or during Run, and even while the
// node's loop sleeps for Slow: a node is made healthy again with
// SetGray(Gray{}). An error, which names the field at fault, changes
// nothing: a rate not above 0 or above 100 (0 is true time), a negative
// Slow, an id that is not a listed peer or is the node itself.
func (n *Node) SetGray(g Gray) error {
	if err := g.check(n.cfg.ID, n.cfg.Peers); err != nil {
		return err
	}
	was := n.Gray().healthy()
	n.gray.set(g, time.Now())
	switch {
	case g.ClockJump != 0 || !g.healthy():
		n.log.Warn("gray failures", "cut_from", g.CutFrom, "cut_to", g.CutTo, "clock_rate", g.ClockRate, "clock_jump", g.ClockJump, "slow", g.Slow)
	case !was:
		n.log.Info("gray failures: none now")
	}
	return nil
}

// Gray returns the node's gray failures as they are: its cuts ascending,
// ClockRate 0 for true time, ClockJump 0 (a jump is an event, not a
// state).
func (n *Node) Gray() Gray { return n.gray.get() }

// healthy says g has no gray failure (a jump is none: it is done).
func (g Gray) healthy() bool {
	return len(g.CutFrom) == 0 && len(g.CutTo) == 0 && (g.ClockRate == 0 || g.ClockRate == 1) && g.Slow == 0
}

// check says what is wrong with g for node self of the given peers,
// naming the field as its JSON does.
func (g Gray) check(self algo.NodeID, peers map[algo.NodeID]netip.AddrPort) error {
	if err := checkCut(g.CutFrom, self, peers); err != nil {
		return fmt.Errorf("cut_from: %w", err)
	}
	if err := checkCut(g.CutTo, self, peers); err != nil {
		return fmt.Errorf("cut_to: %w", err)
	}
	if err := checkRate(g.ClockRate); err != nil {
		return fmt.Errorf("clock_rate: %w", err)
	}
	if err := checkSlow(g.Slow); err != nil {
		return fmt.Errorf("slow_ns: %w", err)
	}
	return nil
}

// checkCut says what is wrong with a list of peers to cut.
func checkCut(ids []algo.NodeID, self algo.NodeID, peers map[algo.NodeID]netip.AddrPort) error {
	for _, id := range ids {
		if id == self {
			return fmt.Errorf("node %d is this node: a node does not cut itself", id)
		}
		if _, ok := peers[id]; !ok {
			return fmt.Errorf("node %d is not a listed peer of node %d (its peers: %s)", id, self, peerList(peers, self))
		}
	}
	return nil
}

func peerList(peers map[algo.NodeID]netip.AddrPort, self algo.NodeID) string {
	var ids []algo.NodeID
	for id := range peers {
		if id != self {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "none"
	}
	slices.Sort(ids)
	text := make([]string, len(ids))
	for i, id := range ids {
		text[i] = strconv.Itoa(int(id))
	}
	return strings.Join(text, ", ")
}

// checkRate says what is wrong with a clock rate (0: true time).
func checkRate(r float64) error {
	if math.IsNaN(r) || r < 0 || r > maxClockRate {
		return fmt.Errorf("%v: want a rate above 0 and at most %d (1: true time; 0.8: 20%% slow; 1.2: 20%% fast)", r, maxClockRate)
	}
	return nil
}

// checkSlow says what is wrong with a Slow.
func checkSlow(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%v: want 0 (none) or how late each input is handled", d)
	}
	return nil
}

// parseIDs reads a list of node ids "3,7,9" ("" is none).
func parseIDs(s string) ([]algo.NodeID, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ids []algo.NodeID
	for _, f := range strings.Split(s, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("%q is not a node id (want ids separated by commas, e.g. 3,7)", strings.TrimSpace(f))
		}
		ids = append(ids, algo.NodeID(id))
	}
	return ids, nil
}

// grayState is a node's Gray as it runs, shared by Run's goroutine (the
// clock, Slow, CutTo), the socket reader (CutFrom) and SetGray's callers.
type grayState struct {
	mu      sync.Mutex
	cutFrom []algo.NodeID // ascending, no repeats
	cutTo   []algo.NodeID
	slow    time.Duration
	clock   localClock
}

func (s *grayState) set(g Gray, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cutFrom, s.cutTo = idSet(g.CutFrom), idSet(g.CutTo)
	s.slow = g.Slow
	s.clock.setRate(now, g.ClockRate)
	s.clock.jump(g.ClockJump)
}

func (s *grayState) get() Gray {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := Gray{CutFrom: slices.Clone(s.cutFrom), CutTo: slices.Clone(s.cutTo), Slow: s.slow}
	if r := s.clock.rate; r != 0 && r != 1 {
		g.ClockRate = r
	}
	return g
}

// cutsFrom says datagrams from id are dropped as they arrive.
func (s *grayState) cutsFrom(id algo.NodeID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, cut := slices.BinarySearch(s.cutFrom, id)
	return cut
}

// cutToPeers returns the peers not sent to (nil: none); the slice is not
// changed afterwards (set replaces it).
func (s *grayState) cutToPeers() []algo.NodeID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cutTo
}

func (s *grayState) slowness() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.slow
}

// begin starts the clock at true time now (Run's start), at the local
// time the jumps given before made it.
func (s *grayState) begin(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock.since = now
}

// now is the machine's clock at true time t.
func (s *grayState) now(t time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock.at(t)
}

// trueDelay is the true time a timer set for d on the machine's clock
// takes to expire.
func (s *grayState) trueDelay(d time.Duration) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock.trueDelay(d)
}

func idSet(ids []algo.NodeID) []algo.NodeID {
	if len(ids) == 0 {
		return nil
	}
	s := slices.Clone(ids)
	slices.Sort(s)
	return slices.Compact(s)
}

// localClock is the machine's clock, piecewise linear in true time: at
// true time t it reads base + rate·(t − since), since being the true time
// of the last change of rate (base the local time then). Before the node
// runs (since zero) it reads base.
type localClock struct {
	base  time.Duration
	since time.Time
	rate  float64 // 0 or 1: true time
}

// at is the local time at true time t.
func (c *localClock) at(t time.Time) time.Duration {
	if c.since.IsZero() {
		return c.base
	}
	d := t.Sub(c.since)
	if c.rate == 0 || c.rate == 1 {
		return c.base + d
	}
	return c.base + clampDuration(float64(d)*c.rate)
}

// setRate makes the clock run at rate r from true time t on, continuing
// from the local time it reads at t.
func (c *localClock) setRate(t time.Time, r float64) {
	if !c.since.IsZero() {
		c.base, c.since = c.at(t), t
	}
	c.rate = r
}

// jump moves the clock by d, saturating rather than wrapping at the
// ends of a Duration's range (±292 years).
func (c *localClock) jump(d time.Duration) {
	switch sum := c.base + d; {
	case d > 0 && sum < c.base:
		c.base = math.MaxInt64
	case d < 0 && sum > c.base:
		c.base = math.MinInt64
	default:
		c.base = sum
	}
}

// trueDelay is the true time d of local time takes at the present rate,
// rounded up, so that a timer set for d expires no earlier on the local
// clock than d after it was set.
func (c *localClock) trueDelay(d time.Duration) time.Duration {
	if c.rate == 0 || c.rate == 1 || d <= 0 {
		return d
	}
	return clampDuration(math.Ceil(float64(d) / c.rate))
}

func clampDuration(f float64) time.Duration {
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(f)
}

// lag sleeps Slow before the loop handles an input (Gray.Slow), or until
// ctx ends.
func (n *Node) lag(ctx context.Context) {
	d := n.gray.slowness()
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// cutAt says a datagram to addr is dropped at send: addr is where a peer
// of CutTo is (as last heard from, or listed).
func (n *Node) cutAt(addr netip.AddrPort) bool {
	for _, id := range n.gray.cutToPeers() {
		if nb := n.nbrs[id]; nb != nil && nb.addr == addr {
			return true
		}
	}
	return false
}
