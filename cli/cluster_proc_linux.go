package cli

import "syscall"

// clusterProcAttr: a node gets SIGKILL if elect cluster dies (whatever
// kills it), and lives in a process group of its own, so that the Ctrl-C
// typed at the terminal reaches elect cluster alone, which then stops the
// nodes itself. (Linux sends Pdeathsig when the thread that started the
// child ends; Go ends threads only for goroutines that lock one and exit
// locked, which elect never does.)
func clusterProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
