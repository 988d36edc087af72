package echo

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs the conformance kit that every algorithm, built-in or a
// user's, must pass.
func TestConform(t *testing.T) {
	t.Run("echo", func(t *testing.T) { conform.Run(t, "echo") })
	t.Run("extinction", func(t *testing.T) { conform.Run(t, "extinction") })
}
