// Package explore walks every order of events of a small network (elect
// explore): from the boot, each step delivers one message in flight or
// fires one timer, states met before are not walked again (fingerprints),
// and orders that commute are walked once (sleep sets); every state is
// judged by the checker, and a violation comes back as the shortest
// schedule that reaches it, which replays in the simulator.
//
// It must not import sim, runner or any driver: a driver runs it
// (docs/architecture.md).
package explore
