package bench

import (
	"sync"
)

// RunAll runs runs on jobs goroutines (each run is single-threaded, so jobs
// is how many cores the sweep uses) and returns their results in the order
// of runs. done is called after each run, from one goroutine at a time.
func (s *Sweep) RunAll(runs []Run, jobs int, done func(*Result)) ([]*Result, error) {
	results := make([]*Result, len(runs))
	errs := make([]error, len(runs))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = s.Execute(runs[i])
				if done != nil && errs[i] == nil {
					mu.Lock()
					done(results[i])
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
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
