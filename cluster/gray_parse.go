package cluster

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/scenario"
)

// The gray steps in a script, with the fields and meanings of the
// simulator's gray events (scenario/gray.go):
//
//	- {at: 10s, cut: {from: 4, to: 0}}     # 0 no longer hears 4; uncut: the same fields
//	- {at: 10s, clock: {node: 3, rate: 0.8}} # or jump: -1h, or both
//	- {at: 10s, slow: {node: 3, by: 200ms, for: 10s}}
//
// and in their one-line form (ParseCommand, Step.describe): cut 4 0,
// uncut 4 0, clock 3 0.8, jump 3 -1h, clock 3 0.8 jump -1h, slow 3 200ms,
// slow 3 200ms for 10s.

var grayFields = map[string][]string{
	"cut": {"from", "to"}, "uncut": {"from", "to"},
	"clock": {"node", "rate", "jump"}, "slow": {"node", "by", "for"},
}

// grayWant says what a gray step's value looks like, in errors.
var grayWant = map[string]string{
	"cut":   "{from: A, to: B} (B no longer hears A)",
	"uncut": "{from: A, to: B} (B hears A again)",
	"clock": "{node: N, rate: R} or {node: N, jump: D}, or both rate and jump",
	"slow":  "{node: N, by: D}, and for: D to end it after D",
}

// gray reads the value of gray step st (its Action set) into st.
func (d *scriptDecoder) gray(n *yaml.Node, path string, st *Step) error {
	n = scenario.Resolve(n)
	if n.Kind != yaml.MappingNode {
		return d.Errf(n, path, "want %s, got %s", grayWant[st.Action], scenario.Describe(n))
	}
	entries, err := d.mapping(n, path, "field")
	if err != nil {
		return err
	}
	known := grayFields[st.Action]
	got := map[string]bool{}
	for _, e := range entries {
		key, p := e.Key, path+"."+e.Key
		if key == "nodes" {
			key = "node"
		}
		if !slices.Contains(known, key) {
			return d.Unknown(e, path, known)
		}
		got[key] = true
		at := scenario.Position{Line: e.V.Line, Column: e.V.Column}
		switch key {
		case "from":
			st.Gray.From, err = d.nodeID(e.V, p)
			st.where = at
		case "to":
			st.Gray.To, err = d.nodeID(e.V, p)
			st.whereTo = at
		case "node":
			err = d.targets(e.V, p, st)
			st.where = at
		case "rate":
			st.Gray.Rate, err = d.clockRate(e.V, p)
		case "jump":
			st.Gray.Jump, err = d.jump(e.V, p)
		case "by":
			st.Gray.By, err = d.Duration(e.V, p)
		case "for":
			st.Gray.For, err = d.Duration(e.V, p)
		}
		if err != nil {
			return err
		}
	}
	switch st.Action {
	case "cut", "uncut":
		if !got["from"] || !got["to"] {
			return d.Errf(n, path, "want %s: from and to", grayWant[st.Action])
		}
		if st.Gray.From == st.Gray.To {
			return d.Errf(n, path, "from and to are both node %d: a direction joins two nodes", st.Gray.From)
		}
	case "clock":
		if !got["node"] || !got["rate"] && !got["jump"] {
			return d.Errf(n, path, "want %s", grayWant["clock"])
		}
	case "slow":
		if !got["node"] || !got["by"] {
			return d.Errf(n, path, "want %s", grayWant["slow"])
		}
	}
	return nil
}

// clockRate reads a clock's rate: above 0, at most 100.
func (d *scriptDecoder) clockRate(n *yaml.Node, path string) (float64, error) {
	v, err := d.Scalar(n, path, "a clock rate like 0.8 (1: true time)")
	if err != nil {
		return 0, err
	}
	r, err := parseRate(v)
	if err != nil {
		return 0, d.Errf(scenario.Resolve(n), path, "%v", err)
	}
	return r, nil
}

// jump reads a clock's jump: a duration other than 0, maybe negative.
func (d *scriptDecoder) jump(n *yaml.Node, path string) (time.Duration, error) {
	v, err := d.Scalar(n, path, "a duration like 1h or -500ms")
	if err != nil {
		return 0, err
	}
	j, err := parseJump(v)
	if err != nil {
		return 0, d.Errf(scenario.Resolve(n), path, "%v", err)
	}
	return j, nil
}

func parseRate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(r) || r <= 0 || r > 100 {
		return 0, fmt.Errorf("clock rate %q: want a number above 0 and at most 100, like 0.8 for 20%% slow (1: true time)", s)
	}
	return r, nil
}

func parseJump(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	j, err := time.ParseDuration(s)
	if err != nil || j == 0 {
		return 0, fmt.Errorf("jump %q: want a duration other than 0, like 1h or -500ms", s)
	}
	return j, nil
}

// parseLate reads a slow step's by or for: a duration of 0 or more.
func parseLate(what, s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s %q: want a duration of 0 or more, like 200ms", what, s)
	}
	return d, nil
}

// grayUsage is each gray command's one-line form.
var grayUsage = map[string]string{
	"cut":   "cut FROM TO: node TO no longer hears FROM",
	"uncut": "uncut FROM TO: node TO hears FROM again",
	"clock": "clock N RATE (0.8: 20% slow; 1: true time), then jump D to jump it too",
	"jump":  "jump N D: N's clock jumps by D (-1h, 500ms)",
	"slow":  "slow N D: N handles each input D late (0s: on time), then for D to end it after D",
}

// parseGray reads a gray step in its one-line form (words, the first a
// gray verb, else ok is false); nodes bounds the ids.
func parseGray(words []string, nodes int) (st Step, ok bool, err error) {
	verb := strings.ToLower(words[0])
	st = Step{At: -1, Action: verb, Expect: noExpect(0)}
	if _, ok := grayUsage[verb]; !ok {
		return st, false, nil
	}
	fail := func(err error) (Step, bool, error) { return st, true, err }
	usage := fmt.Errorf("%s: want %s", verb, grayUsage[verb])
	args := words[1:]
	if verb == "cut" || verb == "uncut" {
		ids, leader, err := commandNodes(verb, args, nodes)
		if leader || err == nil && len(ids) != 2 {
			return fail(usage) // a direction joins two nodes, named
		}
		if err != nil {
			return fail(err)
		}
		st.Gray.From, st.Gray.To = ids[0], ids[1]
		if ids[0] == ids[1] {
			return fail(fmt.Errorf("%s: from and to are both node %d: a direction joins two nodes", verb, ids[0]))
		}
		return st, true, nil
	}
	tail := map[string]string{"clock": "jump", "slow": "for"}[verb]
	var more string
	if n := len(args); tail != "" && n >= 4 && strings.EqualFold(args[n-2], tail) {
		more, args = args[n-1], args[:n-2]
	}
	if len(args) < 2 || strings.EqualFold(args[len(args)-1], tail) {
		return fail(usage)
	}
	if st.Nodes, st.Leader, err = commandNodes(verb, args[:len(args)-1], nodes); err != nil {
		return fail(err)
	}
	if len(st.Nodes) == 0 && !st.Leader {
		return fail(usage)
	}
	val := args[len(args)-1]
	switch verb {
	case "clock":
		if st.Gray.Rate, err = parseRate(val); err == nil && more != "" {
			st.Gray.Jump, err = parseJump(more)
		}
	case "jump":
		st.Action = "clock"
		st.Gray.Jump, err = parseJump(val)
	case "slow":
		if st.Gray.By, err = parseLate("slow by", val); err == nil && more != "" {
			st.Gray.For, err = parseLate("for", more)
		}
	}
	return st, true, err
}
