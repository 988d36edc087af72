// Package echo implements the wave algorithms of 002_4d397ad5cbfdc025.txt
// (after Mattern, "Verteilte Basisalgorithmen"):
//
//   - echo: a dedicated initiator sends explorer messages to all its
//     neighbours; a node forwards the first explorer it receives to all its
//     other neighbours and, once it has heard from every other edge, sends an
//     echo carrying the most valued node it knows back over the edge the
//     explorer came by ("Nach Erhalt von Echonachrichten auf k-1 Kanten:
//     Senden einer Echonachricht e mit dem Maximum ... über die verbleibende
//     Kante"). When the initiator has heard from all its edges it knows the
//     most valued node of the network and an information wave (info) tells
//     every node down the tree the echoes built. On a connected graph with
//     E edges and n nodes this takes exactly 2E explorer and echo messages and
//     n-1 info messages. With tree=virtual the wave runs on the virtual tree
//     built at start-up (see tree.go) instead of the whole graph: 2(n-1)
//     explorer and echo messages.
//
//   - extinction: the adoption variant for arbitrary topologies where any
//     number of nodes initiate ("Adoptionsverfahren für beliebige
//     Topologien"). Explorers and echoes carry the id of their initiator (as a
//     computation index <num, id>); a node remembers the highest initiator it
//     knows (ID_i, here wave) and, per edge, the highest initiator that came
//     over it (the edge marks); an explorer of a higher initiator adopts the
//     node (its edge becomes the new parent edge), lower ones are ignored, and
//     an edge is done ("OK") for a wave once that wave came over it. Only the
//     highest initiator's wave completes, and its info wave announces the
//     result.
//
// Both are one machine: echo is the extinction wave with one initiator. The
// leader is the most valued node (highest value, then id) of the initiator's
// component. The wave algorithms assume a static, reliable network (Model);
// crashes and restarts are accepted but a wave that loses a node stalls.
//
// It imports algo and layer 0 and nothing above them: no simulator, judge or
// driver (docs/architecture.md).
package echo

import (
	"encoding/binary"
	"fmt"
	"github.com/electgo/elect/internal/ids"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/hugemem"
)

// Message types, with the names of the source document.
const (
	Explorer algo.MsgType = iota // Index: wave; Peer: unused
	Echo                         // Index: wave; Peer: most valued node of the sender's subtree
	Info                         // Index: wave; Peer: the leader
	Connect                      // Level: sender's level (-1: detached); Peer.ID: sender's parent
)

// MessageNames are the document's names, indexed by type.
var MessageNames = []string{"explorer", "echo", "info", "connect"}

// waveConfig is shared by every node of a run.
type waveConfig struct {
	tree     bool          // run on the virtual tree
	root     algo.NodeID   // virtual tree root
	waveAt   time.Duration // tree mode: the earliest an initiator starts
	maxLevel int32
	arena    arena
}

// arena hands out the machines of a run and the virtual tree's edge lists
// from large chunks: a million nodes then cost a few dozen allocations
// instead of two million.
type arena struct {
	waves   algo.Slab[wave]
	ids     []algo.NodeID
	idChunk int // the size of the last chunk of ids made
}

// newWave makes one node's machine.
func (c *waveConfig) newWave(id algo.NodeID) algo.Machine {
	w := c.arena.waves.New()
	w.cfg, w.id = c, id
	return w
}

// An arena's chunks start at arenaChunk values and double up to
// arenaChunkMax, in huge pages where they can be (hugemem).
const (
	arenaChunk    = 1 << 12
	arenaChunkMax = 1 << 20
)

func (a *arena) idList(n int) []algo.NodeID { return carve(&a.ids, &a.idChunk, n) }

// carve cuts n values off the front of *free, making a new chunk of
// *chunk values (doubled for the next) when too few are left.
func carve[T any](free *[]T, chunk *int, n int) []T {
	if len(*free) < n {
		*chunk = min(max(2**chunk, arenaChunk), arenaChunkMax)
		*free = hugemem.Make[T](max(*chunk, n))
	}
	s := (*free)[:n:n]
	*free = (*free)[n:]
	return s
}

// wave is one node's state.
type wave struct {
	cfg  *waveConfig
	tree *vtree // tree mode only
	best algo.Peer
	// The marks of the edges the wave runs over (see edgeList, edgeMarks).
	marks edgeMarks

	// The wave this node belongs to (ID_i on the slides) and the edge it
	// came by.
	wave   algo.Index
	id     algo.NodeID
	parent algo.NodeID
	leader algo.NodeID
	done   int32 // edges whose mark equals wave
	echoed bool
	state  algo.State
}

const timerWave algo.Timer = 0

func (w *wave) Status() algo.Status {
	return algo.Status{Leader: w.leader, State: w.state, Index: w.wave}
}

// Start boots the node; the initiators' waves start from the driver's Elect.
func (w *wave) Start(env algo.Env) { w.Restart(env) }

// Restart is a fresh start: a node that comes back does not start a wave on
// its own.
func (w *wave) Restart(env algo.Env) {
	w.leader, w.state, w.parent = algo.None, algo.Norm, algo.None
	if w.cfg.tree {
		var edges []algo.NodeID // the marks' edges outlive the tree, as the marks do
		if w.tree != nil {
			edges = w.tree.waveEdges
		}
		w.tree = newVTree(w.id, w.id == w.cfg.root, w.cfg.maxLevel)
		w.tree.waveEdges = edges
		w.tree.start(env)
		return
	}
	w.marks.clear()
}

// Save keeps the leader, the state and the wave.
func (w *wave) Save() []byte {
	b := make([]byte, 0, 13)
	b = binary.BigEndian.AppendUint32(b, uint32(w.leader))
	b = append(b, byte(w.state))
	b = binary.BigEndian.AppendUint32(b, w.wave.Num)
	b = binary.BigEndian.AppendUint32(b, uint32(w.wave.ID))
	return b
}

func (w *wave) Recover(env algo.Env, saved []byte) error {
	if len(saved) != 13 {
		return fmt.Errorf("saved state has %d bytes, want 13", len(saved))
	}
	w.Restart(env)
	w.leader = algo.NodeID(int32(binary.BigEndian.Uint32(saved)))
	w.state = algo.State(saved[4])
	w.wave = algo.Index{Num: binary.BigEndian.Uint32(saved[5:]), ID: algo.NodeID(int32(binary.BigEndian.Uint32(saved[9:])))}
	if w.state != algo.Norm {
		// An election in progress cannot be resumed: its messages are gone.
		w.state, w.leader = algo.Norm, algo.None
	}
	return nil
}

// Elect starts a new wave from this node, numbered above every wave it knows
// so that it wins over them. On the virtual tree a wave waits until the tree
// has settled (wave_at).
func (w *wave) Elect(env algo.Env) {
	if w.cfg.tree && env.Now() < w.cfg.waveAt {
		env.SetTimer(timerWave, w.cfg.waveAt-env.Now())
		return
	}
	w.join(env, algo.Index{Num: w.wave.Num + 1, ID: w.id}, algo.None)
	w.state = algo.Elect
	w.maybeFinish(env)
}

// edgeList returns the edges a wave runs over at this node, in the order of
// its marks. On the graph they are all its neighbours: the driver's list,
// which the marks follow as neighbours come and go (NeighborUp, NeighborDown).
// On the virtual tree they are the tree's edges as they were when the node
// last joined a wave.
func (w *wave) edgeList(env algo.Env) []algo.NodeID {
	if w.tree != nil {
		return w.tree.waveEdges
	}
	return env.Neighbors()
}

// join makes this node part of wave x, entered over edge from (None for the
// initiator), and sends the explorer on: "Weiterleitung der ersten
// Explorernachricht in alle übrigen Richtungen".
func (w *wave) join(env algo.Env, x algo.Index, from algo.NodeID) {
	if w.tree != nil {
		if edges := w.tree.edges(); !slices.Equal(edges, w.tree.waveEdges) {
			// The tree changed (or this is the first wave).
			w.tree.waveEdges = w.cfg.arena.idList(len(edges))
			copy(w.tree.waveEdges, edges)
		}
	}
	w.marks.clear() // every mark is of a lower wave now: blank
	w.wave, w.parent, w.done, w.echoed = x, from, 0, false
	w.best = algo.Peer{ID: w.id, Value: env.Value()}
	w.state = algo.Wait
	w.leader = algo.None
	if from != algo.None {
		w.mark(env, from, false)
	}
	for _, u := range w.edgeList(env) {
		if u != from {
			env.Send(u, algo.Message{Type: Explorer, Index: x})
		}
	}
}

// mark records that the node's wave came over the edge to u (its echo, if
// child): every caller passes a message of that wave. It reports whether
// that made the edge done: false for an edge that was done already (a
// duplicate) or is not one of this node's wave edges.
func (w *wave) mark(env algo.Env, u algo.NodeID, child bool) bool {
	edges := w.edgeList(env)
	i, ok := ids.Find(edges, u)
	if !ok {
		return false
	}
	if seen, _ := w.marks.get(i); seen {
		return false
	}
	w.marks.set(i, len(edges), child)
	w.done++
	return true
}

func (w *wave) Receive(env algo.Env, m *algo.Message) {
	switch m.Type {
	case Explorer:
		x := m.Index
		switch {
		case x.Less(w.wave):
			// A lower initiator's wave: it dies out here.
		case w.wave.Less(x):
			w.join(env, x, m.From) // adoption: the edge becomes the parent edge
			w.maybeFinish(env)
		default:
			// The same wave over another edge: the explorers crossed, the edge
			// is not part of the tree.
			w.mark(env, m.From, false)
			w.maybeFinish(env)
		}
	case Echo:
		if m.Index != w.wave || !w.mark(env, m.From, true) {
			return // another wave's echo, or a duplicate
		}
		w.best = w.best.Max(m.Peer)
		w.maybeFinish(env)
	case Info:
		if m.Index != w.wave || m.From != w.parent {
			return
		}
		w.decide(env, m.Peer)
	case Connect:
		if w.tree != nil {
			w.tree.receive(env, m)
		}
	}
}

// maybeFinish sends the echo, or decides at the initiator, once every edge is
// done for the current wave.
func (w *wave) maybeFinish(env algo.Env) {
	if w.wave.IsZero() || w.echoed || int(w.done) < len(w.edgeList(env)) {
		return
	}
	w.echoed = true
	if w.parent == algo.None {
		if w.wave.ID == w.id {
			w.decide(env, w.best)
		}
		return
	}
	env.Send(w.parent, algo.Message{Type: Echo, Index: w.wave, Peer: w.best})
}

// decide adopts the result and passes it down the tree.
func (w *wave) decide(env algo.Env, leader algo.Peer) {
	w.leader = leader.ID
	w.state = algo.Norm
	for i, u := range w.edgeList(env) {
		if _, child := w.marks.get(i); child {
			env.Send(u, algo.Message{Type: Info, Index: w.wave, Peer: leader})
		}
	}
}

func (w *wave) Timer(env algo.Env, t algo.Timer) {
	if t == timerWave {
		w.Elect(env)
	}
}

// NeighborUp keeps the marks aligned with the neighbours on the graph: the
// new edge has carried nothing yet. If a wave is still collecting here, the
// new neighbour is sent its explorer, or the wave would wait for it for ever.
func (w *wave) NeighborUp(env algo.Env, id algo.NodeID) {
	if w.tree != nil {
		w.tree.neighborUp(env, id)
		return
	}
	nbrs := env.Neighbors()
	i, _ := ids.Find(nbrs, id)
	w.marks.insert(i, len(nbrs)-1)

	if !w.wave.IsZero() && !w.echoed && w.state != algo.Norm {
		env.Send(id, algo.Message{Type: Explorer, Index: w.wave})
	}
}

// NeighborDown drops the lost edge's mark on the graph; if the wave was only
// waiting for that edge, it goes on without it.
func (w *wave) NeighborDown(env algo.Env, id algo.NodeID) {
	if w.tree != nil {
		w.tree.neighborDown(env, id)
		return
	}
	nbrs := env.Neighbors()
	i, _ := ids.Find(nbrs, id) // where id was
	if seen, _ := w.marks.get(i); seen {
		w.done--
	}
	w.marks.remove(i, len(nbrs)+1)
	w.maybeFinish(env)
}
