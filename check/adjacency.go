package check

import (
	"math/bits"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/ids"
)

// adjacency holds the neighbour lists of the nodes whose links changed since
// time 0 (nodeLinks.owned; the others' are the network's). Under mobility
// every link change inserts into or deletes from the lists of two random
// nodes, so what it costs is mostly the cache misses of reaching them: a
// slice per node (a header in one array, pointing to a small list somewhere
// on the heap) costs two, and the node's record a third. Here a node's list
// is a room in one shared array (slab), found from a 16-byte record by
// record position (at), which also holds what a lone link change needs of
// the node besides (its component, a copy of nodeState.comp): on networks
// of thousands of nodes the caches keep these, so that a link change
// misses the two lists it changes and nothing else (relink; linkChanged
// does not list the ends of a lone change). Rooms have power-of-two sizes;
// a list that outgrows its room moves to one twice the size, and the room
// it leaves is reused by the next list that needs one of that size (free).
//
// at is made when the first list is (or once the network is built, if there
// are nodes beyond it): a static network never has it, and reads the
// network's lists and the records' components.
type adjacency struct {
	at   []nodeLinks // by record position (Monitor.at), all or none
	slab []algo.NodeID
	free [32][]uint32 // rooms left, by log2 of their size
}

// nodeLinks is one node's: its list, slab[off:off+n], in a room of size
// 1<<class (none when room is false), and its component.
type nodeLinks struct {
	off   uint32
	n     uint32
	comp  int32 // nodeState.comp
	class uint8
	room  bool // off holds a room
	owned bool // the node's links are the list, not the network's
}

// minClass is the log2 of the smallest room: 8 links, a fraction of a cache
// line's worth of slab.
const minClass = 3

// reserve gives d a room for at least n links, keeping its list.
func (a *adjacency) reserve(d *nodeLinks, n int) {
	if d.room && n <= 1<<d.class {
		return
	}
	class := uint8(max(minClass, bits.Len(uint(n-1))))
	var off uint32
	if k := len(a.free[class]); k > 0 {
		off = a.free[class][k-1]
		a.free[class] = a.free[class][:k-1]
	} else {
		off = uint32(len(a.slab))
		a.slab = append(a.slab, make([]algo.NodeID, 1<<class)...)
	}
	copy(a.slab[off:off+d.n], a.slab[d.off:d.off+d.n])
	if d.room {
		a.free[d.class] = append(a.free[d.class], d.off)
	}
	d.off, d.class, d.room = off, class, true
}

// makeLinks makes at, if it is not made yet, for all records: their
// components, and an own list (empty) for nodes beyond the network.
func (m *Monitor) makeLinks() []nodeLinks {
	if m.lists.at == nil {
		m.lists.at = make([]nodeLinks, 0, cap(m.nodes))
	}
	for i := len(m.lists.at); i < len(m.nodes); i++ {
		n := &m.nodes[i]
		m.lists.at = append(m.lists.at, nodeLinks{comp: n.comp, owned: int(n.id) >= m.net.N()})
	}
	return m.lists.at
}

// beyond gives the nodes beyond the network, once it is built, their own
// lists (empty): the network has none for them.
func (m *Monitor) beyond() {
	if m.lists.at != nil || len(m.nodes) > m.net.N() {
		m.makeLinks()
	}
}

// linksOf lists v's neighbours (ascending; live or not): the network's list
// until the first change, then the Monitor's own.
func (m *Monitor) linksOf(v algo.NodeID) []algo.NodeID {
	i := m.at(v)
	if i < len(m.lists.at) {
		if d := &m.lists.at[i]; d.owned {
			return m.lists.slab[d.off : d.off+d.n : d.off+d.n]
		}
	}
	return m.net.Neighbors(v)
}

// compOf is v's component (nodeState.comp), from at when it is made.
func (m *Monitor) compOf(v algo.NodeID) int32 {
	i := m.at(v)
	if i < len(m.lists.at) {
		return m.lists.at[i].comp
	}
	return m.nodes[i].comp
}

// setComp puts v in component c (-1: none).
func (m *Monitor) setComp(v algo.NodeID, c int32) {
	i := m.at(v)
	m.nodes[i].comp = c
	if i < len(m.lists.at) {
		m.lists.at[i].comp = c
	}
}

// own gives v a list of its own, before it changes, and returns it.
func (m *Monitor) own(v algo.NodeID) *nodeLinks {
	d := &m.makeLinks()[m.at(v)]
	if !d.owned {
		l := m.net.Neighbors(v)
		m.lists.reserve(d, len(l)+1)
		d.n = uint32(copy(m.lists.slab[d.off:], l))
		d.owned = true
	}
	return d
}

// setLink puts link a-b up or down in both ends' lists. Both are searched
// before either changes, so that the processor fetches them (and the
// records, read to tell whose list a node's is) at once.
func (m *Monitor) setLink(a, b algo.NodeID, up bool) {
	i, inA := ids.Find(m.linksOf(a), b)
	j, inB := ids.Find(m.linksOf(b), a)
	m.edit(a, b, i, inA, up)
	if a != b {
		m.edit(b, a, j, inB, up)
	}
}

// edit inserts u at i in v's list (up) or deletes it from there, unless it
// is there already (found) or not.
func (m *Monitor) edit(v, u algo.NodeID, i int, found, up bool) {
	if found == up {
		return
	}
	d := m.own(v)
	if up {
		m.lists.reserve(d, int(d.n)+1)
		l := m.lists.slab[d.off : d.off+d.n+1]
		copy(l[i+1:], l[i:])
		l[i] = u
		d.n++
		return
	}
	l := m.lists.slab[d.off : d.off+d.n]
	copy(l[i:], l[i+1:])
	d.n--
}
