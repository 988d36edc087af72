package vkt

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs the conformance kit that every algorithm, built-in or a
// user's, must pass.
func TestConform(t *testing.T) {
	t.Run("vkt", func(t *testing.T) { conform.Run(t, "vkt") })
	t.Run("vkt/broadcast", func(t *testing.T) { conform.Run(t, "vkt", conform.Param("medium", "broadcast")) })
}
