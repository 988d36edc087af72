// Package runtime is what real nodes run over: the UDP transport (and an
// in-memory one for tests), the wire format of elect's datagrams
// (docs/wire.md) with its key and checksums, reliable delivery where an
// algorithm asks for it, injected faults, and the saved state a recovering
// node reads back.
//
// It must not import node, sim or any driver above it
// (docs/architecture.md).
package runtime
