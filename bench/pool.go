package bench

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// RunError is a run that did not complete: its network could not be built
// (a ring of one node, say), the simulator refused it, or it panicked.
type RunError struct {
	Run Run
	Err error
	// Stack is where a run panicked, nil otherwise.
	Stack []byte
}

func (e *RunError) Error() string { return e.Err.Error() }
func (e *RunError) Unwrap() error { return e.Err }

// RunAll runs runs on jobs goroutines (a run keeps one core busy, and from
// 10,000 nodes part of a second one: its checker and a radio's changes) and
// returns the results of the runs that
// completed, in the order of runs, and the errors of those that did not, in
// the same order: a run that fails does not stop the others. done is called
// after each run, with its result or its error, from one goroutine at a
// time.
func (s *Sweep) RunAll(runs []Run, jobs int, done func(*Result, error)) ([]*Result, []*RunError) {
	results := make([]*Result, len(runs))
	errs := make([]*RunError, len(runs))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = s.safeExecute(runs[i])
				if done != nil {
					mu.Lock()
					if errs[i] != nil {
						done(nil, errs[i])
					} else {
						done(results[i], nil)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	var ok []*Result
	var failed []*RunError
	for i := range runs {
		if errs[i] != nil {
			failed = append(failed, errs[i])
		} else {
			ok = append(ok, results[i])
		}
	}
	return ok, failed
}

// safeExecute runs one run, and turns its panic into its error: one run
// that panics does not take the sweep's other results with it.
func (s *Sweep) safeExecute(r Run) (res *Result, rerr *RunError) {
	defer func() {
		if v := recover(); v != nil {
			res, rerr = nil, &RunError{Run: r, Err: fmt.Errorf("%s: panic: %v", r.Label(), v), Stack: debug.Stack()}
		}
	}()
	res, err := s.Execute(r)
	if err != nil {
		return nil, &RunError{Run: r, Err: err}
	}
	return res, nil
}
