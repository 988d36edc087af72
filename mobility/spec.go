package mobility

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/topo"
)

// Kind is a mobility model.
type Kind string

// The mobility models. The spec forms are those of Parse.
const (
	// KindStatic is static: nodes that never move.
	KindStatic Kind = "static"
	// KindWaypoint is waypoint:MINSPEED:MAXSPEED:PAUSE, the random waypoint
	// model (Waypoint).
	KindWaypoint Kind = "waypoint"
	// KindWalk is walk:MINSPEED:MAXSPEED:INTERVAL, the random walk model
	// (Walk).
	KindWalk Kind = "walk"
	// KindNS2 is ns2:PATH, an ns-2 movement trace (ReadNS2).
	KindNS2 Kind = "ns2"
)

const specForms = "static, waypoint:MINSPEED:MAXSPEED:PAUSE, walk:MINSPEED:MAXSPEED:INTERVAL, ns2:PATH"

// Spec is a parsed mobility spec: a model and its parameters.
type Spec struct {
	Kind               Kind
	MinSpeed, MaxSpeed float64       // waypoint, walk: metres per second
	Pause              time.Duration // waypoint
	Interval           time.Duration // walk
	Path               string        // ns2
}

// Parse reads a mobility spec:
//
//	static
//	waypoint:MINSPEED:MAXSPEED:PAUSE   (speeds in m/s, 0 < MIN <= MAX; PAUSE >= 0)
//	walk:MINSPEED:MAXSPEED:INTERVAL    (0 <= MIN <= MAX, MAX > 0; INTERVAL > 0)
//	ns2:PATH                           (an ns-2 movement trace, as setdest writes)
//
// Speeds are decimal numbers (20, 0.5, 1e3). PAUSE and INTERVAL are Go
// durations (2s, 1m30s, 500ms) or bare numbers of seconds (2, 0.5). The kind
// is case-insensitive; PATH is everything after "ns2:". Errors name the spec
// and the part at fault, for example
// `waypoint:1:x:2s: max speed "x" is not a number`.
func Parse(s string) (Spec, error) {
	sp, err := parse(s)
	if err != nil {
		if strings.TrimSpace(s) == "" {
			return Spec{}, fmt.Errorf("mobility spec is empty; accepted forms: %s", specForms)
		}
		return Spec{}, fmt.Errorf("%s: %w", s, err)
	}
	return sp, nil
}

func parse(s string) (Spec, error) {
	text := strings.TrimSpace(s)
	head, rest, hasRest := strings.Cut(text, ":")
	sp := Spec{Kind: Kind(strings.ToLower(strings.TrimSpace(head)))}
	form := map[Kind]string{
		KindStatic:   "static",
		KindWaypoint: "waypoint:MINSPEED:MAXSPEED:PAUSE",
		KindWalk:     "walk:MINSPEED:MAXSPEED:INTERVAL",
		KindNS2:      "ns2:PATH",
	}[sp.Kind]
	if form == "" {
		return Spec{}, fmt.Errorf("unknown mobility model %q; accepted forms: %s", head, specForms)
	}
	var parts []string
	if hasRest {
		parts = strings.Split(rest, ":")
	}
	var err error
	switch sp.Kind {
	case KindStatic:
		if hasRest {
			return Spec{}, fmt.Errorf("static takes no parameters; expected %s", form)
		}
	case KindNS2:
		sp.Path = strings.TrimSpace(rest)
		if sp.Path == "" {
			return Spec{}, fmt.Errorf("missing PATH; expected %s", form)
		}
	case KindWaypoint, KindWalk:
		if len(parts) != 3 {
			return Spec{}, fmt.Errorf("%d parameters, want 3; expected %s", len(parts), form)
		}
		if sp.MinSpeed, err = parseSpeed("min speed", parts[0]); err != nil {
			return Spec{}, err
		}
		if sp.MaxSpeed, err = parseSpeed("max speed", parts[1]); err != nil {
			return Spec{}, err
		}
		if sp.MaxSpeed < sp.MinSpeed {
			return Spec{}, fmt.Errorf("max speed %g m/s is below min speed %g m/s", sp.MaxSpeed, sp.MinSpeed)
		}
		if sp.Kind == KindWaypoint {
			if sp.MinSpeed == 0 {
				return Spec{}, errors.New("min speed 0: a waypoint node at speed 0 never arrives; want MINSPEED > 0")
			}
			sp.Pause, err = parseDuration("pause", parts[2])
			return sp, err
		}
		if sp.MaxSpeed == 0 {
			return Spec{}, errors.New("max speed 0: nobody walks; want MAXSPEED > 0 (or static)")
		}
		if sp.Interval, err = parseDuration("interval", parts[2]); err != nil {
			return Spec{}, err
		}
		if sp.Interval == 0 {
			return Spec{}, fmt.Errorf("interval %q is zero; want a positive duration", parts[2])
		}
	}
	return sp, nil
}

// maxSpeed bounds speeds, far above anything that moves on a radio network
// and low enough that positions stay finite.
const maxSpeed = 1e9

func parseSpeed(what, part string) (float64, error) {
	v, ok := topo.ParseNumber(part)
	switch {
	case !ok:
		return 0, fmt.Errorf("%s %q is not a number", what, part)
	case v < 0:
		return 0, fmt.Errorf("%s %q is negative", what, part)
	case v > maxSpeed:
		return 0, fmt.Errorf("%s %q is above %g m/s", what, part, float64(maxSpeed))
	}
	return v, nil
}

// maxDuration bounds pauses and intervals (about 31 years).
const maxDuration = 1e9 * time.Second

// parseDuration reads a Go duration (2s, 1m30s) or a bare number of
// seconds, at least 0.
func parseDuration(what, part string) (time.Duration, error) {
	t := strings.TrimSpace(part)
	var d time.Duration
	if v, ok := topo.ParseNumber(t); ok {
		if v < 0 || v*float64(time.Second) > float64(maxDuration) {
			return 0, fmt.Errorf("%s %q is out of range: want 0 to %v", what, part, maxDuration)
		}
		d = time.Duration(math.Round(v * float64(time.Second)))
	} else {
		var err error
		if d, err = time.ParseDuration(t); err != nil || t == "" {
			return 0, fmt.Errorf("%s %q is not a duration (such as 2s, 500ms or a number of seconds)", what, part)
		}
		if d < 0 || d > maxDuration {
			return 0, fmt.Errorf("%s %q is out of range: want 0 to %v", what, part, maxDuration)
		}
	}
	return d, nil
}

// String writes the spec in canonical form, which Parse reads back to the
// same Spec: numbers without redundant digits, durations as Go writes them.
func (s Spec) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch s.Kind {
	case KindWaypoint:
		return "waypoint:" + f(s.MinSpeed) + ":" + f(s.MaxSpeed) + ":" + s.Pause.String()
	case KindWalk:
		return "walk:" + f(s.MinSpeed) + ":" + f(s.MaxSpeed) + ":" + s.Interval.String()
	case KindNS2:
		return "ns2:" + s.Path
	}
	return string(s.Kind)
}

// Plan builds the movement of a run: n nodes starting at start (a network's
// own positions; random in the area when nil) in a width by height area,
// until the given time, drawn from rng. For ns2 the trace is read from Path,
// relative to baseDir unless absolute, and defines the nodes, their starts
// and the area: n, start, width and height are then ignored. static places
// n still nodes at start.
func (s Spec) Plan(n int, start []topo.Point, width, height float64, until time.Duration, rng *rand.Rand, baseDir string) (*Plan, error) {
	switch s.Kind {
	case KindStatic:
		return Static{Width: width, Height: height}.Plan(n, start, until, rng)
	case KindWaypoint:
		return Waypoint{MinSpeed: s.MinSpeed, MaxSpeed: s.MaxSpeed, Pause: s.Pause, Width: width, Height: height}.Plan(n, start, until, rng)
	case KindWalk:
		return Walk{MinSpeed: s.MinSpeed, MaxSpeed: s.MaxSpeed, Interval: s.Interval, Width: width, Height: height}.Plan(n, start, until, rng)
	case KindNS2:
		path := s.Path
		if !filepath.IsAbs(path) && baseDir != "" {
			path = filepath.Join(baseDir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadNS2(f, path)
	}
	return nil, fmt.Errorf("mobility spec %q: unknown model %q", s.String(), s.Kind)
}
