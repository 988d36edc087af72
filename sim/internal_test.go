package sim

import (
	"testing"
	"unsafe"
)

// TestNodeSize: a node record fills one cache line, no more.
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(node{}); s != 64 {
		t.Errorf("node is %d bytes, want 64", s)
	}
}
