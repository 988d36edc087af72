package park

import (
	"slices"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/adhoc"
)

// Elect starts an election from this node (lines 8-10, 16-20): status_i :=
// Elect, num_i := num_i + 1, wl_i := n_i, cl_i := {i}, election(num_i) to
// every neighbour.
func (n *node) Elect(env algo.Env) {
	n.num++
	n.status, n.src, n.k = algo.Elect, algo.Index{Num: n.num, ID: n.id}, algo.None
	n.up.Stop(env)
	n.cl = map[algo.NodeID]bool{n.id: true}
	n.best = n.self(env)
	n.wl = n.wl[:0]
	for _, u := range env.Neighbors() {
		n.wl = append(n.wl, waiting{id: u, since: env.Now()})
	}
	n.cfg.up.Spread(env, algo.Message{Type: Election, Index: n.src}, algo.None)
	env.SetTimer(adhoc.TimerTimeout, n.cfg.electionTimeout)
	env.SetTimer(timerResend, n.cfg.resend)
	n.checklist(env)
}

// onElection: lines 11-15 (Norm), 22-27 (Elect), 34-38 (Wait).
func (n *node) onElection(env algo.Env, m *algo.Message) {
	r := m.Index
	switch {
	case n.src.Less(r):
		// A higher election: wait in it (abandoning one's own).
		n.num = max(n.num, r.Num)
		n.status, n.src, n.k = algo.Wait, r, m.From
		n.cl, n.wl = nil, n.wl[:0]
		env.StopTimer(timerResend)
		n.up.Stop(env)
		n.cfg.up.Spread(env, algo.Message{Type: Election, Index: r}, m.From)
		n.ack(env)
		env.SetTimer(adhoc.TimerTimeout, n.cfg.electionTimeout)
	case r == n.src && m.Level == 1 && n.status == algo.Wait:
		n.ack(env) // the source asks again: its Ack may have been lost
	case r.Less(n.src) && n.status == algo.Norm && n.up.Leader.ID != algo.None:
		// A stale election reaching a node in normal operation: tell it
		// the leader, which ends it.
		env.Send(m.From, algo.Message{Type: Leader, Index: n.src, Peer: n.up.Leader})
	}
}

// ack sends this node's Ack toward the source: to k (line 15).
func (n *node) ack(env algo.Env) {
	nbrs := env.Neighbors()
	q := make([]algo.Peer, len(nbrs))
	for i, u := range nbrs {
		q[i] = algo.Peer{ID: u}
	}
	env.Send(n.k, algo.Message{Type: Ack, Index: n.src, Peer: n.self(env), Peers: q})
}

// onAck: at the source, lines 17-21; elsewhere the Ack is passed on toward
// the source, along k.
func (n *node) onAck(env algo.Env, m *algo.Message) {
	if m.Index != n.src {
		return // an Ack of an election this node has left
	}
	if n.status == algo.Wait {
		env.Send(n.k, *m)
		return
	}
	if n.status != algo.Elect || n.cl[m.Peer.ID] {
		return
	}
	o := m.Peer
	n.remove(o.ID)              // wl_i := wl_i - {j}
	n.cl[o.ID] = true           // cl_i := cl_i + {j}
	n.best = n.best.Max(o)      //
	for _, u := range m.Peers { // wl_i := wl_i + (q - cl_i)
		if !n.cl[u.ID] {
			n.await(env, u.ID)
		}
	}
	n.checklist(env)
}

func (n *node) remove(id algo.NodeID) {
	if i, found := slices.BinarySearchFunc(n.wl, id, func(w waiting, id algo.NodeID) int { return int(w.id) - int(id) }); found {
		n.wl = slices.Delete(n.wl, i, i+1)
	}
}

// checklist: once wl is empty (line 21), ldr_i := max(cl_i), leader(ldr_i)
// to every neighbour, status_i := Norm (lines 40-43).
func (n *node) checklist(env algo.Env) {
	if n.status != algo.Elect || len(n.wl) > 0 {
		return
	}
	lid := n.best
	n.cfg.up.Spread(env, algo.Message{Type: Leader, Index: n.src, Peer: lid}, algo.None)
	n.follow(env, lid)
}

// onLeader: lines 29-33. The leader of this node's election, or of a higher
// one it missed, is adopted and passed on once.
func (n *node) onLeader(env algo.Env, m *algo.Message) {
	if m.Index.Less(n.src) || m.Index == n.src && n.status == algo.Norm {
		return
	}
	n.src = m.Index
	n.num = max(n.num, m.Index.Num)
	n.cfg.up.Spread(env, algo.Message{Type: Leader, Index: m.Index, Peer: m.Peer}, m.From)
	n.follow(env, m.Peer)
}

// resend runs at the source every resend interval (section 4.2, point 4):
// a neighbour still in wl is sent Election again, once; a member awaited for
// longer than the ack timeout is dropped: it left or crashed.
func (n *node) resend(env algo.Env) {
	if n.status != algo.Elect {
		return
	}
	now := env.Now()
	nbrs := env.Neighbors()
	kept := n.wl[:0]
	for _, w := range n.wl {
		if now-w.since >= n.cfg.ackTimeout {
			continue
		}
		if _, near := slices.BinarySearch(nbrs, w.id); near && !w.resent {
			w.resent = true
			env.Send(w.id, algo.Message{Type: Election, Index: n.src, Level: 1})
		}
		kept = append(kept, w)
	}
	n.wl = kept
	env.SetTimer(timerResend, n.cfg.resend)
	n.checklist(env)
}
