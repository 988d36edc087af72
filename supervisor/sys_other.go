//go:build !linux

package supervisor

import (
	"os"
	"syscall"
)

// procAttr: elsewhere than on Linux there is no parent-death signal; the
// supervisor ends its nodes when it ends, but not if it is killed.
func procAttr() *syscall.SysProcAttr { return nil }

// maxRSS is not measured elsewhere than on Linux: the unit of the
// kernel's figure differs from one system to the next.
func maxRSS(*os.ProcessState) int64 { return 0 }
