//go:build linux

package emulate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/sim"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

// window is how long the journal holds events for late readers: a
// hundred nodes booting on two cores read their status changes up to
// half a second late.
const window = time.Second

// emulation is one run under way.
type emulation struct {
	cfg   Config
	alg   *algo.Algorithm
	plan  *plan
	tag   string
	procs []*proc
	l     *launcher
	j     *journal.Journal
	links linkSet
	gray  grayState
	// pendingValues are the values of nodes that could not take them,
	// frozen (Pause), to send when they go on (value.go).
	pendingValues map[algo.NodeID]int64
	log           func(format string, args ...any)
	spy           *spy // when the run has attacks
	// victims are the nodes that led when the captures of attacks in the
	// leader's name began.
	victims map[*Attack]algo.NodeID

	mu             sync.Mutex
	unplanned      int
	updates        []time.Duration
	setup, startup time.Duration
}

// Run emulates cfg.Scenario in real time and returns its summary beside the
// simulator's. Whatever it created is gone when it returns.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	s := cfg.Scenario
	a, err := validate(s)
	if err != nil {
		return nil, err
	}
	if err := Preflight(); err != nil {
		return nil, err
	}
	if cfg.Hello == 0 {
		cfg.Hello = 250 * time.Millisecond
	}
	if cfg.HelloLoss == 0 {
		cfg.HelloLoss = 4
	}
	if cfg.Port == 0 {
		cfg.Port = DefaultPort
	}
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	p, err := makePlan(s)
	if err != nil {
		return nil, err
	}
	if n := len(p.values); n > maxNodes {
		return nil, fmt.Errorf("%d nodes: the emulator numbers at most %d", n, maxNodes)
	}
	for _, at := range cfg.Attacks {
		if err := at.check(len(p.values)); err != nil {
			return nil, err
		}
	}
	common, own, params, err := nodeLines(s, a, p.initial, len(p.values), cfg)
	if err != nil {
		return nil, err
	}
	e := &emulation{cfg: cfg, alg: a, plan: p, links: linkSet{}, log: logf, pendingValues: map[algo.NodeID]int64{},
		gray: grayState{cuts: map[[2]algo.NodeID]bool{}, nodes: journal.Gray{}, pending: map[algo.NodeID]node.Gray{}, frozen: map[algo.NodeID]bool{}}}
	dir := cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "elect-emulate-"); err != nil {
			return nil, err
		}
	}
	for _, sub := range []string{"s", "state", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, err
		}
	}
	if e.tag, err = claim(); err != nil {
		return nil, err
	}
	defer func() {
		e.teardown()
		if cfg.Keep || cfg.Dir != "" {
			if res != nil {
				res.Dir = dir
			}
		} else {
			os.RemoveAll(dir)
		}
	}()
	logf("run %s: %d nodes, files in %s", e.tag, len(p.values), dir)
	// The nodes listen on every address of their namespaces: they sign
	// their datagrams with a key of the run's own, unless told not to.
	secure, token := []string{"--insecure"}, ""
	if !cfg.Insecure {
		keyFile := filepath.Join(dir, "key")
		key, err := runtime.NewKeyFile(keyFile)
		if err != nil {
			return nil, err
		}
		secure, token = []string{"--key-file", keyFile}, node.HTTPToken(key)
	}
	e.l = &launcher{
		bin: cfg.Binary, args: append(common, secure...), port: cfg.Port, log: logf,
		token: token,
		unplanned: func(pr *proc) {
			e.mu.Lock()
			e.unplanned++
			e.mu.Unlock()
			at := e.j.Since(time.Now())
			if pe, ok := node.PanicInLogFile(pr.log); ok {
				// Its machine panicked: a violation, as in the simulator.
				e.j.Add(trace.Event{At: at, Kind: trace.Panicked, Node: algo.NodeID(pr.id), Peer: algo.None, Text: pe.Text})
			}
			e.j.Add(trace.Event{At: at, Kind: trace.Crashed, Node: algo.NodeID(pr.id), Peer: algo.None})
		},
	}
	for v, val := range p.values {
		e.procs = append(e.procs, e.l.newProc(v, val, nsName(e.tag, v), dir, own[v]))
	}
	setupStart := time.Now()
	if err := setUp(ctx, e.tag, len(e.procs), p.initial, s.Loss, len(cfg.Attacks) > 0); err != nil {
		return nil, err
	}
	for _, k := range p.initial {
		e.links[k] = true
	}
	e.setup = time.Since(setupStart)
	logf("namespaces, bridge and rules ready in %v", e.setup.Round(time.Millisecond))

	mon := check.New(runner.CheckConfig(s, a))
	counter := metrics.NewCounter(len(a.Messages))
	hash := hasher{trace.NewHasher()}
	story := metrics.NewStory()
	observers := []trace.Observer{mon, counter, story, &hash}
	var reach *metrics.Reach
	if p.sim.Mobility != "" {
		reach = metrics.NewReach(runner.ReachPeriod(len(e.procs)), mon)
		observers = append([]trace.Observer{reach}, observers...)
	}
	observers = append(observers, cfg.Observers...)
	t0 := time.Now()
	e.j = journal.New(t0, window, observers)
	e.l.j = e.j
	for _, pr := range e.procs {
		e.j.Add(trace.Event{Kind: trace.NodeAdded, Node: algo.NodeID(pr.id), Peer: algo.None, Value: pr.value})
	}
	for _, k := range p.initial {
		e.j.Add(trace.Event{Kind: trace.LinkUp, Node: k.A, Peer: k.B})
	}
	e.j.Start()
	defer e.j.Stop()
	if len(cfg.Attacks) > 0 {
		if e.spy, err = openSpy(e.tag, cfg.Port, t0, logf); err != nil {
			return nil, err
		}
		defer e.spy.close()
	}

	if err := e.startAll(ctx); err != nil {
		return nil, err
	}
	e.startup = time.Since(t0)
	logf("%d nodes answered in %v", len(e.procs), e.startup.Round(time.Millisecond))
	if err := e.timeline(ctx, t0); err != nil {
		return nil, err
	}
	// The flow stops here, so that nothing after the end reaches the
	// observers; the changes made just before it are still on their way.
	e.j.Stop()
	if e.spy != nil {
		e.spy.close() // its replays under way end with the run
	}
	time.Sleep(window)
	counted := e.gather(ctx)
	end := s.Duration
	e.j.End(end)
	wall := time.Since(t0)
	e.teardownNodes()

	sum := &metrics.Summary{
		Algorithm: a.Name, Params: params, Seed: s.Seed, Topology: p.sim.Topology,
		Nodes: len(e.procs), Edges: p.sim.Edges, EndMS: metrics.MS(end),
		WallMS: metrics.MS(wall), TraceHash: fmt.Sprintf("%016x", hash.h.Sum()),
		Mobility: p.sim.Mobility, RangeM: p.sim.RangeM,
	}
	if reach != nil {
		sum.ReachableLeaderFraction = reach.Fraction()
	}
	sum.FromCheck(mon, mon.Report())
	for t, name := range a.Messages {
		counter.Sent[t] = counted.Sent[name]
		counter.Delivered[t] = counted.Received[name]
	}
	// Transmissions, broadcasts and bytes as the nodes sent them (signed:
	// the run has a key).
	counter.Broadcasts = counted.Broadcasts
	counter.Fill(sum, a.Messages)
	story.Fill(sum)
	sum.Messages.Bytes = counted.MessageBytes
	if m := &sum.Messages; m.Total > m.Delivered {
		// Lost in the network, whatever the cause: the kernel's drops,
		// a receiver that was down, or a neighbour lost by then.
		m.Dropped = m.Total - m.Delivered
	}
	sum.Emulation = e.stats(counted, wall)
	return &Result{Emulated: sum, Simulated: p.sim, Tag: e.tag}, nil
}

// validate refuses what the emulator cannot run, naming where it is
// written.
func validate(sc *scenario.Scenario) (*algo.Algorithm, error) {
	a, err := algo.Lookup(sc.Algorithm)
	if err != nil {
		return nil, sc.Blame(err, "algorithm")
	}
	if t := a.Model.Topology; t != "" {
		return nil, sc.Blame(fmt.Errorf("algorithm %s assumes a fixed %s network (Model.Topology); an emulation's neighbours are the nodes in radio range (elect cluster --topology %s gives it)", a.Name, t, t), "algorithm")
	}
	if sc.Duration <= 0 {
		return nil, sc.Blame(errors.New("an emulation runs in real time until its duration: give one (duration: 60s, or --duration)"), "duration")
	}
	if sc.ValuesOver != "" {
		return nil, sc.Blame(fmt.Errorf("values over time (%s) are the simulator's: real nodes change their values by value events (value: {node: N, to: V}, POST /value)", sc.ValuesOver), "values_over_time")
	}
	for _, act := range sc.Events {
		switch act.Kind {
		case sim.CrashOn, sim.Corrupt:
			return nil, fmt.Errorf("%s: %s is a fault of the simulator's ring model; the emulator runs real nodes and cannot arm it", act.Where, act.Kind)
		case sim.LossDir:
			return nil, fmt.Errorf("%s: loss of one direction of a link is the simulator's; the emulator's loss is every link's (loss:), and a cut direction (cut:) drops all", act.Where)
		case sim.Crash, sim.Restart, sim.Recover:
			if !a.Model.Crash {
				return nil, fmt.Errorf("%s: %s: algorithm %s does not survive crashes (Model.Crash is false)", act.Where, act.Kind, a.Name)
			}
		}
	}
	return a, nil
}

// staticPeers lists, for an algorithm written for a static network
// (Model.Mobility false: echo, extinction), each node's neighbours as
// --peers: a node boots only once it has heard every listed peer (a few
// beacons at most), for such an algorithm takes the neighbours it boots
// with for the network, and a neighbour whose first hellos were lost would
// be an edge its wave never runs over. Nodes of algorithms for moving networks discover their
// neighbours as they come: nil.
func staticPeers(a *algo.Algorithm, edges []topo.Edge, n, port int) []string {
	out := make([]string, n)
	if a.Model.Mobility {
		return out
	}
	lists := make([][]string, n)
	for _, e := range edges {
		lists[e.A] = append(lists[e.A], fmt.Sprintf("%d=%s:%d", e.B, addr(int(e.B)), port))
		lists[e.B] = append(lists[e.B], fmt.Sprintf("%d=%s:%d", e.A, addr(int(e.A)), port))
	}
	for v, l := range lists {
		out[v] = strings.Join(l, ",")
	}
	return out
}

// nodeLines returns the command lines of the nodes of an emulation of s on
// n nodes whose initial links are edges: the flags that every node gets
// after its own (nodeArgs) of the parameters its machines are built with,
// those parameters (runner.Params: the scenario's, and the run's
// initiators for a spontaneous algorithm, whose machines read them there),
// and each node's own flags: its peers, --initiator where the simulator's
// driver asks a node to elect at boot (runner.Initiators; no node of a
// spontaneous algorithm, which starts its own), its faults.
func nodeLines(s *scenario.Scenario, a *algo.Algorithm, edges []topo.Edge, n int, cfg Config) (common []string, own [][]string, params algo.Params, err error) {
	if params, err = runner.Params(s, a); err != nil {
		return nil, nil, nil, err
	}
	initiators, _, err := runner.Initiators(s, a, n)
	if err != nil {
		return nil, nil, nil, err
	}
	peers := staticPeers(a, edges, n, cfg.Port)
	own = make([][]string, n)
	for v := range n {
		if peers[v] != "" {
			own[v] = append(own[v], "--peers", peers[v])
		}
		if slices.Contains(initiators, algo.NodeID(v)) {
			own[v] = append(own[v], "--initiator") // elects right after its first boot, as the simulator's initiators do
		}
		own[v] = append(own[v], cluster.FaultFlags(cfg.Faults, v)...) // each node its own draws
	}
	return nodeArgs(a.Name, params, cfg), own, params, nil
}

// nodeArgs are the flags every node gets after its own: a cluster's
// nodes' (cluster.NodeFlags).
func nodeArgs(name string, params algo.Params, cfg Config) []string {
	return cluster.NodeFlags{Algorithm: name, Params: params, Hello: cfg.Hello, HelloLoss: cfg.HelloLoss, LogLevel: "info"}.Args()
}

// startAll launches every node with an empty state directory, one after
// the other (each launch returns once its process runs), then waits for
// all of them to answer, as a cluster boots (cluster.StartAll).
func (e *emulation) startAll(ctx context.Context) error {
	return cluster.StartAll(ctx, len(e.procs),
		func(i int) error { return e.procs[i].sup.Launch(supervisor.Fresh) },
		func(ctx context.Context, i int) error { return e.l.ready(ctx, e.procs[i]) })
}

// step is one entry of the emulated timeline: a link change, or an action
// of the scenario.
type step struct {
	at     time.Duration
	links  *linkStep
	act    *sim.Action
	pause  *Pause
	resume bool
	// attack is an attack to make, or (capture) whose capture begins,
	// when it is of the node that leads then.
	attack  *Attack
	capture bool
	gray    *grayStep // the gray failures of an instant of the plan
	disk    *DiskFault
}

// timeline runs the scenario's timeline in real time from t0 to its end.
func (e *emulation) timeline(ctx context.Context, t0 time.Time) error {
	var steps []step
	for i := range e.plan.steps {
		steps = append(steps, step{at: e.plan.steps[i].at, links: &e.plan.steps[i]})
	}
	for i := range e.cfg.Scenario.Events {
		a := &e.cfg.Scenario.Events[i]
		switch a.Kind {
		case sim.Crash, sim.Restart, sim.Recover, sim.ElectAt, sim.Partition, sim.Heal, sim.SetValue:
			steps = append(steps, step{at: a.At, act: a})
		}
		// Partitions, heals and link changes are in the plan's links: a
		// partition's or a heal's step only says what they do.
	}
	for i := range e.plan.gray {
		steps = append(steps, step{at: e.plan.gray[i].at, gray: &e.plan.gray[i]})
	}
	for i := range e.cfg.Disks {
		d := &e.cfg.Disks[i]
		steps = append(steps, step{at: d.At, disk: d}, step{at: d.At + d.For, disk: d, resume: true})
	}
	for i := range e.cfg.Pauses {
		p := &e.cfg.Pauses[i]
		steps = append(steps, step{at: p.At, pause: p}, step{at: p.At + p.For, pause: p, resume: true})
	}
	for i := range e.cfg.Attacks {
		a := &e.cfg.Attacks[i]
		if a.Kind == Replay && a.Node == algo.None {
			steps = append(steps, step{at: a.From, attack: a, capture: true})
		}
		steps = append(steps, step{at: a.At, attack: a})
	}
	// The scenario's actions go before the link changes of the same
	// instant, as in the simulator, where a partition's links follow it.
	slices.SortStableFunc(steps, func(x, y step) int {
		if c := cmp.Compare(x.at, y.at); c != 0 {
			return c
		}
		if (x.act != nil) != (y.act != nil) {
			if x.act != nil {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, st := range append(steps, step{at: e.cfg.Scenario.Duration}) {
		if err := sleepUntil(ctx, t0.Add(st.at)); err != nil {
			return err
		}
		var err error
		switch {
		case st.links != nil:
			err = e.applyLinks(ctx, *st.links)
		case st.act != nil:
			err = e.act(ctx, st.act)
		case st.pause != nil:
			e.gray.frozen[st.pause.Node] = !st.resume
			if err = e.pause(*st.pause, st.resume); err == nil && st.resume {
				err = errors.Join(e.ungray(ctx, st.pause.Node), e.unfreezeValue(ctx, st.pause.Node))
			}
		case st.attack != nil:
			e.attack(st.attack, st.capture)
		case st.gray != nil:
			err = e.applyGray(ctx, st.gray)
		case st.disk != nil:
			err = e.disk(*st.disk, st.resume)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// applyLinks changes the kernel's links as the step says, in one
// transaction, and journals the changes.
func (e *emulation) applyLinks(ctx context.Context, st linkStep) error {
	changes := e.links.apply(st)
	if len(changes) == 0 {
		return nil
	}
	var up, down []topo.Edge // directions: a link cut one way carries the other alone
	ups := 0
	for _, c := range changes {
		if c.up {
			up = append(up, e.gray.carrying(c.k)...)
			ups++
		} else {
			down = append(down, e.gray.carrying(c.k)...)
		}
	}
	began := time.Now()
	if err := nftApply(ctx, dirUpdate(e.tag, up, down)); err != nil {
		return fmt.Errorf("at %v: changing links: %w", st.at, err)
	}
	now := time.Now()
	e.mu.Lock()
	e.updates = append(e.updates, now.Sub(began))
	e.mu.Unlock()
	// The kernel takes the change somewhere inside the nft call, and a node
	// may hear a new neighbour before the call returns: the change is
	// journaled at the call's start, so that the checker never sees a node
	// use a link before the link exists.
	at := e.j.Since(began)
	for _, c := range changes {
		kind := trace.LinkDown
		if c.up {
			kind = trace.LinkUp
		}
		e.j.Add(trace.Event{At: at, Kind: kind, Node: c.k.A, Peer: c.k.B, Moved: c.moved})
	}
	e.log("%7.3fs links: %d up, %d down (nft %v)", at.Seconds(), ups, len(changes)-ups, now.Sub(began).Round(time.Microsecond))
	return nil
}

// targets are the nodes action a (a crash, a value) names, and with
// a.Leader the leader the most live nodes follow then; when none follows
// one, the journal says so in the simulator's words (none: "a crash of the
// leader finds none").
func (e *emulation) targets(a *sim.Action, none string) []algo.NodeID {
	out := slices.Clone(a.Nodes)
	if !a.Leader {
		return out
	}
	if v, ok := e.leader(); ok {
		e.log("%7.3fs the leader is node %d", e.j.Since(time.Now()).Seconds(), v)
		return append(out, v)
	}
	e.j.Add(trace.Event{At: e.j.Since(time.Now()), Kind: trace.Acted, Peer: algo.None, Text: none})
	e.log("%7.3fs %s: no live node follows one", e.j.Since(time.Now()).Seconds(), none)
	return out
}

// act runs one action of the scenario on the real nodes. Its node ids
// name nodes of the network: the plan's run (sim.New) refused any other.
func (e *emulation) act(ctx context.Context, a *sim.Action) error {
	switch a.Kind {
	case sim.Crash:
		for _, v := range e.targets(a, "a crash of the leader finds none") {
			pr := e.procs[v]
			at, ok := e.l.kill(ctx, pr)
			if ok {
				e.j.Add(trace.Event{At: e.j.Since(at), Kind: trace.Crashed, Node: v, Peer: algo.None})
				e.log("%7.3fs crash node %d (SIGKILL)", e.j.Since(at).Seconds(), v)
			}
		}
	case sim.Restart, sim.Recover:
		kind, mode, what := trace.Restarted, supervisor.Fresh, "restart"
		if a.Kind == sim.Recover {
			kind, mode, what = trace.Recovered, supervisor.Recover, "recover"
		}
		errs := make([]error, len(a.Nodes))
		var wg sync.WaitGroup
		for i, v := range a.Nodes {
			pr := e.procs[v]
			if pr.alive() {
				continue
			}
			e.j.Add(trace.Event{At: e.j.Since(time.Now()), Kind: kind, Node: v, Peer: algo.None})
			e.log("%7.3fs %s node %d", e.j.Since(time.Now()).Seconds(), what, v)
			// What it missed is in the state its new life starts with:
			// its value on its command line, its gray failures (regray).
			delete(e.gray.pending, v)
			delete(e.pendingValues, v)
			wg.Go(func() {
				if errs[i] = e.l.start(ctx, pr, mode); errs[i] == nil {
					errs[i] = e.regray(ctx, v)
				}
			})
		}
		wg.Wait()
		return errors.Join(errs...)
	case sim.Partition, sim.Heal:
		e.j.Add(trace.Event{At: e.j.Since(time.Now()), Kind: trace.Acted, Peer: algo.None, Text: a.Describe()})
	case sim.SetValue:
		return e.actValue(ctx, a)
	case sim.ElectAt:
		for _, v := range a.Nodes {
			pr := e.procs[v]
			if !pr.alive() {
				continue
			}
			e.j.Add(trace.Event{At: e.j.Since(time.Now()), Kind: trace.ElectCalled, Node: v, Peer: algo.None})
			if err := e.l.elect(ctx, pr); err != nil {
				e.log("elect: %v", err)
			}
		}
	}
	return nil
}

// leader is the leader the most live nodes follow (the highest id among
// equals), as the simulator picks "the leader" of a crash.
func (e *emulation) leader() (algo.NodeID, bool) {
	alive := make([]bool, len(e.procs))
	var follows []algo.NodeID
	for i, pr := range e.procs {
		alive[i] = pr.alive()
		if l, ok := pr.following(); ok {
			follows = append(follows, l)
		}
	}
	votes := map[algo.NodeID]int{}
	best, most := algo.None, 0
	for _, l := range follows {
		if int(l) >= len(alive) || !alive[l] {
			continue
		}
		votes[l]++
		if c := votes[l]; c > most || c == most && l > best {
			best, most = l, c
		}
	}
	return best, best != algo.None
}

// gather adds up the counters of every node: its ended lives', and its
// live one's, asked now.
func (e *emulation) gather(ctx context.Context) node.CountersJSON {
	live := make([]*node.CountersJSON, len(e.procs))
	var wg sync.WaitGroup
	for i, pr := range e.procs {
		if pr.alive() {
			wg.Go(func() { live[i] = e.l.counters(ctx, pr) })
		}
	}
	wg.Wait()
	var total node.CountersJSON
	for i, pr := range e.procs {
		pr.mu.Lock()
		total = add(total, pr.counted)
		pr.mu.Unlock()
		if live[i] != nil {
			total = add(total, *live[i])
		}
	}
	return total
}

// teardownNodes kills every live node, all at once, and waits for them.
func (e *emulation) teardownNodes() {
	var wg sync.WaitGroup
	for _, pr := range e.procs {
		wg.Go(func() { pr.sup.Kill() })
	}
	wg.Wait()
}

// teardown removes the run: its nodes, then its kernel objects.
func (e *emulation) teardown() {
	if e.l != nil {
		e.teardownNodes()
	}
	began := time.Now()
	if err := removeRun(context.Background(), e.tag); err != nil {
		e.log("cleaning up run %s: %v (elect emulate --cleanup tries again)", e.tag, err)
		return
	}
	e.log("run %s removed in %v", e.tag, time.Since(began).Round(time.Millisecond))
}

// stats is the emulation's part of the summary.
func (e *emulation) stats(c node.CountersJSON, wall time.Duration) *metrics.Emulation {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := &metrics.Emulation{
		HelloMS: metrics.MS(e.cfg.Hello), HelloLoss: e.cfg.HelloLoss, UnplannedExits: e.unplanned,
		SetupMS: metrics.MS(e.setup), StartMS: metrics.MS(e.startup),
		RuleUpdates: len(e.updates), LateEvents: e.j.Late(),
		HellosSent: c.HellosSent, HellosReceived: c.HellosRecv,
	}
	if len(c.Rejected) > 0 {
		s.Rejected = c.Rejected
	}
	if e.spy != nil {
		s.Replayed, s.Forged = e.spy.sent()
	}
	var total time.Duration
	for _, d := range e.updates {
		total += d
		s.RuleUpdateMaxMS = max(s.RuleUpdateMaxMS, metrics.MS(d))
	}
	if len(e.updates) > 0 {
		s.RuleUpdateMeanMS = metrics.MS(total / time.Duration(len(e.updates)))
	}
	var cpu time.Duration
	var rss int64
	for _, pr := range e.procs {
		s.Lives += pr.sup.Info().Life
		u := pr.sup.Usage()
		cpu += u.CPU
		rss += u.MaxRSS
		s.NodeRSSMaxMB = max(s.NodeRSSMaxMB, float64(u.MaxRSS)/(1<<20))
	}
	s.NodeCPUSeconds = cpu.Seconds()
	s.CPUCores = cpu.Seconds() / wall.Seconds()
	s.NodeRSSMeanMB = float64(rss) / float64(len(e.procs)) / (1 << 20)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.EmulatorCPUSeconds = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		s.EmulatorRSSMB = float64(ru.Maxrss) / 1024
	}
	return s
}

// hasher fingerprints the emulated run's events.
type hasher struct{ h trace.Hasher }

func (h *hasher) Observe(e *trace.Event) { h.h.Add(e) }
