package runtime

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// received reads datagrams from e until none comes for quiet.
func received(e *MemEndpoint, quiet time.Duration) []string {
	var got []string
	for {
		done := make(chan struct{})
		var s string
		go func() {
			buf := make([]byte, 64)
			n, _, err := e.ReadFrom(buf)
			if err == nil {
				s = string(buf[:n])
			}
			close(done)
		}()
		select {
		case <-done:
			got = append(got, s)
		case <-time.After(quiet):
			e.Close()
			<-done
			return got
		}
	}
}

// Without delay, exactly the datagrams the seed's draws keep arrive, the
// duplicated ones twice, in order; the counts say so.
func TestFaultyLossAndDuplication(t *testing.T) {
	net := NewMemNetwork()
	a, b := net.Listen(), net.Listen()
	f := Faults{Loss: 0.2, Duplicate: 0.1, Seed: 42}
	ft, err := NewFaulty(a, f)
	if err != nil {
		t.Fatal(err)
	}
	// The same draws, made here, say what must arrive.
	rng := rand.New(rand.NewPCG(f.Seed, 0x6661756c7479))
	var want []string
	lost, dup := 0, 0
	for i := range 500 {
		msg := fmt.Sprint(i)
		if err := ft.WriteTo([]byte(msg), b.LocalAddr()); err != nil {
			t.Fatal(err)
		}
		if rng.Float64() < f.Loss {
			lost++
			continue
		}
		want = append(want, msg)
		if rng.Float64() < f.Duplicate {
			dup++
			want = append(want, msg)
		}
	}
	got := received(b, 200*time.Millisecond)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("received %d datagrams, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	if ft.Lost() != uint64(lost) || ft.Duplicated() != uint64(dup) || lost < 70 || lost > 130 {
		t.Errorf("lost %d, duplicated %d; want %d and %d (about 100 lost)", ft.Lost(), ft.Duplicated(), lost, dup)
	}
}

// Delay and jitter: every datagram arrives, no sooner than the delay, and
// with jitter wider than the gap between sends some arrive out of order.
func TestFaultyDelayReorders(t *testing.T) {
	net := NewMemNetwork()
	a, b := net.Listen(), net.Listen()
	ft, err := NewFaulty(a, Faults{Delay: 20 * time.Millisecond, Jitter: 30 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range 100 {
		ft.WriteTo([]byte(fmt.Sprint(i)), b.LocalAddr())
	}
	first := make([]byte, 8)
	n, _, err := b.ReadFrom(first)
	if err != nil || time.Since(start) < 20*time.Millisecond {
		t.Fatalf("first datagram after %v (err %v), want at least the 20ms delay", time.Since(start), err)
	}
	got := append([]string{string(first[:n])}, received(b, 300*time.Millisecond)...)
	if len(got) != 100 {
		t.Fatalf("%d datagrams arrived, want 100", len(got))
	}
	inOrder := true
	for i := 1; i < len(got); i++ {
		var x, y int
		fmt.Sscan(got[i-1], &x)
		fmt.Sscan(got[i], &y)
		inOrder = inOrder && x < y
	}
	if inOrder {
		t.Errorf("100 datagrams sent at once with 30ms of jitter arrived in order")
	}
}

// Faults out of range are refused, naming the field.
func TestFaultsValidate(t *testing.T) {
	for _, c := range []struct {
		f    Faults
		want string
	}{
		{Faults{Loss: 1}, "loss 1"},
		{Faults{Loss: -0.1}, "loss -0.1"},
		{Faults{Duplicate: 2}, "duplicate 2"},
		{Faults{Delay: -time.Second}, "delay -1s"},
		{Faults{Jitter: -1}, "jitter -1ns"},
	} {
		_, err := NewFaulty(nil, c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %q", c.f, err, c.want)
		}
	}
}

var _ Transport = &Faulty{}

func TestParseFaults(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Faults
		err  string
	}{
		{"", Faults{}, ""},
		{"loss=0.2", Faults{Loss: 0.2}, ""},
		{"loss=0.2, duplicate=0.05,delay=2ms,jitter=8ms,seed=9", Faults{Loss: 0.2, Duplicate: 0.05, Delay: 2 * time.Millisecond, Jitter: 8 * time.Millisecond, Seed: 9}, ""},
		{"loss", Faults{}, `"loss": want NAME=VALUE`},
		{"loss=0.2,loss=0.3", Faults{}, "loss given twice"},
		{"drop=0.2", Faults{}, `unknown fault "drop"`},
		{"loss=lots", Faults{}, "loss=lots: not a probability"},
		{"delay=5", Faults{}, "delay=5: not a duration"},
		{"seed=-1", Faults{}, "seed=-1: not a non-negative integer"},
		{"loss=1", Faults{}, "loss 1: want a probability in [0, 1)"},
	} {
		got, err := ParseFaults(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseFaults(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseFaults(%q): %v, want an error containing %q", c.in, err, c.err)
		}
	}
}

// What ParseFaults accepts, String writes back as something it reads the
// same; it never panics.
func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{"", "loss=0.2,duplicate=0.05,delay=2ms,jitter=8ms,seed=9", "loss=", "=", ",,", "jitter=1h1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFaults(s)
		if err != nil {
			return
		}
		again, err := ParseFaults(got.String())
		if err != nil || again != got {
			t.Fatalf("ParseFaults(%q) = %+v, written %q, read back %+v (%v)", s, got, got.String(), again, err)
		}
	})
}
