package echo

import (
	"slices"

	"github.com/electgo/elect/algo"
)

// vtree is the virtual tree of 002_4d397ad5cbfdc025.txt ("Erzeugung eines
// virtuellen Baums beim Systemstart"): every node keeps a level, the root has
// level 0, and a node's parent is its neighbour with the shortest distance to
// the root ("Elternknoten: Nachbar mit kürzester Distanz zum Wurzelknoten"),
// chosen again when the link to the parent breaks ("Wiederholung der Auswahl
// bei Abbruch der Elternverbindung").
//
// The slides read each neighbour's level directly while connecting; here a
// node tells its neighbours its level and parent in a connect message
// whenever either changes. Two rules keep the tree sound when links break: a
// node never takes its level from a child of its own (split horizon), and a
// level above maxLevel means the root is out of reach, so the node detaches
// (level -1) instead of counting upwards for ever.
type vtree struct {
	id       algo.NodeID
	root     bool
	maxLevel int32
	level    int32 // -1: not connected to the root
	parent   algo.NodeID
	nb       []treeNeighbor // sorted by id
	buf      []algo.NodeID
	// waveEdges are the tree edges as they were when the node last joined
	// a wave: the edges the wave runs over (wave.edgeList).
	waveEdges []algo.NodeID
}

type treeNeighbor struct {
	id     algo.NodeID
	level  int32
	parent algo.NodeID
}

func newVTree(id algo.NodeID, root bool, maxLevel int32) *vtree {
	t := &vtree{id: id, root: root, maxLevel: maxLevel, level: -1, parent: algo.None}
	if root {
		t.level = 0
	}
	return t
}

func (t *vtree) start(env algo.Env) {
	for _, u := range env.Neighbors() {
		t.nb = append(t.nb, treeNeighbor{id: u, level: -1, parent: algo.None})
	}
	if t.root {
		t.announce(env)
	}
}

func (t *vtree) connectMsg() algo.Message {
	return algo.Message{Type: Connect, Level: t.level, Peer: algo.Peer{ID: t.parent}}
}

func (t *vtree) announce(env algo.Env) {
	for _, n := range t.nb {
		env.Send(n.id, t.connectMsg())
	}
}

func (t *vtree) find(u algo.NodeID) (int, bool) {
	return slices.BinarySearchFunc(t.nb, u, func(n treeNeighbor, id algo.NodeID) int { return int(n.id) - int(id) })
}

func (t *vtree) receive(env algo.Env, m *algo.Message) {
	i, ok := t.find(m.From)
	if !ok {
		t.nb = slices.Insert(t.nb, i, treeNeighbor{id: m.From})
	}
	t.nb[i].level, t.nb[i].parent = m.Level, m.Peer.ID
	t.choose(env)
}

// choose picks the parent: the neighbour nearest the root, lowest id first
// among equals, never one of this node's children.
func (t *vtree) choose(env algo.Env) {
	if t.root {
		return
	}
	level, parent := int32(-1), algo.None
	for _, n := range t.nb {
		if n.level < 0 || n.parent == t.id {
			continue
		}
		if level < 0 || n.level+1 < level {
			level, parent = n.level+1, n.id
		}
	}
	if level > t.maxLevel {
		level, parent = -1, algo.None
	}
	if level != t.level || parent != t.parent {
		t.level, t.parent = level, parent
		t.announce(env)
	}
}

func (t *vtree) neighborUp(env algo.Env, u algo.NodeID) {
	i, ok := t.find(u)
	if !ok {
		t.nb = slices.Insert(t.nb, i, treeNeighbor{id: u, level: -1, parent: algo.None})
	}
	env.Send(u, t.connectMsg())
}

func (t *vtree) neighborDown(env algo.Env, u algo.NodeID) {
	if i, ok := t.find(u); ok {
		t.nb = slices.Delete(t.nb, i, i+1)
		t.choose(env)
	}
}

// edges lists the tree edges at this node, ascending: its parent and the
// neighbours that named it as their parent.
func (t *vtree) edges() []algo.NodeID {
	t.buf = t.buf[:0]
	for _, n := range t.nb {
		if n.id == t.parent || n.parent == t.id {
			t.buf = append(t.buf, n.id)
		}
	}
	return t.buf
}
