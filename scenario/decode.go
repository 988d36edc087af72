package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/sim"
	"go.yaml.in/yaml/v3"
)

// maxNodeWork bounds the node ids all events of a file name together, 4Mi:
// room for many events over a million-node network. Aliases let a short file
// repeat a large node set in many events, and one short node set string can
// name millions of nodes (algo.ParseNodeSet takes about a second for 4Mi ids);
// the bound keeps any file, however written, from making Parse run for long or
// allocate much. It is a variable so that tests can lower it.
var maxNodeWork int64 = 1 << 22

// decoder walks a scenario file.
type decoder struct {
	Doc
	work int64 // node ids produced by events so far; see maxNodeWork
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

var topFields = []string{
	"algorithm", "params", "seed", "topology", "nodes", "values", "delay",
	"loss", "duration", "check", "events", "mobility", "range", "ranges",
	"initiators", "unelected", "schedule", "values_over_time",
}

// scenario applies the fields of the root mapping to s.
func (d *decoder) scenario(root *yaml.Node, s *Scenario) error {
	if root.Kind != yaml.MappingNode {
		return d.Errf(root, "", "a scenario must be a mapping of fields like \"algorithm: NAME\", got %s", Describe(root))
	}
	entries, err := d.Mapping(root, "", "field")
	if err != nil {
		return err
	}
	s.set = make(Positions, len(entries))
	for _, e := range entries {
		s.set.Set(e.Key, e.V)
		var err error
		switch e.Key {
		case "algorithm":
			s.Algorithm, err = d.Name(e.V, e.Key, "an algorithm name")
		case "params":
			s.Params, err = d.Params(e.V, e.Key, s.set)
		case "seed":
			s.Seed, err = d.seed(e.V, e.Key)
		case "topology":
			s.Topology, err = d.Name(e.V, e.Key, "a topology spec")
		case "nodes":
			s.Nodes, err = d.nodes(e.V, e.Key)
		case "values":
			s.Values, err = d.values(e.V, e.Key, s.set)
		case "delay":
			s.Delay, err = d.delay(e.V, e.Key)
		case "loss":
			s.Loss, err = d.loss(e.V, e.Key)
		case "duration":
			s.Duration, err = d.Duration(e.V, e.Key)
		case "mobility":
			s.Mobility, err = d.Name(e.V, e.Key, "a mobility spec")
		case "values_over_time":
			s.ValuesOver, err = d.Name(e.V, e.Key, "a value model like battery:tx=1 or position")
		case "range":
			s.Range, err = d.rangeM(e.V, e.Key)
		case "ranges":
			s.Ranges, err = d.ranges(e.V, e.Key)
		case "initiators":
			s.Initiators, err = d.NodeSet(e.V, e.Key)
		case "unelected":
			if v := Resolve(e.V); v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) == Uninitiated {
				s.Unelected = Uninitiated
				break
			}
			s.Unelected, err = d.NodeSet(e.V, e.Key)
		case "check":
			err = d.check(e.V, e.Key, &s.Check)
		case "events":
			s.Events, err = d.events(e.V, e.Key)
		case "schedule":
			s.Schedule, err = d.schedule(e.V, e.Key)
		default:
			err = d.Unknown(e, "", topFields)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) seed(n *yaml.Node, path string) (uint64, error) {
	v, err := d.Scalar(n, path, "an unsigned integer")
	if err != nil {
		return 0, err
	}
	t := strings.TrimSpace(v)
	if seed, perr := strconv.ParseUint(t, 10, 64); perr == nil {
		return seed, nil
	}
	n = Resolve(n)
	switch {
	case strings.HasPrefix(t, "-") && isDigits(t[1:]):
		return 0, d.Errf(n, path, "negative seed %q (want an integer from 0 to %d)", v, uint64(math.MaxUint64))
	case isDigits(t):
		return 0, d.Errf(n, path, "seed %q is too large (want an integer from 0 to %d)", v, uint64(math.MaxUint64))
	}
	return 0, d.Errf(n, path, "invalid seed %q (want an unsigned decimal integer)", v)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (d *decoder) nodes(n *yaml.Node, path string) (int, error) {
	v, err := d.Scalar(n, path, "a node count")
	if err != nil {
		return 0, err
	}
	c, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if perr != nil || c < 1 {
		return 0, d.Errf(Resolve(n), path, "invalid node count %q (want an integer from 1 to %d)", v, math.MaxInt32)
	}
	return int(c), nil
}

func (d *decoder) delay(n *yaml.Node, path string) (sim.Delay, error) {
	v, err := d.Scalar(n, path, "a delay like uniform:1ms:5ms")
	if err != nil {
		return sim.Delay{}, err
	}
	dl, perr := sim.ParseDelay(v)
	if perr != nil {
		return sim.Delay{}, d.Errf(Resolve(n), path, "%v", perr)
	}
	return dl, nil
}

func (d *decoder) loss(n *yaml.Node, path string) (float64, error) {
	v, err := d.Scalar(n, path, "a probability in [0, 1)")
	if err != nil {
		return 0, err
	}
	p, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "invalid loss %q (want a probability in [0, 1), like 0.01)", v)
	}
	if !(p >= 0 && p < 1) {
		return 0, d.Errf(Resolve(n), path, "loss %s is outside [0, 1)", strings.TrimSpace(v))
	}
	return p, nil
}

func (d *decoder) rangeM(n *yaml.Node, path string) (float64, error) {
	v, err := d.Scalar(n, path, "a radio range in metres")
	if err != nil {
		return 0, err
	}
	r, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil || !(r > 0) || math.IsInf(r, 0) {
		return 0, d.Errf(Resolve(n), path, "invalid range %q (want a number of metres > 0, like 250)", v)
	}
	return r, nil
}

// ranges reads nodes' radio ranges of their own: a mapping of node ids to
// metres.
func (d *decoder) ranges(n *yaml.Node, path string) (map[algo.NodeID]float64, error) {
	entries, err := d.Mapping(n, path, "node id")
	if err != nil {
		return nil, d.Errf(Resolve(n), path, "want a mapping of node ids to ranges in metres, like {3: 100, 7: 400}, got %s", Describe(Resolve(n)))
	}
	out := map[algo.NodeID]float64{}
	for _, e := range entries {
		id, err := algo.ParseNodeID(e.Key)
		if err != nil {
			return nil, d.Errf(e.K, path, "%v", err)
		}
		p := fmt.Sprintf("%s.%d", path, id)
		if out[id], err = d.rangeM(e.V, p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var checkFields = []string{"stabilization", "liveness", "expect"}

func (d *decoder) check(n *yaml.Node, path string, c *Check) error {
	entries, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	for _, e := range entries {
		var err error
		switch e.Key {
		case "stabilization":
			c.Stabilization, err = d.Duration(e.V, join(path, e.Key))
		case "liveness":
			c.Liveness, err = d.Duration(e.V, join(path, e.Key))
		case "expect":
			var name string
			if name, err = d.Name(e.V, join(path, e.Key), "an expectation"); err == nil {
				if c.Expect, err = check.ParseExpect(name); err != nil {
					err = d.Errf(e.V, join(path, e.Key), "%v", err)
				}
			}
		default:
			err = d.Unknown(e, path, checkFields)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var eventFields = []string{"at", "crash", "restart", "recover", "partition", "heal", "link_down", "link_up", "elect", "crash_on", "corrupt", "cut", "uncut", "loss", "clock", "slow", "value"}

func (d *decoder) events(n *yaml.Node, path string) ([]sim.Action, error) {
	n = Resolve(n)
	if IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errf(n, path, "want a list of events, got %s", Describe(n))
	}
	var out []sim.Action
	for i, item := range n.Content {
		a, err := d.event(item, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		d.work += 1 + int64(len(a.Nodes)) + int64(len(a.Groups))
		for _, g := range a.Groups {
			d.work += int64(len(g.Nodes))
		}
		if d.work > maxNodeWork {
			return nil, d.Errf(Resolve(item), fmt.Sprintf("%s[%d]", path, i),
				"the events name more than %d nodes in all", maxNodeWork)
		}
		out = append(out, a)
	}
	return out, nil
}

func (d *decoder) event(n *yaml.Node, path string) (sim.Action, error) {
	n = Resolve(n)
	if n.Kind != yaml.MappingNode {
		return sim.Action{}, d.Errf(n, path, "want an event, a mapping like {at: 10s, crash: 7}, got %s", Describe(n))
	}
	entries, err := d.Mapping(n, path, "field")
	if err != nil {
		return sim.Action{}, err
	}
	var at *Entry
	var acts []Entry
	for i, e := range entries {
		if e.Key == "at" {
			at = &entries[i]
			continue
		}
		if _, ok := sim.ParseActionKind(e.Key); !ok {
			return sim.Action{}, d.Unknown(e, path, eventFields)
		}
		acts = append(acts, e)
	}
	if at == nil {
		return sim.Action{}, d.Errf(n, path, `missing "at"`)
	}
	if len(acts) != 1 {
		names := "none"
		if len(acts) > 0 {
			ks := make([]string, len(acts))
			for i, e := range acts {
				ks[i] = e.Key
			}
			names = strings.Join(ks, ", ")
		}
		return sim.Action{}, d.Errf(n, path, `an event needs exactly one action besides "at" (got %s)`, names)
	}
	a := sim.Action{Where: fmt.Sprintf("%s:%d", displayName(d.File), n.Line)}
	if a.At, err = d.Duration(at.V, join(path, "at")); err != nil {
		return sim.Action{}, err
	}
	e := acts[0]
	a.Kind, _ = sim.ParseActionKind(e.Key)
	apath := join(path, e.Key)
	switch a.Kind {
	case sim.CrashOn:
		err = d.crashOn(e.V, apath, &a)
	case sim.Crash, sim.Restart, sim.Recover, sim.ElectAt, sim.Corrupt:
		if v := Resolve(e.V); a.Kind == sim.Crash && v.Kind == yaml.ScalarNode && v.Value == "leader" {
			a.Leader = true // whichever node leads when the event comes
			break
		}
		a.Nodes, err = d.nodeSet(e.V, apath)
	case sim.Partition:
		a.Groups, err = d.partition(e.V, apath)
	case sim.Heal:
		v := Resolve(e.V)
		switch {
		case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && isTrue(v.Value):
		case v.Kind == yaml.ScalarNode && v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 && isTrue(v.Value):
			err = d.Errf(v, apath, "heal takes true, unquoted; got the string %q", v.Value)
		default:
			err = d.Errf(v, apath, "heal takes true, got %s", Describe(v))
		}
	case sim.LinkDown, sim.LinkUp:
		err = d.link(e.V, apath, &a)
	case sim.Cut, sim.Uncut, sim.LossDir, sim.Clock, sim.Slow:
		err = d.grayEvent(e.V, apath, &a)
	case sim.SetValue:
		err = d.valueEvent(e.V, apath, &a)
	}
	if err != nil {
		return sim.Action{}, err
	}
	return a, nil
}

func isTrue(s string) bool {
	b, err := strconv.ParseBool(s)
	return err == nil && b
}

// nodeSet reads the nodes an event acts on: one id, a list of ids, or a node
// set string like "1-3,7". The result is sorted, without duplicates, and never
// empty.
func (d *decoder) nodeSet(n *yaml.Node, path string) ([]algo.NodeID, error) {
	n = Resolve(n)
	var ids []algo.NodeID
	switch n.Kind {
	case yaml.SequenceNode:
		for i, item := range n.Content {
			id, err := d.NodeID(item, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
	case yaml.ScalarNode:
		v, err := d.Scalar(n, path, "a node id, a list of ids, or a node set like 1-3,7")
		if err != nil {
			return nil, err
		}
		t := strings.TrimSpace(v)
		if id, err := algo.ParseNodeID(t); err == nil {
			return []algo.NodeID{id}, nil
		}
		if t == "all" {
			return nil, d.Errf(n, path, `"all" is not allowed in events (name the nodes, like 0-9)`)
		}
		if !strings.Contains(t, ",") && strings.LastIndexByte(t, '-') <= 0 && t != "none" && t != "" {
			_, err := algo.ParseNodeID(v)
			return nil, d.Errf(n, path, "%v", err)
		}
		if c := setSize(t); c > maxNodeWork {
			return nil, d.Errf(n, path, "node set %q names %d nodes, more than the %d the events of a file may name in all", t, c, maxNodeWork)
		} else if c > maxNodeWork-d.work {
			return nil, d.Errf(n, path, "the events name more than %d nodes in all", maxNodeWork)
		}
		var perr error
		ids, _, perr = algo.ParseNodeSet(t)
		if perr != nil {
			return nil, d.Errf(n, path, "%v", perr)
		}
	default:
		return nil, d.Errf(n, path, "want a node id, a list of ids, or a node set like 1-3,7, got %s", Describe(n))
	}
	if len(ids) == 0 {
		return nil, d.Errf(n, path, "no nodes given")
	}
	return ids, nil
}

// NodeSet reads a node set that applies to the whole run (initiators,
// unelected): "all", "none", one id, a list of ids, or a set like "0,3-5".
// It is kept as a set string, to be resolved against the network.
func (d *Doc) NodeSet(n *yaml.Node, path string) (string, error) {
	n = Resolve(n)
	if n.Kind == yaml.SequenceNode {
		parts := make([]string, len(n.Content))
		for i, item := range n.Content {
			id, err := d.NodeID(item, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return "", err
			}
			parts[i] = strconv.Itoa(int(id))
		}
		if len(parts) == 0 {
			return "none", nil
		}
		return strings.Join(parts, ","), nil
	}
	v, err := d.Scalar(n, path, `"all", "none", a node id, a list of ids, or a node set like 0,3-5`)
	if err != nil {
		return "", err
	}
	t := strings.TrimSpace(v)
	if t == "" {
		return "", d.Errf(n, path, `empty node set (write "none" for no node)`)
	}
	if c := setSize(t); c > maxNodeWork {
		return "", d.Errf(n, path, "node set %q names %d nodes, more than the %d a file may name", t, c, maxNodeWork)
	}
	if _, _, err := algo.ParseNodeSet(t); err != nil {
		return "", d.Errf(n, path, "%v", err)
	}
	return t, nil
}

// setSize is an upper bound on the ids a node set string names, counted
// without building them; parts that do not parse count as one.
func setSize(s string) int64 {
	var total int64
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		size := int64(1)
		if i := strings.IndexByte(part, '-'); i > 0 {
			lo, err1 := strconv.ParseInt(strings.TrimSpace(part[:i]), 10, 32)
			hi, err2 := strconv.ParseInt(strings.TrimSpace(part[i+1:]), 10, 32)
			if err1 == nil && err2 == nil && hi > lo {
				size = hi - lo + 1
			}
		}
		total += size
	}
	return total
}

func (d *decoder) partition(n *yaml.Node, path string) ([]sim.Group, error) {
	entries, err := d.Mapping(n, path, "group")
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, d.Errf(Resolve(n), path, "a partition needs at least one group, like {left: 0-4, right: 5-9}")
	}
	groups := make([]sim.Group, 0, len(entries))
	owner := map[algo.NodeID]string{}
	for _, e := range entries {
		if strings.TrimSpace(e.Key) == "" {
			return nil, d.Errf(e.K, path, "empty group name")
		}
		g := sim.Group{Name: e.Key}
		gpath := join(path, e.Key)
		if v := Resolve(e.V); v.Kind == yaml.MappingNode {
			// {area: [X0, Y0, X1, Y1]}: the nodes placed in that rectangle.
			fields, err := d.Mapping(v, gpath, "field")
			if err != nil {
				return nil, err
			}
			for _, f := range fields {
				if f.Key != "area" {
					return nil, d.Unknown(f, gpath, []string{"area"})
				}
				area, err := d.area(f.V, join(gpath, "area"))
				if err != nil {
					return nil, err
				}
				g.Area = &area
			}
			if g.Area == nil {
				return nil, d.Errf(v, gpath, `a group is nodes (3, [1, 2], "0-9") or {area: [X0, Y0, X1, Y1]}`)
			}
			groups = append(groups, g)
			continue
		}
		ids, err := d.nodeSet(e.V, gpath)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if other, dup := owner[id]; dup {
				return nil, d.Errf(Resolve(e.V), path, "node %d is in both group %q and group %q", id, other, e.Key)
			}
			owner[id] = e.Key
		}
		g.Nodes = ids
		groups = append(groups, g)
	}
	return groups, nil
}

// area reads [X0, Y0, X1, Y1], a rectangle of the plane in metres.
func (d *decoder) area(n *yaml.Node, path string) (sim.Rect, error) {
	n = Resolve(n)
	if n.Kind != yaml.SequenceNode || len(n.Content) != 4 {
		return sim.Rect{}, d.Errf(n, path, "want [X0, Y0, X1, Y1], four numbers, got %s", Describe(n))
	}
	var c [4]float64
	for i, item := range n.Content {
		v, err := d.Scalar(item, path, "a number")
		if err != nil {
			return sim.Rect{}, err
		}
		f, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return sim.Rect{}, d.Errf(Resolve(item), path, "%q is not a number", v)
		}
		c[i] = f
	}
	if c[2] <= c[0] || c[3] <= c[1] {
		return sim.Rect{}, d.Errf(n, path, "empty area: want X0 < X1 and Y0 < Y1")
	}
	return sim.Rect{X0: c[0], Y0: c[1], X1: c[2], Y1: c[3]}, nil
}

// link reads the two ends of a link, stored lower id first.
func (d *decoder) link(n *yaml.Node, path string, a *sim.Action) error {
	n = Resolve(n)
	if n.Kind != yaml.SequenceNode {
		return d.Errf(n, path, "want the two ends of a link, like [3, 4], got %s", Describe(n))
	}
	if len(n.Content) != 2 {
		return d.Errf(n, path, "want exactly two node ids, like [3, 4], got %d", len(n.Content))
	}
	x, err := d.NodeID(n.Content[0], path+"[0]")
	if err != nil {
		return err
	}
	y, err := d.NodeID(n.Content[1], path+"[1]")
	if err != nil {
		return err
	}
	if x == y {
		return d.Errf(n, path, "a link joins two different nodes, got %d twice", x)
	}
	a.Link.A, a.Link.B = min(x, y), max(x, y)
	return nil
}

// crashOn reads {node: N, message: TYPE}: N crashes when a TYPE message
// reaches it.
func (d *decoder) crashOn(n *yaml.Node, path string, a *sim.Action) error {
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	for _, f := range fields {
		switch f.Key {
		case "node", "nodes":
			if a.Nodes, err = d.nodeSet(f.V, join(path, f.Key)); err != nil {
				return err
			}
		case "message":
			if a.Message, err = d.Name(f.V, join(path, f.Key), "a message type"); err != nil {
				return err
			}
		default:
			return d.Unknown(f, path, []string{"node", "message"})
		}
	}
	if len(a.Nodes) == 0 || a.Message == "" {
		return d.Errf(Resolve(n), path, "want {node: N, message: TYPE}")
	}
	return nil
}

var scheduleFields = []string{"timed", "reorder", "steps"}

// schedule reads {timed: BOOL, reorder: BOOL, steps: [STEP, ...]}: the
// run's every event, in order (Schedule).
func (d *decoder) schedule(n *yaml.Node, path string) (*Schedule, error) {
	n = Resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, d.Errf(n, path, "want a schedule, a mapping like {reorder: true, steps: [{at: 1ms, deliver: {from: 1, to: 2, seq: 0}}]}, got %s", Describe(n))
	}
	entries, err := d.Mapping(n, path, "field")
	if err != nil {
		return nil, err
	}
	sch := &Schedule{}
	steps := false
	for _, e := range entries {
		var err error
		switch e.Key {
		case "timed":
			sch.Timed, err = d.flag(e.V, join(path, e.Key))
		case "reorder":
			sch.Reorder, err = d.flag(e.V, join(path, e.Key))
		case "steps":
			sch.Steps, sch.Where, err = d.steps(e.V, join(path, e.Key))
			steps = true
		default:
			err = d.Unknown(e, path, scheduleFields)
		}
		if err != nil {
			return nil, err
		}
	}
	if !steps {
		return nil, d.Errf(n, path, `missing "steps" (write steps: [] for a run of the boot alone)`)
	}
	return sch, nil
}

// flag reads true or false, unquoted.
func (d *decoder) flag(n *yaml.Node, path string) (bool, error) {
	v := Resolve(n)
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" {
		if b, err := strconv.ParseBool(strings.ToLower(v.Value)); err == nil {
			return b, nil
		}
	}
	return false, d.Errf(v, path, "want true or false, got %s", Describe(v))
}

var stepFields = []string{"at", "deliver", "fire", "lose", "crash", "restart", "recover", "link-down", "link-up"}

// steps reads a schedule's steps, in time order, and where each stands.
func (d *decoder) steps(n *yaml.Node, path string) ([]explore.Step, []string, error) {
	n = Resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, nil, d.Errf(n, path, "want a list of steps, like [{at: 1ms, deliver: {from: 1, to: 2, seq: 0}}], got %s", Describe(n))
	}
	steps := make([]explore.Step, 0, len(n.Content))
	where := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		spath := fmt.Sprintf("%s[%d]", path, i)
		st, at, err := d.step(item, spath)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 && st.At < steps[i-1].At {
			return nil, nil, d.Errf(at, join(spath, "at"), "%v comes before the step before it (%s, at %v): a schedule's steps are in time order",
				st.At, where[i-1], steps[i-1].At)
		}
		steps = append(steps, st)
		where = append(where, fmt.Sprintf("%s:%d", displayName(d.File), Resolve(item).Line))
	}
	return steps, where, nil
}

// step reads one step: {at: DURATION, KIND: WHAT}, and returns the node of
// its time.
func (d *decoder) step(n *yaml.Node, path string) (explore.Step, *yaml.Node, error) {
	n = Resolve(n)
	if n.Kind != yaml.MappingNode {
		return explore.Step{}, nil, d.Errf(n, path, "want a step, a mapping like {at: 1ms, deliver: {from: 1, to: 2, seq: 0}}, got %s", Describe(n))
	}
	entries, err := d.Mapping(n, path, "field")
	if err != nil {
		return explore.Step{}, nil, err
	}
	var at *Entry
	var kinds []Entry
	st := explore.Step{Peer: algo.None}
	for i, e := range entries {
		if e.Key == "at" {
			at = &entries[i]
			continue
		}
		if st.Kind, err = explore.ParseStepKind(e.Key); err != nil {
			return explore.Step{}, nil, d.Unknown(e, path, stepFields)
		}
		kinds = append(kinds, e)
	}
	if at == nil {
		return explore.Step{}, nil, d.Errf(n, path, `missing "at"`)
	}
	if len(kinds) != 1 {
		names := "none"
		if len(kinds) > 0 {
			ks := make([]string, len(kinds))
			for i, e := range kinds {
				ks[i] = e.Key
			}
			names = strings.Join(ks, ", ")
		}
		return explore.Step{}, nil, d.Errf(n, path, `a step needs exactly one of deliver, fire, lose, crash, restart, recover, link-down or link-up besides "at" (got %s)`, names)
	}
	if st.At, err = d.Duration(at.V, join(path, "at")); err != nil {
		return explore.Step{}, nil, err
	}
	e := kinds[0] // its kind is st.Kind, the only one read
	kpath := join(path, e.Key)
	switch st.Kind {
	case explore.Deliver, explore.Lose:
		err = d.message(e.V, kpath, &st)
	case explore.Fire:
		err = d.fire(e.V, kpath, &st)
	case explore.Crash, explore.Restart, explore.Recover:
		st.Node, err = d.NodeID(e.V, kpath)
	case explore.LinkDown, explore.LinkUp:
		var a sim.Action
		if err = d.link(e.V, kpath, &a); err == nil {
			st.Node, st.Peer = a.Link.A, a.Link.B
		}
	}
	if err != nil {
		return explore.Step{}, nil, err
	}
	return st, Resolve(at.V), nil
}

var messageFields = []string{"from", "to", "seq"}

// message reads {from: NODE, to: NODE, seq: N}: the seq-th message from
// one node to the other, delivered or lost.
func (d *decoder) message(n *yaml.Node, path string, st *explore.Step) error {
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	var from, to, seq bool
	for _, f := range fields {
		fpath := join(path, f.Key)
		switch f.Key {
		case "from":
			st.Peer, err = d.NodeID(f.V, fpath)
			from = true
		case "to":
			st.Node, err = d.NodeID(f.V, fpath)
			to = true
		case "seq":
			st.Seq, err = d.seq(f.V, fpath)
			seq = true
		default:
			err = d.Unknown(f, path, messageFields)
		}
		if err != nil {
			return err
		}
	}
	if !from || !to || !seq {
		return d.Errf(Resolve(n), path, "want {from: NODE, to: NODE, seq: N}, the seq-th message (from 0) one node sent the other")
	}
	if st.Node == st.Peer {
		return d.Errf(Resolve(n), path, "a message goes from one node to another, got node %d twice", st.Node)
	}
	return nil
}

// seq reads a message's number on its link.
func (d *decoder) seq(n *yaml.Node, path string) (uint32, error) {
	v, err := d.Scalar(n, path, "a message number")
	if err != nil {
		return 0, err
	}
	seq, perr := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
	if perr != nil {
		return 0, d.Errf(Resolve(n), path, "invalid seq %q (want an integer from 0 to %d)", v, uint32(math.MaxUint32))
	}
	return uint32(seq), nil
}

var fireFields = []string{"node", "timer"}

// fire reads {node: NODE, timer: T}: node's timer T fires.
func (d *decoder) fire(n *yaml.Node, path string, st *explore.Step) error {
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	var node, timer bool
	for _, f := range fields {
		fpath := join(path, f.Key)
		switch f.Key {
		case "node":
			st.Node, err = d.NodeID(f.V, fpath)
			node = true
		case "timer":
			var v string
			if v, err = d.Scalar(f.V, fpath, "a timer number"); err == nil {
				t, perr := strconv.ParseUint(strings.TrimSpace(v), 10, 8)
				if perr != nil {
					err = d.Errf(Resolve(f.V), fpath, "invalid timer %q (want an integer from 0 to 255)", v)
				}
				st.Timer = algo.Timer(t)
			}
			timer = true
		default:
			err = d.Unknown(f, path, fireFields)
		}
		if err != nil {
			return err
		}
	}
	if !node || !timer {
		return d.Errf(Resolve(n), path, "want {node: NODE, timer: T}")
	}
	return nil
}

// scheduleAlone refuses what a schedule leaves no room for: it is the
// run's every event, so the simulator's events, random loss and moving
// nodes cannot come with it. The field the file set is blamed: the other
// one, or else the schedule.
func scheduleAlone(file string, s *Scenario) error {
	if s.Schedule == nil {
		return nil
	}
	var field, msg string
	switch {
	case len(s.Events) > 0:
		field, msg = "events", "a scenario with a schedule runs its steps and nothing else (the schedule is the run's every event): drop the events or the schedule"
	case s.Loss > 0:
		field, msg = "loss", "a scenario with a schedule loses only the messages its steps lose (lose: ...): drop the loss or the schedule"
	case s.Mobility != "":
		field, msg = "mobility", "a scenario with a schedule runs on a still network whose links change only at its steps (link-down, link-up): drop the mobility or the schedule"
	default:
		return nil
	}
	for _, f := range []string{field, "schedule"} {
		if at, ok := s.set[f]; ok {
			if f != field {
				msg = field + " is set elsewhere (a flag or the base scenario), and " + msg
			}
			return &Error{File: file, Line: at.Line, Column: at.Column, Path: f, Msg: msg}
		}
	}
	return &Error{File: file, Path: field, Msg: msg}
}
