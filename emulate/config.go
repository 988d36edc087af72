// Package emulate runs a scenario on real nodes: one `elect node` process
// per node, each in a Linux network namespace of its own, all joined by one
// bridge, in the manner of CORE (coreemu). The scenario's links are
// nftables rules in a bridge-family table whose forward chain drops by
// default and accepts only the pairs of ports that are neighbours now; the
// rules change in one transaction (nft -f) whenever the links do: as nodes
// move, as partitions come and heal. Loss is a random drop in the same
// chain. Crashes are SIGKILL, restarts start a node with an empty state
// directory, recoveries with the one it had. The nodes find each other by
// their hello broadcasts over the bridge, as a real ad hoc network would.
//
// Which links exist when comes from the simulator's run of the same
// scenario and seed (positions, radio range, movement and partitions are
// the scenario's, not the algorithm's), and that run is also what the
// emulated one is compared with. The emulated run is checked by the same
// checker, fed the same kind of event stream: the links as the kernel has
// them, the crashes and restarts as the emulator made them, and the nodes'
// status changes read from their /status/stream.
//
// Everything the emulator creates is named after a run tag and removed when
// the run ends, whether it ends well, in error, or by Ctrl-C; Cleanup
// removes what a killed run left. It needs Linux, root, ip (iproute2) and
// nft (nftables).
package emulate

import (
	"time"

	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// Config is one emulation.
type Config struct {
	Scenario *scenario.Scenario
	// Binary is the elect program the nodes run (elect node).
	Binary string
	// Hello is the nodes' beacon period (0: 250ms), HelloLoss how many
	// beacons unheard lose a neighbour (0: 4).
	Hello     time.Duration
	HelloLoss int
	// Port is the nodes' UDP port (0: 7946); every node has its own
	// address, so they share it.
	Port int
	// Faults, when set, are injected into what every node sends (elect
	// node --faults, each node seeded apart): duplication, delay, jitter
	// and reordering, and loss beside the scenario's (which the kernel
	// drops), on the real links, where the kernel has no tc netem.
	Faults runtime.Faults
	// Pauses freeze nodes for a while (SIGSTOP, then SIGCONT): see Pause.
	Pauses []Pause
	// Disks take nodes' state directories away for a while: see DiskFault.
	Disks []DiskFault
	// Attacks replay and forge datagrams from a station that hears every
	// frame (see Attack).
	Attacks []Attack
	// Insecure runs the nodes without a key (--insecure), as a cluster
	// that trusts its network does: what a forger can do then is what the
	// range checks bound (Attack's ForgeFence and ForgeIndex).
	Insecure bool
	// Dir holds the nodes' logs, state directories and sockets; "" makes
	// a temporary one, removed at the end unless Keep.
	Dir  string
	Keep bool
	// Observers also receive the emulated run's events, in time order
	// (a trace.Writer writes them as a trace file).
	Observers []trace.Observer
	// Log, when set, receives a line for each thing the emulator does.
	Log func(format string, args ...any)
}

// DefaultPort is the nodes' UDP port when Config.Port is 0.
const DefaultPort = 7946

// Result is an emulated run, and the simulated run of the same scenario.
type Result struct {
	Emulated  *metrics.Summary
	Simulated *metrics.Summary
	// Dir is where the nodes' logs and state are, when kept.
	Dir string
	// Tag names the run's kernel objects (see Cleanup).
	Tag string
}
