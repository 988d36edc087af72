// Package supervisor starts, watches and stops the processes of elect
// nodes: `elect node` run as a child of elect cluster, of the emulator,
// or of a program of the user's.
//
// A [Process] is one node across its lives: each [Process.Launch] starts
// a new process (a life) of the command its [Spec] describes, appending
// its output to one log file, and [Process.AwaitUp] waits until the life
// answers on its HTTP /healthz. A life ends by [Process.Kill] (a crash),
// [Process.Stop] (a clean stop, in which the node saves its state) or on
// its own, which [Spec.OnExit] hears of once the process is reaped. A
// next life may start with its state directory emptied ([Fresh]: the
// node elects anew) or kept ([Recover]: it merges with what it saved).
//
// What differs between the ways of running nodes is a parameter of the
// Spec, not a code path: elect cluster runs the binary as it is and talks
// to each node over a loopback TCP port; the emulator wraps the command
// in `ip netns exec NS` ([Spec.Wrap]) and talks over a Unix socket, since
// a node's loopback is inside its own namespace ([Endpoint]).
//
// On Linux every life gets SIGKILL when the supervising process dies,
// whatever kills it, so that no node outlives its supervisor; and every
// life runs in a process group of its own, so that the Ctrl-C typed at a
// terminal reaches the supervisor alone, which then ends its nodes.
//
// It must not import emulate, cluster or cli, which use it
// (docs/architecture.md).
package supervisor
