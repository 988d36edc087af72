package trace

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// Order checks that events can follow one another in a run's stream: in time
// order, naming only nodes whose node event came before (nodes are declared
// in id order), and nothing after the end. The Reader decodes lines one by
// one; whoever replays a whole trace puts each event through an Order too.
type Order struct {
	last     time.Duration
	declared int
	ended    bool
}

// Next checks that e can follow the events checked so far.
func (o *Order) Next(e *Event) error {
	if o.ended {
		return fmt.Errorf("%s event after the end event", e.Kind)
	}
	if e.At < o.last {
		return fmt.Errorf("%s event at t=%d, before the previous event's t=%d", e.Kind, e.At, o.last)
	}
	o.last = e.At
	switch {
	case e.Kind == NodeAdded:
		if int(e.Node) > o.declared {
			return fmt.Errorf("node event for node %d before the one for node %d (nodes are declared in id order)", e.Node, o.declared)
		}
		if int(e.Node) == o.declared {
			o.declared++
		}
	case e.Kind == End:
		o.ended = true
	case int(e.Node) >= o.declared:
		return fmt.Errorf("%s event for node %d, which no node event declared", e.Kind, e.Node)
	}
	if e.Peer != algo.None && int(e.Peer) >= o.declared {
		return fmt.Errorf("%s event with peer %d, which no node event declared", e.Kind, e.Peer)
	}
	return nil
}

// Ended reports whether the end event has been checked.
func (o *Order) Ended() bool { return o.ended }
