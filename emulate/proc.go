//go:build linux

package emulate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/supervisor"
)

// proc is one emulated node: its process, which the supervisor runs in the
// node's namespace, and what the emulator learns of its lives.
type proc struct {
	id    int
	value int64
	sup   *supervisor.Process
	log   string // its log file: the process's standard error
	state string // its state directory

	mu         sync.Mutex
	status     *node.StatusJSON  // the last status its stream gave
	statusLife int               // the life that gave status
	counted    node.CountersJSON // the counters of its ended lives, added up
}

// launcher starts nodes: what every node's command line shares.
type launcher struct {
	bin       string
	args      []string // after the node's own flags: algorithm, params, hello...
	port      int
	j         *journal.Journal
	log       func(format string, args ...any)
	unplanned func(p *proc) // called when a node's process ends on its own
	token     string        // the credential of the run's key, for POST /elect
}

// newProc is node id, to run in namespace ns with its files in dir
// (short names, since a Unix socket's path has at most 107 bytes). It
// serves HTTP on a Unix socket: its loopback is its namespace's, out of
// the emulator's reach. own are flags of this node alone (--initiator).
func (l *launcher) newProc(id int, value int64, ns, dir string, own []string) *proc {
	state := filepath.Join(dir, "state", strconv.Itoa(id))
	log := filepath.Join(dir, "log", fmt.Sprintf("node-%d.log", id))
	p := &proc{id: id, value: value, log: log, state: state}
	ep := supervisor.Endpoint{Network: "unix", Address: filepath.Join(dir, "s", strconv.Itoa(id))}
	p.sup = supervisor.New(supervisor.Spec{
		Name: fmt.Sprintf("node %d", id), Wrap: []string{"ip", "netns", "exec", ns}, Binary: l.bin,
		Args: append([]string{"node",
			"--id", strconv.Itoa(id), "--value", strconv.FormatInt(value, 10),
			"--listen", fmt.Sprintf("0.0.0.0:%d", l.port),
			"--broadcast", fmt.Sprintf("%s:%d", broadcast(), l.port),
			"--http", ep.String(), "--state-dir", state,
		}, append(own, l.args...)...),
		StateDir: state, Log: log, HTTP: ep, Token: l.token,
		OnExit: func(err error) {
			l.log("node %d ended on its own (%v); its log: %s", id, err, log)
			if l.unplanned != nil {
				l.unplanned(p)
			}
		},
	})
	return p
}

// alive reports whether p has a live process.
func (p *proc) alive() bool { return p.sup.Info().State.Alive() }

// start begins a new life of p and returns once it is ready.
func (l *launcher) start(ctx context.Context, p *proc, mode supervisor.Mode) error {
	if err := p.sup.Launch(mode); err != nil {
		return err
	}
	return l.ready(ctx, p)
}

// ready waits until p's current life answers (30 s at most: a hundred
// nodes boot at once on two cores), then feeds its status stream to the
// journal.
func (l *launcher) ready(ctx context.Context, p *proc) error {
	if err := p.sup.AwaitUp(ctx, 30*time.Second); err != nil {
		return err
	}
	go l.watch(ctx, p, p.sup.Info().Life)
	return nil
}

// watch feeds p's status stream for one life to the journal
// (journal.Watch), each change at the time the node made it.
func (l *launcher) watch(ctx context.Context, p *proc, life int) {
	l.j.Watch(ctx, p.sup, p.id, life, func(st *node.StatusJSON) {
		p.mu.Lock()
		p.status, p.statusLife = st, life
		p.mu.Unlock()
	}, l.log)
}

// following is the leader p's live life names, if any, in whatever state:
// a node in an election still names the leader it had, and the simulator's
// "the leader" of a crash counts it too, so that a schedule kills the same
// node in both.
func (p *proc) following() (algo.NodeID, bool) {
	st, ok := p.lastStatus()
	if !ok || !p.alive() || st.Leader == algo.None {
		return algo.None, false
	}
	return st.Leader, true
}

// counters asks a live node for its counters (nil when it does not answer
// within a second).
func (l *launcher) counters(ctx context.Context, p *proc) *node.CountersJSON {
	st, err := p.sup.Status(ctx)
	if err != nil {
		return nil
	}
	return &st.Counters
}

// kill ends p's life with SIGKILL, first booking its counters (what it
// sends in the last milliseconds before the signal goes uncounted). It
// returns when the signal went, or false when p was not alive.
func (l *launcher) kill(ctx context.Context, p *proc) (time.Time, bool) {
	if !p.alive() {
		return time.Time{}, false
	}
	c := l.counters(ctx, p)
	e, err := p.sup.Kill()
	if err != nil && !errors.Is(err, supervisor.ErrNotRunning) {
		l.log("%v", err)
		return time.Time{}, false
	}
	// A life that ended on its own meanwhile sent what it counted too.
	if c != nil {
		p.mu.Lock()
		p.counted = add(p.counted, *c)
		p.mu.Unlock()
	}
	return e.At, err == nil
}

// elect asks a live node to start an election.
func (l *launcher) elect(ctx context.Context, p *proc) error {
	if err := p.sup.Elect(ctx); err != nil {
		return fmt.Errorf("node %d: %w", p.id, err)
	}
	return nil
}

// add adds counters up.
func add(a, b node.CountersJSON) node.CountersJSON {
	sum := func(x, y map[string]uint64) map[string]uint64 {
		out := map[string]uint64{}
		for k, v := range x {
			out[k] += v
		}
		for k, v := range y {
			out[k] += v
		}
		return out
	}
	return node.CountersJSON{
		Sent: sum(a.Sent, b.Sent), Received: sum(a.Received, b.Received), Rejected: sum(a.Rejected, b.Rejected),
		HellosSent: a.HellosSent + b.HellosSent, HellosRecv: a.HellosRecv + b.HellosRecv,
		Unroutable: a.Unroutable + b.Unroutable, Elections: a.Elections + b.Elections,
		LeaderChanges: a.LeaderChanges + b.LeaderChanges,
		Broadcasts:    a.Broadcasts + b.Broadcasts, MessageBytes: a.MessageBytes + b.MessageBytes,
	}
}

// lastStatus is the status p's live life last reported, as the checker
// takes it.
func (p *proc) lastStatus() (algo.Status, bool) {
	in := p.sup.Info()
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.status
	if st == nil || p.statusLife != in.Life {
		return algo.Status{}, false
	}
	status, err := journal.Status(st)
	return status, err == nil
}
