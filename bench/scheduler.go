package bench

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// A study too large for one machine runs as an array job, each task one
// shard: Slurm's job arrays (sbatch --array) and Kubernetes' Indexed Jobs
// tell each task which it is in its environment, and SchedulerShard reads
// it there, so that the same command line serves every task.

// SchedulerShard is the shard the environment gives this task, and where
// it came from ("Slurm array task 3 of 4"); ok is false outside an array
// job. getenv is os.Getenv, or a test's.
//
//   - Slurm: SLURM_ARRAY_TASK_ID among SLURM_ARRAY_TASK_COUNT tasks,
//     numbered from SLURM_ARRAY_TASK_MIN (--array=0-3 and --array=1-4 alike;
//     an array with gaps or steps is refused: its tasks would not cover
//     the shards).
//   - Kubernetes: JOB_COMPLETION_INDEX (from 0) of an Indexed Job, among
//     JOB_COMPLETIONS, which the Job's manifest sets to its completions
//     (Kubernetes does not pass that count on by itself).
func SchedulerShard(getenv func(string) string) (sh Shard, from string, ok bool, err error) {
	num := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, true, fmt.Errorf("%s=%q is not a task number", name, v)
		}
		return n, true, nil
	}
	if id, set, err := num("SLURM_ARRAY_TASK_ID"); set || err != nil {
		if err != nil {
			return sh, "", false, err
		}
		count, hasCount, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil || !hasCount {
			return sh, "", false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d without SLURM_ARRAY_TASK_COUNT: give --shard K/N", id)
		}
		first, _, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return sh, "", false, err
		}
		last, hasLast, err := num("SLURM_ARRAY_TASK_MAX")
		if err != nil {
			return sh, "", false, err
		}
		if hasLast && last-first+1 != count {
			return sh, "", false, fmt.Errorf("the Slurm array runs %d tasks from %d to %d: a step or a gap leaves shards out; use --array=%d-%d, or give --shard K/N", count, first, last, first, first+count-1)
		}
		sh = Shard{K: id - first + 1, N: count}
		if sh.K < 1 || sh.K > sh.N {
			return Shard{}, "", false, fmt.Errorf("Slurm array task %d is outside its array (%d tasks from %d)", id, count, first)
		}
		return sh, fmt.Sprintf("Slurm array task %d (shard %d of %d)", id, sh.K, sh.N), true, nil
	}
	if idx, set, err := num("JOB_COMPLETION_INDEX"); set || err != nil {
		if err != nil {
			return sh, "", false, err
		}
		count, hasCount, err := num("JOB_COMPLETIONS")
		if err != nil || !hasCount || count < 1 {
			return sh, "", false, fmt.Errorf("JOB_COMPLETION_INDEX=%d without JOB_COMPLETIONS: set it in the Job's manifest to its completions, or give --shard K/N", idx)
		}
		sh = Shard{K: idx + 1, N: count}
		if sh.K > sh.N {
			return Shard{}, "", false, fmt.Errorf("Kubernetes completion index %d is outside the Job's %d completions", idx, count)
		}
		return sh, fmt.Sprintf("Kubernetes completion index %d (shard %d of %d)", idx, sh.K, sh.N), true, nil
	}
	return Shard{K: 1, N: 1}, "", false, nil
}

// MissingShards names the shards of N that files of names
// results-K-of-N.csv leave out; it says nothing for other names.
func MissingShards(names []string) []string {
	seen := map[int]map[int]bool{}
	for _, name := range names {
		var k, n int
		if c, _ := fmt.Sscanf(name, "results-%d-of-%d.csv", &k, &n); c == 2 && k >= 1 && k <= n {
			if seen[n] == nil {
				seen[n] = map[int]bool{}
			}
			seen[n][k] = true
		}
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(seen)) {
		ks := seen[n]
		for k := 1; k <= n; k++ {
			if !ks[k] {
				out = append(out, fmt.Sprintf("%d/%d", k, n))
			}
		}
	}
	return out
}
