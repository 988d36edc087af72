package supervisor

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// ErrNotRunning is the error of Kill and Stop when the process has no
// live life to end.
var ErrNotRunning = errors.New("not running")

// Ended is what Kill or Stop ended.
type Ended struct {
	PID int       // the life's process
	At  time.Time // when the signal went, after the life ceased to count as alive
}

// Kill ends the current life with SIGKILL, as a crash would, and returns
// once it is reaped.
func (p *Process) Kill() (Ended, error) { return p.end(syscall.SIGKILL, Killed, 0) }

// Stop ends the current life with SIGTERM, on which a node saves its
// state and exits, and returns once it is reaped; a life still running
// after grace gets SIGKILL.
func (p *Process) Stop(grace time.Duration) (Ended, error) {
	return p.end(syscall.SIGTERM, Stopped, grace)
}

// end sends sig to the current life and marks it become first, so that
// its exit is not taken for an unplanned one and, from the moment the
// signal goes, nobody counts it alive.
func (p *Process) end(sig syscall.Signal, become State, grace time.Duration) (Ended, error) {
	p.mu.Lock()
	if !p.info.State.Alive() {
		st := p.info.State
		p.mu.Unlock()
		return Ended{}, fmt.Errorf("%s is %w (%s)", p.spec.Name, ErrNotRunning, st)
	}
	p.info.State = become
	cmd, done := p.cmd, p.done
	e := Ended{PID: p.info.PID, At: time.Now()}
	p.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return e, fmt.Errorf("%s: %v: %w", p.spec.Name, sig, err)
	}
	var escalate <-chan time.Time
	if sig != syscall.SIGKILL {
		t := time.NewTimer(grace)
		defer t.Stop()
		escalate = t.C
	}
	select {
	case <-done:
	case <-escalate:
		cmd.Process.Kill()
		<-done
	}
	return e, nil
}
