package node

import (
	"maps"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Replay across restarts (issue 20's third finding). A node's replay
// windows lived in memory only: after it restarted, datagrams captured
// from a dead leader and replayed were all taken, and the survivors
// followed it for as long as the capture lasted. Now the highest number
// taken from each sender is saved with the state (Saved.Heard): at least
// once a second while it changes (heardTick), at every save, and at a clean
// stop; a node restarted from its state resumes each window there, before
// it reads its first datagram. What a SIGKILL loses is the last second's
// numbers at most.

// heardEvery is how often moved windows are saved.
const heardEvery = time.Second

// heardTops is the highest number taken from each sender.
func (n *Node) heardTops() map[algo.NodeID]uint64 {
	tops := map[algo.NodeID]uint64{}
	for id, nb := range n.nbrs {
		if top, ok := nb.window.Top(); ok {
			tops[id] = top
		}
	}
	return tops
}

// heardTick saves the windows if they moved since they were last saved.
func (n *Node) heardTick() {
	if n.cfg.StateDir == "" || !n.booted {
		return
	}
	if !maps.Equal(n.heardTops(), n.savedHeard) {
		n.heardDirty = true
		n.persist(n.last.ElectionIndex)
	}
}

// resumeHeard restores the windows a previous life saved.
func (n *Node) resumeHeard(saved *runtime.Saved) {
	for id, top := range saved.Heard {
		if id == n.cfg.ID || n.stranger(id) {
			continue
		}
		nb := n.nbrs[id]
		if nb == nil {
			if n.unlisted >= maxUnlisted {
				continue
			}
			nb = &neighbor{}
			n.nbrs[id] = nb
			n.unlisted++
		}
		nb.window = runtime.ResumeWindow(top)
	}
	n.savedHeard = maps.Clone(saved.Heard)
}
