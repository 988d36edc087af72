package bench

// RunInto runs runs as RunAll does, writing each result's row to rf as it
// comes, then rewrites rf in the sweep's order (runs end in any order on
// several cores). progress, when set, is told after each run how many of
// runs have ended. The error is the results file's.
func (s *Sweep) RunInto(rf *ResultsFile, runs []Run, jobs int, progress func(done, total int)) ([]*Result, []*RunError, error) {
	ended := 0
	results, failed := s.RunAll(runs, jobs, func(r *Result, _ error) {
		if r != nil {
			rf.Add(r)
		}
		ended++
		if progress != nil {
			progress(ended, len(runs))
		}
	})
	return results, failed, rf.Finish(results)
}
