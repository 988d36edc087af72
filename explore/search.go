package explore

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/electgo/elect/check"
	"github.com/electgo/elect/trace"
)

// Options bound and shape an exploration.
type Options struct {
	// MaxStates stops the search once it has met that many distinct
	// states; MaxDepth stops it at that many steps from the boot; Time
	// after that long. 0: no limit.
	MaxStates int64
	MaxDepth  int
	Time      time.Duration
	// NoSleepSets turns partial-order reduction off (see Result.Pruned).
	NoSleepSets bool
	// NoFingerprints turns state caching off: every path is explored on
	// its own, as a tree, however often it meets a state met before.
	// Exponentially slower; for checking the reductions on tiny networks.
	NoFingerprints bool
	// Workers expand each depth's states on that many goroutines (0: one
	// per core, GOMAXPROCS). The search is the same whatever their number.
	Workers int
	// Progress, when set, is told how the search goes about once a second,
	// and once at the end.
	Progress func(Progress)
}

// Progress is how far a search has gone.
type Progress struct {
	States, Distinct int64
	Depth            int
	Frontier         int
	Elapsed          time.Duration
}

// Rate is the states a second so far.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.States) / p.Elapsed.Seconds()
}

// Result is what an exploration found.
type Result struct {
	Progress
	// Ends counts the states where a run may end, each judged whole.
	Ends int64
	// Pruned counts the steps that sleep sets did not take: each leads to
	// a state reached another way.
	Pruned int64
	// Complete says every state reachable within the budget of faults was
	// explored; otherwise Limit says what stopped the search ("max-states",
	// "max-depth", "time"), unless a counterexample did.
	Complete bool
	Limit    string
	// Counterexample is the first violation met: breadth first, so no
	// shorter schedule breaks the specification.
	Counterexample *Counterexample
	// StateBytes is the memory each distinct state holds once explored
	// (its fingerprint and how it was reached), for sizing MaxStates.
	StateBytes int
	// Timed says which mode ran.
	Timed bool
}

// Counterexample is a schedule that breaks the specification, and what the
// checker says of it.
type Counterexample struct {
	Steps  []Step
	Report check.Report
}

// explorer is one search under way.
type explorer struct {
	s         *Setup
	opt       Options
	initiator []bool
	bound     *trace.MessageBound
	seen      map[uint64]*visit
	res       Result
	start     time.Time
	nextTell  time.Time
}

// visit is what the search keeps of a distinct state: how it was first
// reached (its parent's fingerprint and the step), and the steps it was
// explored without (its sleep set).
type visit struct {
	parent uint64
	step   Step
	root   bool
	sleep  []Step
}

// entry is a state to expand: all its enabled steps but those asleep, or,
// when a state met again with fewer asleep, only those it skipped before.
type entry struct {
	w     *world
	fp    uint64
	sleep []Step
	only  []Step
}

// errFound stops the search at a counterexample.
var errFound = errors.New("found")

// Explore searches every state that s's network can reach, breadth first,
// and checks each against the specification: it returns the first
// counterexample met (a shortest one), or says that none exists within the
// faults' budget (Complete), or up to where a limit stopped it.
func Explore(s *Setup, opt Options) (*Result, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	x := &explorer{s: s, opt: opt, seen: map[uint64]*visit{}, start: time.Now()}
	x.initiator = make([]bool, s.Graph.N())
	for _, v := range s.Initiators {
		x.initiator[v] = true
	}
	x.bound = boundOf(s, x.initiator)
	x.res.Timed = s.Timed
	// The entry, its key and the map's share of them: a map of a million
	// such entries with empty sleep sets measured 117 bytes an entry
	// (runtime.MemStats around it); each step asleep adds a Step more.
	x.res.StateBytes = int(unsafe.Sizeof(visit{})) + 8 + 48
	x.nextTell = x.start.Add(time.Second)
	err := x.search()
	x.res.Elapsed = time.Since(x.start)
	if opt.Progress != nil {
		opt.Progress(x.res.Progress)
	}
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	x.res.Complete = x.res.Counterexample == nil && x.res.Limit == ""
	return &x.res, nil
}

func (x *explorer) search() error {
	root := newWorld(x.s)
	root.boot()
	fp := root.fingerprint()
	if x.opt.NoFingerprints {
		fp = 0
	}
	x.seen[fp] = &visit{root: true}
	x.res.Distinct = 1
	if x.suspect(root, false, false) {
		if err := x.found(fp, false); err != nil {
			return err
		}
	}
	frontier := []entry{{w: root, fp: fp}}
	for depth := 0; len(frontier) > 0; depth++ {
		if x.opt.MaxDepth > 0 && depth >= x.opt.MaxDepth {
			x.res.Limit = "max-depth"
			return nil
		}
		x.res.Depth = depth
		x.res.Frontier = len(frontier)
		var next []entry
		for b := 0; b < len(frontier); b += batch {
			part := frontier[b:min(b+batch, len(frontier))]
			exps := x.expandAll(part)
			for i := range part {
				if err := x.merge(&part[i], &exps[i], &next, depth); err != nil {
					return err
				}
				exps[i] = expansion{}
				part[i] = entry{} // its state is garbage once merged
			}
		}
		frontier = next
	}
	x.res.Frontier = 0
	return nil
}

// batch is how many states of a depth are expanded at once (on every
// worker) before their successors are merged, in order.
const batch = 1024

// expansion is what expanding one state found: whether a run may end
// there and whether the checker might fail it then, the steps asleep, and
// its successors.
type expansion struct {
	end, quiescent, suspect bool
	pruned                  int64
	kids                    []child
	err                     error
}

// child is one successor: the step, the state, its fingerprint and sleep
// set, and whether the checker might fail it.
type child struct {
	st      Step
	w       *world
	fp      uint64
	sleep   []Step
	suspect bool
}

// expandAll expands part's states on opt.Workers goroutines. What it
// computes depends on each state alone (its successors share the parent's
// records, which nothing changes any more), so the merge that follows, in
// order, makes the search the same whatever the number of workers.
func (x *explorer) expandAll(part []entry) []expansion {
	exps := make([]expansion, len(part))
	workers := min(x.opt.Workers, len(part))
	if workers <= 1 {
		for i := range part {
			exps[i] = x.expand(&part[i])
		}
		return exps
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(part); i = int(next.Add(1) - 1) {
				exps[i] = x.expand(&part[i])
			}
		})
	}
	wg.Wait()
	return exps
}

// expand takes every step of e that is not asleep (or, e met again, that
// it skipped before).
func (x *explorer) expand(e *entry) expansion {
	buf := stepBufs.Get().(*[]Step)
	defer stepBufs.Put(buf)
	steps, end, quiescent := e.w.enabled((*buf)[:0])
	*buf = steps
	ex := expansion{end: end, quiescent: quiescent, kids: make([]child, 0, len(steps))}
	if end && e.only == nil {
		ex.suspect = x.suspect(e.w, true, quiescent)
	}
	taken := make([]Step, 0, len(steps))
	for _, st := range steps {
		if x.asleep(st, e.sleep) {
			ex.pruned++
			continue
		}
		if e.only != nil && !x.asleep(st, e.only) {
			continue
		}
		c := e.w.next()
		if err := c.apply(st); err != nil {
			ex.err = fmt.Errorf("explore: internal error: %v from %s: %w", st, e.w.describe(), err)
			return ex
		}
		sleep := x.childSleep(st, e.sleep, taken)
		taken = append(taken, st)
		ex.kids = append(ex.kids, child{st: st, w: c, fp: c.fingerprint(), sleep: sleep, suspect: x.suspect(c, false, false)})
	}
	return ex
}

// stepBufs are the expanders' scratch lists of enabled steps.
var stepBufs = sync.Pool{New: func() any { return new([]Step) }}

// merge takes e's expansion into the search, in the order the states were
// met: the end judged, each successor new to the search kept for the next
// depth, one met again with fewer steps asleep kept for those.
func (x *explorer) merge(e *entry, ex *expansion, next *[]entry, depth int) error {
	if ex.end && e.only == nil {
		x.res.Ends++
		if ex.suspect {
			if err := x.found(e.fp, true); err != nil {
				return err
			}
		}
	}
	if ex.err != nil {
		return ex.err
	}
	x.res.Pruned += ex.pruned
	for _, k := range ex.kids {
		x.res.States++
		cfp := k.fp
		if x.opt.NoFingerprints {
			cfp = uint64(x.res.States) // a key of its own: no state is met again
		}
		if v, ok := x.seen[cfp]; ok {
			// Met again: explore what it skipped then and not now.
			if missing := x.minus(v.sleep, k.sleep); len(missing) > 0 {
				v.sleep = x.intersect(v.sleep, k.sleep)
				*next = append(*next, entry{w: k.w, fp: cfp, sleep: k.sleep, only: missing})
			}
			continue
		}
		x.seen[cfp] = &visit{parent: e.fp, step: k.st, sleep: k.sleep}
		x.res.Distinct++
		if k.suspect {
			if err := x.found(cfp, false); err != nil {
				return err
			}
		}
		*next = append(*next, entry{w: k.w, fp: cfp, sleep: k.sleep})
		if err := x.limits(depth); err != nil {
			return err
		}
	}
	return nil
}

// limits stops the search at a limit, and tells its progress.
func (x *explorer) limits(depth int) error {
	if x.opt.MaxStates > 0 && x.res.Distinct >= x.opt.MaxStates {
		x.res.Limit = "max-states"
		return errFound
	}
	if x.res.States&1023 != 0 {
		return nil
	}
	now := time.Now()
	if x.opt.Time > 0 && now.Sub(x.start) >= x.opt.Time {
		x.res.Limit = "time"
		return errFound
	}
	if x.opt.Progress != nil && now.After(x.nextTell) {
		x.nextTell = now.Add(time.Second)
		p := x.res.Progress
		p.Elapsed = now.Sub(x.start)
		x.opt.Progress(p)
	}
	return nil
}

// found checks the path to fp with the checker (ending the run there when
// end, as a run may end there), and stops the search at a violation.
func (x *explorer) found(fp uint64, end bool) error {
	steps := x.path(fp)
	rep, _, err := judge(x.s, steps, end)
	if err != nil {
		return fmt.Errorf("explore: internal error: the path to a state does not replay: %w", err)
	}
	if rep.ViolationCount == 0 {
		return nil
	}
	x.res.Counterexample = &Counterexample{Steps: steps, Report: rep}
	return errFound
}

// path is the schedule that first reached the state fp.
func (x *explorer) path(fp uint64) []Step {
	var rev []Step
	for v := x.seen[fp]; !v.root; v = x.seen[v.parent] {
		rev = append(rev, v.step)
	}
	out := make([]Step, len(rev))
	for i, st := range rev {
		out[len(rev)-1-i] = st
	}
	return out
}
