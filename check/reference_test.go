package check

import (
	"cmp"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// refCheck is a brute-force re-statement of the specification, written
// without the Monitor's incremental machinery: at the end of every instant in
// which the network changed it recomputes all components by search, and it
// judges every component by scanning its members. It shares only the
// evaluation order the Monitor documents:
//
//   - events at one instant apply in order; a status change is judged at
//     once, unless the network already changed at that instant, in which case
//     its component is judged at the end of the instant, after the components
//     are rebuilt;
//   - a component rebuilt at instant t (because it holds a node touched at t:
//     an end of a changed link, a crashed node's neighbour, a restarted node,
//     a node whose value changed, a node asked to elect) has since = t and inherits the earliest
//     open election of its members' old components; others are unchanged;
//   - under Config.ValueAtElection a value change touches nothing: the
//     node's new value waits, and its members take up the values they wait
//     with when a component is rebuilt (before it is judged);
//   - deadlines at since+Stabilization and since+Liveness are judged after
//     the events of their instant, at their own time.
type refComp struct {
	members []algo.NodeID
	// best is the most valued member when the component was born, or
	// when a value change last kept it so.
	best       algo.NodeID
	since      time.Duration
	electOpen  bool
	electStart time.Duration
	live       bool
	reportedS  bool
	reportedL  bool
	doneS      bool // safety deadline run
	doneL      bool // liveness deadline run
}

type refResult struct {
	violations []Violation
	elections  []Election
	open       int
	unchecked  int
	unreached  int
	notes      int // the notes the report must carry
}

type refChecker struct {
	cfg     Config
	o       *oracle
	comps   []*refComp
	compOf  []*refComp
	now     time.Duration
	dirty   bool
	touched []bool
	// initiated marks the nodes asked to elect (elect_called).
	initiated []bool
	// Under Config.ValueAtElection, the nodes whose new value (next)
	// waits for their component to be rebuilt.
	waiting []bool
	next    []int64
	// valued lists the live nodes whose value changed in the instant
	// (without ValueAtElection): a change of their component only if it
	// changes its most valued member.
	valued  []algo.NodeID
	pending []*refComp
	res     refResult
}

func refCheck(cfg Config, events []trace.Event) refResult {
	n := initialNetwork(events).N()
	r := &refChecker{cfg: cfg, o: newOracle(n), compOf: make([]*refComp, n), touched: make([]bool, n), initiated: make([]bool, n),
		waiting: make([]bool, n), next: make([]int64, n)}
	if cfg.AmongInitiators {
		r.o.among = r.initiated
	}
	for _, e := range events {
		if e.At > r.now {
			r.endInstant()
			r.runDeadlines(e.At)
			r.now = e.At
		}
		r.apply(e)
		if e.Kind == trace.End {
			break
		}
	}
	return r.res
}

func (r *refChecker) touch(v algo.NodeID) {
	r.touched[v] = true
	r.dirty = true
}

func (r *refChecker) apply(e trace.Event) {
	o, v := r.o, e.Node
	switch e.Kind {
	case trace.NodeAdded:
		r.touch(v)
	case trace.LinkUp, trace.LinkDown:
		if !o.cutAny(topo.Edge{A: e.Node, B: e.Peer}) {
			r.touch(e.Node)
			r.touch(e.Peer)
		}
	case trace.Cut, trace.Uncut:
		// A change of both ends when it changes what is cut.
		if o.cut[[2]algo.NodeID{e.Node, e.Peer}] != (e.Kind == trace.Cut) {
			r.touch(e.Node)
			r.touch(e.Peer)
		}
	case trace.ClockRate, trace.ClockJumped, trace.Slowed:
		r.touch(v)
	case trace.Crashed:
		if o.alive[v] {
			r.touch(v)
			for u := range o.n {
				if o.linked(v, algo.NodeID(u)) {
					r.touch(algo.NodeID(u))
				}
			}
		}
	case trace.Restarted, trace.Recovered:
		if !o.alive[v] {
			r.touch(v)
		}
	case trace.ValueChanged:
		if r.cfg.ValueAtElection {
			// Not the oracle's value yet: the one the component is held to
			// stays until it is rebuilt.
			r.waiting[v], r.next[v] = true, e.Value
			r.res.notes = 1
			return
		}
		if o.alive[v] {
			r.valued = append(r.valued, v)
		}
	case trace.ElectCalled:
		r.initiated[v] = true
		r.touch(v)
	case trace.StatusChanged:
		// Every leader comes from an election, whose index the status carries.
		old := o.status[v]
		if s := e.Status; !r.cfg.Spontaneous && o.alive[v] && s.HasLeader() && s.Index.IsZero() && (!old.HasLeader() || old.Leader != s.Leader) {
			r.res.violations = append(r.res.violations, Violation{At: r.now, Property: "index", Nodes: []algo.NodeID{v}})
		}
	case trace.End:
		o.apply(e)
		r.endInstant()
		r.runDeadlines(e.At + 1)
		r.now = e.At
		r.end(e.Quiescent)
		return
	}
	o.apply(e)
	if e.Kind == trace.Crashed {
		r.compOf[v] = nil // it left its component, which is rebuilt anyway
	}
	if e.Kind == trace.StatusChanged && o.alive[v] && r.compOf[v] != nil {
		if r.dirty || len(r.valued) > 0 {
			r.pending = append(r.pending, r.compOf[v])
		} else {
			r.review(r.compOf[v])
		}
	}
}

func (r *refChecker) endInstant() {
	r.rebuild()
	// The values changed in the instant: a component whose most valued
	// member they changed is born again.
	for _, v := range r.valued {
		if c := r.compOf[v]; r.o.alive[v] && c != nil {
			if best, _, _, _, _ := r.o.judge(c.members); best != c.best {
				r.touch(v)
			}
		}
	}
	r.valued = r.valued[:0]
	r.rebuild()
	for _, c := range r.pending { // the values changed nothing
		if slices.Contains(r.comps, c) {
			r.review(c)
		}
	}
	r.pending = r.pending[:0]
}

func (r *refChecker) rebuild() {
	if !r.dirty {
		return
	}
	r.dirty = false
	old := r.compOf
	r.compOf = make([]*refComp, r.o.n)
	var fresh []*refComp
	var next []*refComp
	for _, members := range r.o.components() {
		isFresh := false
		for _, v := range members {
			isFresh = isFresh || r.touched[v]
		}
		var c *refComp
		if !isFresh {
			c = old[members[0]] // unchanged: same members, same component
		} else {
			c = &refComp{members: members, since: r.now}
			for _, v := range members {
				if r.waiting[v] {
					r.waiting[v], r.o.value[v] = false, r.next[v]
				}
				if oc := old[v]; oc != nil && oc.electOpen && (!c.electOpen || oc.electStart < c.electStart) {
					c.electOpen, c.electStart = true, oc.electStart
				}
			}
			fresh = append(fresh, c)
		}
		for _, v := range members {
			r.compOf[v] = c
		}
		next = append(next, c)
	}
	r.comps = next
	for _, c := range fresh {
		c.best, _, _, _, _ = r.o.judge(c.members)
	}
	clear(r.touched)
	for _, c := range fresh {
		r.review(c)
	}
	for _, c := range r.pending {
		if slices.Contains(r.comps, c) && !slices.Contains(fresh, c) {
			r.review(c)
		}
	}
	r.pending = r.pending[:0]
}

func (r *refChecker) runDeadlines(before time.Duration) {
	type due struct {
		at       time.Duration
		c        *refComp
		liveness bool
	}
	var ds []due
	for _, c := range r.comps {
		if at := c.since + r.cfg.Stabilization; !c.doneS && at < before {
			ds = append(ds, due{at, c, false})
		}
		if at := c.since + r.cfg.Liveness; !c.doneL && at < before {
			ds = append(ds, due{at, c, true})
		}
	}
	slices.SortStableFunc(ds, func(a, b due) int { return cmp.Compare(a.at, b.at) })
	for _, d := range ds {
		r.now = d.at
		st := r.state(d.c)
		if !d.liveness {
			d.c.doneS = true
			if st.disagree {
				r.safety(d.c)
			}
			continue
		}
		d.c.doneL = true
		d.c.live = true
		if !st.settled {
			r.liveness(d.c)
		}
	}
}

type refState struct {
	best                                algo.NodeID
	electing, allLed, disagree, settled bool
	reached                             bool
	leaders                             int
}

func (r *refChecker) state(c *refComp) refState {
	best, disagree, settled, reached, _ := r.o.judge(c.members)
	st := refState{best: best, disagree: disagree, settled: settled, reached: reached, allLed: true}
	seen := map[algo.NodeID]bool{}
	for _, v := range c.members {
		s := r.o.status[v]
		st.electing = st.electing || s.State != algo.Norm
		st.allLed = st.allLed && s.HasLeader()
		if s.HasLeader() && !seen[s.Leader] {
			seen[s.Leader] = true
			st.leaders++
		}
	}
	return st
}

func (r *refChecker) inScope(c *refComp) bool {
	if r.cfg.Spontaneous || r.state(c).reached {
		return true
	}
	for _, v := range c.members {
		if r.initiated[v] {
			return true
		}
	}
	return false
}

func (r *refChecker) review(c *refComp) {
	st := r.state(c)
	if st.electing && !c.electOpen {
		c.electOpen, c.electStart = true, r.now
	}
	if c.electOpen && !st.electing && st.allLed && st.leaders == 1 {
		c.electOpen = false
		leader := r.o.status[c.members[0]].Leader // all agree
		r.res.elections = append(r.res.elections, Election{Start: c.electStart, End: r.now, Nodes: len(c.members), Leader: leader})
	}
	if st.disagree && r.now-c.since > r.cfg.Stabilization {
		r.safety(c)
	}
	if c.live && !st.settled {
		r.liveness(c)
	}
}

func (r *refChecker) safety(c *refComp) {
	if c.reportedS {
		return
	}
	if r.halfLinked(c) {
		// No agreement while a cut lasts; no two leaders under one index.
		byIndex := map[algo.Index]algo.NodeID{}
		first := map[algo.Index]algo.NodeID{}
		for _, v := range c.members {
			s := r.o.status[v]
			if s.State != algo.Norm || !s.HasLeader() || s.Index.IsZero() {
				continue
			}
			if l, ok := byIndex[s.Index]; !ok {
				byIndex[s.Index], first[s.Index] = s.Leader, v
			} else if l != s.Leader {
				c.reportedS = true
				r.res.violations = append(r.res.violations, Violation{At: r.now, Property: "fencing", Nodes: []algo.NodeID{first[s.Index], v}})
				return
			}
		}
		return
	}
	c.reportedS = true
	var nodes, leaders []algo.NodeID
	for _, v := range c.members {
		s := r.o.status[v]
		if s.HasLeader() && !slices.Contains(leaders, s.Leader) && len(nodes) < 2 {
			leaders = append(leaders, s.Leader)
			nodes = append(nodes, v)
		}
	}
	r.res.violations = append(r.res.violations, Violation{At: r.now, Property: "safety", Nodes: nodes})
}

func (r *refChecker) liveness(c *refComp) {
	if c.reportedL || !r.inScope(c) || r.halfLinked(c) {
		return
	}
	c.reportedL = true
	best := r.state(c).best
	var wrong []algo.NodeID
	for _, v := range c.members {
		if s := r.o.status[v]; (!s.HasLeader() || s.Leader != best) && len(wrong) < 10 {
			wrong = append(wrong, v)
		}
	}
	r.res.violations = append(r.res.violations, Violation{At: r.now, Property: "liveness", Nodes: wrong})
}

func (r *refChecker) end(quiescent bool) {
	for _, c := range r.comps {
		st := r.state(c)
		if c.electOpen {
			r.res.open++
		}
		if !r.inScope(c) {
			r.res.unreached++
		}
		switch {
		case quiescent:
			if st.disagree {
				r.safety(c)
			}
			if !st.settled {
				r.liveness(c)
			}
		case !c.live && r.inScope(c):
			r.res.unchecked++
		}
		// Nothing is left unjudged: one the run left unsettled before its
		// bound fails, and under ExpectEveryComponent a component no
		// election reached, unless it holds an exempt node.
		exempt := r.cfg.UnelectedUninitiated && !slices.ContainsFunc(c.members, func(v algo.NodeID) bool { return r.initiated[v] })
		for _, v := range r.cfg.Unelected {
			exempt = exempt || slices.Contains(c.members, v)
		}
		exempt = exempt || r.halfLinked(c)
		if exempt {
			continue
		}
		if !r.inScope(c) && r.cfg.Expect == ExpectEveryComponent || (!quiescent && !r.cfg.openEnded() && !c.live && (!st.settled || st.disagree)) {
			r.res.violations = append(r.res.violations, Violation{At: r.now, Property: "liveness", Nodes: c.members[:min(len(c.members), 10)]})
		}
	}
}

// sortedViolations orders violations by time, then property, then nodes,
// without their reasons: the order of violations of different components at
// one instant is the Monitor's business.
func sortedViolations(vs []Violation) []Violation {
	out := make([]Violation, len(vs))
	for i, v := range vs {
		out[i] = Violation{At: v.At, Property: v.Property, Nodes: v.Nodes}
	}
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Property, b.Property), slices.Compare(a.Nodes, b.Nodes))
	})
	return out
}

func sortedElections(es []Election) []Election {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b Election) int {
		return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.Start, b.Start), cmp.Compare(a.Nodes, b.Nodes))
	})
	return out
}

// halfLinked says c holds an end of a direction cut.
func (r *refChecker) halfLinked(c *refComp) bool {
	for dir, cut := range r.o.cut {
		if cut && (slices.Contains(c.members, dir[0]) || slices.Contains(c.members, dir[1])) {
			return true
		}
	}
	return false
}
