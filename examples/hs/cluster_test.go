package hs_test

import (
	"os"
	"testing"

	"github.com/electgo/elect/examples/internal/ringtest"
)

// The cluster's nodes are processes of this test binary, which registers
// hs (ringtest.NodeMain).
func TestMain(m *testing.M) {
	ringtest.NodeMain()
	os.Exit(m.Run())
}

// TestCluster: hs elects the most valued node on a ring of five real elect
// node processes (package cluster), within Hirschberg and Sinclair's bound.
func TestCluster(t *testing.T) { ringtest.OnCluster(t, "hs", bound, "8n(1+⌈log₂ n⌉)") }
