package mobility

import (
	"bytes"
	"os/exec"
	"testing"
	"time"
)

// TestSetdestTraces reads traces written by ns-2's own setdest (Debian
// package ns2; .ci/run installs it; the test is skipped where it is
// missing), in both of its versions, and checks what setdest promises: every
// node, inside the area, no faster than the maximum speed.
func TestSetdestTraces(t *testing.T) {
	if _, err := exec.LookPath("setdest"); err != nil {
		t.Skip("setdest (Debian package ns2) is not installed")
	}
	for _, c := range []struct {
		args        []string
		n           int
		maxSpeed    float64
		width, high float64
	}{
		{[]string{"-v", "1", "-n", "20", "-p", "2.0", "-M", "10.0", "-t", "100", "-x", "500", "-y", "300"}, 20, 10, 500, 300},
		{[]string{"-v", "2", "-n", "30", "-s", "1", "-m", "1", "-M", "15", "-t", "100", "-P", "1", "-p", "2", "-x", "800", "-y", "800"}, 30, 15, 800, 800},
	} {
		cmd := exec.Command("setdest", c.args...)
		cmd.Dir = t.TempDir() // setdest leaves a .rand_state file behind
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("setdest %v: %v", c.args, err)
		}
		p, err := ReadNS2(bytes.NewReader(out), "setdest")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Tracks) != c.n {
			t.Fatalf("setdest %v: %d nodes read, want %d", c.args, len(p.Tracks), c.n)
		}
		moves := 0
		for v, tr := range p.Tracks {
			moves += len(tr.Legs)
			for _, l := range tr.Legs {
				if sp := l.Speed(); sp > c.maxSpeed*1.0001 {
					t.Errorf("node %d moves at %.3f m/s, above %g", v, sp, c.maxSpeed)
				}
			}
			for at := time.Duration(0); at <= 100*time.Second; at += 5 * time.Second {
				if q := tr.At(at); q.X < 0 || q.Y < 0 || q.X > c.width+1e-6 || q.Y > c.high+1e-6 {
					t.Errorf("node %d at %v is outside the area: %v", v, at, q)
				}
			}
		}
		if moves == 0 {
			t.Errorf("setdest %v: nobody moves", c.args)
		}
		samePlan(t, p, roundTrip(t, p))
	}
}
