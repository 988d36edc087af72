// Package node runs one elect node for real: an algorithm's pure state
// machine (package algo) driven by real time, real datagrams (package
// runtime's UDP transport and wire format) and neighbours discovered by
// hello beacons. It is both the library behind `elect node` and the API for
// programs that embed a node:
//
//	tr, _ := runtime.ListenUDP("0.0.0.0:7946")
//	n, _ := node.New(node.Config{ID: 3, Value: battery, Transport: tr, Peers: peers,
//		Callbacks: node.Callbacks{OnStartedLeading: lead}})
//	go n.Run(ctx)
//	for st := range n.Subscribe(ctx) { ... }
//
// n.Serve(ctx, node.ServeOptions{HTTP: ":8000"}) runs it in Run's stead
// and serves its HTTP API as `elect node` does, guarded against idle and
// slow clients.
//
// One goroutine (Run's) owns the machine and hands it one input at a time,
// as the simulator does; everything else (the socket reader, timers, API
// calls, HTTP) reaches it through channels, so the machine needs no locks.
//
// It must not import sim, check or any driver above it
// (docs/architecture.md).
package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/netip"
	"slices"
	"sync/atomic"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Node is one running node. Create it with New, then call Run once.
type Node struct {
	cfg   Config
	alg   *algo.Algorithm
	names []string // message type names, for metrics and logs
	m     algo.Machine
	codec runtime.Codec
	state runtime.StateDir
	log   *slog.Logger

	// Owned by Run's goroutine.
	start       time.Time
	value       int64
	rng         *rand.Rand
	seq         uint64
	nbrs        map[algo.NodeID]*neighbor
	up          []algo.NodeID // live neighbours, ascending
	timers      []*time.Timer
	gens        []uint64 // per timer: the generation of its pending expiry
	booted      bool
	early       []algo.Message // messages that arrived before boot
	saved       []byte         // the machine's state as last written to disk
	last        Status         // as last published
	leading     context.CancelFunc
	lastLeader  algo.NodeID // the last leader followed, for OnNewLeader
	savedIndex  uint64      // the election index as last written to disk
	runCtx      context.Context
	buf         []byte          // the encoding buffer
	sendErred   bool            // a send error was logged (logged once, counted always)
	peersWarned bool            // the boot's wait for listed peers was said (peersPending)
	reliable    bool            // messages go over reliable links (links.go)
	linkEpoch   uint64          // the epoch of the link made last
	crashOn     algo.MsgType    // Config.CrashOn's type (noCrash: none)
	dead        *CrashedOnError // set when Config.CrashOn killed the node
	electAtBoot bool            // Elect was called before the boot
	reports     reportLog
	gray        grayState // the gray failures (gray.go), shared with the reader and SetGray
	sync        *pulser   // the synchronizer of a synchronous algorithm (pulses.go)
	// keepsSilent says no neighbour is lost for its silence (expire).
	keepsSilent bool
	httpToken   string    // HTTPToken(cfg.Key), when there is a key
	unlisted    int       // neighbours in nbrs that are not listed peers (guard.go)
	newTokens   float64   // the new-sender allowance left
	newAt       time.Time // when it was last topped up
	heardDirty  bool      // the windows moved since last saved (heard.go)
	savedHeard  map[algo.NodeID]uint64
	fence       uint64                // the highest fencing token issued or heard (fence.go)
	token       uint64                // this node's token while it leads, else 0
	savedFence  uint64                // the fence as last written to disk
	saveErr     atomic.Pointer[error] // the last save's failure, nil once one works
	// loaded is the state a previous life left, read by New (recovered)
	// so that the first status already reports what it recovered;
	// loadErr is its failure, Run's to return.
	loaded  *runtime.Saved
	loadErr error

	inbox  chan inbound
	timerC chan timerFire
	calls  chan func()
	done   chan struct{} // closed when Run returns

	started atomic.Int64 // Run's start, UnixNano, for other goroutines
	pub     publisher
	metrics counters
}

// neighbor is what the node knows of another node.
type neighbor struct {
	addr   netip.AddrPort
	heard  time.Time // last valid datagram from it
	up     bool
	window runtime.ReplayWindow
	value  int64 // as its last hello said
	// link is the reliable FIFO link to it (links.go), made at the first
	// message either way while it is up; nil otherwise.
	link *runtime.Reliable[algo.Message]
}

type inbound struct {
	d    runtime.Datagram
	from netip.AddrPort
	at   time.Time
}

type timerFire struct {
	t   algo.Timer
	gen uint64
}

// earlyLimit bounds the messages kept for a machine that has not booted.
const earlyLimit = 1024

// New checks cfg and prepares a node; nothing is sent before Run.
func New(cfg Config) (*Node, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	alg, err := algo.Lookup(cfg.Algorithm)
	if err != nil {
		return nil, err
	}
	if err := fitsNetwork(alg, cfg); err != nil {
		return nil, err
	}
	if alg.Model.Synchronous && len(alg.Messages) > int(syncSafe) {
		return nil, fmt.Errorf("algorithm %s has %d message types: a synchronous one runs over the synchronizer, whose own type is %d, so it may have %d at most", alg.Name, len(alg.Messages), syncSafe, syncSafe)
	}
	crashOn, err := crashType(alg, cfg.CrashOn)
	if err != nil {
		return nil, err
	}
	if alg.Model.Spontaneous && cfg.Initiator {
		var added bool
		var boot string
		cfg.Params, added, boot = initiatorParams(alg, cfg.ID, cfg.Params)
		switch {
		case added:
			cfg.Logger.Info("an initiator of this algorithm starts its election at boot in its machine: this node is added to the nodes that do", "node", cfg.ID, boot, cfg.Params[boot])
		case boot == "":
			cfg.Logger.Info("every node of this algorithm starts an election at boot: being an initiator adds nothing", "node", cfg.ID)
		}
	}
	_, newNode, err := alg.Instantiate(cfg.Params, networkSize(cfg))
	if err != nil {
		return nil, err
	}
	nd := &Node{
		cfg: cfg, alg: alg, names: alg.Messages, m: newNode(cfg.ID),
		codec: runtime.Codec{Cluster: cfg.Cluster, Key: cfg.Key},
		state: runtime.StateDir(cfg.StateDir), log: cfg.Logger.With("node", cfg.ID),
		value: cfg.Value, nbrs: map[algo.NodeID]*neighbor{}, lastLeader: algo.None,
		crashOn: crashOn,
		inbox:   make(chan inbound, 1024), timerC: make(chan timerFire, 64), calls: make(chan func()),
		done: make(chan struct{}),
	}
	for id, addr := range cfg.Peers {
		if id != cfg.ID {
			nd.nbrs[id] = &neighbor{addr: addr}
		}
	}
	if len(cfg.Key) > 0 {
		nd.httpToken = HTTPToken(cfg.Key)
	}
	nd.reliable = needsReliable(alg.Model)
	if alg.Model.Synchronous {
		nd.sync = newPulser()
	}
	nd.keepsSilent = alg.Model.Synchronous || silenceIsLoss(alg.Model)
	if !alg.Model.Crash {
		nd.log.Warn("this algorithm does not survive crashes (Model.Crash is false): a node that crashes may stall it")
	}
	if !alg.Model.Spontaneous && !cfg.Initiator {
		nd.log.Info("this algorithm elects only where asked: start a node with --initiator, or POST /elect")
	}
	if err := nd.SetGray(cfg.Gray); err != nil {
		return nil, fmt.Errorf("gray: %w", err)
	}
	nd.metrics.init(len(alg.Messages))
	// Until the machine boots (a hello interval after Run starts, or
	// later: peersPending) the node says it is starting: no leader, and
	// Norm only because nothing has run yet.
	nd.last = Status{ID: cfg.ID, Value: cfg.Value, Algorithm: alg.Name, Cluster: cfg.Cluster, Leader: algo.None, State: algo.Norm, Neighbors: []algo.NodeID{}, Starting: true}
	// The saved state is read now rather than in Run, so that the first
	// status anyone reads (`elect node` serves HTTP before Run) already
	// holds the election index and the fence recovered: they never
	// decrease at a node, across a restart either (issue 31, E). A
	// foreign or torn file is still Run's error (TestStateDirOnly).
	nd.loaded, nd.loadErr = nd.recovered()
	if saved := nd.loaded; saved != nil {
		nd.last.ElectionIndex = saved.ElectionIndex
		if saved.Fence>>32 >= maxCounter {
			// Saved by a node that took a forged fence before it was
			// refused (issue 31): no token can follow it.
			nd.log.Warn("saved fence at the end of its range, a forgery's: not taken", "fence", saved.Fence)
		} else {
			nd.fence = saved.Fence
		}
		nd.last.FencingToken = nd.fence // what fencing reports for a node that does not lead
	}
	nd.pub.init(nd.last)
	return nd, nil
}

// Run boots the node and runs it until ctx ends or the transport fails. It
// closes the transport when it returns; it returns nil after ctx ends. A
// panic of the machine ends it too, as a *PanicError (logged, and kept
// among the reports); a panic of the node's own code is raised again.
func (n *Node) Run(ctx context.Context) (err error) {
	select {
	case <-n.done:
		return errors.New("node: Run called twice")
	default:
	}
	defer close(n.done)
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		p := machinePanic(n.cfg.ID, v)
		if p == nil {
			panic(v)
		}
		n.metrics.reports.Add(1)
		n.reports.add("panic: "+p.Text, time.Now())
		n.log.Error("the machine panicked", "call", p.Text)
		err = p
	}()
	n.runCtx = ctx
	n.start = time.Now()
	n.started.Store(n.start.UnixNano())
	n.gray.begin(n.start) // the machine's clock starts now, at Config.Gray's jump
	// Numbering from the wall clock keeps a restarted node's sequence
	// numbers above those of its previous life, which receivers' replay
	// windows still hold.
	n.seq = uint64(n.start.UnixNano())
	n.linkEpoch = n.seq // links of a later life have higher epochs
	seed := n.cfg.Seed
	if seed == 0 {
		seed = uint64(n.start.UnixNano())
	}
	n.rng = rand.New(rand.NewPCG(seed, uint64(n.cfg.ID)))

	// Read by New, which took the saved fence and election index into
	// the first status.
	saved, err := n.loaded, n.loadErr
	if err == nil {
		err = n.storable(saved) // before anything is sent
	}
	if err != nil {
		n.cfg.Transport.Close()
		return err
	}
	if saved != nil {
		// Before the first datagram is read: what came before the
		// restart is refused when replayed after it.
		n.resumeHeard(saved)
	}

	readErr := make(chan error, 1)
	go n.read(readErr)
	defer func() {
		n.cfg.Transport.Close()
		for _, t := range n.timers {
			if t != nil {
				t.Stop()
			}
		}
		n.stopLeading()
		n.pub.close()
	}()

	// Neighbours are discovered first: a hello goes out now, nodes already
	// running answer at once, and the machine boots one beacon interval
	// later knowing them, as a node of the documents knows its neighbours.
	n.beacon()
	bootAt := time.NewTimer(n.cfg.Hello)
	defer bootAt.Stop()
	beacons := time.NewTicker(n.cfg.Hello)
	defer beacons.Stop()
	// Neighbours are declared lost when their silence reaches the limit,
	// not at the next beacon tick: that would add up to a beacon interval
	// to every failover.
	expiry := time.NewTimer(n.lossLimit())
	defer expiry.Stop()
	heardTicks := time.NewTicker(heardEvery)
	defer heardTicks.Stop()
	var linkTicks <-chan time.Time // nil without reliable links: never ready
	if n.reliable {
		t := time.NewTicker(n.linkTick())
		defer t.Stop()
		linkTicks = t.C
	}
	for {
		select {
		case <-ctx.Done():
			n.heardDirty = true
			if err := n.persist(n.last.ElectionIndex); err != nil {
				// The state on disk is older than the node's: a restart
				// from it would go back. Said, and not as a clean stop.
				return fmt.Errorf("node %d: stopped, but the final save failed: %w", n.cfg.ID, err)
			}
			n.log.Info("stopped")
			return nil
		case err := <-readErr:
			n.persist(n.last.ElectionIndex)
			return fmt.Errorf("node %d: transport: %w", n.cfg.ID, err)
		case <-bootAt.C:
			if n.peersPending() {
				bootAt.Reset(n.cfg.Hello)
				break
			}
			n.boot(saved)
		case <-beacons.C:
			n.beacon()
		case now := <-expiry.C:
			n.expire(now)
			expiry.Reset(n.nextExpiry(now))
		case now := <-heardTicks.C:
			// Upkeep once a second: the windows saved, silent strangers
			// forgotten (a sweep of the whole table, kept off the expiry
			// timer, which may fire every millisecond).
			n.heardTick()
			n.forget(now)
		case in := <-n.inbox:
			n.lag(ctx)
			n.receive(in)
		case now := <-linkTicks:
			n.tickLinks(now)
		case f := <-n.timerC:
			if int(f.t) < len(n.gens) && f.gen == n.gens[f.t] && n.booted {
				// Slept on while live: the loop alone moves timers, so
				// it still is after (Gray.Slow).
				n.lag(ctx)
				n.gens[f.t]++ // spent
				n.m.Timer(n.env(), f.t)
				n.after()
			}
		case call := <-n.calls:
			n.lag(ctx)
			call()
		}
		if n.dead != nil {
			// Killed by the fault injected: nothing more is sent or saved.
			n.log.Error("crashed", "err", n.dead)
			return n.dead
		}
	}
}

// recovered returns the state a previous life of this node left in its
// state directory: nil when there is none, or no directory.
func (n *Node) recovered() (*runtime.Saved, error) {
	if n.cfg.StateDir == "" {
		return nil, nil
	}
	saved, err := n.state.Load()
	if err != nil || saved == nil {
		return nil, err
	}
	if saved.Algorithm != n.alg.Name || saved.ID != n.cfg.ID {
		return nil, fmt.Errorf("%s: state of node %d running %s, not of node %d running %s", n.state.Path(), saved.ID, saved.Algorithm, n.cfg.ID, n.alg.Name)
	}
	return saved, nil
}

// boot starts the machine: recovered from saved state when there is some,
// fresh otherwise.
func (n *Node) boot(saved *runtime.Saved) {
	n.booted = true
	env := n.env()
	if saved != nil {
		n.last.ElectionIndex = saved.ElectionIndex
		if err := n.m.Recover(env, saved.Machine); err != nil {
			n.log.Warn("saved state unusable; restarting with an election", "file", n.state.Path(), "err", err)
			n.m.Restart(env)
		} else {
			n.log.Info("recovered", "file", n.state.Path())
		}
	} else {
		n.m.Start(env)
	}
	// An initiator elects as the simulator's driver has a run's initiators
	// elect: right after its first boot, before any message is handled. A
	// node asked to elect before it booted elects then too. That of a
	// spontaneous algorithm started its election in Start (New put it in
	// the boot set): a second would be one too many.
	if n.cfg.Initiator && !n.alg.Model.Spontaneous && saved == nil || n.electAtBoot {
		n.m.Elect(env)
	}
	n.after()
	if n.sync != nil {
		// Pulse 0 begins with the boot, at the synchronizer's time 0.
		n.runPulse()
		n.pulseProgress()
		return
	}
	for _, m := range n.early {
		if n.nbrs[m.From] != nil && n.nbrs[m.From].up {
			n.m.Receive(n.env(), &m)
			n.after()
		}
	}
	n.early = nil
}

// read is the socket's goroutine: it decodes datagrams and hands the valid
// ones to the loop, counting the others by reason.
func (n *Node) read(errc chan<- error) {
	buf := make([]byte, runtime.MaxDatagram+1)
	for {
		k, from, err := n.cfg.Transport.ReadFrom(buf)
		if err != nil {
			if !runtime.IsClosed(err) {
				errc <- err
			}
			return
		}
		d, err := n.codec.Decode(buf[:k])
		if err != nil {
			n.reject(err, from)
			continue
		}
		if n.gray.cutsFrom(d.Sender) {
			// A direction cut where it arrives (Gray.CutFrom): as if it
			// never came.
			n.metrics.cutFrom.Add(1)
			continue
		}
		select {
		case n.inbox <- inbound{d: d, from: from, at: time.Now()}:
		case <-n.done:
			return
		}
	}
}

// reject counts a datagram the node refused, and logs it at debug level.
func (n *Node) reject(err error, from netip.AddrPort) {
	reason := runtime.ReasonPayload
	var we *runtime.WireError
	if errors.As(err, &we) {
		reason = we.Reason
	}
	n.metrics.rejected[reason].Add(1)
	n.log.Debug("datagram rejected", "from", from, "reason", reason, "err", err)
}

// receive handles one decoded datagram in the loop.
func (n *Node) receive(in inbound) {
	d := in.d
	if d.Sender == n.cfg.ID {
		return // our own broadcast, come back
	}
	if d.Kind == runtime.KindFrame && !n.reliable {
		// A frame of a reliable link, to a node whose algorithm runs on
		// the lossy path: a kind this node does not take.
		n.metrics.rejected[runtime.ReasonKind].Add(1)
		return
	}
	if n.stranger(d.Sender) {
		n.metrics.rejected[runtime.ReasonStranger].Add(1)
		return
	}
	if ahead(d.Seq, in.at) || behind(d.Seq, in.at) {
		n.metrics.rejected[runtime.ReasonReplay].Add(1)
		return
	}
	if atRangeEnd(&d) {
		n.metrics.rejected[runtime.ReasonRange].Add(1)
		return
	}
	nb := n.nbrs[d.Sender]
	if nb == nil {
		if !n.admitNew(in.at) {
			n.metrics.rejected[runtime.ReasonFlood].Add(1)
			return
		}
		nb = &neighbor{addr: in.from}
		n.nbrs[d.Sender] = nb
		n.unlisted++
	}
	// Frames may come in any order: their link puts them back in order.
	if !nb.window.Accept(d.Seq, n.alg.Model.FIFO && d.Kind != runtime.KindFrame) {
		n.metrics.rejected[runtime.ReasonReplay].Add(1)
		return
	}
	if d.Kind == runtime.KindMessage && d.Message.To != n.cfg.ID && d.Message.To != algo.Everyone || d.Kind == runtime.KindFrame && d.To != n.cfg.ID {
		n.metrics.rejected[runtime.ReasonMisaddressed].Add(1)
		return
	}
	// A node that moved to another address (restarted elsewhere) is
	// followed there; with a key, only a signed datagram can move it.
	nb.addr = in.from
	nb.heard = in.at
	if !nb.up {
		n.neighborUp(d.Sender, nb)
	}
	switch d.Kind {
	case runtime.KindHello:
		nb.value = d.Value
		n.metrics.hellosReceived.Add(1)
		n.heardFence(d.Fence)
	case runtime.KindMessage:
		n.deliver(&d.Message)
	case runtime.KindFrame:
		n.receiveFrame(&d, nb)
	}
}

// deliver hands a message to the machine, or keeps it for the boot.
func (n *Node) deliver(m *algo.Message) {
	if int(m.Type) >= len(n.names) {
		n.metrics.rejected[runtime.ReasonPayload].Add(1)
		return
	}
	n.metrics.received[m.Type].Add(1)
	if n.crashesOn(m) {
		return
	}
	if !n.booted {
		if len(n.early) < earlyLimit {
			n.early = append(n.early, *m)
		}
		return
	}
	n.m.Receive(n.env(), m)
	n.after()
}

// neighborUp records a neighbour that became reachable, answers it with a
// hello at once (so that discovery takes a round trip, not a beacon
// interval) and tells the machine.
func (n *Node) neighborUp(id algo.NodeID, nb *neighbor) {
	nb.up = true
	i, _ := slices.BinarySearch(n.up, id)
	n.up = slices.Insert(n.up, i, id)
	n.log.Debug("neighbour up", "peer", id, "addr", nb.addr)
	n.hello(nb.addr)
	switch {
	case n.booted && n.sync != nil:
		n.later(func() { n.m.NeighborUp(n.env(), id); n.after() })
	case n.booted:
		n.m.NeighborUp(n.env(), id)
		n.after()
	}
}

// peersPending says the boot should wait for listed peers not heard yet:
// an algorithm written for a static network (Model.Mobility false: echo,
// Chang–Roberts) takes the neighbours it boots with for the network, and
// one found a moment later (its hello lost) would be an edge its wave never
// runs over. It waits for every listed peer. An algorithm whose model has
// no crashes waits for as long as it takes, for its network has every node
// alive (a bound of HelloLoss beacons would let it boot without a peer
// whose first HelloLoss hellos were all lost), saying once which peers it
// waits for after HelloLoss beacons; one that survives crashes (bully) waits HelloLoss beacons at
// most, as a peer may be down for good. Algorithms for moving networks
// boot after one, as they take neighbours as they come.
func (n *Node) peersPending() bool {
	if n.alg.Model.Mobility {
		return false
	}
	late := time.Since(n.start) >= n.lossLimit()
	if late && n.alg.Model.Crash {
		return false
	}
	var missing []algo.NodeID
	for id := range n.cfg.Peers {
		if nb := n.nbrs[id]; id != n.cfg.ID && (nb == nil || !nb.up) {
			missing = append(missing, id)
		}
	}
	if late && len(missing) > 0 && !n.peersWarned {
		n.peersWarned = true
		slices.Sort(missing)
		n.log.Warn("waiting for every listed peer before booting: an algorithm for a static network takes the neighbours it boots with for the network", "not_heard", missing)
	}
	return len(missing) > 0
}

// silenceIsLoss says an algorithm runs on any static network whose model
// lets no neighbour go (expire).
func silenceIsLoss(m algo.Model) bool {
	return m.Topology == "" && !m.Crash && !m.Partition && !m.Mobility
}

// lossLimit is the silence after which a neighbour is lost.
func (n *Node) lossLimit() time.Duration { return time.Duration(n.cfg.HelloLoss) * n.cfg.Hello }

// nextExpiry is how long until the first live neighbour's silence reaches
// the limit. A neighbour heard later has a later deadline, so a timer set to
// this fires no later than any deadline, at worst early (and is set again).
// A node that keeps its silent neighbours (expire) has no deadline: it
// would otherwise wake every millisecond past the first one.
func (n *Node) nextExpiry(now time.Time) time.Duration {
	limit := n.lossLimit()
	next := limit
	if n.keepsSilent {
		return next
	}
	for _, id := range n.up {
		next = min(next, n.nbrs[id].heard.Add(limit).Sub(now))
	}
	return max(next, time.Millisecond)
}

// expire declares lost the neighbours not heard for HelloLoss beacons.
// Two kinds of algorithm keep theirs: a synchronous one, whose pulses wait
// for every neighbour; and one for any static network whose model has no
// way for a neighbour to go (no crash, partition or movement: echo,
// extinction), for which a silence can only be loss and a NeighborDown a
// false event taken for the truth (an extinction wave ended without a node
// that was only silent, 2 runs in 25 at 20% loss). Their reliable links
// say when one has really gone (tickLinks). An algorithm for a fixed ring
// or complete network is told of silences still: the ring document's dead
// nodes are found that way.
func (n *Node) expire(now time.Time) {
	if n.keepsSilent {
		return
	}
	limit := n.lossLimit()
	for _, id := range slices.Clone(n.up) {
		nb := n.nbrs[id]
		if now.Sub(nb.heard) <= limit {
			continue
		}
		n.log.Debug("neighbour lost", "peer", id, "silent", now.Sub(nb.heard).Round(time.Millisecond))
		n.lose(id, nb, false)
	}
}

// lose takes down a neighbour that was up: silent too long, or its link
// failed (failed). The link of a silent one is kept: silence may be loss
// (four beacons lost in a row happen every few seconds somewhere at 20%
// loss), and a neighbour heard again takes the link up where it was, what
// was in flight delivered; one that really went is found by the link's
// own bound, or starts a new epoch when it restarts. A failed link is
// dropped, and what was in flight with it, as in a crash.
func (n *Node) lose(id algo.NodeID, nb *neighbor, failed bool) {
	nb.up = false
	if failed {
		nb.link = nil
	}
	i, _ := slices.BinarySearch(n.up, id)
	n.up = slices.Delete(n.up, i, i+1)
	switch {
	case n.booted && n.sync != nil:
		// It no longer holds the pulses back; the machine hears of it at
		// the next one.
		n.later(func() { n.m.NeighborDown(n.env(), id); n.after() })
	case n.booted:
		n.m.NeighborDown(n.env(), id)
		n.after()
	}
}

// beacon sends a hello to every listed peer and to the broadcast address.
func (n *Node) beacon() {
	for id := range n.cfg.Peers {
		if id != n.cfg.ID {
			n.hello(n.nbrs[id].addr) // where it was last heard from
		}
	}
	if n.cfg.Broadcast.IsValid() {
		n.hello(n.cfg.Broadcast)
	}
}

// hello sends one hello beacon to addr.
func (n *Node) hello(addr netip.AddrPort) {
	b, err := n.codec.AppendHello(n.buf[:0], n.cfg.ID, n.nextSeq(), n.value, n.fence)
	if err != nil {
		n.log.Error("encoding a hello", "err", err)
		return
	}
	n.buf = b
	n.write(b, addr)
	n.metrics.hellosSent.Add(1)
}

// write sends one datagram, counting a failure.
func (n *Node) write(b []byte, addr netip.AddrPort) {
	if n.silent() {
		n.metrics.withheld.Add(1)
		return // it cannot save: a crashed node to the others (fence.go)
	}
	if n.cutAt(addr) {
		n.metrics.cutTo.Add(1) // a direction cut at its sender (Gray.CutTo)
		return
	}
	if err := n.cfg.Transport.WriteTo(b, addr); err != nil {
		n.metrics.sendErrors.Add(1)
		if !n.sendErred {
			n.sendErred = true
			n.log.Warn("send failed (counted from now on, logged once)", "to", addr, "err", err)
		}
	}
}
