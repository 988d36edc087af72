package viz

import (
	"runtime"
	"syscall"
)

// readGently gives the goroutine that decodes a trace a thread of its own
// at the lowest priority: on a machine of few cores the page's first
// frame, and the requests that make it, come before the reading of the
// rest. Left locked, the thread ends with the goroutine.
func readGently() {
	runtime.LockOSThread()
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
