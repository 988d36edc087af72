package viz

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/trace"
)

// legible is what the page must say of a run's crash, election and
// partition, in words and looks (issue 37), for replay.mjs's legible.mjs.
type legible struct {
	// CrashMS is the leader's crash, Crashed the node, Followers how many
	// nodes still follow it just after.
	CrashMS   float64 `json:"crash_ms"`
	Crashed   int     `json:"crashed"`
	Followers int     `json:"followers"`
	// ElectMS is a moment when Electing are in an election.
	ElectMS  float64 `json:"elect_ms"`
	Electing []int   `json:"electing"`
	// At ShotMS (the expectations'): the leaders, the components' sizes
	// (largest first), and since when node 0 follows its leader.
	Leaders    []int   `json:"leaders"`
	Components []int   `json:"components"`
	SinceMS    float64 `json:"since_ms"`
	// Colours: the leaders' and the messages' must not meet.
	Types int `json:"types"`
}

// legibleFor works out what the page must say of the run at path, shot at
// shotMS.
func legibleFor(t *testing.T, path string, shotMS float64) *legible {
	t.Helper()
	h, events := readEvents(t, path)
	l := &legible{Crashed: -1, SinceMS: -1, Types: len(h.Messages)}
	shot := time.Duration(shotMS * float64(time.Millisecond))
	leader := make([]int, h.Nodes)
	for i := range leader {
		leader[i] = -1
	}
	for _, e := range events {
		switch {
		case e.Kind == trace.Crashed && l.Crashed < 0:
			l.Crashed, l.CrashMS = int(e.Node), float64(e.At)/1e6
		case e.Kind == trace.StatusChanged && l.Crashed >= 0 && l.ElectMS == 0 && e.Status.State == algo.Elect:
			l.ElectMS = float64(e.At) / 1e6
		}
		if e.At <= shot && e.Node == 0 {
			switch {
			case e.Kind == trace.StatusChanged && int(e.Status.Leader) != leader[0]:
				leader[0], l.SinceMS = int(e.Status.Leader), float64(e.At)/1e6
			case e.Kind == trace.Crashed:
				leader[0], l.SinceMS = -1, float64(e.At)/1e6
			case e.Kind == trace.Restarted || e.Kind == trace.Recovered:
				l.SinceMS = float64(e.At) / 1e6
			}
		}
	}
	if l.Crashed < 0 || l.ElectMS == 0 {
		t.Fatalf("the trace itself: no crash (%d) or no election after it (%v)", l.Crashed, l.ElectMS)
	}
	at := func(ms float64) []nodeView {
		vs, _ := views(t, path, time.Duration(ms*float64(time.Millisecond)))
		return vs
	}
	for _, v := range at(l.CrashMS) {
		if v.Alive && v.State == "Norm" && v.Leader == l.Crashed {
			l.Followers++
		}
	}
	for _, v := range at(l.ElectMS) {
		if v.Alive && v.State != "Norm" && v.State != "" {
			l.Electing = append(l.Electing, v.ID)
		}
	}
	vs := at(shotMS)
	size := map[int]int{}
	for _, v := range vs {
		if v.Alive && v.State == "Norm" && v.Leader == v.ID {
			l.Leaders = append(l.Leaders, v.ID)
		}
		if v.Alive && v.State == "Norm" {
			size[v.Leader]++
		}
	}
	for _, n := range size {
		l.Components = append(l.Components, n)
	}
	slices.Sort(l.Components)
	slices.Reverse(l.Components)
	return l
}

// TestLeaderSinceAndOrder: the index lists the leaders in the order they
// were first followed, and the state says since when each node has had its
// leader (or crashed).
func TestLeaderSinceAndOrder(t *testing.T) {
	path := writeTrace(t)
	r, err := newReplay(path, 200)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	info := r.info()
	if len(info.Leaders) < 3 || info.Leaders[0] != 15 || !slices.Contains(info.Leaders, 14) || !slices.Contains(info.Leaders, 7) {
		t.Errorf("leaders %v, want 15 first, then 14 and 7 among them", info.Leaders)
	}
	l := legibleFor(t, path, 15000)
	b, err := r.stateAt(15000)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := decodeKeyframe(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.since[0] != l.SinceMS || s.since[15] != l.CrashMS {
		t.Errorf("at 15 s node 0 has had its leader since %v ms (want %v), node 15 crashed at %v (want %v)", s.since[0], l.SinceMS, s.since[15], l.CrashMS)
	}
}

// tenThousand is the 10,000-node run of the page's pictures: vkt on a
// random geometric network of mean degree 15; the leader crashes, the
// network splits into a west and an east half, and heals.
const tenThousand = `algorithm: vkt
topology: geometric:10000:22
values: id
seed: 1
duration: 16s
check:
  stabilization: 8s
  liveness: 16s
events:
  - at: 4s
    crash: leader
  - at: 8s
    partition:
      west: {area: [0, 0, 500, 1000]}
      east: {area: [500, 0, 1000, 1000]}
  - at: 12s
    heal: true
`

// TestBrowserTenThousand replays the 10,000-node run with a leader's
// crash, a partition and a heal, and checks that the page says what
// happens (legible.mjs): the crash where it happened and the nodes that
// lost their leader, the election, the leaders labelled, the components,
// the log, a zoom that shows ids, a click that picks the node under it.
// VIZ_SHOTS=DIR keeps its pictures there (docs/viz-*.png are made so).
// The trace (about 700 MB) is made once in VIZ_BENCH_DIR, as the
// benchmark's are.
func TestBrowserTenThousand(t *testing.T) {
	browser(t)
	if testing.Short() {
		t.Skip("a 10,000-node run: not in -short")
	}
	dir := os.Getenv("VIZ_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "elect-viz-bench")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "legible-10000.jsonl")
	if _, err := os.Stat(path); err != nil {
		s, err := scenario.Parse("legible.yaml", []byte(tenThousand), nil)
		if err != nil {
			t.Fatal(err)
		}
		simulate(t, s, path+".part")
		if err := os.Rename(path+".part", path); err != nil {
			t.Fatal(err)
		}
	}
	want := expected{Big: true, Shots: os.Getenv("VIZ_SHOTS")}
	_, srv := serveReplay(t, path)
	drive(t, srv.URL+"/", want)
}

// TestBrowserBrokenTrace: a trace cut short mid-line shows what it has,
// and says in the error's box where it stopped.
func TestBrowserBrokenTrace(t *testing.T) {
	browser(t)
	b, err := os.ReadFile(writeTrace(t))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.LastIndex(string(b[:len(b)/2]), "\n") + 10
	path := filepath.Join(t.TempDir(), "broken.jsonl")
	if err := os.WriteFile(path, b[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	_, srv := serveReplay(t, path)
	drive(t, srv.URL+"/", expected{Broken: true})
}
