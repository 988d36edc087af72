package supervisor

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Process is one node across its lives. Its methods may be called from
// any goroutine; a caller that launches, kills and stops one node from
// several goroutines orders those actions itself.
type Process struct {
	spec   Spec
	client *http.Client // reaches spec.HTTP

	mu     sync.Mutex
	info   Info
	cmd    *exec.Cmd     // the current or last life
	done   chan struct{} // closed once the current or last life is reaped
	exit   error         // how the last reaped life ended (cmd.Wait)
	logOff int64         // where the current life's part of the log begins
	usage  Usage
}

// State is what became of a process's current or last life.
type State int

const (
	NotStarted State = iota // no life yet
	Starting                // launched; AwaitUp has not seen it answer
	Running                 // answered AwaitUp
	Killed                  // ended by Kill, or by an AwaitUp that gave up
	Stopped                 // ended by Stop
	Exited                  // ended on its own
)

// Alive reports whether a life in state s runs (or is about to be
// reaped after an exit nobody has seen yet).
func (s State) Alive() bool { return s == Starting || s == Running }

// String is the state as elect cluster's table shows it.
func (s State) String() string {
	return [...]string{"not started", "starting", "running", "killed", "stopped", "exited"}[s]
}

// Info is a process at one moment, read at once.
type Info struct {
	State State
	Life  int  // lives started so far: the current or last life's number
	Mode  Mode // how the current or last life started
	PID   int  // of the current or last life; 0 before the first
}

// Usage is what the kernel accounted to the ended lives of a process.
type Usage struct {
	CPU    time.Duration // user and system time, all lives added up
	MaxRSS int64         // bytes: the largest peak resident set of any life; 0 where not measured (off Linux)
}

// New is a process of spec with no life yet.
func New(spec Spec) *Process {
	return &Process{spec: spec, client: spec.HTTP.client()}
}

// Info is the process's state now.
func (p *Process) Info() Info {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.info
}

// Usage is what its ended lives used.
func (p *Process) Usage() Usage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.usage
}

// LogTail is the end of what the current or last life wrote, set off for
// an error message; "" when it wrote nothing.
func (p *Process) LogTail() string {
	p.mu.Lock()
	off := p.logOff
	p.mu.Unlock()
	return logTail(p.spec.Log, off)
}

// SetArgs replaces the Args of the Spec for the lives launched from now
// on (a driver that changed a node's value starts its next life with the
// new --value); the current life, if any, runs on as it was started.
func (p *Process) SetArgs(args []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spec.Args = append([]string(nil), args...)
}

// Args are the Args the next life is launched with.
func (p *Process) Args() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.spec.Args...)
}

// Launch starts a new life in mode and returns as soon as its process
// runs; AwaitUp waits until it answers. The last life must be over and
// reaped: a node is one process at a time, or two would share its ports
// and its state.
func (p *Process) Launch(mode Mode) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done != nil {
		select {
		case <-p.done:
		default:
			return fmt.Errorf("%s is running already (pid %d)", p.spec.Name, p.info.PID)
		}
	}
	s := p.spec
	if s.StateDir != "" {
		if mode == Fresh {
			if err := os.RemoveAll(s.StateDir); err != nil {
				return fmt.Errorf("%s: emptying its state directory: %w", s.Name, err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(s.StateDir), 0o755); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(s.Log), 0o755); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	logf, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	defer logf.Close() // the child has its own copy
	off, _ := logf.Seek(0, io.SeekEnd)
	life := p.info.Life + 1
	if s.Banner != "" {
		fmt.Fprintf(logf, "=== %s, life %d (%s), %s\n", s.Banner, life, mode, time.Now().Format(time.RFC3339Nano))
	}
	argv := append(append(append([]string(nil), s.Wrap...), s.Binary), s.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = s.Env, s.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: starting %s: %w", s.Name, argv[0], err)
	}
	done := make(chan struct{})
	p.info = Info{State: Starting, Life: life, Mode: mode, PID: cmd.Process.Pid}
	p.cmd, p.done, p.exit, p.logOff = cmd, done, nil, off
	go p.reap(cmd, life, done)
	return nil
}

// reap waits for a life to end and books its usage. A life that ends
// while still Starting or Running ended on its own: nobody asked it to.
func (p *Process) reap(cmd *exec.Cmd, life int, done chan struct{}) {
	err := cmd.Wait()
	p.mu.Lock()
	ps := cmd.ProcessState
	p.usage.CPU += ps.UserTime() + ps.SystemTime()
	p.usage.MaxRSS = max(p.usage.MaxRSS, maxRSS(ps))
	p.exit = err
	unplanned := p.info.Life == life && p.info.State.Alive()
	if unplanned {
		p.info.State = Exited
	}
	// Closed under the lock, so that a Launch that sees the life no
	// longer alive also sees it reaped.
	close(done)
	p.mu.Unlock()
	// Kept-alive connections led to this life, which is gone.
	p.client.CloseIdleConnections()
	if unplanned && p.spec.OnExit != nil {
		p.spec.OnExit(err)
	}
}
