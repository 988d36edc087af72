package beacon_test

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs elect's conformance kit on the algorithm, with its fault
// search inside the model: loss, crashes, restarts and recoveries,
// partitions and heals, moving nodes.
func TestConform(t *testing.T) { conform.Run(t, "beacon") }
