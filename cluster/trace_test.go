package cluster_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/trace"
)

// failoverScript elects, kills the leader and waits for the next one.
const failoverScript = `
steps:
  - expect: {leader: 3, within: 5s}
  - kill: leader
  - expect: {leader: 2, within: 3s}
`

// traceRun runs failoverScript on 4 vkt processes with the checker's
// bounds given (0: the defaults), writing the trace, and returns the
// summary and the trace file re-checked as `elect check` does.
func traceRun(t *testing.T, stabilization, liveness time.Duration) (*cluster.Summary, *metrics.Summary, string) {
	t.Helper()
	script, err := cluster.ParseScript("failover.yaml", []byte(failoverScript))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "run.jsonl.gz")
	start := time.Now()
	ctx := context.Background()
	c, err := cluster.Start(ctx, cluster.Config{Nodes: 4, Hello: 50 * time.Millisecond,
		Params: map[string]string{"heartbeat": "100ms", "timeout": "500ms"}, Trace: file,
		Stabilization: stabilization, Liveness: liveness})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sum := c.Finish(c.Run(ctx, script))
	t.Logf("cluster run in %v", time.Since(start).Round(time.Millisecond))
	if !sum.OK || sum.Check == nil {
		t.Fatalf("ok %v, error %q, check %+v; steps %+v", sum.OK, sum.Error, sum.Check, sum.Steps)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f, file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := runner.TraceConfig(&tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	re, err := runner.Recheck(tr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.Seek(0, io.SeekStart)
	zr, err := gzip.NewReader(f) // a name ending in .gz: gzip, as elect sim --trace writes it
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return sum, re, string(data)
}

// sameVerdict fails t unless the cluster's verdict is the re-checked
// trace's: the same events, violations, elections and unjudged liveness.
func sameVerdict(t *testing.T, v *cluster.Verdict, re *metrics.Summary) {
	t.Helper()
	if v.TraceHash != re.TraceHash {
		t.Errorf("the checker saw events hashed %s, the trace file holds %s", v.TraceHash, re.TraceHash)
	}
	if v.ViolationCount != re.ViolationCount || !reflect.DeepEqual(v.Violations, re.Violations) {
		t.Errorf("violations: the cluster's %d %+v, elect check's %d %+v", v.ViolationCount, v.Violations, re.ViolationCount, re.Violations)
	}
	if !reflect.DeepEqual(v.Elections, re.Elections) {
		t.Errorf("elections: the cluster's %+v, elect check's %+v", v.Elections, re.Elections)
	}
	if v.Unchecked != re.Unchecked {
		t.Errorf("unchecked: the cluster's %d, elect check's %d", v.Unchecked, re.Unchecked)
	}
}

// TestClusterTrace runs a failover on real processes with a trace: the
// checker, on the nodes' status streams during the run, finds no
// violation, the trace holds the run (the header with the checker's
// bounds, every node and link, the kill as a crash, the steps in words,
// the end), and re-checked it gives the same verdict.
func TestClusterTrace(t *testing.T) {
	t.Parallel()
	sum, re, text := traceRun(t, 0, 0)
	v := sum.Check
	sameVerdict(t, v, re)
	if !v.OK || v.ViolationCount != 0 || v.Elections.Completed < 1 {
		t.Errorf("verdict %+v: want no violation and an election", v)
	}
	if n, why := sum.Violated(); n != 0 {
		t.Errorf("Violated() = %d, %q, want 0", n, why)
	}
	for _, want := range []string{`"algorithm":"vkt"`, `"stabilization_ns":10000000000`, `"liveness_ns":30000000000`,
		`{"t":0,"ev":"node","node":3,"value":3}`, `{"t":0,"ev":"link_up","node":2,"peer":3}`, `"ev":"crash","node":3}`,
		`"ev":"act","text":"kill leader"}`, `"text":"expect leader 2 within 3s: met after`, `"ev":"status","node":2,"leader":2,"state":"Norm"`, `"ev":"end"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the trace lacks %s:\n%s", want, text)
		}
	}
}

// TestClusterTraceViolation holds the same run to bounds its failover
// cannot meet (a leader's loss is noticed after 500 ms, the bound is 100
// ms): the checker reports violations, the summary says they fail the
// run, and elect check finds the same ones in the trace.
func TestClusterTraceViolation(t *testing.T) {
	t.Parallel()
	sum, re, _ := traceRun(t, 50*time.Millisecond, 100*time.Millisecond)
	v := sum.Check
	sameVerdict(t, v, re)
	t.Logf("%d violations, the first %+v", v.ViolationCount, v.Violations[0])
	if v.OK || v.ViolationCount == 0 {
		t.Fatalf("verdict %+v: want violations", v)
	}
	if n, why := sum.Violated(); n != v.ViolationCount || !strings.Contains(why, "the checker found") {
		t.Errorf("Violated() = %d, %q, want %d violations", n, why, v.ViolationCount)
	}
	var b strings.Builder
	sum.WriteText(&b)
	if !strings.Contains(b.String(), "VIOLATION") {
		t.Errorf("the text summary does not say the verdict:\n%s", b.String())
	}
}
