package failover

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var ds []time.Duration
		for _, x := range v {
			ds = append(ds, time.Duration(x)*time.Millisecond)
		}
		return ds
	}
	got := Summarize(ms(10, 1, 9, 2, 8, 3, 7, 4, 6, 5))
	want := Stats{Runs: 10, Median: 5500 * time.Microsecond, P90: 9 * time.Millisecond, Min: time.Millisecond, Max: 10 * time.Millisecond}
	if got != want {
		t.Errorf("Summarize(1..10) = %+v, want %+v", got, want)
	}
	got = Summarize(ms(3, 1, 2))
	want = Stats{Runs: 3, Median: 2 * time.Millisecond, P90: 3 * time.Millisecond, Min: time.Millisecond, Max: 3 * time.Millisecond}
	if got != want {
		t.Errorf("Summarize(3,1,2) = %+v, want %+v", got, want)
	}
}

func TestParseSetting(t *testing.T) {
	s, err := ParseSetting("100ms/1s")
	if err != nil || s != (Setting{100 * time.Millisecond, time.Second}) {
		t.Errorf("ParseSetting(100ms/1s) = %v, %v", s, err)
	}
	for _, bad := range []string{"100ms", "1s/100ms", "300ms/1s", "x/1s", "0s/1s"} {
		if _, err := ParseSetting(bad); err == nil {
			t.Errorf("ParseSetting(%q) accepted", bad)
		}
	}
}

func TestElectArgs(t *testing.T) {
	ports := []Ports{{7000, 8000}, {7001, 8001}, {7002, 8002}}
	got := strings.Join(Elect{}.Args(1, ports, Setting{50 * time.Millisecond, 500 * time.Millisecond}), " ")
	want := "node --id 1 --value 1 --listen 127.0.0.1:7001 --peers 0=127.0.0.1:7000,2=127.0.0.1:7002 --http 127.0.0.1:8001 --algo vkt --param heartbeat=50ms --param timeout=500ms --hello 50ms --hello-loss 10 --log-level warn"
	if got != want {
		t.Errorf("elect args\n got %s\nwant %s", got, want)
	}
	got = strings.Join(Raft{}.Args(2, ports, Setting{100 * time.Millisecond, time.Second}), " ")
	want = "--id 2 --listen 127.0.0.1:7002 --peers 0=127.0.0.1:7000,1=127.0.0.1:7001,2=127.0.0.1:7002 --http 127.0.0.1:8002 --heartbeat-timeout 1s --election-timeout 1s --lease 500ms"
	if got != want {
		t.Errorf("raft args\n got %s\nwant %s", got, want)
	}
}

func TestAgreed(t *testing.T) {
	parse := func(sys System, bodies ...string) []Status {
		var sts []Status
		for _, b := range bodies {
			st, err := sys.Parse([]byte(b))
			if err != nil {
				t.Fatalf("%s: Parse(%s): %v", sys.Name(), b, err)
			}
			sts = append(sts, st)
		}
		return sts
	}
	e := Elect{}
	for _, c := range []struct {
		bodies []string
		leader int
		ok     bool
	}{
		{[]string{`{"id":0,"value":0,"leader":2,"state":"Norm"}`, `{"id":2,"value":2,"leader":2,"state":"Norm","election_index":3,"neighbors":[0]}`}, 2, true},
		{[]string{`{"id":0,"value":0,"leader":2,"state":"Elect"}`, `{"id":2,"value":2,"leader":2,"state":"Norm"}`}, -1, false},
		{[]string{`{"id":0,"value":5,"leader":2,"state":"Norm"}`, `{"id":2,"value":2,"leader":2,"state":"Norm"}`}, -1, false}, // 0 is more valued
		{[]string{`{"id":0,"value":0,"leader":-1,"state":"Norm"}`, `{"id":2,"value":2,"leader":-1,"state":"Norm"}`}, -1, false},
		{[]string{`{"id":0,"value":0,"leader":3,"state":"Norm"}`, `{"id":2,"value":2,"leader":3,"state":"Norm"}`}, -1, false}, // 3 is not live
	} {
		l, ok := e.Agreed(parse(e, c.bodies...))
		if l != c.leader || ok != c.ok {
			t.Errorf("elect Agreed(%v) = %d, %v; want %d, %v", c.bodies, l, ok, c.leader, c.ok)
		}
	}
	r := Raft{}
	for _, c := range []struct {
		bodies []string
		leader int
		ok     bool
	}{
		{[]string{`{"id":"0","leader":"1","state":"Follower"}`, `{"id":"1","leader":"1","state":"Leader"}`}, 1, true},
		{[]string{`{"id":"0","leader":"1","state":"Follower"}`, `{"id":"1","leader":"1","state":"Candidate"}`}, -1, false},
		{[]string{`{"id":"0","leader":"","state":"Candidate"}`, `{"id":"1","leader":"1","state":"Leader"}`}, -1, false},
	} {
		l, ok := r.Agreed(parse(r, c.bodies...))
		if l != c.leader || ok != c.ok {
			t.Errorf("raft Agreed(%v) = %d, %v; want %d, %v", c.bodies, l, ok, c.leader, c.ok)
		}
	}
}

// failing runs sh instead of a node, which complains and exits.
type failing struct{ Raft }

func (failing) Args(i int, _ []Ports, _ Setting) []string {
	return []string{"-c", "echo listen: address already in use >&2; exit 3"}
}

func TestStartFailureNamesNode(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	_, err = Measure(context.Background(), failing{}, sh, 3, Setting{50 * time.Millisecond, 500 * time.Millisecond}, DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "last output of node") || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("err = %v, want the node named with its stderr and exit", err)
	}
}

func TestFreePorts(t *testing.T) {
	ps, err := FreePorts(9)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ps {
		for _, v := range []int{p.Peer, p.HTTP} {
			if v == 0 || seen[v] {
				t.Fatalf("port %d zero or given twice in %v", v, ps)
			}
			seen[v] = true
		}
	}
}

// TestRaftFailover builds cmd/raftnode and measures one failover of a
// 3-node cluster.
func TestRaftFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds raftnode and runs a cluster")
	}
	bin := filepath.Join(t.TempDir(), "raftnode")
	if err := Build(".", "./cmd/raftnode", bin); err != nil {
		t.Fatal(err)
	}
	measureOnce(t, Raft{}, bin)
}

// TestElectFailover builds elect from the repository above and measures
// one failover of a 3-node cluster, if elect has the node command.
func TestElectFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds elect and runs a cluster")
	}
	_, repo, err := FindModules(".")
	if err != nil {
		t.Skip(err)
	}
	bin := filepath.Join(t.TempDir(), "elect")
	if err := Build(repo, "./cmd/elect", bin); err != nil {
		t.Fatal(err)
	}
	if err := CheckElectNode(bin); err != nil {
		t.Skip(err)
	}
	measureOnce(t, Elect{}, bin)
}

func measureOnce(t *testing.T, sys System, bin string) {
	s := Setting{50 * time.Millisecond, 500 * time.Millisecond}
	opt := DefaultOptions()
	opt.StartTimeout = 20 * time.Second
	opt.MaxFailover = 20 * time.Second
	res, err := Measure(context.Background(), sys, bin, 3, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.New == res.Old || res.Failover <= 0 || res.Detect <= 0 || res.Detect > res.Failover {
		t.Errorf("implausible result %+v", res)
	}
	if res.Failover < s.Timeout/2 {
		t.Errorf("failover in %v, well under the timeout %v: was the leader killed?", res.Failover, s.Timeout)
	}
	t.Logf("%s: leader %d killed, %d agreed after %v (detected at %v)", sys.Name(), res.Old, res.New, res.Failover, res.Detect)
}
