package runner_test

import (
	"fmt"
	"testing"

	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
)

// A leader whose value falls hands over to the most valued follower, and a
// follower whose value rises above its leader's takes over, each within
// the liveness bound: vkt and park follow value changes
// (algo.Model.FollowsValue), and the checker holds them to it.
func TestValueHandOver(t *testing.T) {
	for _, algorithm := range []string{"vkt", "park"} {
		s, err := scenario.Load("../scenarios/value-leader-falls.yaml", scenario.Default())
		if err != nil {
			t.Fatal(err)
		}
		s.Algorithm = algorithm
		sum, err := runner.Run(s, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var leaders []string
		for _, e := range sum.Elections.List {
			leaders = append(leaders, fmt.Sprintf("%d by %.0fs", e.Leader, e.EndMS/1000))
		}
		// 4 at the start; 3 once 4's value falls to 1 at 3s; 0 once its
		// value rises to 50 at 8s (the liveness bound: 5s).
		if fmt.Sprint(leaders) != "[4 by 0s 3 by 3s 0 by 8s]" || sum.ViolationCount > 0 || sum.Unchecked > 0 {
			t.Errorf("%s: leaders %v, violations %d (%v), unchecked %d", algorithm, leaders, sum.ViolationCount, sum.Violations, sum.Unchecked)
		}
	}
}

// A run whose values drain as it goes (a battery) reports its hand-overs,
// the energy leaders and the others spend, and when the first battery ran
// out; the same seed gives the same run.
func TestBatteryRun(t *testing.T) {
	run := func() (string, string) {
		s := scenario.Default()
		s.Algorithm, s.Topology, s.Seed = "park", "geometric:30:300", 3
		s.Duration = 60e9
		s.ValuesOver = "battery:capacity=30000"
		sum, err := runner.Run(s, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sum.ViolationCount > 0 {
			t.Fatalf("violations: %v", sum.Violations)
		}
		v := sum.Values
		if v == nil || v.Model != "battery:capacity=30000,tx=1,rx=0.5,idle=0,recharge=0,every=1s" || v.HandOvers == 0 ||
			v.FirstEmptyMS <= 0 || v.Empty == 0 || v.LeaderPerSecond <= 0 || v.OtherPerSecond <= 0 {
			t.Fatalf("values %+v", v)
		}
		return fmt.Sprintf("%+v", *v), sum.TraceHash
	}
	a, ha := run()
	b, hb := run()
	if a != b || ha != hb {
		t.Errorf("two runs of one seed: %s %s, then %s %s", a, ha, b, hb)
	}
}

// A battery that runs out, recharges and runs out again is one node whose
// battery ran out, not two: vkt's heartbeats on 5 nodes drain 2,000 units
// faster than 250 a second brings back.
func TestBatteryEmptyOnce(t *testing.T) {
	s := scenario.Default()
	s.Algorithm, s.Topology, s.Seed, s.Duration = "vkt", "complete:5", 1, 60e9
	s.ValuesOver = "battery:capacity=2000,recharge=250"
	sum, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := sum.Values; v.Empty < 1 || v.Empty > 5 || v.FirstEmptyMS <= 0 {
		t.Errorf("%d batteries ran out (the first at %v ms) of 5 nodes", v.Empty, v.FirstEmptyMS)
	}
}
