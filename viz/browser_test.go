package viz

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// nodeView is what the page must show of a node.
type nodeView struct {
	ID     int    `json:"id"`
	Leader int    `json:"leader"`
	State  string `json:"state"`
	Alive  bool   `json:"alive"`
}

// expected is what replay.mjs checks the page against.
type expected struct {
	Events int `json:"events"`
	// ShotMS is the moment of the screenshot.
	ShotMS float64 `json:"shot_ms"`
	// Live says the page shows a run as it goes.
	Live bool `json:"live"`
	// Empty says the trace holds no event: the page must only open,
	// play, step and end without an error.
	Empty bool `json:"empty,omitempty"`
	// Broken says the trace is cut short: the page must say so in its
	// error box.
	Broken bool `json:"broken,omitempty"`
	// Legible is what the page must say of the run's crash, election and
	// partition (legible_test.go); Big says the run is the 10,000-node one
	// (checked as legible.mjs's big does) and Shots where its pictures go
	// ("": not kept).
	Legible *legible `json:"legible,omitempty"`
	Big     bool     `json:"big,omitempty"`
	Shots   string   `json:"shots,omitempty"`
	// Moving, for a mobile run, are where the nodes must be drawn (in
	// metres) at some moments.
	Moving []positions `json:"moving,omitempty"`
	// Gray, for a run with gray failures, are what the page must show of
	// them at some moments, and GrayMarks the kinds of mark the timeline
	// must have.
	Gray      []grayView `json:"gray,omitempty"`
	GrayMarks []string   `json:"gray_marks,omitempty"`
	// Values, for a run whose values change, are what the page must say
	// of them at some moments, and ValueMarks the words of the timeline's
	// value marks, in order.
	Values     []valueView `json:"values,omitempty"`
	ValueMarks []string    `json:"value_marks,omitempty"`
	Final      []nodeView  `json:"final"`
	Before     struct {
		MS    float64    `json:"ms"`
		Nodes []nodeView `json:"nodes"`
	} `json:"before"`
}

// grayView is what the page must show of a run's gray failures at a
// moment: the links drawn as arrows (to hears from, not the other way),
// the links cut both ways (not drawn), the nodes whose clock runs off true
// time (their rate, ppm) or that are slow (by how much, ns), the clocks
// whose jump is drawn; and, clicking Node (when Details is set), what its
// details must say, each text in the element of that id.
type grayView struct {
	MS       float64            `json:"ms"`
	OneWay   []arrow            `json:"one_way"`
	BothWays [][2]int           `json:"both_ways"`
	Rate     map[string]float64 `json:"rate"`
	Slow     map[string]float64 `json:"slow"`
	Flashes  []int              `json:"flashes"`
	Node     int                `json:"node"`
	Details  map[string]string  `json:"details,omitempty"`
}

// arrow is a link drawn one way.
type arrow struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// positions are every node's place at a moment.
type positions struct {
	MS float64   `json:"ms"`
	X  []float64 `json:"x"`
	Y  []float64 `json:"y"`
}

// writeTrace runs scenarios/emulate-grid.yaml in the simulator (16 nodes;
// the leader crashes at 6s, a partition at 12s, a heal at 18s) and writes
// its trace.
func writeTrace(t *testing.T) string {
	t.Helper()
	s, err := scenario.Load("../scenarios/emulate-grid.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	return runTrace(t, s)
}

// runTrace runs s in the simulator and returns the path of its trace.
func runTrace(t *testing.T, s *scenario.Scenario) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	simulate(t, s, path)
	return path
}

// simulate runs s in the simulator and writes its trace at path.
func simulate(tb testing.TB, s *scenario.Scenario, path string) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := runner.Run(s, runner.Options{Trace: f}); err != nil {
		tb.Fatal(err)
	}
}

// views replays the trace at path and returns every node's state after its
// last event at or before upTo, and the number of events read.
func views(t *testing.T, path string, upTo time.Duration) ([]nodeView, int) {
	t.Helper()
	h, events := readEvents(t, path)
	out := make([]nodeView, h.Nodes)
	for i := range out {
		out[i] = nodeView{ID: i, Leader: -1}
	}
	count := 0
	for _, e := range events {
		if e.At > upTo {
			break
		}
		count++
		v := &out[e.Node]
		switch e.Kind {
		case trace.NodeAdded, trace.Restarted, trace.Recovered:
			v.Alive = true
		case trace.Crashed:
			v.Alive, v.Leader, v.State = false, int(algo.None), "crashed"
		case trace.StatusChanged:
			v.Leader, v.State = int(e.Status.Leader), e.Status.State.String()
		}
	}
	return out, count
}

// browser finds Chromium, Node.js and playwright-core, or skips.
func browser(t testing.TB) (chromium, node string) {
	t.Helper()
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		skip(t, fmt.Sprintf("no Chromium at %s (apt-get install chromium, or set CHROMIUM)", chromium))
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip(t, "no node (Node.js) in PATH")
	}
	if _, err := os.Stat("browser/node_modules/playwright-core"); err != nil {
		skip(t, "playwright-core is not installed: run npm ci in viz/browser")
	}
	return chromium, node
}

// Run as go test runs a benchmark, without -v, the browser benchmark that
// cannot run says that it skipped and why, where it printed a bare "PASS".
func TestBenchmarkSaysWhySkipped(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$", "-test.bench", "BrowserPage", "-test.benchtime", "1x")
	cmd.Env = append(os.Environ(), "CHROMIUM="+filepath.Join(t.TempDir(), "none"))
	out, err := cmd.CombinedOutput()
	if want := "BenchmarkBrowserPage skipped: no Chromium at"; err != nil || !strings.Contains(string(out), want) {
		t.Errorf("%v; the benchmark printed\n%s\nwant %q", err, out, want)
	}
}

// skip skips t, saying why. go test shows a skip's reason only with -v,
// and without it a benchmark that skipped leaves the "PASS" of one that
// measured: a benchmark also prints the reason, which go test shows when
// it runs benchmarks.
func skip(t testing.TB, why string) {
	t.Helper()
	if _, bench := t.(*testing.B); bench && !testing.Verbose() {
		fmt.Printf("%s skipped: %s\n", t.Name(), why)
	}
	t.Skip(why)
}

// expect is what the page must show of the trace at path.
func expect(t *testing.T, path string, live bool) expected {
	t.Helper()
	var want expected
	want.Live = live
	want.Final, want.Events = views(t, path, 1<<62)
	want.Before.MS = 5900
	want.ShotMS = 15000 // in the partition: two leaders, node 15 crashed
	want.Before.Nodes, _ = views(t, path, 5900*time.Millisecond)
	for _, v := range want.Before.Nodes {
		if v.Leader != 15 || v.State != "Norm" {
			t.Fatalf("the trace itself: node %d before the crash is %+v, want following 15", v.ID, v)
		}
	}
	if want.Final[15].Alive || want.Final[0].Leader != 14 {
		t.Fatalf("the trace itself: at the end node 15 is %+v and node 0 %+v", want.Final[15], want.Final[0])
	}
	want.Legible = legibleFor(t, path, want.ShotMS)
	return want
}

// drive runs replay.mjs against the page at url; it returns the
// screenshot's path.
func drive(t *testing.T, url string, want expected) string {
	t.Helper()
	chromium, node := browser(t)
	dir := t.TempDir()
	wantPath := filepath.Join(dir, "expected.json")
	b, _ := json.Marshal(want)
	if err := os.WriteFile(wantPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "replay.png")
	cmd := exec.Command(node, "replay.mjs", url, wantPath, shot)
	cmd.Dir = "browser"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("replay.mjs: %v\n%s", err, out)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10_000 {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	return shot
}

// TestBrowserReplay loads a replay in headless Chromium (Debian's
// chromium, driven by playwright-core from viz/browser), plays it a
// moment, steps to the end and checks that every node shows the trace's
// final state, scrubs back to before the crash and checks the earlier
// leader, clicks a node, and takes a screenshot (VIZ_SCREENSHOT=FILE
// keeps it: docs/viz-replay.png is made so).
func TestBrowserReplay(t *testing.T) {
	browser(t)
	path := writeTrace(t)
	// Chunks of 200 events: the run (about 2,300) spans a dozen, so the
	// moments the test goes to are jumps to other chunks and replays
	// across their edges.
	_, srv := serveReplayChunks(t, path, 200)
	shot := drive(t, srv.URL+"/", expect(t, path, false))
	if dst := os.Getenv("VIZ_SCREENSHOT"); dst != "" {
		b, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserLive shows the same run live: the simulator paced to 8
// seconds of run time a second, the page asking its growing index what is
// new. The page follows the run while it goes, says when it
// is over, and then shows what the replay shows.
func TestBrowserLive(t *testing.T) {
	browser(t)
	s, err := scenario.Load("../scenarios/emulate-grid.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := runner.Header(s)
	if err != nil {
		t.Fatal(err)
	}
	// Chunks of 200 events: the page follows the run across a dozen, the
	// last growing under it.
	live, err := newLive(h, 200)
	if err != nil {
		t.Fatal(err)
	}
	// The run starts when the page asks for its events, so that the page
	// sees it go.
	opened := make(chan struct{})
	var once sync.Once
	h2 := live.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index" {
			once.Do(func() { close(opened) })
		}
		h2.ServeHTTP(w, r)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "live.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		select {
		case <-opened:
		case <-time.After(30 * time.Second):
		}
		_, err := runner.Run(s, runner.Options{Trace: f, Observers: []trace.Observer{NewPacer(8), live}})
		live.Close()
		f.Close()
		done <- err
	}()
	// The page opens while the run goes; what it must show at the end is
	// known once the run is over, and the page waits for that itself.
	want := make(chan expected, 1)
	go func() {
		if err := <-done; err != nil {
			t.Error(err)
		}
		want <- expect(t, path, true)
	}()
	// The expectations are the deterministic run's: compute them from a
	// second, unpaced run of the same scenario, so the page can be opened
	// at once.
	ref := writeTrace(t)
	drive(t, srv.URL+"/", expect(t, ref, true))
	if got, w := <-want, expect(t, ref, true); got.Events != w.Events {
		t.Errorf("the live run had %d events, the reference %d", got.Events, w.Events)
	}
}

// TestBrowserMoving replays a run of moving nodes (random waypoint): at
// each of several moments every node is drawn where the simulator had it,
// which the page works out from the tracks that /layout rebuilds from the
// trace's header.
func TestBrowserMoving(t *testing.T) {
	browser(t)
	s, err := scenario.Parse("moving.yaml", []byte("topology: geometric:30:300\nmobility: waypoint:5:20:1s\nduration: 20s\nseed: 4\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	path := runTrace(t, s)
	net, err := runner.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	var want expected
	for _, ms := range []float64{0, 2500, 7321, 19999} {
		at := net.Radio.Plan().Positions(time.Duration(ms * float64(time.Millisecond)))
		p := positions{MS: ms}
		for _, q := range at {
			p.X, p.Y = append(p.X, q.X), append(p.Y, q.Y)
		}
		want.Moving = append(want.Moving, p)
	}
	if want.Moving[0].X[0] == want.Moving[2].X[0] && want.Moving[0].Y[0] == want.Moving[2].Y[0] {
		t.Fatal("node 0 does not move: the test would show nothing")
	}
	r, srv := serveReplay(t, path)
	if r.Layout == nil || len(r.Layout.Tracks) != 30 {
		t.Fatalf("layout %+v, want 30 tracks", r.Layout)
	}
	drive(t, srv.URL+"/", want)
}

// TestBrowserEmptyTrace: a trace of a header and no event opens, and
// plays, steps and ends without an error on the page.
func TestBrowserEmptyTrace(t *testing.T) {
	browser(t)
	b, err := os.ReadFile(writeTrace(t))
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(b), "\n")
	path := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(path, []byte(header+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, srv := serveReplay(t, path)
	drive(t, srv.URL+"/", expected{Empty: true})
}

// TestBrowserGray replays a run with gray failures (testdata/gray.jsonl,
// in chunks of 5 events, so that the moments are reached both by the
// server's states and by the page's own replay): at each moment the page
// draws a link cut one way as an arrow the way it carries and one cut
// both ways not at all, lists the nodes off true time and the slow ones,
// draws a clock's jump a moment, and a node's details say its clock, its
// pace and its links cut; the timeline marks each kind.
func TestBrowserGray(t *testing.T) {
	browser(t)
	none := map[string]float64{}
	clock := map[string]float64{"3": 800000}
	slow := map[string]float64{"4": 200e6}
	want := expected{GrayMarks: []string{"gray-cut", "gray-uncut", "clock", "jump", "slow"}}
	// Out of order, the page jumps back and forth; the last is pictured.
	want.Gray = []grayView{
		{MS: 4500, BothWays: [][2]int{{2, 6}}, Rate: clock, Slow: slow,
			Node: 2, Details: map[string]string{"detail-cuts": "to 6: 6 does not hear 2, cut both ways"}},
		{MS: 1500, OneWay: []arrow{{2, 6}}, Rate: none, Slow: none,
			Node: 6, Details: map[string]string{"detail-cuts": "to 2: 2 does not hear 6", "detail-clock": "true time", "detail-slow": "on time"}},
		{MS: 7500, Rate: none, Slow: none, Node: 2, Details: map[string]string{"detail-cuts": "none"}},
		{MS: 5500, OneWay: []arrow{{6, 2}}, Rate: clock, Slow: slow,
			Node: 6, Details: map[string]string{"detail-cuts": "from 2: 6 does not hear 2"}},
		{MS: 500, Rate: none, Slow: none},
		{MS: 3500, OneWay: []arrow{{2, 6}}, Rate: clock, Slow: slow,
			Node: 4, Details: map[string]string{"detail-slow": "inputs handled 200 ms late"}},
		{MS: 6200, OneWay: []arrow{{6, 2}}, Rate: none, Slow: slow,
			Node: 3, Details: map[string]string{"detail-clock": "true time; jumped -1 h in all, last at 2.500 s by -1 h"}},
		{MS: 2600, OneWay: []arrow{{2, 6}}, Rate: clock, Slow: none, Flashes: []int{3},
			Node: 3, Details: map[string]string{"detail-clock": "×0.8 (800000 ppm of true time); jumped -1 h in all, last at 2.500 s by -1 h"}},
	}
	_, srv := serveReplayChunks(t, grayTrace, 5)
	shot := drive(t, srv.URL+"/", want)
	if dst := os.Getenv("VIZ_GRAY_SCREENSHOT"); dst != "" {
		b, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
