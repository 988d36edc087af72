package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/wiresize"
	"github.com/electgo/elect/trace"
)

// ValueModel changes the nodes' values as a run goes (Config.ValuesOver):
// the documents' motivation for the value, "the node's battery power, the
// position where the node's distance from other nodes is minimal", as
// values that move. Every Every the engine works out each live node's value
// from the model and emits a ValueChanged event for each one that changed;
// the machines read it at their next input (algo.Env.Value). It draws
// nothing from the run's random source, so a run with a model is as
// reproducible as one without.
type ValueModel struct {
	Kind ValueModelKind
	// Every is how often the values are worked out (default 1s).
	Every time.Duration

	// Battery: every node starts with Capacity units of energy (its value
	// then), and spends Tx units for each byte it sends (a broadcast once,
	// as one transmission), Rx for each byte it receives, and Idle a
	// second while alive; it gains Recharge a second, up to Capacity. A
	// byte is a byte of the datagram the runtime would send (docs/wire.md,
	// internal/wiresize). Its value is its charge rounded down, never
	// below 0:
	//
	//	charge(t) = min(Capacity, Capacity - Tx·sent(t) - Rx·received(t) - (Idle - Recharge)·alive(t))
	//
	// (the recharge capped at each step), value = max(0, floor(charge)).
	Capacity, Tx, Rx, Idle, Recharge float64

	// Position: a node's value is Scale times its closeness to a centre,
	// the area's centre (Around "centre") or the centroid of the nodes of
	// its component (Around "centroid"):
	//
	//	value = round(Scale · (1 - d / D))
	//
	// where d is its distance to the centre and D the area's diagonal, so
	// that values lie in [0, Scale]. Needs a network with positions.
	Around string
	Scale  float64
}

// ValueModelKind is a kind of ValueModel.
type ValueModelKind uint8

const (
	// Battery drains with the bytes a node sends and receives, and time.
	Battery ValueModelKind = iota + 1
	// Position follows the node's closeness to a centre as it moves.
	Position
)

// Bounds of a value model's numbers: values are int64s worked out from
// float64s, exact below 2^53; a step shorter than a millisecond would be
// most of a run's events.
const (
	maxModelNumber = 1 << 53
	minModelStep   = time.Millisecond
)

// ParseValueModel reads a value model's spec: "battery" or
// "battery:tx=1,rx=0.5,idle=0,recharge=0,capacity=100000,every=1s", or
// "position" or "position:around=centroid,scale=1000,every=1s".
func ParseValueModel(spec string) (*ValueModel, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	m := &ValueModel{Every: time.Second}
	var known []string
	switch name {
	case "battery":
		m.Kind, m.Capacity, m.Tx, m.Rx = Battery, 100_000, 1, 0.5
		known = []string{"capacity", "tx", "rx", "idle", "recharge", "every"}
	case "position":
		m.Kind, m.Around, m.Scale = Position, "centre", 1000
		known = []string{"around", "scale", "every"}
	default:
		return nil, fmt.Errorf("values over time %q: want battery[:KEY=VALUE,...] or position[:KEY=VALUE,...]", spec)
	}
	if args == "" {
		return m, nil
	}
	given := map[string]bool{}
	for _, kv := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || !slices.Contains(known, k) {
			return nil, fmt.Errorf("values over time %q: %q is not KEY=VALUE with a key of %s (%s)", spec, kv, name, strings.Join(known, ", "))
		}
		if given[k] {
			return nil, fmt.Errorf("values over time %q: %s is given twice", spec, k)
		}
		given[k] = true
		switch k {
		case "every":
			d, err := algo.ParseDuration(v)
			if err != nil || d < minModelStep {
				return nil, fmt.Errorf("values over time %q: every=%s: want a duration of %v or more, like 1s", spec, v, minModelStep)
			}
			m.Every = d
		case "around":
			if v != "centre" && v != "center" && v != "centroid" {
				return nil, fmt.Errorf("values over time %q: around=%s: want centre (the area's) or centroid (the component's)", spec, v)
			}
			m.Around = strings.Replace(v, "center", "centre", 1)
		default:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0 && f <= maxModelNumber) || (k == "capacity" || k == "scale") && f == 0 {
				return nil, fmt.Errorf("values over time %q: %s=%s: want a number from 0 to 2^53 (above 0 for capacity and scale)", spec, k, v)
			}
			*map[string]*float64{"capacity": &m.Capacity, "tx": &m.Tx, "rx": &m.Rx, "idle": &m.Idle,
				"recharge": &m.Recharge, "scale": &m.Scale}[k] = f
		}
	}
	return m, nil
}

// String is the model's spec in full, as ParseValueModel reads it.
func (m *ValueModel) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	if m.Kind == Position {
		return fmt.Sprintf("position:around=%s,scale=%s,every=%v", m.Around, f(m.Scale), m.Every)
	}
	return fmt.Sprintf("battery:capacity=%s,tx=%s,rx=%s,idle=%s,recharge=%s,every=%v",
		f(m.Capacity), f(m.Tx), f(m.Rx), f(m.Idle), f(m.Recharge), m.Every)
}

// ValueStats is what a run with a value model measured (Result.Values).
type ValueStats struct {
	// HandOvers counts the times a leader stopped leading and then
	// (after an election, say) followed a node more valued than itself:
	// the value's hand-overs, and also those of a merge of components (a
	// heal, nodes moving into range), where the less valued leader yields
	// to the other as well.
	HandOvers int
	// FirstEmpty is when the first node's battery ran out (its value
	// reached 0): the network's lifetime; -1 if none did.
	FirstEmpty time.Duration
	// Empty is how many nodes' batteries ran out (each counted once,
	// whatever a recharge did after).
	Empty int
	// Spent is the energy the nodes spent while leading and while not
	// (Battery), and LeaderTime and OtherTime the node-time in each, alive
	// with charge left: Spent[0]/LeaderTime is the energy a leader spends
	// a second. A node's role is taken at each step for the whole step.
	Spent                 [2]float64
	LeaderTime, OtherTime time.Duration
}

// values is a run's value model at work.
type values struct {
	m      *ValueModel
	charge []float64 // by id (Battery)
	empty  []bool    // by id: its battery ran out (counted once)
	spent  []float64 // by id: spent since the last step
	// yielded: by id, led and has since stopped, and follows no other
	// node yet (in an election, say).
	yielded []bool
	stats   ValueStats
}

func (e *Engine) startValues(m *ValueModel) error {
	if e.cfg.Duration <= 0 {
		return fmt.Errorf("values over time (%s) need a duration: they change for as long as the run lasts", m)
	}
	if m.Kind == Position && e.graph.Pos == nil && e.cfg.Motion == nil {
		return fmt.Errorf("values over time (%s) need a network with positions (geometric, or mobility)", m)
	}
	n := e.graph.N()
	vs := &values{m: m, spent: make([]float64, n), yielded: make([]bool, n)}
	vs.stats.FirstEmpty = -1
	var start []int64
	if m.Kind == Battery {
		vs.charge, vs.empty = make([]float64, n), make([]bool, n)
		start = make([]int64, n)
		for v := range vs.charge {
			vs.charge[v] = m.Capacity
			start[v] = int64(m.Capacity)
		}
	} else {
		start = e.positionValues(m)
	}
	for v, x := range start {
		e.values[v] = x
		e.node(algo.NodeID(v)).value = x
	}
	e.vals = vs
	return nil
}

// spend notes the energy of a message sent or received (emitMsg).
func (vs *values) spend(kind trace.Kind, v algo.NodeID, m *algo.Message) {
	if vs.charge == nil {
		return
	}
	bytes := float64(wiresize.Message(len(m.Peers), len(m.Data)))
	switch kind {
	case trace.Sent:
		vs.spent[v] += vs.m.Tx * bytes
	case trace.Delivered:
		vs.spent[v] += vs.m.Rx * bytes
	}
}

// valueStatus notes node v's new status (noteStatus): a leader that
// stops leading, and then (perhaps after an election) follows a node more
// valued than itself, handed over.
// It is called before the node's record takes the new status.
func (e *Engine) valueStatus(v algo.NodeID, now algo.Status) {
	vs := e.vals
	switch {
	case now.Leader == v:
		vs.yielded[v] = false
	case e.node(v).status.Leader == v:
		vs.yielded[v] = true
	}
	if u := now.Leader; vs.yielded[v] && u != v && u >= 0 && int(u) < len(e.slot) {
		vs.yielded[v] = false
		if (algo.Peer{ID: u, Value: e.node(u).value}).Better(algo.Peer{ID: v, Value: e.node(v).value}) {
			vs.stats.HandOvers++
		}
	}
}

// role is where node nd's energy counts in ValueStats.Spent: 0 while it
// leads itself, 1 otherwise.
func role(nd *node) int {
	if nd.status.Leader == nd.id {
		return 0
	}
	return 1
}

// stepValues works out every live node's value now, and queues the next
// step.
func (e *Engine) stepValues() {
	m := e.vals.m
	dt := float64(m.Every) / float64(time.Second)
	var pos []int64
	if m.Kind == Position {
		pos = e.positionValues(m)
	}
	// The leaders' values are set last: a leader's change then meets its
	// followers' new values, as one who reads the trace event by event
	// (the story, the page) tells whether it fell below one of them.
	for _, leaders := range []bool{false, true} {
		for k := range e.nodes {
			if nd := &e.nodes[k]; (role(nd) == 0) == leaders {
				e.stepValue(nd, pos, dt)
			}
		}
	}
	e.schedule(event{at: e.now + int64(m.Every), kind: evValues})
}

// stepValue works out node nd's value now (pos: the Position model's).
func (e *Engine) stepValue(nd *node, pos []int64, dt float64) {
	vs, m, v := e.vals, e.vals.m, nd.id
	if !nd.alive {
		return // what it spent before it crashed was charged then (chargeCrash)
	}
	if m.Kind == Position {
		e.setValue(v, pos[v])
		return
	}
	spent := vs.spent[v] + m.Idle*dt
	vs.spent[v] = 0
	was := vs.charge[v]
	if was > 0 {
		vs.stats.Spent[role(nd)] += min(spent, was+m.Recharge*dt)
		if role(nd) == 0 {
			vs.stats.LeaderTime += m.Every
		} else {
			vs.stats.OtherTime += m.Every
		}
	}
	vs.charge[v] = min(m.Capacity, max(0, was-spent+m.Recharge*dt))
	e.noteEmpty(v)
	e.setValue(v, int64(math.Floor(vs.charge[v])))
}

// noteEmpty counts node v's battery as run out, the first time it is.
func (e *Engine) noteEmpty(v algo.NodeID) {
	vs := e.vals
	if vs.charge[v] > 0 || vs.empty[v] {
		return
	}
	vs.empty[v] = true
	vs.stats.Empty++
	if vs.stats.FirstEmpty < 0 {
		vs.stats.FirstEmpty = time.Duration(e.now)
	}
}

// chargeCrash charges node v, crashing, with what it spent since the last
// step (its value is set again when it comes back and a step comes).
func (e *Engine) chargeCrash(v algo.NodeID) {
	vs := e.vals
	if vs.charge == nil {
		return
	}
	vs.stats.Spent[role(e.node(v))] += min(vs.spent[v], vs.charge[v])
	vs.charge[v] = max(0, vs.charge[v]-vs.spent[v])
	vs.spent[v] = 0
	e.noteEmpty(v)
}

// finishValues is what the value model measured (nil: no model).
func (e *Engine) finishValues() *ValueStats {
	if e.vals == nil {
		return nil
	}
	s := e.vals.stats
	return &s
}

// positionValues are the values the Position model m gives every node now.
func (e *Engine) positionValues(m *ValueModel) []int64 {
	pos, n := e.positions(), e.graph.N()
	w, h := e.graph.Width, e.graph.Height
	diag := math.Hypot(w, h)
	out := make([]int64, n)
	value := func(v int, cx, cy float64) int64 {
		d := math.Hypot(pos[v].X-cx, pos[v].Y-cy)
		return int64(math.Round(m.Scale * max(0, 1-d/diag)))
	}
	if m.Around == "centre" {
		for v := range out {
			out[v] = value(v, w/2, h/2)
		}
		return out
	}
	// The centroid of each component: the live nodes joined by links up.
	comp := make([]int32, n)
	for v := range comp {
		comp[v] = -1
	}
	var queue []algo.NodeID
	for s := range n {
		if comp[s] >= 0 || e.started && !e.node(algo.NodeID(s)).alive {
			continue
		}
		queue = append(queue[:0], algo.NodeID(s))
		comp[s] = int32(s)
		var sx, sy float64
		for i := 0; i < len(queue); i++ {
			v := queue[i]
			sx, sy = sx+pos[v].X, sy+pos[v].Y
			for _, u := range e.nbrsOf(e.node(v)) {
				if comp[u] < 0 {
					comp[u] = int32(s)
					queue = append(queue, u)
				}
			}
		}
		cx, cy := sx/float64(len(queue)), sy/float64(len(queue))
		for _, v := range queue {
			out[v] = value(int(v), cx, cy)
		}
	}
	return out
}
