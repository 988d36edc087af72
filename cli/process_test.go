package cli

import (
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
