package algo

// Everyone is the To of a broadcast (Broadcaster): the driver sets it on the
// transmission and on every copy it delivers. A machine must not rely on
// it: on a driver without a broadcast medium the copies name their
// receivers.
const Everyone NodeID = -2

// Broadcaster is an Env whose medium has a broadcast: one transmission that
// every node in range hears (a radio, UDP multicast or subnet broadcast, a
// bridge). Drivers implement it; machines call Broadcast, which works on
// every Env. It is an interface of its own, not a method of Env, so that an
// Env written before it (a user's test double) still compiles.
type Broadcaster interface {
	// Broadcast hands m to the driver for one transmission. Every node
	// that is a neighbour at this moment (Neighbors) receives a copy, each
	// reception subject to the link model on its own (loss, delay, a link
	// that breaks on the way); a node that becomes a neighbour afterwards
	// does not. The driver sets m.From, and m.To to Everyone. A broadcast
	// with no neighbour is still one transmission. On each link the copy
	// keeps FIFO order with the sender's unicast messages where the
	// driver's links are FIFO. m.Peers and m.Data then belong to the
	// message, as with Send.
	Broadcast(m Message)
}

// Broadcast sends m to every current neighbour: as one transmission when
// env is a Broadcaster, and otherwise as one Send to each neighbour in
// ascending order (the same receivers; one transmission each, as a
// medium without broadcast costs, each copy's To naming its receiver).
func Broadcast(env Env, m Message) {
	if b, ok := env.(Broadcaster); ok {
		b.Broadcast(m)
		return
	}
	for _, u := range env.Neighbors() {
		env.Send(u, m)
	}
}
