package bench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/electgo/elect/sim"
)

// batterySweep is a tiny battery sweep: vkt and park (which follow the
// value) and bully (which does not: left out), two sizes, two drains.
func batterySweep(t *testing.T) *Sweep {
	t.Helper()
	geo, err := ParseTopology("geometric:{n}:d6@12,24", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Sweep{
		Experiments: []string{"battery"}, Algorithms: []string{"vkt", "park:medium=broadcast", "bully"},
		Topologies: []Topology{geo}, Seeds: []uint64{1}, Drains: []float64{1, 4}, Capacity: 20_000,
		Delay: sim.DefaultDelay, Values: sim.Values{Mode: sim.ValueRandom},
	}
}

// The battery experiment runs each algorithm that follows the value at
// every drain; its figures are sane (the first battery runs out sooner at
// a faster drain, on whole seconds of the model's step; the energy is
// spent), the same on one core as on two, and read back from the CSV file
// as written; the table and figures come out.
func TestBattery(t *testing.T) {
	sw := batterySweep(t)
	sw.Drains = nil
	if _, err := sw.Runs(); err == nil || !strings.Contains(err.Error(), "give it drains") {
		t.Errorf("battery without drains: %v", err)
	}
	sw = batterySweep(t)
	runs, err := sw.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*2*2 || len(sw.Skipped) != 1 || !strings.Contains(sw.Skipped[0], "bully") || !strings.Contains(sw.Skipped[0], "FollowsValue") {
		t.Fatalf("%d runs, want 2 algorithms x 2 sizes x 2 drains; skipped %q", len(runs), sw.Skipped)
	}
	if runs[1].Drain != 4 || !strings.Contains(runs[1].Label(), "drain 4") {
		t.Errorf("run 1: %+v, label %s", runs[1], runs[1].Label())
	}
	sc, _, _, _, err := sw.prepare(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "battery:capacity=20000,tx=1,rx=0.5,idle=0,recharge=0,every=1s"; sc.ValuesOver != want || sc.Duration != batteryDuration {
		t.Errorf("run 0's values over time %q for %v, want %q", sc.ValuesOver, sc.Duration, want)
	}
	one := runOnOneAndTwo(t, sw, runs)
	for i := 0; i < len(one); i += 2 {
		slow, fast := one[i], one[i+1] // drains 1 and 4, the rest alike
		if slow.Violations+fast.Violations != 0 {
			t.Errorf("%s: %d and %d violations", slow.Label(), slow.Violations, fast.Violations)
		}
		ls, okS := slow.Lifetime()
		lf, okF := fast.Lifetime()
		if !okF || okS && !(lf < ls) || lf != math.Round(lf) {
			t.Errorf("%s: lifetime %v (%v) at drain 1, %v (%v) at drain 4: want a shorter one, on a whole second", slow.Label(), ls, okS, lf, okF)
		}
		for _, r := range []*Result{slow, fast} {
			if r.Capacity != 20_000 || r.LeaderEnergy <= 0 || r.OtherEnergy <= 0 || r.HandOvers < 0 || r.Empty < 1 || r.Empty > r.Nodes ||
				math.Abs(r.HandOverRate-float64(r.HandOvers)/r.Duration.Minutes()) > 1e-9 {
				t.Errorf("%s: %+v", r.Label(), r)
			}
			// No node spends more than its battery a second over the run.
			if r.OtherEnergy > r.Capacity || r.LeaderEnergy > r.Capacity {
				t.Errorf("%s: energy %v and %v a second from %v", r.Label(), r.LeaderEnergy, r.OtherEnergy, r.Capacity)
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, one); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(buf.String(), "\n")
	if !strings.HasSuffix(head, ",drain,capacity,hand_overs,hand_overs_per_minute,first_empty_ms,empty,leader_energy_per_second,other_energy_per_second") {
		t.Errorf("header %s", head)
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
	points := Aggregate(one)
	if len(points) != 8 || points[1].Drain != 4 || points[1].Runs != 1 {
		t.Fatalf("points %+v", points)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, points); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hand-overs/min", "lifetime s", "park:medium=broadcast"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	var sum bytes.Buffer
	if err := WriteSummaryCSV(&sum, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.String(), ",drain,hand-overs,hand-overs_ci95,hand-overs_runs,") || !strings.Contains(sum.String(), "energy-others_runs") {
		t.Errorf("summary.csv header: %s", strings.SplitN(sum.String(), "\n", 2)[0])
	}
	dir := t.TempDir()
	plots, err := Plot(points, dir, "png")
	if err != nil {
		t.Fatal(err)
	}
	if len(plots.Files) != 2*len(batteryFigures) || len(plots.Skipped) != 0 {
		t.Fatalf("plots %+v", plots)
	}
	for _, name := range []string{"battery-lifetime-size.png", "battery-energy-drain.png", "battery-hand-overs-size.png"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A results file written before batteries reads with none.
	old := strings.Join(columns[:boundsColumns], ",") + "\n" + strings.Join(row(one[0])[:boundsColumns], ",") + "\n"
	rs, err := ReadCSV(strings.NewReader(old), "old.csv")
	if err != nil || rs[0].Drain != 0 || rs[0].FirstEmptyMS != -1 {
		t.Fatalf("an old file: %+v, %v", rs, err)
	}
}

func TestParseDrains(t *testing.T) {
	got, err := ParseDrains("0.5, 1,2")
	if err != nil || !reflect.DeepEqual(got, []float64{0.5, 1, 2}) {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", "0", "-1", "x", "inf"} {
		if _, err := ParseDrains(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := BatterySpec(1e5, 3); got != "battery:capacity=100000,tx=3,rx=1.5,idle=0,recharge=0,every=1s" {
		t.Errorf("spec %s", got)
	}
	if _, err := sim.ParseValueModel(BatterySpec(1e5, 3)); err != nil {
		t.Error(err)
	}
}
