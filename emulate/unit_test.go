//go:build linux

// The whole file is Linux-only: its kernel tests use names (addr, vethName,
// nftTable, linkPattern...) that kernel.go and cleanup.go define on Linux
// only. None of these tests needs root: they run no command.

package emulate

import (
	"maps"
	"net/netip"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/internal/journal"
	"github.com/electgo/elect/metrics"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/scenario"
	"github.com/electgo/elect/topo"
	"github.com/electgo/elect/trace"
)

func edge(a, b algo.NodeID) topo.Edge { return topo.Edge{A: a, B: b} }

// TestLinkSetApply shows that apply returns a step's net effect against the
// links up before it, in the order of each link's first mention, with the
// moved flag of its last mention, and leaves the set as the step ends.
func TestLinkSetApply(t *testing.T) {
	e01, e12, e23 := edge(0, 1), edge(1, 2), edge(2, 3)
	down := func(k topo.Edge) linkChange { return linkChange{k: k} }
	up := func(k topo.Edge) linkChange { return linkChange{k: k, up: true} }
	moved := func(c linkChange) linkChange { c.moved = true; return c }
	tests := []struct {
		name    string
		before  linkSet
		changes []linkChange
		want    []linkChange
		after   linkSet
	}{
		{
			name:   "empty step changes nothing",
			before: linkSet{e01: true},
			after:  linkSet{e01: true},
		},
		{
			name:    "down then up of a link that is up is no change",
			before:  linkSet{e01: true},
			changes: []linkChange{down(e01), up(e01)},
			after:   linkSet{e01: true},
		},
		{
			name:    "up then down of a link that is down is no change",
			before:  linkSet{},
			changes: []linkChange{up(e01), down(e01)},
			after:   linkSet{},
		},
		{
			name:    "up twice is one change",
			before:  linkSet{},
			changes: []linkChange{up(e01), up(e01)},
			want:    []linkChange{up(e01)},
			after:   linkSet{e01: true},
		},
		{
			name:    "down then up of a link that is down is one up",
			before:  linkSet{},
			changes: []linkChange{down(e12), up(e12)},
			want:    []linkChange{up(e12)},
			after:   linkSet{e12: true},
		},
		{
			name:    "up of a link already up is no change",
			before:  linkSet{e01: true},
			changes: []linkChange{up(e01)},
			after:   linkSet{e01: true},
		},
		{
			name:    "down of a link already down is no change",
			before:  linkSet{e01: true},
			changes: []linkChange{down(e12)},
			after:   linkSet{e01: true},
		},
		{
			name:    "down removes the link from the set",
			before:  linkSet{e01: true, e12: true},
			changes: []linkChange{down(e01)},
			want:    []linkChange{down(e01)},
			after:   linkSet{e12: true},
		},
		{
			name:    "moved of the last mention is kept (false after true)",
			before:  linkSet{},
			changes: []linkChange{moved(up(e01)), up(e01)},
			want:    []linkChange{up(e01)},
			after:   linkSet{e01: true},
		},
		{
			name:    "moved of the last mention is kept (true after false)",
			before:  linkSet{},
			changes: []linkChange{up(e01), moved(up(e01))},
			want:    []linkChange{moved(up(e01))},
			after:   linkSet{e01: true},
		},
		{
			// e12 first, e23 second (its second mention does not move it
			// back), e01 last.
			name:    "order of first mention",
			before:  linkSet{e01: true, e12: true},
			changes: []linkChange{down(e12), up(e23), moved(down(e01)), moved(up(e23))},
			want:    []linkChange{down(e12), moved(up(e23)), moved(down(e01))},
			after:   linkSet{e23: true},
		},
		{
			// The no-change link in the middle keeps no place in the output.
			name:    "a cancelled link leaves the others in order",
			before:  linkSet{e01: true},
			changes: []linkChange{up(e23), down(e01), up(e12), up(e01)},
			want:    []linkChange{up(e23), up(e12)},
			after:   linkSet{e01: true, e12: true, e23: true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := maps.Clone(tc.before)
			got := s.apply(linkStep{at: time.Second, changes: tc.changes})
			if !slices.Equal(got, tc.want) {
				t.Errorf("apply = %+v, want %+v", got, tc.want)
			}
			if !maps.Equal(s, tc.after) {
				t.Errorf("set after = %v, want %v", s, tc.after)
			}
		})
	}
}

// TestPlannerObserve shows what the planner keeps of a simulated run: the
// values by node id, the links up at time 0 as initial, and every later
// link change grouped by instant.
func TestPlannerObserve(t *testing.T) {
	added := func(v algo.NodeID, val int64) trace.Event {
		return trace.Event{Kind: trace.NodeAdded, Node: v, Peer: algo.None, Value: val}
	}
	link := func(at time.Duration, kind trace.Kind, a, b algo.NodeID, moved bool) trace.Event {
		return trace.Event{At: at, Kind: kind, Node: a, Peer: b, Moved: moved}
	}
	up := func(at time.Duration, a, b algo.NodeID) trace.Event { return link(at, trace.LinkUp, a, b, false) }
	down := func(at time.Duration, a, b algo.NodeID) trace.Event { return link(at, trace.LinkDown, a, b, false) }
	s := time.Second
	tests := []struct {
		name   string
		events []trace.Event
		want   plan
	}{
		{
			name:   "values by id, out of order",
			events: []trace.Event{added(2, 20), added(0, 7), added(1, 9)},
			want:   plan{values: []int64{7, 9, 20}},
		},
		{
			name:   "a missing id is left 0",
			events: []trace.Event{added(3, 30), added(1, 10)},
			want:   plan{values: []int64{0, 10, 0, 30}},
		},
		{
			name: "time-0 ups are initial, later changes are steps by instant",
			events: []trace.Event{
				added(0, 0), added(1, 1), added(2, 2),
				up(0, 0, 1), up(0, 1, 2),
				down(2*s, 1, 2), link(2*s, trace.LinkUp, 0, 2, true),
				up(5*s, 1, 2), link(5*s, trace.LinkDown, 0, 1, true),
				up(7*s, 0, 1),
			},
			want: plan{
				values:  []int64{0, 1, 2},
				initial: []topo.Edge{edge(0, 1), edge(1, 2)},
				steps: []linkStep{
					{at: 2 * s, changes: []linkChange{{k: edge(1, 2)}, {k: edge(0, 2), up: true, moved: true}}},
					{at: 5 * s, changes: []linkChange{{k: edge(1, 2), up: true}, {k: edge(0, 1), moved: true}}},
					{at: 7 * s, changes: []linkChange{{k: edge(0, 1), up: true}}},
				},
			},
		},
		{
			// A LinkDown at 0 opens a step at 0; the LinkUp at 0 after it
			// goes into that step, not into initial.
			name:   "a time-0 up after a step goes into the steps",
			events: []trace.Event{up(0, 0, 1), down(0, 0, 1), up(0, 1, 2), up(s, 0, 1)},
			want: plan{
				initial: []topo.Edge{edge(0, 1)},
				steps: []linkStep{
					{at: 0, changes: []linkChange{{k: edge(0, 1)}, {k: edge(1, 2), up: true}}},
					{at: s, changes: []linkChange{{k: edge(0, 1), up: true}}},
				},
			},
		},
		{
			name: "other kinds are ignored",
			events: []trace.Event{
				added(0, 5),
				{At: s, Kind: trace.Crashed, Node: 0, Peer: algo.None},
				{At: s, Kind: trace.StatusChanged, Node: 0, Peer: algo.None},
				{At: s, Kind: trace.Sent, Node: 0, Peer: 1},
				{At: 2 * s, Kind: trace.ValueChanged, Node: 0, Peer: algo.None, Value: 99},
				{At: 3 * s, Kind: trace.End, Peer: algo.None},
			},
			want: plan{values: []int64{5}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p plan
			r := planner{&p}
			for _, e := range tc.events {
				r.Observe(&e)
			}
			if !reflect.DeepEqual(p, tc.want) {
				t.Errorf("plan =\n%+v\nwant\n%+v", p, tc.want)
			}
		})
	}
}

// TestMakePlan runs a partition and heal of line:4 in the simulator: the
// plan has the values, the three links of the line at 0, the partition's
// cut of 1-2 at 3s and its return at 6s, and the simulator's summary.
func TestMakePlan(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte(`
algorithm: vkt
topology: line:4
values: id
duration: 10s
events:
  - at: 3s
    partition:
      a: 0-1
      b: 2-3
  - at: 6s
    heal: true
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := makePlan(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 1, 2, 3}; !slices.Equal(p.values, want) {
		t.Errorf("values = %v, want %v", p.values, want)
	}
	// The order of the initial links does not matter: sort them.
	initial := slices.Clone(p.initial)
	slices.SortFunc(initial, func(x, y topo.Edge) int { return int(x.A) - int(y.A) })
	if want := []topo.Edge{edge(0, 1), edge(1, 2), edge(2, 3)}; !slices.Equal(initial, want) {
		t.Errorf("initial = %v, want %v", p.initial, want)
	}
	want := []linkStep{
		{at: 3 * time.Second, changes: []linkChange{{k: edge(1, 2)}}},
		{at: 6 * time.Second, changes: []linkChange{{k: edge(1, 2), up: true}}},
	}
	if !reflect.DeepEqual(p.steps, want) {
		t.Errorf("steps = %+v, want %+v", p.steps, want)
	}
	if p.sim == nil {
		t.Fatal("sim summary is nil")
	}
	if p.sim.Nodes != 4 {
		t.Errorf("sim.Nodes = %d, want 4", p.sim.Nodes)
	}
}

// recorder keeps a copy of every event it observes.
type recorder struct{ got []trace.Event }

func (r *recorder) Observe(e *trace.Event) { r.got = append(r.got, *e) }

func final(v algo.NodeID, alive bool, state string, leader algo.NodeID) metrics.NodeFinal {
	return metrics.NodeFinal{ID: v, Value: int64(v), Alive: alive, State: state, Leader: leader}
}

func summary(finals ...metrics.NodeFinal) *metrics.Summary {
	return &metrics.Summary{Final: finals}
}

// TestCompareSame shows that runs that ended alike (in any order, crashed
// nodes' leaders aside) compare the same, with an empty, non-nil list.
func TestCompareSame(t *testing.T) {
	e := summary(final(0, true, "Norm", 2), final(1, true, "Norm", 2), final(2, false, "Norm", 2))
	s := summary(final(2, false, "Elect", algo.None), final(1, true, "Norm", 2), final(0, true, "Norm", 2))
	c := Compare(e, s)
	if !c.SameFinalLeaders {
		t.Errorf("SameFinalLeaders = false, differences %+v", c.Differences)
	}
	if c.Differences == nil || len(c.Differences) != 0 {
		t.Errorf("Differences = %#v, want empty and non-nil", c.Differences)
	}
	if c.Emulated != e || c.Simulated != s {
		t.Error("Compare does not keep the two summaries")
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\nfinal leaders: the same on all 3 nodes\n") {
		t.Errorf("text ends:\n%s\nwant it to end with the same-leaders line", b.String())
	}
}

// TestCompareDifferences shows each kind of difference, listed by id
// whatever the order of the finals, and the lines that name them.
func TestCompareDifferences(t *testing.T) {
	e := summary(
		final(5, true, "Norm", algo.None), // no leader here, one in the simulation
		final(1, true, "Norm", 5),         // another leader
		final(0, true, "Norm", 4),         // the same
		final(3, true, "Elect", 4),        // same leader, another state
		final(2, true, "Norm", 4),         // alive here, crashed in the simulation
		final(6, false, "Norm", 4),        // crashed in both: no difference
		final(7, true, "Norm", 4),         // only here
	)
	s := summary(
		final(0, true, "Norm", 4),
		final(4, true, "Norm", 4), // only in the simulation
		final(6, false, "Elect", algo.None),
		final(1, true, "Norm", 7),
		final(2, false, "Norm", 4),
		final(3, true, "Norm", 4),
		final(5, true, "Norm", 4),
	)
	c := Compare(e, s)
	if c.SameFinalLeaders {
		t.Error("SameFinalLeaders = true")
	}
	ef, sf := map[algo.NodeID]metrics.NodeFinal{}, map[algo.NodeID]metrics.NodeFinal{}
	for _, f := range e.Final {
		ef[f.ID] = f
	}
	for _, f := range s.Final {
		sf[f.ID] = f
	}
	// A node missing from one run has the zero NodeFinal there.
	want := []Difference{
		{ID: 1, Emulated: ef[1], Simulated: sf[1]},
		{ID: 2, Emulated: ef[2], Simulated: sf[2]},
		{ID: 3, Emulated: ef[3], Simulated: sf[3]},
		{ID: 4, Simulated: sf[4]},
		{ID: 5, Emulated: ef[5], Simulated: sf[5]},
		{ID: 7, Emulated: ef[7]},
	}
	if !reflect.DeepEqual(c.Differences, want) {
		t.Errorf("Differences =\n%+v\nwant\n%+v", c.Differences, want)
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	_, tail, ok := strings.Cut(b.String(), "final leaders: ")
	if !ok {
		t.Fatalf("no final leaders line in:\n%s", b.String())
	}
	wantTail := `6 of 7 nodes differ
  node 1: emulated Norm following 5, simulated Norm following 7
  node 2: emulated Norm following 4, simulated crashed
  node 3: emulated Elect following 4, simulated Norm following 4
  node 4: emulated crashed, simulated Norm following 4
  node 5: emulated Norm without a leader, simulated Norm following 4
  node 7: emulated Norm following 4, simulated crashed
`
	if tail != wantTail {
		t.Errorf("final leaders: %s\nwant\nfinal leaders: %s", tail, wantTail)
	}
}

// TestCompareManyDifferences shows that the text lists ten differences and
// counts the rest.
func TestCompareManyDifferences(t *testing.T) {
	var e, s metrics.Summary
	for v := range algo.NodeID(12) {
		e.Final = append(e.Final, final(v, true, "Norm", 11))
		s.Final = append(s.Final, final(v, true, "Norm", 10))
	}
	c := Compare(&e, &s)
	if len(c.Differences) != 12 {
		t.Fatalf("%d differences, want 12", len(c.Differences))
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	_, tail, _ := strings.Cut(b.String(), "final leaders: ")
	lines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")
	if len(lines) != 12 {
		t.Fatalf("final leaders part has %d lines, want 12:\n%s", len(lines), tail)
	}
	if lines[0] != "12 of 12 nodes differ" {
		t.Errorf("first line %q", lines[0])
	}
	if lines[10] != "  node 9: emulated Norm following 11, simulated Norm following 10" {
		t.Errorf("tenth node line %q", lines[10])
	}
	if lines[11] != "  ... 2 more (see --json)" {
		t.Errorf("last line %q", lines[11])
	}
}

// TestCompareTable shows the rows of the side-by-side table: each row's
// name and the two runs' values, message types the union of both, sorted.
func TestCompareTable(t *testing.T) {
	e := &metrics.Summary{
		Messages:           metrics.Messages{Total: 30, ByType: map[string]uint64{"heartbeat": 20, "election": 10}},
		Elections:          metrics.Elections{Completed: 2, MeanTimeMS: 12.34, MaxTimeMS: 20},
		LeaderlessFraction: 0.0125, ElectionsStarted: 3, LeaderChanges: 4, ViolationCount: 0,
		Components: [][]algo.NodeID{{0, 1}},
		Final:      []metrics.NodeFinal{final(0, true, "Norm", 1), final(1, true, "Norm", 1)},
	}
	s := &metrics.Summary{
		Messages:           metrics.Messages{Total: 25, ByType: map[string]uint64{"ack": 1, "election": 24}},
		Elections:          metrics.Elections{Completed: 1, MeanTimeMS: 8, MaxTimeMS: 8},
		LeaderlessFraction: 0.5, ElectionsStarted: 1, LeaderChanges: 2, ViolationCount: 1,
		Components: [][]algo.NodeID{{0}, {1}},
		Final:      []metrics.NodeFinal{final(1, true, "Norm", 1), final(0, true, "Norm", 1)},
	}
	var b strings.Builder
	if err := Compare(e, s).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"emulated", "simulated"},
		{"messages", "sent", "30", "25"},
		{"ack", "0", "1"},
		{"election", "10", "24"},
		{"heartbeat", "20", "0"},
		{"elections", "completed", "2", "1"},
		{"mean", "election", "(ms)", "12.3", "8.0"},
		{"longest", "election", "(ms)", "20.0", "8.0"},
		{"without", "a", "leader", "1.25%", "50.00%"},
		{"elections", "started", "3", "1"},
		{"leader", "changes", "4", "2"},
		{"violations", "0", "1"},
		{"components", "at", "the", "end", "1", "2"},
		{"final", "leaders:", "the", "same", "on", "all", "2", "nodes"},
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, line := range lines {
		if got := strings.Fields(line); !slices.Equal(got, want[i]) {
			t.Errorf("line %d = %q, want fields %q", i, line, want[i])
		}
	}
}

// TestCompareTableIndent shows that the message type rows, which WriteText
// names "  "+type, stand two columns right of "messages sent". It fails
// today: the tabwriter right-aligns every column (tabwriter.AlignRight),
// the names' too, so the two spaces are lost and "ack" ends flush with
// "messages sent".
func TestCompareTableIndent(t *testing.T) {
	e := &metrics.Summary{Messages: metrics.Messages{Total: 1, ByType: map[string]uint64{"ack": 1}}}
	s := &metrics.Summary{Messages: metrics.Messages{Total: 1, ByType: map[string]uint64{"ack": 1}}}
	var b strings.Builder
	if err := Compare(e, s).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 3 {
		t.Fatalf("text too short:\n%s", b.String())
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	total, ack := lines[1], lines[2]
	if !strings.HasPrefix(strings.TrimLeft(total, " "), "messages sent") || !strings.HasPrefix(strings.TrimLeft(ack, " "), "ack") {
		t.Fatalf("rows 1 and 2 are not the total and the ack row:\n%s", b.String())
	}
	if indent(ack) != indent(total)+2 {
		t.Errorf("the ack row starts at column %d, the total at %d: want the type two columns in\n%s", indent(ack), indent(total), b.String())
	}
}

// TestAddr shows the nodes' addresses and the broadcast address in
// 10.213.0.0/16.
func TestAddr(t *testing.T) {
	tests := []struct {
		v    int
		want string
	}{
		{0, "10.213.0.1"},
		{1, "10.213.0.2"},
		{254, "10.213.0.255"},
		{255, "10.213.1.0"},
		{maxNodes - 1, "10.213.255.254"},
	}
	for _, tc := range tests {
		if got := addr(tc.v); got != netip.MustParseAddr(tc.want) {
			t.Errorf("addr(%d) = %v, want %s", tc.v, got, tc.want)
		}
		if !subnet.Contains(addr(tc.v)) {
			t.Errorf("addr(%d) = %v is outside %v", tc.v, addr(tc.v), subnet)
		}
	}
	if got := broadcast(); got != netip.MustParseAddr("10.213.255.255") {
		t.Errorf("broadcast() = %v, want 10.213.255.255", got)
	}
	if maxNodes != 65534 {
		t.Errorf("maxNodes = %d, want 65534", maxNodes)
	}
}

// TestNames shows that every kernel object's name matches the pattern
// cleanup looks for, captures its tag, and that interface names fit the
// kernel's 15 bytes.
func TestNames(t *testing.T) {
	const tag = "abcd"
	if got := vethName(tag, 65533); got != "elabcd-65533" {
		t.Errorf("vethName = %q", got)
	}
	if got := bridgeName(tag); got != "elabcdbr" {
		t.Errorf("bridgeName = %q", got)
	}
	if got := nsName(tag, 7); got != "elect-abcd-7" {
		t.Errorf("nsName = %q", got)
	}
	if got := tableName(tag); got != "elect_abcd" {
		t.Errorf("tableName = %q", got)
	}
	tests := []struct {
		kind, name string
		re         *regexp.Regexp
		iface      bool
	}{
		{"veth 0", vethName(tag, 0), linkPattern, true},
		{"veth max", vethName(tag, 65533), linkPattern, true},
		{"veth 8 digits", vethName(tag, 99999999), linkPattern, true},
		{"bridge", bridgeName(tag), linkPattern, true},
		{"spy", spyName(tag), linkPattern, true},
		{"tap", tapName(tag), linkPattern, true},
		{"namespace", nsName(tag, 65533), nsPattern, false},
		{"table", tableName(tag), tablePattern, false},
	}
	for _, tc := range tests {
		if tc.iface && len(tc.name) > 15 {
			t.Errorf("%s name %q has %d bytes, over 15", tc.kind, tc.name, len(tc.name))
		}
		m := tc.re.FindStringSubmatch(tc.name)
		if m == nil {
			t.Errorf("%s name %q does not match its pattern", tc.kind, tc.name)
			continue
		}
		if m[1] != tag {
			t.Errorf("%s name %q: captured tag %q, want %q", tc.kind, tc.name, m[1], tag)
		}
	}
	// Names of other things, or of other runs' shapes, do not match.
	for _, name := range []string{"eth0", "elabcd", "elabcd-", "elABCD-1", "elabc-1", "elabcd-1x", "elect-abcd-1", "elabcdspy0"} {
		if linkPattern.MatchString(name) {
			t.Errorf("linkPattern matches %q", name)
		}
	}
	for _, name := range []string{"elect-abcd", "elect-abcd-", "elect-abcde-1", "elabcd-1"} {
		if nsPattern.MatchString(name) {
			t.Errorf("nsPattern matches %q", name)
		}
	}
	for _, name := range []string{"elect_abc", "elect_abcde", "elect-abcd", "filter"} {
		if tablePattern.MatchString(name) {
			t.Errorf("tablePattern matches %q", name)
		}
	}
}

// TestNftTable shows the whole table script, without loss and with it:
// frames from other bridges' ports pass untouched, the run's own are
// dropped unless their pair is linked.
func TestNftTable(t *testing.T) {
	links := []topo.Edge{edge(0, 1), edge(1, 2)}
	head := `add table bridge elect_abcd
add set bridge elect_abcd links { type ifname . ifname; }
add chain bridge elect_abcd forward { type filter hook forward priority 0; policy drop; }
add rule bridge elect_abcd forward iifname != "elabcd-*" accept
`
	tail := `add rule bridge elect_abcd forward iifname . oifname @links counter accept
add rule bridge elect_abcd forward counter drop
add element bridge elect_abcd links { "elabcd-0" . "elabcd-1", "elabcd-1" . "elabcd-0", "elabcd-1" . "elabcd-2", "elabcd-2" . "elabcd-1" }
`
	if got, want := nftTable("abcd", links, 0, false), head+tail; got != want {
		t.Errorf("nftTable without loss =\n%s\nwant\n%s", got, want)
	}
	if got := nftTable("abcd", links, 0, false); strings.Contains(got, "numgen") {
		t.Errorf("nftTable without loss has a numgen rule:\n%s", got)
	}
	lossy := "add rule bridge elect_abcd forward numgen random mod 1000000 < 100000 counter drop\n"
	if got, want := nftTable("abcd", links, 0.1, false), head+lossy+tail; got != want {
		t.Errorf("nftTable with loss 0.1 =\n%s\nwant\n%s", got, want)
	}
	// No links: the table and its rules, no element line.
	if got, want := nftTable("abcd", nil, 0, false), head+strings.SplitAfter(tail, "\n")[0]+strings.SplitAfter(tail, "\n")[1]; got != want {
		t.Errorf("nftTable without links =\n%s\nwant\n%s", got, want)
	}
	// With the spy: every frame also goes to its port, before any loss.
	spied := "add rule bridge elect_abcd forward oifname \"elabcdspy\" accept\n"
	if got, want := nftTable("abcd", links, 0.1, true), head+spied+lossy+tail; got != want {
		t.Errorf("nftTable with the spy =\n%s\nwant\n%s", got, want)
	}
}

// TestLossPPM shows loss in parts per million, rounded, at least 1.
func TestLossPPM(t *testing.T) {
	tests := []struct {
		loss float64
		want int
	}{
		{1e-9, 1},
		{4e-7, 1},
		{1e-6, 1},
		{1.6e-6, 2},
		{0.01, 10000},
		{0.1, 100000},
		{0.5, 500000},
		{0.999999, 999999},
	}
	for _, tc := range tests {
		if got := lossPPM(tc.loss); got != tc.want {
			t.Errorf("lossPPM(%g) = %d, want %d", tc.loss, got, tc.want)
		}
	}
}

// TestLossPPMZero shows that no loss is 0 parts per million, as lossPPM's
// comment ("at least 1 when loss is not 0") says. It fails today: max(1,
// ...) makes it 1. No caller passes 0 (nftTable writes the rule only for
// loss > 0), so nothing is dropped by it yet.
func TestLossPPMZero(t *testing.T) {
	if got := lossPPM(0); got != 0 {
		t.Errorf("lossPPM(0) = %d, want 0", got)
	}
}

// TestLinkUpdate shows one transaction: the deletes first, then the adds,
// both directions of each link; nothing to change is an empty script.
func TestLinkUpdate(t *testing.T) {
	linkUpdate := func(tag string, up, down []topo.Edge) string { return dirUpdate(tag, bothWays(up), bothWays(down)) }
	got := linkUpdate("abcd", []topo.Edge{edge(3, 4)}, []topo.Edge{edge(0, 1), edge(1, 2)})
	want := `delete element bridge elect_abcd links { "elabcd-0" . "elabcd-1", "elabcd-1" . "elabcd-0", "elabcd-1" . "elabcd-2", "elabcd-2" . "elabcd-1" }
add element bridge elect_abcd links { "elabcd-3" . "elabcd-4", "elabcd-4" . "elabcd-3" }
`
	if got != want {
		t.Errorf("linkUpdate =\n%s\nwant\n%s", got, want)
	}
	if got, want := linkUpdate("abcd", []topo.Edge{edge(3, 4)}, nil), "add element bridge elect_abcd links { \"elabcd-3\" . \"elabcd-4\", \"elabcd-4\" . \"elabcd-3\" }\n"; got != want {
		t.Errorf("linkUpdate up only = %q, want %q", got, want)
	}
	if got := linkUpdate("abcd", nil, nil); got != "" {
		t.Errorf("linkUpdate of nothing = %q, want \"\"", got)
	}
}

// TestWriteElements shows 1,200 links split into lines of 500, 500 and
// 200, each link in both directions, none lost or repeated.
func TestWriteElements(t *testing.T) {
	var links []topo.Edge
	for v := range algo.NodeID(1200) {
		links = append(links, edge(v, v+1))
	}
	var b strings.Builder
	writeElements(&b, "add", "abcd", bothWays(links))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3", len(lines))
	}
	const prefix, suffix = "add element bridge elect_abcd links { ", " }"
	var all []string
	for i, line := range lines {
		body, ok := strings.CutPrefix(line, prefix)
		if !ok || !strings.HasSuffix(body, suffix) {
			t.Fatalf("line %d is not an add element line: %.80q", i, line)
		}
		elems := strings.Split(strings.TrimSuffix(body, suffix), ", ")
		if want := []int{1000, 1000, 400}[i]; len(elems) != want {
			t.Errorf("line %d has %d elements, want %d", i, len(elems), want)
		}
		all = append(all, elems...)
	}
	for i, k := range links {
		a, c := `"`+vethName("abcd", int(k.A))+`"`, `"`+vethName("abcd", int(k.B))+`"`
		if all[2*i] != a+" . "+c || all[2*i+1] != c+" . "+a {
			t.Fatalf("link %v is written %q, %q", k, all[2*i], all[2*i+1])
		}
	}
}

// Nodes of an algorithm for a static network are told their neighbours, so
// that they boot with all of them; those of an algorithm for moving
// networks discover theirs.
func TestStaticPeers(t *testing.T) {
	path := []topo.Edge{{A: 0, B: 1}, {A: 1, B: 2}}
	echo, err := algo.Lookup("echo")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1=10.213.0.2:7946", "0=10.213.0.1:7946,2=10.213.0.3:7946", "1=10.213.0.2:7946", ""}
	if got := staticPeers(echo, path, 4, 7946); !slices.Equal(got, want) {
		t.Errorf("echo: %q, want %q", got, want)
	}
	vkt, err := algo.Lookup("vkt")
	if err != nil {
		t.Fatal(err)
	}
	if got := staticPeers(vkt, path, 3, 7946); !slices.Equal(got, []string{"", "", ""}) {
		t.Errorf("vkt: %q, want no peer lists", got)
	}
}

// TestNodeLinesInitiators: a scenario's initiators reach the emulated nodes
// as they reach the simulator's machines. Those of vkt and park are told
// them in their boot parameter (--param initiators=SET, as runner.Params
// writes it) and none is started with --initiator, which would ask it for
// a second election; echo's initiators are started with --initiator. The
// emulator resolved the scenario's parameters alone before: every vkt node
// elected at boot whatever the scenario's initiators said.
func TestNodeLinesInitiators(t *testing.T) {
	path := []topo.Edge{{A: 0, B: 1}, {A: 1, B: 2}}
	for _, c := range []struct {
		algorithm, initiators, param string
		boot                         string // the --param initiators= of every node
		flagged                      []int  // the nodes started with --initiator
	}{
		{"vkt", "0", "", "0", nil},
		{"park", "none", "", "none", nil},
		{"vkt", "", "", "all", nil},
		{"vkt", "", "2", "2", nil}, // the deprecated alias
		{"echo", "1,2", "", "", []int{1, 2}},
	} {
		s := scenario.Default()
		s.Algorithm, s.Initiators = c.algorithm, c.initiators
		if c.param != "" {
			s.Params = map[string]string{"initiators": c.param}
		}
		a, err := algo.Lookup(c.algorithm)
		if err != nil {
			t.Fatal(err)
		}
		common, own, params, err := nodeLines(s, a, path, 3, Config{Hello: time.Second, HelloLoss: 4, Port: 7946})
		if err != nil {
			t.Fatalf("%s, initiators %q: %v", c.algorithm, c.initiators, err)
		}
		want, err := runner.Params(s, a)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(params, want) {
			t.Errorf("%s, initiators %q: params %v, want the simulator's %v", c.algorithm, c.initiators, params, want)
		}
		var boot string
		for i, arg := range common {
			if arg == "--param" && strings.HasPrefix(common[i+1], "initiators=") {
				boot = strings.TrimPrefix(common[i+1], "initiators=")
			}
		}
		if boot != c.boot {
			t.Errorf("%s, initiators %q: the nodes are started with initiators=%q, want %q: %q", c.algorithm, c.initiators, boot, c.boot, common)
		}
		var flagged []int
		for v, args := range own {
			if slices.Contains(args, "--initiator") {
				flagged = append(flagged, v)
			}
		}
		if !slices.Equal(flagged, c.flagged) {
			t.Errorf("%s, initiators %q: nodes %v are started with --initiator, want %v", c.algorithm, c.initiators, flagged, c.flagged)
		}
	}
}

// TestJournalStory shows that the emulator's run tells the simulator's
// story: the simulator's events of a scenario, journaled as the emulator
// journals its own (each node's crash, restart or elect call stamped when
// it was acted on, a few milliseconds late, ahead of events that come
// before it), give the same faults in the same words.
func TestJournalStory(t *testing.T) {
	s, err := scenario.Parse("story.yaml", []byte(`
algorithm: vkt
topology: grid:4x4
values: id
duration: 24s
events:
  - {at: 6s, crash: leader}
  - {at: 9s, crash: [2, 5]}
  - {at: 10s, restart: [2, 5]}
  - {at: 12s, partition: {top: 0-7, bottom: 8-15}}
  - {at: 18s, heal: true}
  - {at: 20s, elect: [0, 1]}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec recorder
	sim, err := runner.Run(s, runner.Options{Observers: []trace.Observer{&rec}})
	if err != nil {
		t.Fatal(err)
	}
	story := metrics.NewStory()
	j := journal.New(time.Time{}, 100*time.Millisecond, []trace.Observer{story})
	for _, e := range rec.got {
		switch e.Kind {
		case trace.Crashed, trace.Restarted, trace.ElectCalled:
			e.At += time.Duration(e.Node+1) * time.Millisecond
		case trace.End:
			continue
		}
		j.Add(e)
	}
	j.End(s.Duration)
	var got metrics.Summary
	story.Fill(&got)
	var words, want []string
	for _, m := range got.Faults {
		words = append(words, regexp.MustCompile(` \(over .*\)$`).ReplaceAllString(m.What, ""))
	}
	for _, m := range sim.Faults {
		want = append(want, m.What)
	}
	if len(want) != 6 || !slices.Equal(words, want) {
		t.Errorf("journaled, the faults read\n%q\nthe simulator's\n%q", words, want)
	}
}

// validate refuses what real nodes cannot run, saying where and why.
func TestValidateRefuses(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"algorithm: vkt\nduration: 10s\nvalues_over_time: battery\n",
			`t.yaml:3:19: values_over_time: values over time (battery) are the simulator's: real nodes change their values by value events`},
		{"algorithm: vkt\nduration: 0\n", "an emulation runs in real time until its duration"},
		{"algorithm: vkt\nduration: 10s\nevents:\n- {at: 1s, loss: {from: 0, to: 1, rate: 0.5}}\n", "t.yaml:4: loss of one direction of a link is the simulator's"},
		{"algorithm: chang-roberts\nduration: 10s\n", "assumes a fixed ring network"},
	} {
		s, err := scenario.Parse("t.yaml", []byte(c.file), scenario.Default())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := validate(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
}
