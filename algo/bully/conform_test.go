package bully

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs the conformance kit that every algorithm, built-in or a
// user's, must pass.
func TestConform(t *testing.T) {
	t.Run("bully", func(t *testing.T) { conform.Run(t, "bully") })
}
