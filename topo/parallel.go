package topo

import (
	"runtime"
	"sync"
)

// maxWorkers bounds the goroutines that read a graph file or build a
// graph. Each build worker keeps a cursor array of its own, one entry a
// node, so more of them cost memory; past a few the work is bound by
// memory bandwidth anyway.
const maxWorkers = 4

// workers is how many goroutines to split a large job into: one a
// processor the Go scheduler may use, up to maxWorkers.
func workers() int { return min(runtime.GOMAXPROCS(0), maxWorkers) }

// parallel runs f(0) .. f(k-1), f(0) on the calling goroutine and the
// others on goroutines of their own, and returns when all have. A panic in
// any of them is raised again on the calling goroutine (the first by w),
// where the caller can recover it as if the work had been done there: New
// panics on an endpoint out of range.
func parallel(k int, f func(w int)) {
	if k == 1 {
		f(0)
		return
	}
	var (
		wg     sync.WaitGroup
		panics = make([]any, k)
		run    = func(w int) {
			defer func() { panics[w] = recover() }()
			f(w)
		}
	)
	for w := 1; w < k; w++ {
		wg.Go(func() { run(w) })
	}
	run(0)
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
