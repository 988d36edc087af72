package study_test

import (
	"bytes"
	"testing"

	"github.com/electgo/elect/bench"
	"github.com/electgo/elect/study"
)

// WriteVerdicts: a line per claim, a line per failed check (a mean, or
// the difference of a comparison or a trend), and why a claim is
// undecided; nothing for a shard.
func TestWriteVerdicts(t *testing.T) {
	at := func(id string) *study.Claim {
		return &study.Claim{ID: id, Measure: bench.Measure{Name: "messages"}, Relation: "at-most", Bounds: []study.Bound{{Text: "2 * n"}}}
	}
	trend := &study.Claim{ID: "t", Measure: bench.Measure{Name: "election-time"}, Relation: "grows", Along: "size"}
	res := &study.Result{Outcomes: []study.Outcome{
		{Claim: at("ok"), Verdict: study.Holds, Checks: []study.Check{{Label: "a", Verdict: study.Holds}}},
		{Claim: at("bad"), Verdict: study.Fails, Checks: []study.Check{
			{Label: "ring:4", Verdict: study.Fails, Interval: bench.Interval{Mean: 12.3456, Half: 0.51234}, Runs: []int{0, 1, 2}, By: 4.3456},
			{Label: "ring:5", Verdict: study.Holds},
			{Label: "ring:6", Verdict: study.Fails, Why: "a run broke it", Runs: []int{3}},
		}},
		{Claim: trend, Verdict: study.Fails, Checks: []study.Check{{Label: "4 to 5", Strict: true, Verdict: study.Fails, Interval: bench.Interval{Mean: -2, Half: 1}, Runs: []int{0, 1}, By: 1}}},
		{Claim: at("none"), Verdict: study.Undecided, Why: "no run is selected"},
	}}
	var b bytes.Buffer
	res.WriteVerdicts(&b)
	want := `holds      ok: messages at most 2 * n
fails      bad: messages at most 2 * n
           fails at ring:4: mean 12.35, 95% interval ±0.512 (3 runs), 4.346 past the bound
           fails at ring:6: mean 0, 95% interval ±0 (1 runs), a run broke it
fails      t: election-time grows with size
           fails at 4 to 5: difference -2, 95% interval ±1 (2 runs), 1 past the bound
undecided  none: messages at most 2 * n
           no run is selected
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	(&study.Result{}).WriteVerdicts(&b)
	if b.Len() != 0 {
		t.Errorf("a shard's verdicts: %q, want none", b.String())
	}
}
