//go:build !linux

package cli

import "syscall"

// clusterProcAttr: elsewhere than on Linux, nodes are stopped by elect
// cluster when it ends, but not if it is killed.
func clusterProcAttr() *syscall.SysProcAttr { return nil }
