package supervisor

import (
	"os"
	"syscall"
)

// procAttr: a life gets SIGKILL if its supervisor dies, whatever kills it,
// and lives in a process group of its own, so that the Ctrl-C typed at the
// terminal reaches the supervisor alone, which then ends its nodes itself.
// (Linux sends Pdeathsig when the thread that started the child ends: Go
// ends a thread only under a goroutine that locked it and exits locked,
// so Launch is not to be called from one. The signal survives the exec
// of a wrapper such as ip netns exec.)
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// maxRSS is the peak resident set of an ended life, in bytes (Linux
// counts it in KiB).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
