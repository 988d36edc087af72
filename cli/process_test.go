package cli

import (
	"bufio"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// electCommand is this test binary run as elect with args (cluster_test.go's
// init makes it one): the command is built, not started.
func electCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exec.Command(exe, args...)
}

// startElect starts this test binary as elect with args and returns it
// with a scanner of what it writes: its standard error, or its standard
// output when stdout is set. The test's end kills it.
func startElect(t *testing.T, stdout bool, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := electCommand(t, args...)
	pipe, err := cmd.StderrPipe()
	if stdout {
		pipe, err = cmd.StdoutPipe()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(pipe)
}

// interruptExitsZero stops a started command with Ctrl-C (SIGINT), which
// must end it with status 0 within 10 s.
func interruptExitsZero(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after Ctrl-C: %v, want exit status 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("still running 10s after Ctrl-C")
	}
}
