package franklin_test

import (
	"os"
	"testing"

	"github.com/electgo/elect/examples/internal/ringtest"
)

// The cluster's nodes are processes of this test binary, which registers
// franklin (ringtest.NodeMain).
func TestMain(m *testing.M) {
	ringtest.NodeMain()
	os.Exit(m.Run())
}

// TestCluster: franklin elects the most valued node on a ring of five real elect
// node processes (package cluster), within Franklin's bound.
func TestCluster(t *testing.T) { ringtest.OnCluster(t, "franklin", bound, "2n(⌈log₂ n⌉+1)") }
