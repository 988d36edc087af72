package mobility

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/topo"
)

const s = time.Second

func near(a, b topo.Point) bool { return math.Abs(a.X-b.X) < 1e-6 && math.Abs(a.Y-b.Y) < 1e-6 }

func TestTrackAt(t *testing.T) {
	tr := Track{Start: topo.Point{X: 0, Y: 0}, Legs: []Leg{
		{Start: 1 * s, End: 3 * s, From: topo.Point{}, To: topo.Point{X: 20}},
		{Start: 5 * s, End: 6 * s, From: topo.Point{X: 20}, To: topo.Point{X: 20, Y: 10}},
	}}
	for _, c := range []struct {
		at   time.Duration
		want topo.Point
	}{
		{0, topo.Point{}}, {1 * s, topo.Point{}}, {2 * s, topo.Point{X: 10}}, {3 * s, topo.Point{X: 20}},
		{4 * s, topo.Point{X: 20}}, {5500 * time.Millisecond, topo.Point{X: 20, Y: 5}}, {9 * s, topo.Point{X: 20, Y: 10}},
	} {
		if got := tr.At(c.at); !near(got, c.want) {
			t.Errorf("At(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	if sp := tr.Legs[0].Speed(); sp != 10 {
		t.Errorf("speed %v, want 10 m/s", sp)
	}
}

// Random waypoint: inside the area, speeds within bounds, a pause between
// legs, the same plan from the same seed.
func TestWaypoint(t *testing.T) {
	w := Waypoint{MinSpeed: 1, MaxSpeed: 20, Pause: 2 * s, Width: 500, Height: 300}
	p, err := w.Plan(20, nil, 300*s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	legs := 0
	for v, tr := range p.Tracks {
		legs += len(tr.Legs)
		if len(tr.Legs) == 0 || tr.Legs[len(tr.Legs)-1].Start >= 300*s {
			t.Fatalf("node %d: legs %v do not cover the 300s", v, tr.Legs)
		}
		for i, l := range tr.Legs {
			if sp := l.Speed(); sp < 1-1e-6 || sp > 20+1e-6 {
				t.Errorf("node %d leg %d: speed %v", v, i, sp)
			}
			if l.To.X < 0 || l.To.X > 500 || l.To.Y < 0 || l.To.Y > 300 {
				t.Errorf("node %d leg %d leaves the area: %v", v, i, l.To)
			}
			if i > 0 && (l.Start-tr.Legs[i-1].End != 2*s || l.From != tr.Legs[i-1].To) {
				t.Errorf("node %d leg %d: no pause of 2s, or a jump", v, i)
			}
		}
	}
	if legs < 40 {
		t.Errorf("%d legs for 20 nodes in 300s: they hardly move", legs)
	}
	q, _ := w.Plan(20, nil, 300*s, rand.New(rand.NewPCG(1, 2)))
	for _, at := range []time.Duration{0, 17 * s, 299 * s} {
		a, b := p.Positions(at), q.Positions(at)
		for v := range a {
			if a[v] != b[v] {
				t.Fatalf("same seed, different plans at %v", at)
			}
		}
	}
	for _, bad := range []Waypoint{{MinSpeed: 0, MaxSpeed: 1, Width: 1, Height: 1}, {MinSpeed: 2, MaxSpeed: 1, Width: 1, Height: 1}, {MinSpeed: 1, MaxSpeed: 1, Pause: -1, Width: 1, Height: 1}, {MinSpeed: 1, MaxSpeed: 1}} {
		if _, err := bad.Plan(1, nil, s, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// A trace as setdest writes it, with a redirect: node 0 heads east at 10 m/s
// from 1s, and is sent north from where it is at 2s.
const trace = `# nodes: 2, pause: 2.00, max speed: 10.00
$node_(0) set X_ 0.0
$node_(0) set Y_ 0.0
$node_(0) set Z_ 0.000000000000
$node_(1) set X_ 50.0
$node_(1) set Y_ 40.0
$god_ set-dist 0 1 16777215
$ns_ at 1.0 "$node_(0) setdest 100.0 0.0 10.0"
$ns_ at 2.0 "$node_(0) setdest 10.0 30.0 5.0"
$ns_ at 3.5 "$node_(1) setdest 50.0 40.0 0.0"
`

func TestReadNS2(t *testing.T) {
	p, err := ReadNS2(strings.NewReader(trace), "m.ns")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tracks) != 2 || p.Width != 100 || p.Height != 40 {
		t.Fatalf("%d tracks, area %gx%g", len(p.Tracks), p.Width, p.Height)
	}
	for _, c := range []struct {
		v    int
		at   time.Duration
		want topo.Point
	}{
		{0, 0, topo.Point{}}, {0, 1500 * time.Millisecond, topo.Point{X: 5}}, {0, 2 * s, topo.Point{X: 10}},
		{0, 5 * s, topo.Point{X: 10, Y: 15}}, {0, 9 * s, topo.Point{X: 10, Y: 30}}, {1, 9 * s, topo.Point{X: 50, Y: 40}},
	} {
		if got := p.Tracks[c.v].At(c.at); !near(got, c.want) {
			t.Errorf("node %d at %v: %v, want %v", c.v, c.at, got, c.want)
		}
	}
	for doc, want := range map[string]string{
		"$node_(0) set X_ abc\n":                     `m.ns:1: "$node_(0) set X_ abc": "abc" is not a number`,
		"\n$ns_ at -1 \"$node_(0) setdest 1 1 1\"\n": "m.ns:2:",
		"$ns_ at 1 \"$node_(0) setdest 1 1 -2\"\n":   "SPEED >= 0",
		"$node_(99999999) set X_ 1\n":                "node index 99999999 is out of range",
		"set X_ 1\n":                                 "not an ns-2 movement line",
		"$ns_ at 1 \"$node_(0) setdest 1 NaN 1\"\n":  "want setdest X Y SPEED",
	} {
		if _, err := ReadNS2(strings.NewReader(doc), "m.ns"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", doc, err, want)
		}
	}
}

// A plan written as ns-2 and read back moves the same way.
func TestNS2RoundTrip(t *testing.T) {
	w := Waypoint{MinSpeed: 0.5, MaxSpeed: 15, Pause: 3 * s, Width: 1000, Height: 800}
	p, err := w.Plan(12, nil, 200*s, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	samePlan(t, p, roundTrip(t, p))
}

func roundTrip(t testing.TB, p *Plan) *Plan {
	var buf bytes.Buffer
	if err := WriteNS2(&buf, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadNS2(&buf, "written")
	if err != nil {
		t.Fatalf("reading back what was written: %v", err)
	}
	return q
}

func samePlan(t testing.TB, p, q *Plan) {
	t.Helper()
	if len(q.Tracks) != len(p.Tracks) {
		t.Fatalf("%d tracks back, want %d", len(q.Tracks), len(p.Tracks))
	}
	for at := time.Duration(0); at < 200*s; at += 1300 * time.Millisecond {
		a, b := p.Positions(at), q.Positions(at)
		for v := range a {
			if math.Abs(a[v].X-b[v].X) > 1e-3 || math.Abs(a[v].Y-b[v].Y) > 1e-3 {
				t.Fatalf("node %d at %v: %v, read back %v", v, at, a[v], b[v])
			}
		}
	}
}

// FuzzReadNS2: no input makes the reader panic, and whatever it accepts
// reads back the same after writing.
func FuzzReadNS2(f *testing.F) {
	f.Add(trace)
	f.Add("$node_(3) set Y_ 1e3\n$ns_ at 0 \"$node_(3) setdest 0 0 1\"\n")
	f.Add("$ns_ at 1 \"$node_(0) setdest 5 5 0\"\n$ns_ at 1 \"$node_(0) setdest 6 6 2\"\n")
	f.Add("garbage\n")
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := ReadNS2(strings.NewReader(doc), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(p.Tracks) > 1000 {
			return // large ids: reading back is slow, not wrong
		}
		for _, tr := range p.Tracks {
			for _, l := range tr.Legs {
				if l.End-l.Start > 1e6*s || l.Speed() > 1e6 || l.Speed() < 1e-6 {
					return // extremes lose precision in text, by design of the format
				}
			}
		}
		samePlan(t, p, roundTrip(t, p))
	})
}
