package bench

import (
	"strings"
	"testing"
)

func TestSchedulerShard(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want Shard
		ok   bool
		bad  string
	}{
		{"outside a job", nil, Shard{1, 1}, false, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"}, Shard{3, 4}, true, ""},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"}, Shard{4, 4}, true, ""},
		{"slurm with a step", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4"}, Shard{}, false, "a step or a gap"},
		{"slurm without a count", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, Shard{}, false, "without SLURM_ARRAY_TASK_COUNT"},
		{"slurm garbage", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, Shard{}, false, "not a task number"},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "8"}, Shard{1, 8}, true, ""},
		{"kubernetes without the count", map[string]string{"JOB_COMPLETION_INDEX": "3"}, Shard{}, false, "JOB_COMPLETIONS"},
		{"kubernetes out of range", map[string]string{"JOB_COMPLETION_INDEX": "8", "JOB_COMPLETIONS": "8"}, Shard{}, false, "outside"},
	} {
		sh, from, ok, err := SchedulerShard(func(k string) string { return c.env[k] })
		switch {
		case c.bad != "":
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%s: %v, want an error saying %q", c.name, err, c.bad)
			}
		case err != nil || sh != c.want || ok != c.ok || ok && from == "":
			t.Errorf("%s: %v %q %v %v, want %v", c.name, sh, from, ok, err, c.want)
		}
	}
}

// The shards of a campaign hold every run once, in blocks.
func TestShardRange(t *testing.T) {
	for _, runs := range []int{1, 2, 7, 10, 1000} {
		for n := 1; n <= 9; n++ {
			next := 5
			for k := 1; k <= n; k++ {
				first, count := Shard{k, n}.Range(5, runs)
				if count > 0 && first != next {
					t.Fatalf("%d runs, shard %d/%d starts at %d, want %d", runs, k, n, first, next)
				}
				next += count
			}
			if next != 5+runs {
				t.Errorf("%d runs in %d shards: they hold %d", runs, n, next-5)
			}
		}
	}
}

func TestMissingShards(t *testing.T) {
	got := MissingShards([]string{"results-1-of-4.csv", "results-3-of-4.csv", "other.csv"})
	if strings.Join(got, ",") != "2/4,4/4" {
		t.Errorf("missing %v, want 2/4 and 4/4", got)
	}
	if got := MissingShards([]string{"results.csv"}); len(got) != 0 {
		t.Errorf("a whole sweep: missing %v", got)
	}
}
