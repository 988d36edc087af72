package echo

// edgeMarks is what a node remembers of the edges of its edge list for the
// wave it is in: whether that wave came over each edge (seen: the edge is
// done, "OK") and whether its echo did (child: the edge leads down the
// tree the info wave follows). A bit each, by the edge's place in the list.
//
// The document's mark of an edge is the highest wave that came over it.
// A mark is only ever set to the node's own wave, and a node's wave only
// grows, so a mark equals the node's wave or is below it, and below it is
// the same as blank: joining a higher wave clears every mark. Two bits
// say all of it. Kept in the node's own record for the first 64 edges,
// they cost a wave's messages no cache miss of their own (a list of marks
// beside the record cost one at nearly every explorer and echo on a
// million nodes) and no memory beyond the record.
type edgeMarks struct {
	seen, child uint64
	// more holds the words for edges 64 and on, seen and child in turn:
	// (*more)[2(k-1)] is seen's word k, (*more)[2(k-1)+1] child's.
	more *[]uint64
}

// word returns the k-th word of seen (c 0) or child (c 1).
func (m *edgeMarks) word(c, k int) *uint64 {
	if k == 0 {
		if c == 0 {
			return &m.seen
		}
		return &m.child
	}
	return &(*m.more)[2*(k-1)+c]
}

// room makes sure there are words for n edges. Words not made yet are
// blank: a node starts with the network's edges and no words but two.
func (m *edgeMarks) room(n int) {
	words := (n + 63) / 64
	if words <= 1 {
		return
	}
	if m.more == nil {
		m.more = new([]uint64)
	}
	for len(*m.more) < 2*(words-1) {
		*m.more = append(*m.more, 0)
	}
}

// get reports edge i's marks.
func (m *edgeMarks) get(i int) (seen, child bool) {
	k := i / 64
	if k > 0 && (m.more == nil || len(*m.more) < 2*k) {
		return false, false // a word not made yet: blank
	}
	bit := uint64(1) << (i % 64)
	return *m.word(0, k)&bit != 0, *m.word(1, k)&bit != 0
}

// set marks edge i as done, a child edge or not, of a list of n edges.
func (m *edgeMarks) set(i, n int, child bool) {
	m.room(n)
	bit := uint64(1) << (i % 64)
	*m.word(0, i/64) |= bit
	if child {
		*m.word(1, i/64) |= bit
	}
}

// clear blanks every mark: a new wave.
func (m *edgeMarks) clear() {
	m.seen, m.child = 0, 0
	if m.more != nil {
		clear(*m.more)
	}
}

// insert makes room for a blank edge at place i, in a list that had n
// edges: the marks of edges i and after move one place up.
func (m *edgeMarks) insert(i, n int) {
	m.room(n + 1)
	for c := range 2 {
		var carry uint64 // the top bit of the word below
		for k := i / 64; k <= n/64; k++ {
			w := m.word(c, k)
			out := *w >> 63
			if k == i/64 {
				keep := uint64(1)<<(i%64) - 1
				*w = *w&keep | (*w&^keep)<<1
			} else {
				*w = *w<<1 | carry
			}
			carry = out
		}
	}
}

// remove drops the marks of the edge at place i, in a list that had n
// edges: the marks of the edges after it move one place down.
func (m *edgeMarks) remove(i, n int) {
	m.room(n)
	last := (n - 1) / 64
	for c := range 2 {
		for k := i / 64; k <= last; k++ {
			w := m.word(c, k)
			if k == i/64 {
				keep := uint64(1)<<(i%64) - 1
				*w = *w&keep | (*w>>1)&^keep
			} else {
				*w >>= 1
			}
			if k < last {
				*w |= (*m.word(c, k+1) & 1) << 63
			}
		}
	}
}
