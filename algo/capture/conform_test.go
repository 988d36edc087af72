package capture

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs the conformance kit that every algorithm, built-in or a
// user's, must pass.
func TestConform(t *testing.T) {
	t.Run("all-to-all", func(t *testing.T) { conform.Run(t, "all-to-all") })
	t.Run("capture-sync", func(t *testing.T) { conform.Run(t, "capture-sync") })
	t.Run("capture-async", func(t *testing.T) { conform.Run(t, "capture-async") })
}
