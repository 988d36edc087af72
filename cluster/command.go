package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/trace"
)

// commandVerbs are the words of an action step's one-line form: each
// action by its name and its first letter (c for recover, r being
// restart).
var commandVerbs = map[string]string{
	"k": "kill", "kill": "kill", "s": "stop", "stop": "stop",
	"r": "restart", "restart": "restart", "c": "recover", "recover": "recover",
	"e": "elect", "elect": "elect",
}

// ErrUnknownCommand is the error of ParseCommand, wrapped, when a line's
// first word is no action.
var ErrUnknownCommand = errors.New("unknown command")

// ParseCommand reads an action step in its one-line form, the form that a
// summary's steps are written in and that elect cluster's keyboard takes:
// an action (kill, stop, restart, recover, elect, or its first letter; c
// for recover), then the nodes, ids separated by spaces or commas, or
// "leader" for the node leading at the time; or a gray step: cut FROM TO,
// uncut FROM TO, clock NODES RATE, jump NODES D, clock NODES RATE jump D,
// slow NODES D, slow NODES D for D; or a value step: value NODES V. nodes
// is the cluster's size, the bound of the ids. Do runs the step.
func ParseCommand(line string, nodes int) (Step, error) {
	st := Step{At: -1, Expect: noExpect(0)}
	words := strings.Fields(line)
	if len(words) == 0 {
		return st, fmt.Errorf("%w: the line is empty", ErrUnknownCommand)
	}
	if g, ok, err := parseGray(words, nodes); ok {
		return g, err
	}
	if strings.EqualFold(words[0], "value") {
		return parseValue(words, nodes)
	}
	verb, ok := commandVerbs[strings.ToLower(words[0])]
	if !ok {
		return st, fmt.Errorf("%w %q", ErrUnknownCommand, words[0])
	}
	st.Action = verb
	if len(words) == 1 {
		return st, fmt.Errorf("%s which node? (%s N, N from 0 to %d, or %s leader)", verb, words[0], nodes-1, words[0])
	}
	var err error
	st.Nodes, st.Leader, err = commandNodes(verb, words[1:], nodes)
	return st, err
}

// commandNodes reads the nodes of a command: ids separated by spaces or
// commas, or "leader".
func commandNodes(verb string, words []string, nodes int) (ids []int, leader bool, err error) {
	for _, w := range words {
		for _, part := range strings.Split(w, ",") {
			switch id, err := strconv.Atoi(part); {
			case part == "":
			case part == "leader":
				leader = true
			case err != nil || id < 0:
				return ids, leader, fmt.Errorf("%s %s: %q is not a node id", verb, strings.Join(words, " "), part)
			case id >= nodes:
				return ids, leader, fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, nodes-1)
			default:
				ids = append(ids, id)
			}
		}
	}
	if leader && len(ids) > 0 {
		return ids, leader, fmt.Errorf("%s: give node ids or leader, not both", verb)
	}
	return ids, leader, nil
}

// Do runs one step now, an action (Act) or an expectation (Wait), with no
// regard to its At and After, and records what became of it in the
// summary's steps. The error is the step's failure, as in the result.
func (c *Cluster) Do(ctx context.Context, st Step) (StepResult, error) {
	start := time.Now()
	res := StepResult{Line: st.Line, Step: st.describe(), StartMS: msOf(c.Since(start))}
	var err error
	if st.Action == "expect" {
		var took time.Duration
		if took, err = c.Wait(ctx, st.Expect); err == nil {
			res.Result = fmt.Sprintf("met after %.0f ms", msOf(took))
		}
	} else {
		c.add(trace.Acted, -1, start, res.Step) // what the events after it do, in words
		switch {
		case isGray(st.Action):
			res.Result, err = c.actGray(ctx, st)
		case st.Action == "value":
			res.Result, err = c.actValue(ctx, st)
		default:
			res.Result, err = c.Act(ctx, st.Action, st.Nodes, st.Leader)
		}
	}
	res.TookMS, res.OK = msOf(time.Since(start)), err == nil
	if err != nil {
		res.Error = err.Error()
	}
	if st.Action == "expect" {
		c.add(trace.Acted, -1, time.Now(), res.Step+": "+cmp.Or(res.Result, res.Error))
	}
	c.mu.Lock()
	c.steps = append(c.steps, res)
	c.mu.Unlock()
	return res, err
}
