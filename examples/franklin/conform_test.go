package franklin_test

import (
	"testing"

	"github.com/electgo/elect/algo/conform"
)

// TestConform runs elect's conformance kit on the algorithm.
func TestConform(t *testing.T) { conform.Run(t, "franklin") }
