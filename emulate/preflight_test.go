//go:build linux

package emulate

import (
	"strings"
	"testing"
)

// TestPreflightNotRoot: a user other than root is told to run as root, and
// why.
func TestPreflightNotRoot(t *testing.T) {
	defer func(f func() int) { geteuid = f }(geteuid)
	geteuid = func() int { return 1000 }
	err := Preflight()
	if err == nil || !strings.Contains(err.Error(), "elect emulate needs root to create network namespaces and nftables rules") {
		t.Errorf("Preflight as uid 1000 = %v", err)
	}
}
