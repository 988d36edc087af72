package study

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/bench"
)

// A study small enough to run in a test: vkt and park electing on the
// document's layered networks of 2 and 3 levels (9 and 21 nodes).
const smallStudy = `
name: tiny
title: A tiny study
sweeps:
  - name: still
    experiments: [start]
    algorithms: [vkt, park]
    topologies: ["layered:{n}@2..3"]
    seeds: 3
    small: {seeds: 2, topologies: ["layered:{n}@2"]}
claims:
  - id: quick
    says: an election ends within ten seconds
    source: {document: test}
    measure: election-time
    where: {sweep: still}
    at-most: 10000
`

func parse(t *testing.T, text string) *Study {
	t.Helper()
	st, err := Parse([]byte(text), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestParseErrors(t *testing.T) {
	ok := smallStudy
	claim := func(body string) string {
		return strings.Replace(ok, `    measure: election-time
    where: {sweep: still}
    at-most: 10000
`, body, 1)
	}
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "the file is empty"},
		{"unknown field", ok + "colour: red\n", "field colour not found"},
		{"bad name", strings.Replace(ok, "name: tiny", "name: Tiny Study", 1), `name "Tiny Study"`},
		{"no sweeps", "name: x\nclaims: []\n", "at least one sweep"},
		{"unknown algorithm", strings.Replace(ok, "[vkt, park]", "[vkt, nope]", 1), "sweep still: algorithms"},
		{"unknown experiment", strings.Replace(ok, "[start]", "[startle]", 1), `unknown experiment "startle"`},
		{"bad small", strings.Replace(ok, "seeds: 2,", "seeds: -2,", 1), "sweep still: small: seeds: -2"},
		{"bad delay", strings.Replace(ok, "seeds: 3\n", "seeds: 3\n    delay: sometimes\n", 1), "sweep still: delay"},
		{"no claims", strings.Split(ok, "claims:")[0], "at least one claim"},
		{"unknown measure", strings.Replace(ok, "measure: election-time", "measure: speediness", 1), `claim quick: measure: unknown measure "speediness"`},
		{"unknown sweep", strings.Replace(ok, "where: {sweep: still}", "where: {sweep: moving}", 1), `claim quick: where: sweep "moving" is not one of the study's (still)`},
		{"foreign algorithm", strings.Replace(ok, "where: {sweep: still}", "where: {sweep: still, algorithm: echo}", 1), `algorithm "echo" is not run by sweep still`},
		{"two relations", claim("    measure: election-time\n    where: {sweep: still}\n    at-most: 1\n    at-least: 0\n"), "at-least and at-most together"},
		{"no relation", claim("    measure: election-time\n    where: {sweep: still}\n"), "no claim: give one of"},
		{"between of three", claim("    measure: election-time\n    where: {sweep: still}\n    between: [1, 2, 3]\n"), "between: want [LOW, HIGH], not 3 values"},
		{"between upside down", claim("    measure: election-time\n    where: {sweep: still}\n    between: [5, 2]\n"), "between: 5 is above 2"},
		{"bad expression", claim("    measure: election-time\n    where: {sweep: still}\n    at-most: \"n **\"\n"), `at-most: bound "n **" is neither a number nor an expression`},
		{"unknown variable", claim("    measure: election-time\n    where: {sweep: still}\n    at-most: \"links * 2\"\n"), "neither a number nor an expression of n, m and size"},
		{"along without trend", claim("    measure: election-time\n    where: {sweep: still}\n    at-most: 1\n    along: speed\n"), "only a trend"},
		{"no source", strings.Replace(ok, "source: {document: test}", "source: {}", 1), "source: document"},
		{"no says", strings.Replace(ok, "says: an election ends within ten seconds", "says: \"\"", 1), "says: what the source claims"},
		{"duplicate claim", ok + strings.SplitN(ok, "claims:\n", 2)[1], "a second claim of that id"},
		{"algorithm twice", strings.Replace(ok, "[vkt, park]", "[vkt, vkt]", 1), "algorithms: vkt is given twice"},
		{"size twice", strings.Replace(ok, `["layered:{n}@2..3"]`, `["layered:{n}@2,2"]`, 1), "gives size 2 twice"},
		{"template twice", strings.Replace(ok, `["layered:{n}@2..3"]`, `["layered:{n}@2", "layered:{n}@3"]`, 1), "layered:{n} is given twice"},
		{"a size of no run", strings.Replace(ok, "where: {sweep: still}", "where: {sweep: still, size: 7}", 1), "picks no run of the sweep's full form"},
		{"a size the small form lacks", strings.Replace(ok, "where: {sweep: still}", "where: {sweep: still, size: 3}", 1), "picks no run of the sweep's small form"},
		{"spec id", strings.Replace(ok, "id: quick", "id: spec-mine", 1), "spec- names the specification's claim"},
		{"each-run on a trend", claim("    measure: election-time\n    where: {sweep: still}\n    grows: true\n    each-run: true\n"), "only a bound"},
		{"along speed without speeds", claim("    measure: election-time\n    where: {sweep: still}\n    grows: true\n    along: speed\n"), "has not two speeds"},
		{"topology with sizes", strings.Replace(ok, "where: {sweep: still}", "where: {sweep: still, topology: \"layered:{n}@2..3\"}", 1), "give it without its sizes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), "test.yaml")
			if err == nil {
				t.Fatalf("no error; want one saying %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "test.yaml: ") {
				t.Fatalf("error %q; want the file named and %q", err, c.want)
			}
		})
	}
	if _, err := Parse([]byte(ok), "test.yaml"); err != nil {
		t.Fatalf("the good study: %v", err)
	}
}

func TestSmallFormOverridesFields(t *testing.T) {
	st := parse(t, smallStudy)
	sw := st.Sweeps[0]
	if len(sw.Full.Seeds) != 3 || len(sw.Small.Seeds) != 2 {
		t.Errorf("seeds: full %d, small %d; want 3 and 2", len(sw.Full.Seeds), len(sw.Small.Seeds))
	}
	if got := sw.Small.Topologies[0].Sizes; len(got) != 1 || got[0] != 2 {
		t.Errorf("small sizes %v, want [2]", got)
	}
	if len(sw.Small.Algorithms) != 2 {
		t.Errorf("small algorithms %v: the full form's, as the small form names none", sw.Small.Algorithms)
	}
}

// results makes runs of one point with these values of election time
// (ms), one election each.
func point(alg string, size int, times ...float64) bench.Point {
	var rs []*bench.Result
	for i, v := range times {
		rs = append(rs, &bench.Result{Run: bench.Run{Index: i, Experiment: "start", Algorithm: alg, Template: "layered:{n}", Size: size, Seed: uint64(i + 1)},
			Nodes: size, Elections: 1, ElectionMS: v})
	}
	return bench.Aggregate(rs)[0]
}

func TestVerdicts(t *testing.T) {
	st := parse(t, smallStudy)
	mk := func(relation string, bounds ...string) *Claim {
		c := *st.Claims[0]
		c.Relation = relation
		c.Bounds = nil
		for _, b := range bounds {
			bd, err := parseBound(b)
			if err != nil {
				t.Fatal(err)
			}
			c.Bounds = append(c.Bounds, bd)
		}
		return &c
	}
	// Times 10, 12, 14: mean 12, half-width 4.303 * 2/sqrt(3) = 4.97.
	p := point("vkt", 9, 10, 12, 14)
	cases := []struct {
		name  string
		claim *Claim
		want  Verdict
		by    float64 // for a failure
		seeds int     // for an undecided check
	}{
		{"at most, well above", mk("at-most", "20"), Holds, 0, 0},
		{"at most, well below", mk("at-most", "5"), Fails, 12 - 4.969 - 5, 0},
		{"at most, straddled", mk("at-most", "15"), Undecided, 0, 5},
		{"at least, straddled at the mean", mk("at-least", "12"), Undecided, 0, 0},
		{"between", mk("between", "5", "20"), Holds, 0, 0},
		{"between, too narrow", mk("between", "11", "13"), Undecided, 0, 0},
		{"between, all above", mk("between", "0", "2"), Fails, 12 - 4.969 - 2, 0},
		{"expression of n", mk("at-most", "n * 3"), Holds, 0, 0}, // 27
		{"expression of n, failing", mk("at-least", "n * 3"), Fails, 27 - 12 - 4.969, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := Evaluate(c.claim, map[string][]bench.Point{"still": {p}})
			if err != nil {
				t.Fatal(err)
			}
			if o.Verdict != c.want || len(o.Checks) != 1 {
				t.Fatalf("verdict %v over %d checks, want %v over one", o.Verdict, len(o.Checks), c.want)
			}
			ch := o.Checks[0]
			if math.Abs(ch.By-c.by) > 0.01 {
				t.Errorf("by %.3f, want %.3f", ch.By, c.by)
			}
			if c.want == Undecided && c.seeds > 0 && ch.Seeds != c.seeds {
				t.Errorf("seeds to decide %d, want %d", ch.Seeds, c.seeds)
			}
		})
	}
}

func TestSeedsToDecide(t *testing.T) {
	// The interval's half-width falls as t(m-1)/sqrt(m): with a standard
	// deviation of 2 and the mean 3 from the bound, 5 seeds give 2.776 *
	// 2/2.236 = 2.48 < 3, and 4 give 3.182 * 2/2 = 3.18.
	if got := seedsToDecide(3, 4, 3); got != 5 {
		t.Errorf("got %d seeds, want 5", got)
	}
	if got := seedsToDecide(0, 4, 3); got != 0 {
		t.Errorf("a mean on the bound: got %d, want 0 (no number decides)", got)
	}
	if got := seedsToDecide(1e-9, 4, 3); got != -1 {
		t.Errorf("a hair's breadth: got %d, want -1 (more than maxSeeds)", got)
	}
}

func TestOneRunIsNeverDecided(t *testing.T) {
	st := parse(t, smallStudy)
	o, err := Evaluate(st.Claims[0], map[string][]bench.Point{"still": {point("vkt", 9, 12)}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != Undecided || o.Checks[0].Seeds != 2 {
		t.Fatalf("one run far below the bound: %v (seeds %d), want undecided asking for 2", o.Verdict, o.Checks[0].Seeds)
	}
}

func TestComparisonAndTrend(t *testing.T) {
	text := smallStudy + `  - id: cheaper
    says: park is quicker
    source: {document: test}
    measure: election-time
    where: {sweep: still, algorithm: park}
    below: {sweep: still, algorithm: vkt}
  - id: slower-when-bigger
    says: elections take longer on more nodes
    source: {document: test}
    measure: election-time
    where: {sweep: still, algorithm: vkt}
    grows: true
`
	st := parse(t, text)
	cheaper, grows := st.Claims[1], st.Claims[2]
	cases := []struct {
		name   string
		claim  *Claim
		points []bench.Point
		want   Verdict
		checks int
	}{
		{"park clearly quicker", cheaper, []bench.Point{point("vkt", 9, 20, 21, 22), point("park", 9, 10, 11, 12)}, Holds, 1},
		{"park clearly slower", cheaper, []bench.Point{point("vkt", 9, 10, 11, 12), point("park", 9, 20, 21, 22)}, Fails, 1},
		{"too close to tell", cheaper, []bench.Point{point("vkt", 9, 10, 15, 20), point("park", 9, 11, 14, 19)}, Undecided, 1},
		// Not passed over: a point with nothing to compare is undecided.
		{"no pair at the size", cheaper, []bench.Point{point("vkt", 9, 10, 11, 12), point("park", 21, 20, 21, 22)}, Undecided, 1},
		{"grows at each step", grows, []bench.Point{point("vkt", 9, 10, 11, 12), point("vkt", 21, 20, 21, 22), point("vkt", 45, 30, 31, 32)}, Holds, 2},
		{"falls at one step", grows, []bench.Point{point("vkt", 9, 10, 11, 12), point("vkt", 21, 20, 21, 22), point("vkt", 45, 5, 6, 7)}, Fails, 2},
		{"equal is not growth", grows, []bench.Point{point("vkt", 9, 10, 10, 10), point("vkt", 21, 10, 10, 10)}, Fails, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := Evaluate(c.claim, map[string][]bench.Point{"still": c.points})
			if err != nil {
				t.Fatal(err)
			}
			if o.Verdict != c.want || len(o.Checks) != c.checks {
				t.Fatalf("verdict %v over %d checks, want %v over %d", o.Verdict, len(o.Checks), c.want, c.checks)
			}
		})
	}
}

// The study runs, resumes without running again, and gives the same runs
// from shards merged as from one go.
func TestRunResumeShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 24 simulations")
	}
	st := parse(t, smallStudy)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	res, err := st.Run(Options{Out: whole, Jobs: 2, Style: bench.DefaultStyle})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ran != 12 || res.Kept != 0 || len(res.Failed) != 0 || res.Missing != 0 {
		t.Fatalf("ran %d, kept %d, failed %d, missing %d; want 12 run", res.Ran, res.Kept, len(res.Failed), res.Missing)
	}
	if res.Verdict() != Holds || len(res.Outcomes) != 2 {
		t.Fatalf("verdict %v over %d outcomes, want holds over the specification and the claim", res.Verdict(), len(res.Outcomes))
	}
	md, err := os.ReadFile(res.Report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### quick: holds", "### spec-still: holds", "`--sweep still --runs 0-2`", "still/start-election-time.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(whole, "report.html")); err != nil || !strings.Contains(string(b), "<table>") {
		t.Errorf("report.html: %v, or no table in it", err)
	}
	first := hashes(t, filepath.Join(whole, "still", "results.csv"))

	// Again: nothing runs. With one row gone, that run alone.
	if res, err = st.Run(Options{Out: whole, Jobs: 2, Style: bench.DefaultStyle}); err != nil || res.Ran != 0 || res.Kept != 12 {
		t.Fatalf("resumed: ran %d, kept %d (%v); want 0 and 12", res.Ran, res.Kept, err)
	}
	path := filepath.Join(whole, "still", "results.csv")
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	os.WriteFile(path, []byte(strings.Join(append(lines[:5], lines[6:]...), "\n")+"\n"), 0o644)
	if res, err = st.Run(Options{Out: whole, Jobs: 2, Style: bench.DefaultStyle}); err != nil || res.Ran != 1 || res.Kept != 11 {
		t.Fatalf("resumed with a row gone: ran %d, kept %d (%v); want 1 and 11", res.Ran, res.Kept, err)
	}
	if got := hashes(t, path); !equal(got, first) {
		t.Fatalf("after resuming, the runs' trace hashes differ:\n%v\n%v", got, first)
	}

	// The small form in the same directory is refused.
	if _, err := st.Run(Options{Out: whole, Small: true, Jobs: 2}); err == nil || !strings.Contains(err.Error(), "holds the full form of study tiny") {
		t.Fatalf("the small form over the full one's results: %v", err)
	}

	// Two shards, merged, then reported.
	sharded := filepath.Join(dir, "sharded")
	for k := 1; k <= 2; k++ {
		res, err := st.Run(Options{Out: sharded, Jobs: 2, Shard: bench.Shard{K: k, N: 2}})
		if err != nil || res.Ran != 6 || res.Report != "" {
			t.Fatalf("shard %d: ran %d, report %q (%v); want 6 and none", k, res.Ran, res.Report, err)
		}
	}
	if _, err := st.Merge(sharded, false); err != nil {
		t.Fatal(err)
	}
	if res, err = st.Run(Options{Out: sharded, Jobs: 2, Style: bench.DefaultStyle}); err != nil || res.Ran != 0 || res.Verdict() != Holds {
		t.Fatalf("after the merge: ran %d, verdict %v (%v); want 0 run and holds", res.Ran, res.Verdict(), err)
	}
	if got := hashes(t, filepath.Join(sharded, "still", "results.csv")); !equal(got, first) {
		t.Fatalf("merged shards give other runs:\n%v\n%v", got, first)
	}
}

func TestMergeSaysWhichShardIsMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations")
	}
	st := parse(t, smallStudy)
	out := t.TempDir()
	if _, err := st.Run(Options{Out: out, Small: true, Jobs: 2, Shard: bench.Shard{K: 2, N: 3}}); err != nil {
		t.Fatal(err)
	}
	_, err := st.Merge(out, true)
	if err == nil || !strings.Contains(err.Error(), "shards [1/3 3/3] are missing") {
		t.Fatalf("merge of one shard of three: %v", err)
	}
}

func hashes(t *testing.T, path string) []string {
	t.Helper()
	rs, err := bench.ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.Label()+" "+r.TraceHash)
	}
	return out
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func TestFingerprintIgnoresZeroFields(t *testing.T) {
	st := parse(t, smallStudy)
	a := st.Sweeps[0].Full
	b := *a
	b.Skipped = nil // as a field bench might gain, at its zero value
	b.Density = 0
	if fingerprint(a) != fingerprint(&b) {
		t.Fatal("a zero field changed the fingerprint")
	}
	b.Duration = 5e9
	if fingerprint(a) == fingerprint(&b) {
		t.Fatal("a longer run kept the fingerprint")
	}
	c := *a
	c.Seeds = c.Seeds[:1]
	if fingerprint(a) == fingerprint(&c) {
		t.Fatal("fewer seeds kept the fingerprint")
	}
}

// One run that breaks the specification fails a bound on violations,
// however many keep it: the bound binds each run, not the mean.
func TestViolationsBindEveryRun(t *testing.T) {
	text := strings.Replace(smallStudy, "measure: election-time", "measure: violations", 1)
	text = strings.Replace(text, "at-most: 10000", "at-most: 0", 1)
	st := parse(t, text)
	var rs []*bench.Result
	for i, v := range []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 1} {
		rs = append(rs, &bench.Result{Run: bench.Run{Index: i, Experiment: "start", Algorithm: "vkt", Template: "layered:{n}", Size: 2, Seed: uint64(i + 1)}, Nodes: 9, Violations: v})
	}
	o, err := Evaluate(st.Claims[0], map[string][]bench.Point{"still": bench.Aggregate(rs)})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != Fails || !strings.Contains(o.Checks[0].Why, "runs 9 lie outside") {
		t.Fatalf("one run of ten with a violation: %v (%q), want fails naming run 9", o.Verdict, o.Checks[0].Why)
	}
	rs[9].Violations = 0
	if o, _ = Evaluate(st.Claims[0], map[string][]bench.Point{"still": bench.Aggregate(rs)}); o.Verdict != Holds {
		t.Fatalf("no violation: %v, want holds", o.Verdict)
	}
}

// Moving networks of many algorithms and sizes get a set of figures per
// algorithm (36 lines read as none), and a claim shows its algorithm's.
func TestFiguresByAlgorithm(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 9 moving networks")
	}
	st := parse(t, `
name: lines
sweeps:
  - name: moving
    experiments: [mobile]
    algorithms: [vkt, park, "vkt:medium=broadcast"]
    topologies: ["geometric:{n}:250:{side}x{side}@10,20,40"]
    density: 50
    speeds: [5]
    seeds: 1
    duration: 40s
claims:
  - id: park-leads
    says: park has a leader
    source: {document: test}
    measure: leader-time
    where: {sweep: moving, algorithm: park}
    at-least: 0
`)
	out := t.TempDir()
	res, err := st.Run(Options{Out: out, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"vkt", "park", "vkt_medium-broadcast"} {
		if _, err := os.Stat(filepath.Join(out, "moving", "by-algorithm", a, "mobile-leader-time.png")); err != nil {
			t.Errorf("no figure of %s alone: %v", a, err)
		}
	}
	md, _ := os.ReadFile(res.Report)
	if !strings.Contains(string(md), "(moving/by-algorithm/park/mobile-leader-time.png)") || strings.Contains(string(md), "![mobile-leader-time.png](moving/by-algorithm/vkt/") {
		t.Errorf("the claim on park does not show park's figure alone:\n%s", md)
	}
}

// A bound that is not a number where it is checked (NaN, infinite) is an
// error, never a pass: NaN compares false with everything.
func TestNonFiniteBoundIsAnError(t *testing.T) {
	text := strings.Replace(smallStudy, "measure: election-time", "measure: violations", 1)
	text = strings.Replace(text, "at-most: 10000", `at-most: "sqrt(size - 10)"`, 1)
	st := parse(t, text)
	_, err := Evaluate(st.Claims[0], map[string][]bench.Point{"still": {point("vkt", 9, 1, 1, 1)}})
	if err == nil || !strings.Contains(err.Error(), "not a number a measure can be held to") {
		t.Fatalf("a NaN bound: %v", err)
	}
}

// each-run makes a worst-case bound bind every run: 100, 100, 100, 100,
// 106 against at most 105 has a mean interval below 105, and a run past it.
func TestEachRun(t *testing.T) {
	text := strings.Replace(smallStudy, "at-most: 10000", "at-most: 105", 1)
	p := point("vkt", 9, 100, 100, 100, 100, 106)
	st := parse(t, text)
	if o, _ := Evaluate(st.Claims[0], map[string][]bench.Point{"still": {p}}); o.Verdict != Holds {
		t.Fatalf("on the mean: %v, want holds (the interval tops out under 105)", o.Verdict)
	}
	st = parse(t, strings.Replace(text, "at-most: 105", "at-most: 105\n    each-run: true", 1))
	o, _ := Evaluate(st.Claims[0], map[string][]bench.Point{"still": {p}})
	if o.Verdict != Fails || !strings.Contains(o.Checks[0].Why, "runs 4 lie outside") {
		t.Fatalf("each run: %v (%q), want fails naming run 4", o.Verdict, o.Checks[0].Why)
	}
}

// A mean of whole link counts stays whole, so that an exact count holds
// exactly: ten runs of 24 links.
func TestExactCountOverTenSeeds(t *testing.T) {
	text := strings.Replace(smallStudy, "measure: election-time", "measure: messages", 1)
	text = strings.Replace(text, "at-most: 10000", `between: ["2 * m + n - 1", "2 * m + n - 1"]`, 1)
	st := parse(t, text)
	var rs []*bench.Result
	for i := range 10 {
		rs = append(rs, &bench.Result{Run: bench.Run{Index: i, Experiment: "start", Algorithm: "vkt", Template: "layered:{n}", Size: 16, Seed: uint64(i + 1)}, Nodes: 16, Edges: 24, Messages: 63})
	}
	if o, _ := Evaluate(st.Claims[0], map[string][]bench.Point{"still": bench.Aggregate(rs)}); o.Verdict != Holds {
		t.Fatalf("63 messages, 2m + n - 1 = 63: %v (low %v, high %v)", o.Verdict, o.Checks[0].Low, o.Checks[0].High)
	}
}

func TestFigureOf(t *testing.T) {
	exps := []string{"mobile"}
	for _, c := range []struct {
		path, measure string
		want          bool
	}{
		{"s/mobile-leader-time.png", "leader-time", true},
		{"s/mobile-reachable-leader-time.png", "leader-time", false},
		{"s/start-leader-time-moving.png", "leader-time", false}, // another experiment
		{"s/heatmap-mobile-leader-time-vkt.png", "leader-time", true},
		{"s/heatmap-mobile-messages-per-node-second-vkt.png", "messages-per-node", false},
		{"s/heatmap-mobile-messages-per-node-second-vkt.png", "messages-per-node-second", true},
	} {
		if got := figureOf(c.path, c.measure, exps, nil); got != c.want {
			t.Errorf("figureOf(%s, %s) = %v, want %v", c.path, c.measure, got, c.want)
		}
	}
}

// The report's table of verdicts links to each claim's heading, in the
// HTML page too (goldmark's heading ids, no raw HTML).
func TestReportAnchors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations")
	}
	st := parse(t, smallStudy)
	out := t.TempDir()
	if _, err := st.Run(Options{Out: out, Small: true, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="#quick-holds"`, `id="quick-holds"`, `id="spec-still-holds"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	if strings.Contains(string(page), "raw HTML omitted") {
		t.Error("report.html lost raw HTML")
	}
}

// A sweep whose statement changed is refused in the same --out; with
// --fresh it runs again whole (its old rows would pass for the new
// sweep's), and only when it is among the sweeps run.
func TestChangedSweepRunsAgainWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations")
	}
	out := t.TempDir()
	two := strings.Replace(smallStudy, "claims:", `  - name: other
    experiments: [start]
    algorithms: [vkt]
    topologies: ["layered:{n}@2"]
    seeds: 2
claims:`, 1)
	if _, err := parse(t, two).Run(Options{Out: out, Small: true, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	changed := parse(t, strings.Replace(two, "seeds: 2,", "seeds: 2, duration: 9s,", 1))
	if _, err := changed.Run(Options{Out: out, Small: true, Jobs: 2}); err == nil || !strings.Contains(err.Error(), "has changed since") {
		t.Fatalf("a changed sweep, resumed: %v", err)
	}
	if _, err := changed.Run(Options{Out: out, Small: true, Jobs: 2, Fresh: true, Sweeps: []string{"other"}}); err == nil || !strings.Contains(err.Error(), "add --sweep still") {
		t.Fatalf("--fresh without the changed sweep: %v", err)
	}
	res, err := changed.Run(Options{Out: out, Small: true, Jobs: 2, Fresh: true, Sweeps: []string{"still"}, Runs: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ran != 1 || res.Missing != 3 {
		t.Fatalf("--fresh --runs 0 on the changed sweep: ran %d, missing %d; want 1 and 3 (its old rows dropped)", res.Ran, res.Missing)
	}
}
