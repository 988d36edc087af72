package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/trace"
)

// Value steps, the simulator's value events (sim.SetValue) on real nodes:
// a value step sets the value (desirability) of nodes, or of the node
// leading then, journals the simulator's event for it (trace.ValueChanged)
// so that the checker holds each component to its most valued node anew,
// and sets it on the node with POST /value. The cluster keeps each node's
// value: its agreement and expect steps compare the new one, and a node
// not running starts its next life with it (--value), as the simulator's
// crashed node comes back with the value set meanwhile.
//
//	- {at: 3s, value: {node: 4, to: 1}}      # node 4's value falls to 1
//	- {at: 8s, value: {node: leader, to: 1}} # the leader's, whichever it is then
//
// and in the one-line form (ParseCommand, Step.describe): value 4 1,
// value leader 1, value 1,2 50.

// valueUsage is a value command's one-line form.
const valueUsage = "value N V: node N's value (its desirability as leader) becomes V, an integer"

// SetValue sets node id's value to v: journaled, then set on the node
// (POST /value) when it runs, and on its next life otherwise.
func (c *Cluster) SetValue(ctx context.Context, id int, v int64) error {
	_, err := c.actValue(ctx, Step{Action: "value", Nodes: []int{id}, Value: v})
	return err
}

// actValue carries out value step st and says what it did.
func (c *Cluster) actValue(ctx context.Context, st Step) (string, error) {
	c.life.RLock()
	defer c.life.RUnlock()
	if c.closed {
		return "", errors.New("the cluster is closed")
	}
	ids, err := c.targetsInRange(st.Nodes, st.Leader)
	if err != nil {
		return "", err
	}
	var msgs []string
	for _, id := range ids {
		msg, err := c.setValue(ctx, c.nodes[id], st.Value)
		if err != nil {
			return strings.Join(msgs, "; "), err
		}
		msgs = append(msgs, msg)
	}
	return strings.Join(msgs, "; "), nil
}

// setValue sets node n's value to v and says what it did: the cluster's
// record of it and the command line of its next lives, the event
// journaled, then the node's own (POST /value) when it runs. A value
// that is the node's already changes nothing, as in the simulator.
func (c *Cluster) setValue(ctx context.Context, n *clusterNode, v int64) (string, error) {
	n.act.Lock()
	defer n.act.Unlock()
	head := fmt.Sprintf("value %d: ", n.id)
	now := time.Now()
	c.mu.Lock()
	was := n.value
	if was != v {
		n.value = v
		n.args = WithValue(n.args, v)
		n.proc.SetArgs(n.args)
	}
	c.mu.Unlock()
	if was == v {
		return head + strconv.FormatInt(v, 10) + " already: nothing to do", nil
	}
	c.addEvent(trace.Event{Kind: trace.ValueChanged, Node: algo.NodeID(n.id), Peer: algo.None, Value: v}, now)
	msg := fmt.Sprintf("%s%d (was %d)", head, v, was)
	sent, err := PostValue(ctx, n.proc, v)
	if err != nil {
		return "", fmt.Errorf("node %d: %w", n.id, err)
	}
	if !sent {
		return msg + notRunning(false, false), nil
	}
	return msg, nil
}

// PostValue sets the value of node process p's current life to v (POST
// /value), as a driver of real nodes does once it journaled the change
// and gave p's next lives the new --value (WithValue): sent is false, and
// err nil, when no life runs, or when the life ended before it answered,
// since its next life starts with the value anyway. A running life that
// does not take it is an error.
func PostValue(ctx context.Context, p *supervisor.Process, v int64) (sent bool, err error) {
	if !p.Info().State.Alive() {
		return false, nil
	}
	if err := p.SetValue(ctx, v); err != nil {
		if !p.Info().State.Alive() {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// WithValue is a node's command line args (`node --id 3 --value 3 ...`)
// with its --value set to v (added when it has none): what a driver of
// real nodes starts a node's next lives with once its value changed.
func WithValue(args []string, v int64) []string {
	out := slices.Clone(args)
	if i := slices.Index(out, "--value"); i >= 0 && i+1 < len(out) {
		out[i+1] = strconv.FormatInt(v, 10)
		return out
	}
	return append(out, "--value", strconv.FormatInt(v, 10))
}

// parseValue reads a value step in its one-line form, words[0] being
// "value": value NODES V; nodes bounds the ids.
func parseValue(words []string, nodes int) (Step, error) {
	st := Step{At: -1, Action: "value", Expect: noExpect(0)}
	usage := fmt.Errorf("value: want %s", valueUsage)
	if len(words) < 3 {
		return st, usage
	}
	args := words[1:]
	var err error
	if st.Nodes, st.Leader, err = commandNodes("value", args[:len(args)-1], nodes); err != nil {
		return st, err
	}
	if len(st.Nodes) == 0 && !st.Leader {
		return st, usage
	}
	if st.Value, err = scenario.ParseValue(args[len(args)-1]); err != nil {
		return st, err
	}
	return st, nil
}

// value reads the value of value step st, {node: N, to: V}, as a
// scenario file's value event is read (scenario.Doc.ValueEvent).
func (d *scriptDecoder) value(n *yaml.Node, path string, st *Step) error {
	var err error
	st.Value, err = d.ValueEvent(n, path, func(v *yaml.Node, path string) error {
		st.where = scenario.Position{Line: v.Line, Column: v.Column}
		return d.targets(v, path, st)
	})
	return err
}
