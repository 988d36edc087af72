package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A run reads the same from sim and from check on its trace: the same
// story, its crash, split and heal lines with the elections, and the same
// JSON, faults included (check left the faults out before).
func TestSimCheckSameStory(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string // lines the story must tell
	}{
		{"demo", nil, []string{"10 s  the leader, node 34, crashes", "30 s  the network splits (west, and the rest)", "60 s  the partition heals"}},
		{"partition-heal", []string{"../scenarios/partition-heal.yaml"}, []string{"1 s  the network splits into west, east", "1.1 s  nodes 0 and 99 are asked to elect",
			"3 s  the partition heals", "3.1 s  node 0 is asked to elect"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "run.jsonl")
			sim := mustRun(t, append([]string{"sim", "--trace", f}, c.args...)...)
			chk := mustRun(t, "check", f)
			story := storyOf(sim)
			for _, w := range c.want {
				if !strings.Contains(story, w) {
					t.Errorf("sim's story lacks %q:\n%s", w, story)
				}
			}
			if got := storyOf(chk); got != story {
				t.Errorf("check tells\n%s\nsim told\n%s", got, story)
			}
			// Past the line of the wall time, the whole summaries agree.
			wall := regexp.MustCompile(`events in [^,]*,`)
			if a, b := wall.ReplaceAllString(sim, ""), wall.ReplaceAllString(chk, ""); a != b {
				t.Errorf("the summaries differ:\n%s\n%s", a, b)
			}
			_, simSum, simMap := runJSON(t, append([]string{"sim"}, c.args...)...)
			_, chkSum, chkMap := runJSON(t, "check", f)
			if len(simSum.Faults) != len(c.want) || len(chkSum.Faults) != len(c.want) {
				t.Errorf("faults: sim %+v, check %+v; want %d", simSum.Faults, chkSum.Faults, len(c.want))
			}
			sameRun(t, simMap, chkMap)
		})
	}
}

// storyOf is the "the run:" section of a text summary.
func storyOf(summary string) string {
	_, story, _ := strings.Cut(summary, "\nthe run:\n")
	story, _, _ = strings.Cut(story, "\n\n")
	return story
}
