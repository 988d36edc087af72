package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
)

// DelayKind selects a message delay distribution.
type DelayKind uint8

const (
	// Constant delays every message by A.
	Constant DelayKind = iota
	// Uniform draws delays uniformly from [A, B].
	Uniform
	// Exponential draws delays from an exponential distribution of mean A.
	Exponential
	// Pulse delivers every message sent during pulse k, [kA, (k+1)A), at
	// the start of pulse k+1: the round-based driver of synchronous
	// algorithms.
	Pulse
)

// Delay is a link delay model. The delay of each message is drawn when it is
// sent; links stay FIFO regardless, as the documents assume.
type Delay struct {
	Kind DelayKind
	A, B time.Duration
}

// DefaultDelay is one millisecond per hop.
var DefaultDelay = Delay{Kind: Constant, A: time.Millisecond}

// ParseDelay reads constant:D, uniform:MIN:MAX or exponential:MEAN. A bare
// duration means constant. Durations take a unit: a delay written with bare
// numbers ("5", "uniform:1:5") is refused with the same delay in
// milliseconds as the likely meaning.
func ParseDelay(s string) (Delay, error) {
	d, err := parseDelay(s)
	if err != nil {
		if guess, ok := inMilliseconds(s); ok {
			if _, gerr := parseDelay(guess); gerr == nil {
				return Delay{}, fmt.Errorf("invalid delay %q: a duration needs a unit: did you mean %s?", s, guess)
			}
		}
	}
	return d, err
}

// inMilliseconds is s with "ms" after each of its parts that is a bare
// number other than 0 (which needs no unit); false when there is none.
func inMilliseconds(s string) (string, bool) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	changed := false
	for i, p := range parts {
		if t := strings.TrimSpace(p); t != "" && strings.Trim(t, "0123456789.") == "" && strings.Trim(t, "0.") != "" {
			parts[i], changed = t+"ms", true
		}
	}
	return strings.Join(parts, ":"), changed
}

func parseDelay(s string) (Delay, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	bad := func(why string) (Delay, error) {
		return Delay{}, fmt.Errorf("invalid delay %q: %s (want constant:D, uniform:MIN:MAX or exponential:MEAN)", s, why)
	}
	durs := func(args []string, want int) ([]time.Duration, error) {
		if len(args) != want {
			return nil, fmt.Errorf("takes %d duration(s), got %d", want, len(args))
		}
		out := make([]time.Duration, want)
		for i, a := range args {
			d, err := algo.ParseDuration(a)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	switch parts[0] {
	case "constant":
		d, err := durs(parts[1:], 1)
		if err != nil {
			return bad(err.Error())
		}
		return Delay{Kind: Constant, A: d[0]}, nil
	case "uniform":
		d, err := durs(parts[1:], 2)
		if err != nil {
			return bad(err.Error())
		}
		if d[1] < d[0] {
			return bad("MAX is below MIN")
		}
		return Delay{Kind: Uniform, A: d[0], B: d[1]}, nil
	case "exponential":
		d, err := durs(parts[1:], 1)
		if err != nil {
			return bad(err.Error())
		}
		return Delay{Kind: Exponential, A: d[0]}, nil
	case "pulse":
		d, err := durs(parts[1:], 1)
		if err != nil {
			return bad(err.Error())
		}
		if d[0] == 0 {
			return bad("a pulse must last more than zero")
		}
		return Delay{Kind: Pulse, A: d[0]}, nil
	}
	if len(parts) == 1 {
		if d, err := algo.ParseDuration(parts[0]); err == nil {
			return Delay{Kind: Constant, A: d}, nil
		}
	}
	return bad("unknown kind " + fmt.Sprintf("%q", parts[0]) + ", or pulse:LENGTH")
}

// String writes the delay in the form ParseDelay reads.
func (d Delay) String() string {
	switch d.Kind {
	case Uniform:
		return fmt.Sprintf("uniform:%v:%v", d.A, d.B)
	case Exponential:
		return fmt.Sprintf("exponential:%v", d.A)
	case Pulse:
		return fmt.Sprintf("pulse:%v", d.A)
	}
	return fmt.Sprintf("constant:%v", d.A)
}

// deliveryTime is when a message sent at now arrives. Constant delays and
// pulses draw nothing from rng, so they never shift the random stream of a
// run.
func (d Delay) deliveryTime(now int64, rng *rand.Rand) int64 {
	switch d.Kind {
	case Pulse:
		return (now/int64(d.A) + 1) * int64(d.A)
	case Uniform, Exponential:
		return now + d.sample(rng)
	}
	return now + int64(d.A)
}

func (d Delay) sample(rng *rand.Rand) int64 {
	switch d.Kind {
	case Uniform:
		if d.B == d.A {
			return int64(d.A)
		}
		return int64(d.A) + rng.Int64N(int64(d.B-d.A)+1)
	case Exponential:
		return int64(rng.ExpFloat64() * float64(d.A))
	}
	return int64(d.A)
}

// Max is the longest delay a message can take (a pulse's length for
// pulses), 0 when there is no bound (exponential delays).
func (d Delay) Max() time.Duration {
	switch d.Kind {
	case Constant, Pulse:
		return d.A
	case Uniform:
		return d.B
	}
	return 0
}
