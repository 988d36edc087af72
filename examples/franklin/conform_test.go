package franklin_test

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs elect's conformance kit on the algorithm.
func TestConform(t *testing.T) { conform.Run(t, "franklin") }
