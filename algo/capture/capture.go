// Package capture implements the leader elections for complete networks of
// 001_0b77750fa08da8f2.txt (after Barbosa, "An Introduction to Distributed
// Algorithms", section 5.2 on Afek and Gafni's algorithms), where every node
// is a neighbour of every other:
//
//   - all-to-all: the synchronous version. At pulse 0 every candidate sends
//     its identity to all the other nodes; at pulse 1 every node has heard
//     every candidate and decides: the most valued candidate leads.
//     n(n-1) messages with n candidates (k(n-1) with k), and the election
//     ends at pulse 1.
//   - capture-sync: S_Elect_Leader_C. A candidate tries to capture 1, then 2,
//     then 4, ... of its neighbours, one set every other pulse. A node
//     captured in a pulse acks the most valued candidate that tried it in
//     that pulse, if that candidate beats the node's current owner (a
//     candidate owns itself); a candidate that misses an ack gives up.
//   - capture-async: A_Elect_Leader_C, the asynchronous version, in which
//     candidates compare levels (level = floor(log2(owns + 1))) first and
//     identities only break ties, and a capture is finished only once the
//     node's previous owner has been eliminated (check, eliminate,
//     eliminated). See async.go for the slides' actions and where this
//     implementation has to read them.
//
// "Identities" throughout are algo.Peer values, compared with Peer.Better:
// (value, id), so that with values equal to the ids the comparisons are
// exactly the slides'.
//
// # How every node learns the leader
//
// The slides stop when one candidate has captured every other node. Here
// that winner then sends one leader message to each of the n-1 other nodes
// (capture-sync, capture-async); the message is a type of its own, "leader",
// so that the counts of the slides' messages stay apart. In capture-sync the
// winner is the most valued candidate (nobody can capture it, and it beats
// every owner), so it names itself. In capture-async the winner is decided
// by levels and may be any candidate: every ack carries the identity of the
// node sending it when that node was a candidate, and since the winner has
// received an ack from every other node it knows every candidate and names
// the most valued one. All three algorithms thus elect the most valued
// candidate; with candidates=all (the default) that is the most valued
// node, which is what the checker demands.
//
// # Parameters
//
//   - candidates: the set N0 of nodes that start as candidates ("all", a set
//     such as "0,3,7-9", or "none"). An elect event at a node that has not
//     yet taken part makes it a candidate too (at time 0: before the first
//     pulse).
//   - order (capture-sync, capture-async): the order in which a candidate
//     tries its neighbours: "rotate" (the next ids above its own, wrapping
//     around) or "random" (a random permutation from the run's source).
//
// # Model
//
// The network is complete, static and reliable: the algorithms tolerate no
// loss, crash, partition or mobility. A restarted node knows nothing and
// takes no part; a recovered node resumes the leader it saved.
//
// It imports algo and nothing above it: no simulator, judge or driver
// (docs/architecture.md).
package capture

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

const source = "001_0b77750fa08da8f2.txt"

// tick is every machine's only timer: the middle of a pulse for the
// synchronous algorithms.
const tick algo.Timer = 0

// config is shared by the nodes of one run.
type config struct {
	random    bool // order=random
	allToAlls algo.Slab[allToAll]
	syncs     algo.Slab[syncNode]
	asyncs    algo.Slab[asyncNode]
}

// readConfig: the candidates N0 are the driver's initiators (Elect at time
// 0); the parameter candidates is their deprecated alias.
func readConfig(p algo.Params, _ int) (*config, error) {
	c := &config{}
	if o, ok := p["order"]; ok {
		c.random = o == "random"
	}
	return c, nil
}

func checkOrder(s string) error {
	if s != "rotate" && s != "random" {
		return fmt.Errorf("%q is neither rotate nor random", s)
	}
	return nil
}

// targets hands out a candidate's neighbours in the order it tries to
// capture them: tried_i^j is true for the first tried of them.
type targets struct {
	tried int
	perm  []algo.NodeID // order=random: the neighbours, the first tried drawn
}

// left is the size of S, the neighbours not tried yet.
func (t *targets) left(env algo.Env) int { return len(env.Neighbors()) - t.tried }

// next picks n_j in S and sets tried_i^j.
func (t *targets) next(env algo.Env, random bool) algo.NodeID {
	nb := env.Neighbors()
	if random {
		if t.perm == nil {
			t.perm = slices.Clone(nb)
		}
		j := t.tried + env.Rand().IntN(len(t.perm)-t.tried)
		t.perm[t.tried], t.perm[j] = t.perm[j], t.perm[t.tried]
		t.tried++
		return t.perm[t.tried-1]
	}
	start, _ := slices.BinarySearch(nb, env.ID()+1) // the first id above one's own
	v := nb[(start+t.tried)%len(nb)]
	t.tried++
	return v
}

// midPulse is how long until the middle of the current pulse, or of the
// next one if the middle has passed.
func midPulse(env algo.Env) (d time.Duration, pulse int64) {
	p := int64(algo.PulseLength)
	now := int64(env.Now())
	k := now / p
	if now >= k*p+p/2 {
		k++
	}
	return time.Duration(k*p + p/2 - now), k
}

func self(env algo.Env) algo.Peer { return algo.Peer{ID: env.ID(), Value: env.Value()} }

// saveLeader and loadLeader are the saved state of every machine here: the
// leader, if any.
func saveLeader(l algo.Peer) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(l.ID))
	return binary.BigEndian.AppendUint64(b, uint64(l.Value))
}

func loadLeader(saved []byte) (algo.Peer, error) {
	if len(saved) != 12 {
		return algo.NoPeer, fmt.Errorf("saved state has %d bytes, want 12", len(saved))
	}
	l := algo.Peer{ID: algo.NodeID(int32(binary.BigEndian.Uint32(saved))), Value: int64(binary.BigEndian.Uint64(saved[4:]))}
	if l.ID == algo.None {
		l = algo.NoPeer
	}
	return l, nil
}

// decided is the Status of a node following l.
func decided(l algo.Peer) algo.Status {
	if l.ID == algo.None {
		return algo.Status{Leader: algo.None, State: algo.Norm}
	}
	return algo.Status{Leader: l.ID, State: algo.Norm, Index: algo.Index{Num: 1, ID: l.ID}}
}
