package trace

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

func TestOrder(t *testing.T) {
	node := func(v algo.NodeID) Event { return Event{Kind: NodeAdded, Node: v, Peer: algo.None} }
	for _, c := range []struct {
		name   string
		events []Event
		want   string // error of the last event; "" for none
	}{
		{"good", []Event{node(0), node(1), {Kind: LinkUp, Node: 0, Peer: 1}, {At: 5, Kind: End, Peer: algo.None}}, ""},
		{"redeclared", []Event{node(0), node(0)}, ""},
		{"skips a node", []Event{node(0), node(2)}, "node event for node 2 before the one for node 1"},
		{"undeclared node", []Event{node(0), {Kind: Crashed, Node: 1, Peer: algo.None}}, "crash event for node 1, which no node event declared"},
		{"undeclared peer", []Event{node(0), {Kind: LinkUp, Node: 0, Peer: 1}}, "link_up event with peer 1"},
		{"backwards", []Event{node(0), {At: 9, Kind: Crashed, Node: 0, Peer: algo.None}, {At: 8, Kind: Restarted, Node: 0, Peer: algo.None}}, "restart event at t=8, before the previous event's t=9"},
		{"after the end", []Event{node(0), {Kind: End, Peer: algo.None}, {Kind: Crashed, Node: 0, Peer: algo.None}}, "crash event after the end event"},
	} {
		var o Order
		var err error
		for i := range c.events {
			if err = o.Next(&c.events[i]); err != nil && i < len(c.events)-1 {
				t.Fatalf("%s: event %d: %v", c.name, i, err)
			}
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
