package runtime

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Faults are what a Faulty transport does to the datagrams it sends: each
// is lost with probability Loss, else sent twice with probability
// Duplicate, and each copy leaves after Delay plus a uniform draw in
// [0, Jitter) (so that datagrams overtake one another when Jitter exceeds
// the gap between them). The draws come from a generator seeded with Seed:
// the same sends in the same order meet the same fate.
type Faults struct {
	Loss, Duplicate float64
	Delay, Jitter   time.Duration
	Seed            uint64
}

// Validate says what is wrong with f, naming the field.
func (f Faults) Validate() error {
	switch {
	case !(f.Loss >= 0 && f.Loss < 1):
		return fmt.Errorf("loss %v: want a probability in [0, 1)", f.Loss)
	case !(f.Duplicate >= 0 && f.Duplicate <= 1):
		return fmt.Errorf("duplicate %v: want a probability in [0, 1]", f.Duplicate)
	case f.Delay < 0:
		return fmt.Errorf("delay %v: want 0 or more", f.Delay)
	case f.Jitter < 0:
		return fmt.Errorf("jitter %v: want 0 or more", f.Jitter)
	}
	return nil
}

// Faulty is a Transport that injects faults into what another one sends:
// loss, duplication, delay and reordering on real links, where the kernel
// offers no way to (this machine has no tc netem), and in tests. Receiving
// is the inner transport's own.
type Faulty struct {
	Transport
	faults Faults

	mu  sync.Mutex
	rng *rand.Rand

	lost, duplicated atomic.Uint64
}

// NewFaulty wraps t. A zero Faults passes every datagram through at once.
func NewFaulty(t Transport, f Faults) (*Faulty, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("faults: %w", err)
	}
	return &Faulty{Transport: t, faults: f, rng: rand.New(rand.NewPCG(f.Seed, 0x6661756c7479))}, nil
}

// WriteTo sends b to addr through the faults. A delayed copy is sent from
// a timer, later; its error, if any (the transport closed meanwhile), is
// that of a datagram lost on the way.
func (t *Faulty) WriteTo(b []byte, addr netip.AddrPort) error {
	t.mu.Lock()
	lost := t.rng.Float64() < t.faults.Loss
	copies := 1
	if !lost && t.rng.Float64() < t.faults.Duplicate {
		copies = 2
	}
	var delays [2]time.Duration
	for i := range copies {
		delays[i] = t.faults.Delay
		if t.faults.Jitter > 0 {
			delays[i] += time.Duration(t.rng.Int64N(int64(t.faults.Jitter)))
		}
	}
	t.mu.Unlock()
	if lost {
		t.lost.Add(1)
		return nil
	}
	if copies == 2 {
		t.duplicated.Add(1)
	}
	var err error
	for _, d := range delays[:copies] {
		if d == 0 {
			if e := t.Transport.WriteTo(b, addr); e != nil {
				err = e
			}
			continue
		}
		later := append([]byte(nil), b...) // the caller reuses b
		time.AfterFunc(d, func() { t.Transport.WriteTo(later, addr) })
	}
	return err
}

// Lost and Duplicated count the datagrams the faults dropped and doubled.
func (t *Faulty) Lost() uint64       { return t.lost.Load() }
func (t *Faulty) Duplicated() uint64 { return t.duplicated.Load() }

// ParseFaults reads faults written as NAME=VALUE,...: loss and duplicate
// (probabilities), delay and jitter (durations such as 5ms), seed (an
// unsigned integer), e.g. "loss=0.2,duplicate=0.05,delay=2ms,jitter=8ms".
// The empty string is no fault. Errors name the item at fault.
func ParseFaults(s string) (Faults, error) {
	var f Faults
	if strings.TrimSpace(s) == "" {
		return f, nil
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" || value == "" {
			return f, fmt.Errorf("faults: %q: want NAME=VALUE (loss, duplicate, delay, jitter or seed)", item)
		}
		if seen[name] {
			return f, fmt.Errorf("faults: %s given twice", name)
		}
		seen[name] = true
		var err error
		switch name {
		case "loss":
			f.Loss, err = strconv.ParseFloat(value, 64)
		case "duplicate":
			f.Duplicate, err = strconv.ParseFloat(value, 64)
		case "delay":
			f.Delay, err = time.ParseDuration(value)
		case "jitter":
			f.Jitter, err = time.ParseDuration(value)
		case "seed":
			f.Seed, err = strconv.ParseUint(value, 10, 64)
		default:
			return f, fmt.Errorf("faults: unknown fault %q (want loss, duplicate, delay, jitter or seed)", name)
		}
		if err != nil {
			return f, fmt.Errorf("faults: %s=%s: not a %s", name, value, map[string]string{
				"loss": "probability", "duplicate": "probability", "delay": "duration (e.g. 5ms)", "jitter": "duration (e.g. 5ms)", "seed": "non-negative integer"}[name])
		}
	}
	if err := f.Validate(); err != nil {
		return f, fmt.Errorf("faults: %w", err)
	}
	return f, nil
}

// String writes f as ParseFaults reads it, leaving out what is zero.
func (f Faults) String() string {
	var parts []string
	if f.Loss != 0 {
		parts = append(parts, "loss="+strconv.FormatFloat(f.Loss, 'g', -1, 64))
	}
	if f.Duplicate != 0 {
		parts = append(parts, "duplicate="+strconv.FormatFloat(f.Duplicate, 'g', -1, 64))
	}
	if f.Delay != 0 {
		parts = append(parts, "delay="+f.Delay.String())
	}
	if f.Jitter != 0 {
		parts = append(parts, "jitter="+f.Jitter.String())
	}
	if f.Seed != 0 {
		parts = append(parts, "seed="+strconv.FormatUint(f.Seed, 10))
	}
	return strings.Join(parts, ",")
}
