package algo

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Param declares one tunable of an algorithm.
type Param struct {
	Name    string
	Default string
	Doc     string
	// Check validates a raw value; nil accepts anything.
	Check func(string) error
	// Initiators marks a deprecated parameter that names the initiators
	// (a node set), from before the driver chose them: a value given for
	// it stands for the run's initiators (Algorithm.Initiators). The
	// machine must not read it.
	Initiators bool
	// Boot marks the parameter in which the machines of a spontaneous
	// algorithm read the nodes that start an election at boot (a node set):
	// they start it in their Start, as their documents have every node do,
	// so the driver asks none of them to elect and hands them the run's
	// initiators here instead (WithBoot). A value given for it directly is
	// a deprecated way to name the run's initiators (CheckBoot).
	Boot bool
}

// Params are resolved parameters: every declared name has a value.
type Params map[string]string

// Resolve fills in defaults and rejects names the algorithm does not declare and
// values its checks refuse. Parameters marked Initiators are checked but left
// out: they are the driver's (Algorithm.Initiators), not the machine's.
func (a *Algorithm) Resolve(raw map[string]string) (Params, error) {
	p := make(Params, len(a.Params))
	known := make(map[string]*Param, len(a.Params))
	for i := range a.Params {
		d := &a.Params[i]
		known[d.Name] = d
		if !d.Initiators {
			p[d.Name] = d.Default
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d, ok := known[k]
		if !ok {
			return nil, fmt.Errorf("%s has no parameter %q (it has: %s)", a.Name, k, a.paramNames())
		}
		if d.Check != nil {
			if err := d.Check(raw[k]); err != nil {
				return nil, fmt.Errorf("%s parameter %s: %w", a.Name, k, err)
			}
		}
		if !d.Initiators {
			p[k] = raw[k]
		}
	}
	return p, nil
}

// bootParam returns the parameter marked Boot, or nil.
func (a *Algorithm) bootParam() *Param {
	for i := range a.Params {
		if a.Params[i].Boot {
			return &a.Params[i]
		}
	}
	return nil
}

// WithBoot returns raw with set, the initiators a run names (the
// scenario's initiators field, --initiators; empty when it names none),
// written into a's boot parameter (Param.Boot), for Resolve: a copy, or raw
// itself when set is empty or a has no such parameter.
func (a *Algorithm) WithBoot(raw map[string]string, set string) map[string]string {
	d := a.bootParam()
	if d == nil || set == "" {
		return raw
	}
	out := make(map[string]string, len(raw)+1)
	for k, v := range raw {
		out[k] = v
	}
	out[d.Name] = set
	return out
}

// CheckBoot checks set, the initiators that a run of a spontaneous
// algorithm names (empty when it names none), whose nodes start their boot
// elections in Start (WithBoot hands set to them). A value given in raw for
// the boot parameter is a deprecated alias of set: note then says so, and
// the two must agree. An algorithm without a boot parameter elects at every
// node, so set can only be all.
func (a *Algorithm) CheckBoot(set string, raw map[string]string) (note string, err error) {
	d := a.bootParam()
	if d == nil {
		if set != "" && set != "all" {
			return "", fmt.Errorf("%s: every node elects at boot, as its document has it; it cannot be told which (the initiators can only be all)", a.Name)
		}
		return "", nil
	}
	v, given := raw[d.Name]
	if !given {
		return "", nil
	}
	note = fmt.Sprintf("%s parameter %s is deprecated: name the initiators with --initiators or the scenario's initiators field", a.Name, d.Name)
	if set != "" && !sameNodeSet(set, v) {
		return note, fmt.Errorf("initiators %q and %s parameter %s=%q disagree (the parameter is a deprecated alias: give only the initiators)", set, a.Name, d.Name, v)
	}
	return note, nil
}

func (a *Algorithm) paramNames() string {
	if len(a.Params) == 0 {
		return "none"
	}
	names := make([]string, len(a.Params))
	for i, d := range a.Params {
		names[i] = d.Name
	}
	return strings.Join(names, ", ")
}

// Duration reads a duration parameter ("250ms", "2s").
func (p Params) Duration(name string) (time.Duration, error) {
	return ParseDuration(p[name])
}

// Int reads an integer parameter.
func (p Params) Int(name string) (int, error) {
	return strconv.Atoi(strings.TrimSpace(p[name]))
}

// ParseDuration parses a non-negative duration.
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (examples: 500ms, 2s)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("negative duration %q", s)
	}
	return d, nil
}

// CheckDuration is a Param.Check for durations.
func CheckDuration(s string) error { _, err := ParseDuration(s); return err }

// CheckPositiveDuration is a Param.Check for durations that must be above zero.
func CheckPositiveDuration(s string) error {
	d, err := ParseDuration(s)
	if err == nil && d == 0 {
		err = fmt.Errorf("duration %q must be positive", s)
	}
	return err
}

// CheckNodeID is a Param.Check for a node id.
func CheckNodeID(s string) error {
	_, err := ParseNodeID(s)
	return err
}

// ParseNodeID parses a non-negative node id.
func ParseNodeID(s string) (NodeID, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil || v < 0 {
		return None, fmt.Errorf("invalid node id %q (want an integer >= 0)", s)
	}
	return NodeID(v), nil
}

// ParseNodeSet parses a set of node ids written as a comma-separated list of
// ids and ranges, "0,3,7-9"; the words "all" and "none" stand for every node and
// no node. It returns the ids in ascending order without duplicates, or nil and
// all=true for "all". Ranges are merged before they are expanded, so the cost
// follows the size of the set, not how often a range repeats.
func ParseNodeSet(s string) (ids []NodeID, all bool, err error) {
	s = strings.TrimSpace(s)
	switch s {
	case "all":
		return nil, true, nil
	case "none", "":
		return nil, false, nil
	}
	type span struct{ lo, hi NodeID }
	var spans []span
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i > 0 {
			lo, hi = part[:i], part[i+1:]
		}
		a, err := ParseNodeID(lo)
		if err != nil {
			return nil, false, fmt.Errorf("in node set %q: %w", s, err)
		}
		b, err := ParseNodeID(hi)
		if err != nil {
			return nil, false, fmt.Errorf("in node set %q: %w", s, err)
		}
		if b < a {
			return nil, false, fmt.Errorf("in node set %q: range %s runs backwards", s, part)
		}
		spans = append(spans, span{a, b})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		last := &merged[len(merged)-1]
		if int64(sp.lo) <= int64(last.hi)+1 {
			last.hi = max(last.hi, sp.hi)
		} else {
			merged = append(merged, sp)
		}
	}
	total := int64(0)
	for _, sp := range merged {
		total += int64(sp.hi) - int64(sp.lo) + 1
	}
	if total > maxNodeSet {
		return nil, false, fmt.Errorf("in node set %q: %d ids, more than the %d a set may name", s, total, maxNodeSet)
	}
	ids = make([]NodeID, 0, total)
	for _, sp := range merged {
		for v := sp.lo; ; v++ {
			ids = append(ids, v)
			if v == sp.hi {
				break
			}
		}
	}
	return ids, false, nil
}

// maxNodeSet bounds the size of a written node set: lower than a network's
// limit (MaxNodes), so that a mistyped range cannot ask for gigabytes.
const maxNodeSet = 1 << 24

// CheckNodeSet is a Param.Check for node sets.
func CheckNodeSet(s string) error { _, _, err := ParseNodeSet(s); return err }

// Durations reads several duration parameters at once, each into its
// destination, in name order (so that the first error is always the same).
func (p Params) Durations(dst map[string]*time.Duration) error {
	names := make([]string, 0, len(dst))
	for name := range dst {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d, err := p.Duration(name)
		if err != nil {
			return fmt.Errorf("parameter %s: %w", name, err)
		}
		*dst[name] = d
	}
	return nil
}
