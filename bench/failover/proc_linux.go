package failover

import "syscall"

// sysProcAttr: a node gets SIGKILL if the benchmark itself dies, so that no
// process outlives it even when it is killed.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
