//go:build !amd64

package sim

// prefetch is a hint, and a no-op where the engine has no instruction for
// it (see prefetch_amd64.go).
func prefetch(addr uintptr) {}
