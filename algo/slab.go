package algo

// Slab hands out values of T from chunks, for the constructor of a run's
// machines: a million nodes then cost a few hundred allocations instead of
// a million, and machines made one after the other sit together in memory.
// Chunks start at one value and double up to 4096, so that a process that
// runs one node does not reserve thousands. A Slab is not safe for
// concurrent use; each run builds its own (Algorithm.Build).
type Slab[T any] struct {
	chunk []T
	made  int
}

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if len(s.chunk) == 0 {
		s.chunk = make([]T, min(max(s.made, 1), 4096))
	}
	v := &s.chunk[0]
	s.chunk = s.chunk[1:]
	s.made++
	return v
}
