package sim

// prefetch asks the processor to bring the cache line at addr in, without
// waiting for it (PREFETCHT0). The engine calls it for the record of the
// node the next event goes to, while the current event runs: on a large
// network that record is nearly always a cache miss, and the current event
// takes longer than the miss.
//
//go:noescape
func prefetch(addr uintptr)
