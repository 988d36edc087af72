package metrics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"

	"github.com/electgo/elect/internal/blame"
)

// Story gathers a run's faults from its event stream, in words and in time
// order (Summary.Faults): a machine's panic, the crashes, restarts and recoveries, the
// requests to elect after the start, the links that went down or came
// back other than by movement (partitions, heals, link_down and link_up
// events), and the gray failures (a direction of a link cut or carrying
// again, a clock's rate or jump, a node slowed or on time again). It is a
// trace.Observer, so that one run reads the same from the
// simulator, from its trace read back by elect check, and from the
// emulator: each tells what its events say, and nothing else.
//
// A scenario's partition, heal and crash of a leader that found none come
// as Acted events, in words ("the network splits (west, and the rest)"),
// which tell the link changes that follow them. What a trace does not
// record, a story cannot tell: a corrupt or crash_on event as it was armed
// (the crash it set off is told when it struck).
type Story struct {
	moments []Moment
	open    gathering
	// started turns true at the first event that is not the network's
	// declaration (its nodes and the links up at time 0).
	started bool
	// leads[v] says node v last reported itself as its leader, in Norm:
	// a crash of it is a crash of the leader.
	leads []bool
	// told is when the last Acted event came, -1 before the first.
	told time.Duration
}

// gathering is the fault events being gathered into one moment: events of
// one kind that follow one another among the faults, within together of
// the first.
type gathering struct {
	kind        trace.Kind
	events      int // none: no moment is open
	first, last time.Duration
	nodes       []algo.NodeID
	leaders     []algo.NodeID  // of the crashed nodes, those that led
	link        [2]algo.NodeID // the first link, named when it is the only one
	text        string         // a panic's, without its frames
	// value is a gray failure's (a clock's rate or jump, a slowness):
	// only events of one value are gathered.
	value int64
}

// together is how far apart the events of one fault may be. The simulator
// stamps every node of an action with the same instant; the emulator
// stamps each when it acted on it, a few milliseconds apart (a crash
// reads a node's counters before killing it), and a moment spread over
// time says over how long.
const together = 100 * time.Millisecond

// NewStory returns a Story to observe a run from its first event.
func NewStory() *Story { return &Story{told: -1} }

// Observe takes in one event.
func (st *Story) Observe(e *trace.Event) {
	switch e.Kind {
	case trace.NodeAdded:
		return
	case trace.LinkUp:
		if !st.started && e.At == 0 {
			return
		}
	case trace.StatusChanged:
		st.lead(e.Node, e.Status.Leader == e.Node && e.Status.State == algo.Norm)
	case trace.End:
		st.flush()
	}
	st.started = true
	switch e.Kind {
	case trace.Crashed:
		st.add(e)
		if int(e.Node) < len(st.leads) && st.leads[e.Node] {
			st.open.leaders = append(st.open.leaders, e.Node)
		}
		st.lead(e.Node, false)
	case trace.Restarted, trace.Recovered:
		st.add(e)
	case trace.Panicked:
		st.add(e)
		// What it was handed and the panic's value; its frames are in the
		// violation.
		st.open.text = blame.Unframed(e.Text)
	case trace.ElectCalled:
		// At time 0 the driver asks the initiators, as the run's start
		// (Summary.Initiators): the story tells what came after.
		if e.At > 0 {
			st.add(e)
		}
	case trace.Acted:
		// The scenario's event in words: it tells the link changes that
		// follow it (a partition's, a heal's) on its own.
		st.flush()
		st.moments = append(st.moments, Moment{AtMS: MS(e.At), What: e.Text})
		st.told = e.At
	case trace.LinkDown, trace.LinkUp:
		if !e.Moved && !st.toldBy(e.At) {
			st.add(e)
		}
	case trace.Cut, trace.Uncut, trace.ClockRate, trace.ClockJumped, trace.Slowed:
		if !st.toldBy(e.At) {
			st.add(e)
		}
	}
}

// toldBy says the link changes at t are told by the scenario's event told
// last (an Acted event): the changes follow it at once in the simulator,
// within together of it in the emulator.
func (st *Story) toldBy(t time.Duration) bool {
	return st.told >= 0 && t-st.told <= together
}

// lead records whether node v leads.
func (st *Story) lead(v algo.NodeID, leads bool) {
	if int(v) >= len(st.leads) {
		if !leads {
			return
		}
		st.leads = append(st.leads, make([]bool, int(v)+1-len(st.leads))...)
	}
	st.leads[v] = leads
}

// add gathers a fault event into the open moment, or opens a new one.
func (st *Story) add(e *trace.Event) {
	g := &st.open
	if g.events == 0 || g.kind != e.Kind || e.At-g.first > together || e.Kind.Gray() && g.value != e.Value {
		st.flush()
		*g = gathering{kind: e.Kind, first: e.At, link: [2]algo.NodeID{e.Node, e.Peer}, value: e.Value}
	}
	g.events++
	g.last = e.At
	linkish := e.Kind == trace.LinkDown || e.Kind == trace.LinkUp || e.Kind == trace.Cut || e.Kind == trace.Uncut
	if !linkish && !slices.Contains(g.nodes, e.Node) {
		g.nodes = append(g.nodes, e.Node)
	}
}

// flush tells the open moment, if any.
func (st *Story) flush() {
	g := &st.open
	if g.events == 0 {
		return
	}
	slices.Sort(g.nodes)
	slices.Sort(g.leaders)
	var what string
	switch g.kind {
	case trace.Crashed:
		switch {
		case len(g.nodes) == 1 && len(g.leaders) == 1:
			what = fmt.Sprintf("the leader, node %d, crashes", g.nodes[0])
		case len(g.leaders) > 0:
			what = fmt.Sprintf("%s crash (among them %s)", nodes(g.nodes), leaderWord(g.leaders))
		default:
			what = nodes(g.nodes) + " " + verb(g.nodes, "crashes", "crash")
		}
	case trace.Restarted:
		what = nodes(g.nodes) + " " + verb(g.nodes, "restarts", "restart") + " with no state"
	case trace.Recovered:
		what = nodes(g.nodes) + " " + verb(g.nodes, "recovers its", "recover their") + " state"
	case trace.ElectCalled:
		what = nodes(g.nodes) + " " + verb(g.nodes, "is", "are") + " asked to elect"
	case trace.Panicked:
		what = fmt.Sprintf("node %d panics %s: the run ends", g.nodes[0], g.text)
	case trace.LinkDown, trace.LinkUp:
		change := "goes down"
		if g.kind == trace.LinkUp {
			change = "comes back"
		}
		what = fmt.Sprintf("link %d-%d %s", g.link[0], g.link[1], change)
		if g.events > 1 {
			change = "go down"
			if g.kind == trace.LinkUp {
				change = "come back"
			}
			what = fmt.Sprintf("%s links %s", group(uint64(g.events)), change)
		}
	case trace.Cut, trace.Uncut:
		change := "cut one way"
		if g.kind == trace.Uncut {
			change = "carries again"
		}
		what = fmt.Sprintf("link %d→%d %s", g.link[0], g.link[1], change)
		if g.events > 1 {
			if g.kind == trace.Uncut {
				change = "carry again"
			}
			what = fmt.Sprintf("%s link directions %s", group(uint64(g.events)), change)
		}
	case trace.ClockRate:
		clocks := verb(g.nodes, "the clock of ", "the clocks of ") + nodes(g.nodes)
		what = clocks + verb(g.nodes, " runs ", " run ") + rateWords(g.value)
	case trace.ClockJumped:
		clocks := verb(g.nodes, "the clock of ", "the clocks of ") + nodes(g.nodes) + verb(g.nodes, " jumps", " jump")
		if g.value < 0 {
			what = clocks + " back " + natural(MS(-time.Duration(g.value)))
		} else {
			what = clocks + " forward " + natural(MS(time.Duration(g.value)))
		}
	case trace.Slowed:
		if g.value == 0 {
			what = nodes(g.nodes) + " " + verb(g.nodes, "is", "are") + " on time again"
		} else {
			what = fmt.Sprintf("%s %s slowed: %s inputs handled %s late", nodes(g.nodes), verb(g.nodes, "is", "are"),
				verb(g.nodes, "its", "their"), natural(MS(time.Duration(g.value))))
		}
	}
	if g.last > g.first {
		what += " (over " + natural(MS(g.last-g.first)) + ")"
	}
	st.moments = append(st.moments, Moment{AtMS: MS(g.first), What: what})
	*g = gathering{}
}

// Fill sets the summary's faults: the moments told so far, with the one
// still being gathered (a run read up to its End has none left).
func (st *Story) Fill(s *Summary) {
	st.flush()
	s.Faults = st.moments
}

// rateWords says at what rate a clock runs, given in parts per million of
// true time: "at ×0.8 (20% slow)", "true again".
func rateWords(ppm int64) string {
	if ppm == 1e6 {
		return "true again"
	}
	off, how := ppm-1e6, "fast"
	if off < 0 {
		off, how = -off, "slow"
	}
	return fmt.Sprintf("at ×%s (%s%% %s)", strconv.FormatFloat(float64(ppm)/1e6, 'f', -1, 64),
		strconv.FormatFloat(float64(off)/1e4, 'f', -1, 64), how)
}

// leaderWord names the leaders among crashed nodes.
func leaderWord(ids []algo.NodeID) string {
	if len(ids) == 1 {
		return fmt.Sprintf("the leader, node %d", ids[0])
	}
	return "the leaders, " + nodes(ids)
}

// nodes names a set of nodes, sorted: "node 3", "nodes 1, 4 and 7", "12
// nodes (0-5, 9-14)".
func nodes(ids []algo.NodeID) string {
	if len(ids) == 1 {
		return fmt.Sprintf("node %d", ids[0])
	}
	if len(ids) > 6 {
		return fmt.Sprintf("%s nodes (%s)", group(uint64(len(ids))), span(ids))
	}
	s := make([]string, len(ids))
	for i, v := range ids {
		s[i] = fmt.Sprint(v)
	}
	return "nodes " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func verb(ids []algo.NodeID, one, many string) string {
	if len(ids) == 1 {
		return one
	}
	return many
}
