package ring

import (
	"testing"

	"github.com/electgo/elect/conform"
)

// TestConform runs the conformance kit that every algorithm, built-in or a
// user's, must pass.
func TestConform(t *testing.T) {
	t.Run("ring", func(t *testing.T) { conform.Run(t, "ring") })
	t.Run("chang-roberts", func(t *testing.T) { conform.Run(t, "chang-roberts") })
}
