package algo

import (
	"strings"
	"testing"
	"time"
)

func TestPeerOrder(t *testing.T) {
	for _, c := range []struct {
		p, q Peer
		want bool
	}{
		{Peer{1, 5}, Peer{2, 4}, true},  // value first
		{Peer{2, 4}, Peer{1, 5}, false}, //
		{Peer{2, 5}, Peer{1, 5}, true},  // then id
		{Peer{1, 5}, Peer{1, 5}, false}, // not better than itself
		{Peer{0, -1 << 62}, NoPeer, true},
	} {
		if got := c.p.Better(c.q); got != c.want {
			t.Errorf("%v.Better(%v) = %v", c.p, c.q, got)
		}
	}
	if m := (Peer{1, 5}).Max(Peer{2, 5}); m != (Peer{2, 5}) {
		t.Errorf("Max = %v", m)
	}
}

// TestIndexOrder is equation (1) of 000_c3bedb07ea4749d7.txt.
func TestIndexOrder(t *testing.T) {
	for _, c := range []struct {
		i, j Index
		want bool
	}{
		{Index{1, 9}, Index{2, 0}, true},
		{Index{2, 0}, Index{1, 9}, false},
		{Index{2, 3}, Index{2, 4}, true},
		{Index{2, 4}, Index{2, 4}, false},
	} {
		if got := c.i.Less(c.j); got != c.want {
			t.Errorf("%v.Less(%v) = %v", c.i, c.j, got)
		}
	}
	if !(Index{}).IsZero() || (Index{0, 1}).IsZero() {
		t.Error("IsZero")
	}
}

func TestParseNodeSet(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []NodeID
		all  bool
		err  string
	}{
		{in: "all", all: true},
		{in: "none"},
		{in: ""},
		{in: "3", want: []NodeID{3}},
		{in: " 5, 1 ,3", want: []NodeID{1, 3, 5}},
		{in: "7-9,8,0-1", want: []NodeID{0, 1, 7, 8, 9}},
		{in: "2-2", want: []NodeID{2}},
		{in: "0-3,2-5", want: []NodeID{0, 1, 2, 3, 4, 5}},
		{in: "4-2", err: "runs backwards"},
		{in: "x", err: `invalid node id "x"`},
		{in: "1,,2", err: "invalid node id"},
		{in: "-1", err: "invalid node id"},
		{in: "0-99999999", err: "more than"},
	} {
		ids, all, err := ParseNodeSet(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || all != c.all || len(ids) != len(c.want) {
			t.Errorf("%q: %v %v %v", c.in, ids, all, err)
			continue
		}
		for i := range ids {
			if ids[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.in, ids, c.want)
			}
		}
	}
}

// TestParseNodeSetLarge: a set that repeats a large range costs what the set
// holds, not what is written.
func TestParseNodeSetLarge(t *testing.T) {
	spec := strings.Repeat("0-999999,", 200) + "5"
	ids, _, err := ParseNodeSet(spec)
	if err != nil || len(ids) != 1000000 {
		t.Fatalf("%d ids, %v", len(ids), err)
	}
}

func TestResolveParams(t *testing.T) {
	a := &Algorithm{Name: "t", Params: []Param{
		{Name: "timeout", Default: "1s", Check: CheckPositiveDuration},
		{Name: "who", Default: "all", Check: CheckNodeSet},
	}}
	p, err := a.Resolve(map[string]string{"timeout": "250ms"})
	if err != nil || p["timeout"] != "250ms" || p["who"] != "all" {
		t.Fatalf("%v %v", p, err)
	}
	if d, err := p.Duration("timeout"); err != nil || d.Milliseconds() != 250 {
		t.Errorf("Duration: %v %v", d, err)
	}
	for raw, want := range map[string]string{
		"tiemout=1s":  `t has no parameter "tiemout" (it has: timeout, who)`,
		"timeout=0s":  `t parameter timeout: duration "0s" must be positive`,
		"timeout=-1s": "negative duration",
		"who=a-b":     "invalid node id",
	} {
		k, v, _ := strings.Cut(raw, "=")
		_, err := a.Resolve(map[string]string{k: v})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

func TestStateNames(t *testing.T) {
	for _, s := range []State{Norm, Elect, Wait} {
		back, err := ParseState(s.String())
		if err != nil || back != s {
			t.Errorf("%v: %v %v", s, back, err)
		}
	}
	if _, err := ParseState("Leader"); err == nil {
		t.Error("ParseState accepted Leader")
	}
}

func TestSlab(t *testing.T) {
	var s Slab[[3]int]
	seen := map[*[3]int]bool{}
	for i := 0; i < 10000; i++ {
		v := s.New()
		if seen[v] || *v != [3]int{} {
			t.Fatalf("value %d reused or not zero", i)
		}
		v[0] = i
		seen[v] = true
	}
}

func TestDurations(t *testing.T) {
	var a, b time.Duration
	p := Params{"a": "2s", "b": "5ms", "c": "x"}
	if err := p.Durations(map[string]*time.Duration{"a": &a, "b": &b}); err != nil || a != 2*time.Second || b != 5*time.Millisecond {
		t.Errorf("%v %v %v", a, b, err)
	}
	var c time.Duration
	if err := p.Durations(map[string]*time.Duration{"c": &c, "a": &a}); err == nil || !strings.Contains(err.Error(), "parameter c") {
		t.Errorf("bad value: %v", err)
	}
}
