package bench

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/sim"
)

func tinySweep(t *testing.T) *Sweep {
	t.Helper()
	lay, err := ParseTopology("layered:{n}@2..3", nil)
	if err != nil {
		t.Fatal(err)
	}
	geo, err := ParseTopology("geometric:{n}:d6", []int{20, 40})
	if err != nil {
		t.Fatal(err)
	}
	return &Sweep{
		Experiments: []string{"start", "crash"}, Algorithms: []string{"vkt"},
		Topologies: []Topology{lay, geo}, Seeds: []uint64{1, 2},
		Delay: sim.DefaultDelay, Values: sim.Values{Mode: sim.ValueRandom},
	}
}

func TestParseSizes(t *testing.T) {
	for in, want := range map[string][]int{
		"5": {5}, "50,100": {50, 100}, "2..5": {2, 3, 4, 5}, "16..100*2": {16, 32, 64}, "9..9": {9}, "1..10*3,50": {1, 3, 9, 50},
	} {
		got, err := ParseSizes(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "0", "5..2", "2..8*1", "1..9*x", "-3"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := ParseTopology("ring:12@3..5", nil); err == nil || !strings.Contains(err.Error(), "no {n}") {
		t.Errorf("a template without {n} took sizes: %v", err)
	}
}

// The shards of a sweep hold every run once, whatever the number of shards.
func TestShards(t *testing.T) {
	runs, err := tinySweep(t).Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*1*4*2 {
		t.Fatalf("%d runs, want 16", len(runs))
	}
	for n := 1; n <= 5; n++ {
		seen := map[int]int{}
		for k := 1; k <= n; k++ {
			for _, r := range (Shard{K: k, N: n}).Of(runs) {
				seen[r.Index]++
			}
		}
		for i := range runs {
			if seen[i] != 1 {
				t.Fatalf("%d shards: run %d in %d of them", n, i, seen[i])
			}
		}
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
	if runs[0].Topology != "layered:2" || runs[4].Topology != "geometric:20:d6" {
		t.Errorf("sizes not filled in: %+v, %+v", runs[0], runs[4])
	}
}

// A sweep run on two cores gives what it gives on one; its CSV reads back
// the same; shards merged give the whole sweep.
func TestRunCSVMerge(t *testing.T) {
	sw := tinySweep(t)
	runs, _ := sw.Runs()
	one := runOnOneAndTwo(t, sw, runs)
	for i := range one {
		a := *one[i]
		if a.Violations != 0 || a.Unchecked != 0 {
			t.Fatalf("run %d: %d violations, %d unchecked", i, a.Violations, a.Unchecked)
		}
		if a.Elections == 0 || a.Messages == 0 || a.ByType["election"] == 0 || a.ByType["heartbeat"] != a.Heartbeats {
			t.Fatalf("run %d measured nothing: %+v", i, a)
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, one); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(bytes.NewReader(buf.Bytes()), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i := range one {
		if !reflect.DeepEqual(*back[i], *one[i]) {
			t.Fatalf("row %d: %+v\nread back as %+v", i, one[i], back[i])
		}
	}
	half := (Shard{K: 1, N: 2}).Of(runs)
	var first, second []*Result
	for _, r := range one {
		if r.Index%2 == 0 {
			first = append(first, r)
		} else {
			second = append(second, r)
		}
	}
	if len(first) != len(half) {
		t.Fatalf("shard sizes")
	}
	merged, err := Merge(second, first, first)
	if err != nil || len(merged) != len(one) || !reflect.DeepEqual(merged[3], one[3]) {
		t.Fatalf("merge: %d rows, %v", len(merged), err)
	}
	bad := *one[3]
	bad.TraceHash = "x"
	if _, err := Merge(one, []*Result{&bad}); err == nil {
		t.Error("merged two different runs 3")
	}
	points := Aggregate(merged)
	if len(points) != 2*4 || points[0].Runs != 2 || points[0].Nodes != 9 {
		t.Fatalf("points %+v", points)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for doc, want := range map[string]string{
		"a,b\n": "not a results file",
		strings.Join(columns, ",") + "\n" + strings.Repeat("x,", len(columns)-1) + "x\n": `r.csv:2: column index: "x" is not a count`,
	} {
		if _, err := ReadCSV(strings.NewReader(doc), "r.csv"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", doc, err, want)
		}
	}
}

// A sweep over speeds runs every combination at every speed, speed 0 still;
// a template with no {v} cannot take several speeds, and a moving experiment
// needs them. Nodes without positions cannot move: such a sweep is refused
// before it runs (its runs failed one by one before).
func TestSweepSpeeds(t *testing.T) {
	sw := tinySweep(t)
	sw.Experiments = []string{"mobile"}
	if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "experiment mobile moves the nodes: give it speeds") {
		t.Errorf("mobile without speeds: %v", err)
	}
	var err error
	if sw.Speeds, err = ParseSpeeds("0, 2.5,20"); err != nil {
		t.Fatal(err)
	}
	for _, exps := range [][]string{{"mobile"}, {"start"}} {
		sw.Experiments = exps
		if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "the nodes of layered:{n} have no positions to move from") {
			t.Errorf("%v at speeds on layered networks: %v", exps, err)
		}
	}
	sw.Experiments = []string{"mobile"}
	sw.Topologies = sw.Topologies[1:] // geometric
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*3*2 {
		t.Fatalf("%d runs, want 2 networks x 3 speeds x 2 seeds", len(runs))
	}
	var specs []string
	for _, r := range runs[:6] {
		specs = append(specs, r.Mobility())
	}
	if want := "static static waypoint:2.5:2.5:2s waypoint:2.5:2.5:2s waypoint:20:20:2s waypoint:20:20:2s"; strings.Join(specs, " ") != want {
		t.Errorf("mobility of the first runs: %v, want %s", specs, want)
	}
	sw.Mobility = []string{"walk:1:1:10s"}
	if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "no {v}") {
		t.Errorf("a template without {v} took speeds: %v", err)
	}
	sw.Speeds = nil
	if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "needs speeds") {
		t.Errorf("a mobility without speeds: %v", err)
	}
	for _, bad := range []string{"", "x", "-1", "1,,2", "NaN", "Inf"} {
		if _, err := ParseSpeeds(bad); err == nil {
			t.Errorf("speeds %q accepted", bad)
		}
	}
}

// Files written before the mobility columns still read, with zero figures
// of movement.
func TestReadOldCSV(t *testing.T) {
	row := []string{"3", "start", "vkt", "layered:{n}", "2", "layered:2", "1", "9", "8", "1", "12.5", "40",
		"40", "4.4", "7", "0.01", "0", "0", "3.2", "00ff", "ack=8;election=32"}
	doc := strings.Join(columns[:firstColumns], ",") + "\n" + strings.Join(row, ",") + "\n"
	rs, err := ReadCSV(strings.NewReader(doc), "old.csv")
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Index != 3 || r.Nodes != 9 || r.ByType["election"] != 32 || r.Motion != "" || r.Speed != 0 || r.Mobility() != "" {
		t.Errorf("read %+v", r)
	}
}

// A sweep compares an algorithm with its variants: vkt and
// vkt:medium=broadcast side by side, the variant's parameters its own, its
// receptions apart from its transmissions; a malformed or refused variant
// is an error naming it.
func TestVariants(t *testing.T) {
	for _, bad := range []string{"vkt:medium", "vkt:medium=radio", "vkt:nosuch=1", "nosuch:medium=broadcast"} {
		if _, _, err := Variant(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	sw := &Sweep{Experiments: []string{"start"}, Algorithms: []string{"vkt", "vkt:medium=broadcast"},
		Topologies: []Topology{{Template: "grid:{n}x{n}", Sizes: []int{4}}}, Seeds: []uint64{1},
		Delay: sim.DefaultDelay, Values: sim.Values{Mode: sim.ValueRandom}}
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	rs, failed := sw.RunAll(runs, 1, nil)
	if failed != nil {
		t.Fatal(failed[0])
	}
	uni, bc := rs[0], rs[1]
	if uni.Algorithm != "vkt" || bc.Algorithm != "vkt:medium=broadcast" {
		t.Fatalf("runs of %q and %q", uni.Algorithm, bc.Algorithm)
	}
	if uni.Receptions != uni.Messages || bc.Messages >= uni.Messages || bc.Receptions <= bc.Messages || bc.Bytes == 0 {
		t.Errorf("unicast %d sent, %d heard; broadcast %d sent, %d heard, %d bytes: want one reception a message for unicast, fewer transmissions heard more often for broadcast",
			uni.Messages, uni.Receptions, bc.Messages, bc.Receptions, bc.Bytes)
	}
}

// runOnOneAndTwo runs runs of sw on one job and on two, fails the test if
// a run gives other figures (its wall time aside), and returns the
// results of one job.
func runOnOneAndTwo(t *testing.T, sw *Sweep, runs []Run) []*Result {
	t.Helper()
	one, failed := sw.RunAll(runs, 1, nil)
	if failed != nil {
		t.Fatal(failed[0])
	}
	two, failed := sw.RunAll(runs, 2, nil)
	if failed != nil {
		t.Fatal(failed[0])
	}
	for i := range one {
		a, b := *one[i], *two[i]
		a.WallMS, b.WallMS = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("run %d differs between 1 and 2 jobs:\n%+v\n%+v", i, a, b)
		}
	}
	return one
}
