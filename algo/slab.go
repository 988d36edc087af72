package algo

import (
	"unsafe"

	"github.com/electgo/elect/internal/hugemem"
)

// slabBytes is the most a Slab's chunk holds beyond 4096 values.
const slabBytes = 8 << 20

// Slab hands out values of T from chunks, for the constructor of a run's
// machines: a million nodes then cost a few hundred allocations instead of
// a million, and machines made one after the other sit together in memory.
// Chunks start at one value and double, so that a process that runs one
// node does not reserve thousands, up to 4096 values or 8 MiB, whichever is
// more; chunks of 4 MiB and more are backed by huge pages where the system
// allows it (a million machines then cost a few hundred page faults, not a
// hundred thousand). A Slab is not safe for concurrent use; each run builds
// its own (Algorithm.Build).
type Slab[T any] struct {
	chunk []T
	made  int
}

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if len(s.chunk) == 0 {
		var zero T
		most := max(4096, slabBytes/max(int(unsafe.Sizeof(zero)), 1))
		s.chunk = hugemem.Make[T](min(max(s.made, 1), most))
	}
	v := &s.chunk[0]
	s.chunk = s.chunk[1:]
	s.made++
	return v
}
