package metrics

import (
	"cmp"
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
//
// A node's value changing is told against its leader (ValueCrossings):
// "node 7's value rises to 120, above its leader 4's 90", "the leader 4's
// value falls to 10, below node 7's 120", those of one instant together
// ("leaders 3 and 11 each fall below a follower's value"). Those that
// cross no leader's are told while they are few ("node 3's value falls
// to 50", those of one instant and value together), and counted in one
// line where they start when they are many, as a value model's are (a
// battery draining every second): "the values of 30 nodes change 3,381
// times until 120 s: only those that cross a leader's are told".
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
	// values follows the nodes' values against their leaders; crossed
	// are the value changes that crossed, gathered by instant; quiet the
	// others, gathered (up to maxQuiet+1 moments: past maxQuiet they are
	// only counted).
	values  ValueCrossings
	crossed []crossGroup
	quiet   []valueGroup
	counted valueCount
}

// crossGroup is value changes that crossed, within together of the first.
type crossGroup struct {
	first, last time.Duration
	moves       []ValueMove
}

// valueGroup is value changes that crossed no leader's, to one value,
// within together of the first.
type valueGroup struct {
	first, last time.Duration
	to          int64
	nodes       []algo.NodeID
	// how is the changes' direction ("rises", "falls", "becomes"), the
	// first's, and "becomes" when they differ.
	how  string
	what string // the first's words
}

// valueCount counts the value changes that crossed no leader's.
type valueCount struct {
	n           int
	first, last time.Duration
	nodes       []bool
	of          int // nodes changed
}

// maxQuiet is how many moments of value changes that cross no leader's
// the story tells: past it, it counts them.
const maxQuiet = 6

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
	if c, ok := st.values.Observe(e); ok {
		st.started = true
		st.value(e.At, c)
		return
	}
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
// still being gathered (a run read up to its End has none left), and the
// value changes, in time order.
func (st *Story) Fill(s *Summary) {
	st.flush()
	s.Faults = st.moments
	if len(st.crossed) == 0 && st.counted.n == 0 {
		return
	}
	all := append([]Moment{}, st.moments...)
	if len(st.quiet) <= maxQuiet {
		for _, g := range st.quiet {
			all = append(all, g.moment())
		}
	} else {
		// Counted where they start, so that a story cut short still says
		// so.
		all = append(all, st.counted.moment(len(st.crossed) > 0))
	}
	for _, g := range st.crossed {
		all = append(all, g.moment())
	}
	slices.SortStableFunc(all, func(x, y Moment) int { return cmp.Compare(x.AtMS, y.AtMS) })
	s.Faults = all
}

// value tells a value change: those that crossed as they are, the others
// gathered and counted.
func (st *Story) value(at time.Duration, c ValueMove) {
	if c.Crossed() {
		if n := len(st.crossed); n > 0 && at-st.crossed[n-1].first <= together {
			g := &st.crossed[n-1]
			g.moves = append(g.moves, c)
			g.last = at
			return
		}
		st.crossed = append(st.crossed, crossGroup{first: at, last: at, moves: []ValueMove{c}})
		return
	}
	k := &st.counted
	if k.n == 0 {
		k.first = at
	}
	k.n++
	k.last = at
	for int(c.Node) >= len(k.nodes) {
		k.nodes = append(k.nodes, false)
	}
	if !k.nodes[c.Node] {
		k.nodes[c.Node] = true
		k.of++
	}
	if n := len(st.quiet); n > 0 && n <= maxQuiet {
		g := &st.quiet[n-1]
		if g.to == c.To && at-g.first <= together {
			g.last = at
			if !slices.Contains(g.nodes, c.Node) {
				g.nodes = append(g.nodes, c.Node)
			}
			if g.how != c.Direction() {
				g.how = "becomes"
			}
			return
		}
	}
	if len(st.quiet) <= maxQuiet {
		st.quiet = append(st.quiet, valueGroup{first: at, last: at, to: c.To, nodes: []algo.NodeID{c.Node}, how: c.Direction(), what: c.String()})
	}
}

// moment tells a group of value changes: "node 3's value falls to 50",
// "the values of nodes 1 and 3 fall to 50".
func (g *valueGroup) moment() Moment {
	what := g.what
	if len(g.nodes) > 1 {
		slices.Sort(g.nodes)
		how := map[string]string{"rises": "rise to", "falls": "fall to", "becomes": "become"}[g.how]
		what = fmt.Sprintf("the values of %s %s %d", nodes(g.nodes), how, g.to)
	}
	return Moment{AtMS: MS(g.first), What: what + over(g.first, g.last)}
}

// moment tells changes that crossed: one in full ("node 7's value rises
// to 120, above its leader 4's 90"), several by whom ("leaders 3 and 11
// each fall below a follower's value; node 7 rises above its leader's").
func (g *crossGroup) moment() Moment {
	if len(g.moves) == 1 {
		return Moment{AtMS: MS(g.first), What: g.moves[0].String() + over(g.first, g.last)}
	}
	var led, rose []algo.NodeID
	for _, m := range g.moves {
		if m.Led {
			if !slices.Contains(led, m.Node) {
				led = append(led, m.Node)
			}
		} else if !slices.Contains(rose, m.Node) {
			rose = append(rose, m.Node)
		}
	}
	slices.Sort(led)
	slices.Sort(rose)
	var parts []string
	if len(led) > 0 {
		parts = append(parts, named(led, "leader")+verb(led, " falls below a follower's value", " each fall below a follower's value"))
	}
	if len(rose) > 0 {
		parts = append(parts, nodes(rose)+verb(rose, " rises above its leader's value", " rise above their leaders' values"))
	}
	return Moment{AtMS: MS(g.first), What: strings.Join(parts, "; ") + over(g.first, g.last)}
}

// moment tells the value changes counted: "the values of 30 nodes change
// 3,381 times until 120 s: only those that cross a leader's are told".
func (c *valueCount) moment(crossed bool) Moment {
	what := fmt.Sprintf("the values of %s change %s times until %s", plural(c.of, "node"), group(uint64(c.n)), natural(MS(c.last)))
	if c.of == 1 {
		what = fmt.Sprintf("node %d's value changes %s times until %s", slices.Index(c.nodes, true), group(uint64(c.n)), natural(MS(c.last)))
	}
	if crossed {
		return Moment{AtMS: MS(c.first), What: what + ": only those that cross a leader's are told"}
	}
	return Moment{AtMS: MS(c.first), What: what + ", none crossing a leader's"}
}

// over says over how long a moment was spread: " (over 3.0 ms)", or
// nothing.
func over(first, last time.Duration) string {
	if last > first {
		return " (over " + natural(MS(last-first)) + ")"
	}
	return ""
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
func nodes(ids []algo.NodeID) string { return named(ids, "node") }

// named names a set of nodes, sorted, by noun: "leader 3", "leaders 1, 4
// and 7", "12 leaders (0-5, 9-14)".
func named(ids []algo.NodeID, noun string) string {
	if len(ids) == 1 {
		return fmt.Sprintf("%s %d", noun, ids[0])
	}
	if len(ids) > 6 {
		return fmt.Sprintf("%s %ss (%s)", group(uint64(len(ids))), noun, span(ids))
	}
	s := make([]string, len(ids))
	for i, v := range ids {
		s[i] = fmt.Sprint(v)
	}
	return noun + "s " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func verb(ids []algo.NodeID, one, many string) string {
	if len(ids) == 1 {
		return one
	}
	return many
}
