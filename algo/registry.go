package algo

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/electgo/elect/internal/blame"
)

// Algorithm describes one registered election algorithm.
type Algorithm struct {
	// Name is what users type: --algo NAME, "algorithm: NAME".
	Name string
	// Summary is one line for listings.
	Summary string
	// Source names the seed document the algorithm follows.
	Source string
	// Messages names the message types, indexed by MsgType, with the names the
	// source document gives them.
	Messages []string
	// Params are the algorithm's tunables, with defaults.
	Params []Param
	// Model states what the algorithm assumes of the network.
	Model Model
	// Build validates resolved parameters against a network of n nodes and
	// returns the constructor of one node's machine.
	Build func(p Params, n int) (func(id NodeID) Machine, error)
	// MessageBound, when set, is the algorithm's message complexity: the
	// messages of one fault-free election, which drivers hold its runs to
	// (see Bound). Leave it nil for an algorithm whose nodes never fall
	// quiet (Model.Heartbeats) or whose document gives no bound.
	MessageBound *Bound
}

// Model is what an algorithm assumes and tolerates. The checker and the fault
// generators read it.
type Model struct {
	// Spontaneous algorithms elect in every connected component on their own
	// (by timeouts and heartbeats): their Start may begin an election. Others
	// elect only where an initiator started one: their Start only boots, and
	// the driver calls Elect on each initiator right after its Start (see
	// Initiators). The checker then requires an election in every component
	// that holds an initiator, and fails a component that none reached unless
	// the scenario declares that no election is expected there.
	Spontaneous bool
	// Initiators is the node set that initiates when a run names none: "all",
	// or a set such as "0" or "0,3-5" (ParseNodeSet); empty means node 0.
	// Runs name their own with the scenario's initiators field or
	// --initiators. It applies to algorithms that are not spontaneous, whose
	// initiators the driver asks to elect (echo, ring, chang-roberts,
	// extinction, the capture elections, all-to-all). A spontaneous
	// algorithm's nodes start their elections at boot themselves and the
	// driver asks none of them, so it does not read this field: their
	// default is that of the parameter in which the machines read the run's
	// initiators (Param.Boot: every node for vkt and park), or every node
	// for an algorithm without one, whose every node elects (bully).
	Initiators string
	// FIFO is set when the algorithm needs links to deliver in order.
	FIFO bool
	// Loss, Crash, Partition and Mobility are set when the algorithm is meant to
	// keep the specification under message loss, node crashes, partitions and
	// heals, and moving nodes.
	Loss, Crash, Partition, Mobility bool
	// BoundedDelay is set when the algorithm's timeouts assume that every
	// message arrives within a known bound (Garcia-Molina's synchronous
	// system): its timeouts must exceed the longest delay, and a message
	// slower than that is a fault it does not tolerate (a node that hears
	// nothing in time takes over).
	BoundedDelay bool
	// Synchronous algorithms run in pulses (PulseLength): drivers deliver
	// every message at the start of the pulse after the one it was sent in,
	// whatever delay a scenario asks for.
	Synchronous bool
	// ElectsInitiator is set when the algorithm elects the most valued of
	// its initiators (the document's candidates), not of every node: the
	// checker then holds each component to its most valued initiator.
	ElectsInitiator bool
	// FollowsValue is set when the algorithm hands leadership over as
	// values change (a node's value is its desirability, and can change
	// during a run: a battery drains, node.SetValue), within its liveness
	// bound: a node whose value rises above its leader's takes over, and a
	// leader whose value falls below another's hands over (vkt and park: a
	// follower worth more than its leader starts an election at the
	// leader's next heartbeat, which carries the leader's new value). The
	// checker then holds each component to its most valued node at every
	// moment. An algorithm without it elects once: the checker holds each
	// component to its nodes' values at its election (its last change, see
	// check.Config.ValueAtElection), and says so in its report.
	FollowsValue bool
	// Topology names the network the algorithm needs ("complete", "ring"),
	// empty for any; drivers refuse another.
	Topology string
	// Asynchronous is set when the algorithm keeps the specification
	// under any order of its events and any timing: no message delay, and
	// no timer's length (if it sets any), is assumed. Exploration (elect
	// explore) then tries every order of events with no regard to time
	// (untimed); an algorithm without it is explored only in the orders
	// that real delays and timers allow (timed), so that a timeout that
	// assumes a bound is never taken for a bug.
	Asynchronous bool
	// Heartbeats is set when the nodes never fall quiet: they keep sending
	// (heartbeats, probes) and setting timers for as long as they live, so
	// a simulated run of the algorithm never runs out of events. Drivers
	// refuse to run it without a time limit, which would never end.
	Heartbeats bool
	// The gray failures the algorithm is meant to keep the specification
	// under (the simulator's cut, clock and slow events; node.Gray on real
	// nodes). OneWay: links cut in one direction, while the checker holds
	// nodes to agree only across links that carry both ways. Drift: clocks
	// running at any rate from 1-Drift to 1+Drift of true time (0: true
	// time only). Jumps: clocks jumping forward or back. Slow: nodes
	// handling their inputs up to that late. An Asynchronous algorithm
	// assumes no timing at all, so it keeps the specification under any
	// drift, jump and slowness, whatever these say.
	OneWay bool
	Drift  float64
	Jumps  bool
	Slow   time.Duration
}

// Instantiate resolves raw parameters against the algorithm's declarations and
// builds the per-node constructor for a network of n nodes.
func (a *Algorithm) Instantiate(raw map[string]string, n int) (Params, func(NodeID) Machine, error) {
	p, err := a.Resolve(raw)
	if err != nil {
		return nil, nil, err
	}
	newNode, err := a.Build(p, n)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	return p, newNode, nil
}

// Initiators resolves the nodes that initiate a run of n nodes, in
// ascending order. set is what the run names (the scenario's initiators
// field, --initiators): "all", "none" or a node set; empty means the
// algorithm's default (Model.Initiators). A parameter marked
// Param.Initiators and given in raw is a deprecated way to name them: it
// stands for set when set is empty, and note then says what to use
// instead.
func (a *Algorithm) Initiators(set string, raw map[string]string, n int) (ids []NodeID, note string, err error) {
	for _, d := range a.Params {
		v, given := raw[d.Name]
		if !d.Initiators || !given {
			continue
		}
		note = fmt.Sprintf("%s parameter %s is deprecated: name the initiators with --initiators or the scenario's initiators field", a.Name, d.Name)
		switch {
		case set == "":
			set = v
		case !sameNodeSet(set, v):
			return nil, note, fmt.Errorf("initiators %q and %s parameter %s=%q disagree (the parameter is a deprecated alias: give only the initiators)", set, a.Name, d.Name, v)
		}
	}
	what := "" // says where the set came from, when not from the run
	if set == "" {
		set, what = a.Model.Initiators, a.Name+"'s default initiators: "
		if set == "" && !a.Model.Spontaneous {
			set = "0"
		}
	}
	ids, all, err := ParseNodeSet(set)
	if err != nil {
		return nil, note, fmt.Errorf("%s%w", what, err)
	}
	if all {
		ids = make([]NodeID, n)
		for i := range ids {
			ids[i] = NodeID(i)
		}
		return ids, note, nil
	}
	if len(ids) > 0 && int(ids[len(ids)-1]) >= n {
		return nil, note, fmt.Errorf("%sinitiator %d does not exist (the network has nodes 0..%d)", what, ids[len(ids)-1], n-1)
	}
	return ids, note, nil
}

// sameNodeSet reports whether two node sets name the same nodes.
func sameNodeSet(a, b string) bool {
	x, allX, errX := ParseNodeSet(a)
	y, allY, errY := ParseNodeSet(b)
	return errX == nil && errY == nil && allX == allY && slices.Equal(x, y)
}

// registered is one entry of the registry: the algorithm and the package
// that registered it, which a second registration of the name is told.
type registered struct {
	alg *Algorithm
	pkg string
}

var registry = map[string]registered{}

// Register adds an algorithm. Packages call it from init; a duplicate name is a
// programming error and panics, naming both packages that registered it.
func Register(a *Algorithm) {
	pkg := callerPackage()
	if prev, dup := registry[a.Name]; dup {
		panic(fmt.Sprintf("algo: algorithm %q registered twice: by package %s, then by package %s", a.Name, prev.pkg, pkg))
	}
	if len(a.Messages) > 256 {
		panic("algo: too many message types in " + a.Name)
	}
	registry[a.Name] = registered{a, pkg}
}

// callerPackage returns the import path of the package whose code called
// Register: the function two frames up, "path/to/pkg.init.0", less its
// function's name. The frames are read with CallersFrames, which names the
// caller even where Register was inlined into it (FuncForPC would name
// Register); blame.Package reads the path from the function's name.
func callerPackage() string {
	pc := make([]uintptr, 1)
	if runtime.Callers(3, pc) == 0 { // 0: Callers, 1: callerPackage, 2: Register
		return "(unknown)"
	}
	f, _ := runtime.CallersFrames(pc).Next()
	return blame.Package(f.Function)
}

// Lookup returns the algorithm registered under name, or an error that lists
// the known names.
func Lookup(name string) (*Algorithm, error) {
	if r, ok := registry[name]; ok {
		return r.alg, nil
	}
	// A user's algorithm that is missing was most often never imported:
	// Go runs a package's init, and so its Register, only when some
	// package of the program imports it.
	return nil, fmt.Errorf("unknown algorithm %q (known: %s); an algorithm of your own is found only if its package is imported, e.g. with a blank import in main: import _ \"example.com/you/yourpkg\"", name, strings.Join(Names(), ", "))
}

// Names lists the registered algorithms in alphabetical order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
