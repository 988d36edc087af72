package mobility

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/topo"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Spec{
		"static":                    {Kind: KindStatic},
		" Static ":                  {Kind: KindStatic},
		"waypoint:1:20:2s":          {Kind: KindWaypoint, MinSpeed: 1, MaxSpeed: 20, Pause: 2 * s},
		"waypoint:0.5:0.5:0":        {Kind: KindWaypoint, MinSpeed: 0.5, MaxSpeed: 0.5},
		"WAYPOINT:1e0:2.50:1.5":     {Kind: KindWaypoint, MinSpeed: 1, MaxSpeed: 2.5, Pause: 1500 * time.Millisecond},
		"waypoint:1:1:1m30s":        {Kind: KindWaypoint, MinSpeed: 1, MaxSpeed: 1, Pause: 90 * s},
		"walk:0:3:500ms":            {Kind: KindWalk, MaxSpeed: 3, Interval: 500 * time.Millisecond},
		"walk:2:4:1":                {Kind: KindWalk, MinSpeed: 2, MaxSpeed: 4, Interval: s},
		"ns2:scen/a.ns":             {Kind: KindNS2, Path: "scen/a.ns"},
		"ns2:C:\\traces\\b.tcl":     {Kind: KindNS2, Path: "C:\\traces\\b.tcl"},
		"ns2: /tmp/with space.ns  ": {Kind: KindNS2, Path: "/tmp/with space.ns"},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
			continue
		}
		back, err := Parse(got.String())
		if err != nil || back != got {
			t.Errorf("Parse(%q).String() = %q, which reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for in, want := range map[string]string{
		"":                    "mobility spec is empty; accepted forms: static, waypoint",
		"waypoint:1:x:2s":     `waypoint:1:x:2s: max speed "x" is not a number`,
		"waypoint:y:2:2s":     `waypoint:y:2:2s: min speed "y" is not a number`,
		"waypoint:1:2":        "waypoint:1:2: 2 parameters, want 3; expected waypoint:MINSPEED:MAXSPEED:PAUSE",
		"waypoint:1:2:3:4":    "4 parameters, want 3",
		"waypoint":            "0 parameters, want 3",
		"waypoint:0:2:1s":     "min speed 0",
		"waypoint:3:2:1s":     "max speed 2 m/s is below min speed 3 m/s",
		"waypoint:-1:2:1s":    `min speed "-1" is negative`,
		"waypoint:1:Inf:1s":   `max speed "Inf" is not a number`,
		"waypoint:1:0x10:1s":  `max speed "0x10" is not a number`,
		"waypoint:1:1e300:1s": `max speed "1e300" is above`,
		"waypoint:1:2:-2s":    `pause "-2s" is out of range`,
		"waypoint:1:2:-2":     `pause "-2" is out of range`,
		"waypoint:1:2:soon":   `pause "soon" is not a duration (such as 2s, 500ms or a number of seconds)`,
		"waypoint:1:2:":       `pause "" is not a duration`,
		"waypoint:1:2:1e30":   `pause "1e30" is out of range`,
		"walk:1:2:0s":         `walk:1:2:0s: interval "0s" is zero`,
		"walk:0:0:1s":         "max speed 0: nobody walks",
		"walk:1:2":            "expected walk:MINSPEED:MAXSPEED:INTERVAL",
		"static:3":            "static:3: static takes no parameters",
		"ns2:":                "ns2:: missing PATH; expected ns2:PATH",
		"ns2:   ":             "missing PATH",
		"brownian:1":          `brownian:1: unknown mobility model "brownian"; accepted forms: static, waypoint`,
	} {
		got, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %+v, %v; want an error with %q", in, got, err, want)
		}
	}
}

func TestSpecPlan(t *testing.T) {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(5, 5)) }
	start := []topo.Point{{X: 1, Y: 2}, {X: 30, Y: 40}, {X: 99, Y: 0}}
	for _, spec := range []string{"static", "waypoint:1:5:1s", "walk:1:5:2s"} {
		sp, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sp.Plan(3, start, 100, 50, 60*s, rng(), "")
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if len(p.Tracks) != 3 || p.Width != 100 || p.Height != 50 {
			t.Fatalf("%s: %d tracks, area %gx%g", spec, len(p.Tracks), p.Width, p.Height)
		}
		for v, tr := range p.Tracks {
			if tr.Start != start[v] {
				t.Errorf("%s: node %d starts at %v, want %v", spec, v, tr.Start, start[v])
			}
			if moves := len(tr.Legs) > 0; moves != (spec != "static") {
				t.Errorf("%s: node %d has %d legs", spec, v, len(tr.Legs))
			}
		}
		q, _ := sp.Plan(3, start, 100, 50, 60*s, rng(), "")
		samePlan(t, p, q)
		if _, err := sp.Plan(4, start, 100, 50, 60*s, rng(), ""); err == nil || !strings.Contains(err.Error(), "3 starting positions for 4 nodes") {
			t.Errorf("%s: 4 nodes, 3 starts: %v", spec, err)
		}
		if r, err := sp.Plan(7, nil, 100, 50, 60*s, rng(), ""); err != nil || len(r.Tracks) != 7 {
			t.Errorf("%s: random starts: %v", spec, err)
		}
	}

	// ns2: the trace defines the nodes, relative to baseDir.
	dir := t.TempDir()
	w := Waypoint{MinSpeed: 1, MaxSpeed: 10, Pause: s, Width: 300, Height: 200}
	want, _ := w.Plan(5, nil, 100*s, rng())
	f, err := os.Create(filepath.Join(dir, "m.ns"))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteNS2(f, want); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct{ spec, base string }{{"ns2:m.ns", dir}, {"ns2:" + filepath.Join(dir, "m.ns"), "/elsewhere"}} {
		sp, _ := Parse(c.spec)
		got, err := sp.Plan(99, start, 1, 1, 5*s, rng(), c.base)
		if err != nil {
			t.Fatalf("%s in %s: %v", c.spec, c.base, err)
		}
		samePlan(t, want, got)
	}
	sp, _ := Parse("ns2:missing.ns")
	if _, err := sp.Plan(1, nil, 1, 1, s, rng(), dir); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing.ns")) {
		t.Errorf("a missing trace: %v", err)
	}
	if _, err := (Spec{Kind: "warp"}).Plan(1, nil, 1, 1, s, rng(), ""); err == nil {
		t.Error("an unknown kind makes a plan")
	}
}

// FuzzParse: Parse never panics; its errors name the spec; what it accepts
// reads back from String to the same Spec, and String is canonical; the
// models it accepts run.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"static", "waypoint:1:20:2s", "waypoint:0.5:1.5:0", "walk:0:3:500ms", "walk:1:1:1",
		"ns2:a.ns", "ns2:a:b:c", "", ":", "waypoint:1:x:2s", "waypoint:::", "walk:1:2:-1",
		"WALK:1e-3:1e3:1h", "waypoint:1:2:1.5e-9", "static:", "ns2:", "waypoint:1:2:9223372036s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sp, err := Parse(in)
		if err != nil {
			if sp != (Spec{}) {
				t.Fatalf("Parse(%q): error with a non-zero Spec %+v", in, sp)
			}
			if !strings.HasPrefix(err.Error(), in+": ") && !strings.HasPrefix(err.Error(), "mobility spec is empty") {
				t.Fatalf("Parse(%q): error %q does not name the spec", in, err)
			}
			return
		}
		canon := sp.String()
		back, err := Parse(canon)
		if err != nil || back != sp {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, %v", in, sp, canon, back, err)
		}
		if again := back.String(); again != canon {
			t.Fatalf("String not canonical: %q then %q", canon, again)
		}
		if sp.Kind != KindNS2 {
			p, err := sp.Plan(2, nil, 100, 100, 10*time.Microsecond, rand.New(rand.NewPCG(1, 1)), "")
			if err != nil || len(p.Tracks) != 2 {
				t.Fatalf("Parse(%q) = %+v, which makes no plan: %v", in, sp, err)
			}
		}
	})
}
